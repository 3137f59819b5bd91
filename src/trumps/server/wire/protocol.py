"""The online wire protocol (docs/protocol.md) as msgspec message types.

Every message is a JSON object with a ``"type"`` tag.  Client → server messages form the
``ClientMessage`` union, server → client messages the ``ServerMessage`` union.  Decoding
client input never raises anything but ``ProtocolError`` whose ``code`` is one of the closed
``ERROR_CODES``; nothing is interpreted beyond the declared types (names and chat are plain,
length-limited text with control characters stripped).

``python -m trumps.server.wire.protocol`` prints the JSON Schema of both unions.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Final, Literal, TypeAlias, cast, get_args

import msgspec
from msgspec import Meta

from trumps.games.viewtypes import View
from trumps.server.wire.wiretypes import (
    MAX_HAND,
    MAX_LIST_OFFSET,
    MAX_MESSAGE_BYTES,
    MAX_NONCE,
    MAX_PRESET_CHARS,
    MAX_SEATS,
    MAX_SECONDS,
    MAX_SPECTATOR_NAMES,
    PROTOCOL_VERSION,
    ActionText,
    BotLevel,
    BotPace,
    ChatText,
    Contribution,
    Digest,
    ErrorCode,
    EventKind,
    EventNo,
    GameId,
    Id,
    Name,
    OnTimeout,
    Options,
    Preset,
    ProtocolError,
    Reason,
    SeatKind,
    SeatNo,
    Seconds,
    Token,
    clean_text,
)

WireView: TypeAlias = Annotated[dict[str, Any], Meta(extra={"typescript": "View"})]
"""A view as the protocol carries it: an open JSON object on the wire, whose keys are the
game's view type (``trumps.games.viewtypes``); the page's TypeScript declarations name it
``View`` (``trumps.server.wire.typescript``)."""


def wire_view(view: View) -> dict[str, Any]:
    """A view (``trumps.games.viewtypes``) as the protocol carries it: the same object, a
    JSON object already. The wire leaves it an open object (msgspec decodes no union of
    two dict shapes); its fields are the game's view type, docs/views.md."""
    return cast("dict[str, Any]", view)


class MessageBase(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Base of every message: a JSON object tagged by ``type``."""


class PartBase(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of nested, untagged objects."""


# ---------------------------------------------------------------- nested objects


class WhyNot(PartBase, kw_only=True):
    """Why an action is not legal now, as the game says (docs/api.md#rule-queries): a
    reason ``code``, the rule id of docs/rules/ (empty when none), the cards and the suit
    it is about; clients word it in the player's language."""

    code: str
    rule: str = ""
    cards: list[str] = []
    suit: str | None = None


class RuleFault(PartBase, kw_only=True):
    """Which rule option a ``bad_rules`` error is about (``trumps.InvalidRules``): its
    ``option`` name and, when it is the number of seats that does not fit its value, the
    player counts that would (``fits``); clients word it in the player's language."""

    option: Annotated[str, Meta(max_length=MAX_PRESET_CHARS)]
    fits: list[int] = []


class TimeControl(PartBase, kw_only=True):
    """A Fischer clock: ``base`` seconds per player plus ``increment`` seconds per move."""

    base: Annotated[float, Meta(gt=0, le=MAX_SECONDS)]
    increment: Seconds = 0.0


class SeatInfo(PartBase, kw_only=True):
    """A seat as everyone at the table sees it.  ``taken``: a person or a bot holds it (a
    person's seat that is not ``taken`` is open); a person who chose no name has ``name``
    None in a taken seat, and each client words it in its own language ("Guest")."""

    seat: SeatNo
    name: Name | None = None
    bot: BotLevel | None = None
    taken: bool = False
    connected: bool = False
    away: bool = False
    left: bool = False  # its player gave it up in a running game: a bot plays it for good


class TableSummary(PartBase, kw_only=True):
    """One row of the public table list."""

    table_id: Id
    game: GameId
    rules: Preset | Options
    seats: list[SeatInfo]
    open_seats: Annotated[int, Meta(ge=0)]
    started: bool
    time_control: TimeControl | None = None
    rated: bool = False  # a rated table (docs/ratings.md)


class OutcomeInfo(PartBase, kw_only=True):
    """An outcome in its JSON form (docs/api.md, Outcome)."""

    winners: list[SeatNo]
    losers: list[SeatNo]
    draw: bool
    reason: Reason


class LogEntry(PartBase, kw_only=True):
    """One past event of a table, as the recipient may see it (a hidden discard is ``rob`` or ``discard``)."""

    number: Annotated[int, Meta(ge=1)]
    kind: EventKind
    seat: SeatNo | None = None
    action: str | None = None
    by_bot: bool = False
    # What the action's event told: its ``closed``, the next hand dealt, a ``take``'s count.
    closed: dict[str, Any] | None = None
    next_hand: int | None = None
    took: int | None = None


class SpectatorList(PartBase, kw_only=True):
    """Who watches a table: how many people, and the first ``MAX_SPECTATOR_NAMES`` names
    (None for a person who chose no name)."""

    count: Annotated[int, Meta(ge=0)] = 0
    names: Annotated[list[Name | None], Meta(max_length=MAX_SPECTATOR_NAMES)] = []


class ChatEntry(PartBase, kw_only=True):
    """One chat line said at a table (``seat`` None: a spectator), as a snapshot carries it;
    ``name`` None: said by a person who chose no name."""

    seat: SeatNo | None
    name: Name | None
    text: ChatText


# ---------------------------------------------------------------- client → server


class Hello(MessageBase, tag="hello", kw_only=True):
    """First message on a connection: who I am, and a resume token to get my seats back.
    ``name`` None (or left out): the player has chosen no name — clients word it in their
    own language; with a resume token, the name the player has kept."""

    protocol: Annotated[int, Meta(ge=1)]
    name: Name | None = None
    resume_token: Token | None = None
    # This client sends a ``contribute`` for every seat it takes (docs/fairness.md): the
    # games of its tables wait for it before they are dealt.
    contributes: bool = False

    def __post_init__(self) -> None:
        if self.name is None:
            return
        self.name = clean_text(self.name).strip()
        if not self.name:
            raise ValueError("name must contain visible characters - at `$.name`")


class CreateTable(MessageBase, tag="create_table", kw_only=True):
    """Create a table; each seat is ``"human"`` (open for a person) or a bot level."""

    game: GameId
    rules: Preset | Options | None = None
    seats: Annotated[list[SeatKind], Meta(min_length=2, max_length=MAX_SEATS)]
    time_control: TimeControl | None = None
    private: bool = False
    grace: Seconds = 30.0
    on_timeout: OnTimeout = "move"
    takeover: BotLevel = "medium"
    bot_pace: BotPace | None = None  # None: the server's default (normal unless told)
    # Rated (docs/ratings.md): finishing the game moves its people's ratings.  Accounts only.
    rated: bool = False


class JoinTable(MessageBase, tag="join_table", kw_only=True):
    """Sit at a table (any open seat, or ``seat``); a taken or full table is ``table_full``."""

    table_id: Id
    seat: SeatNo | None = None


class LeaveTable(MessageBase, tag="leave_table", kw_only=True):
    """Give up the seat (a running game continues with a bot) or stop spectating."""

    table_id: Id


class Spectate(MessageBase, tag="spectate", kw_only=True):
    """Watch a table; spectators receive the public view only."""

    table_id: Id


class ListTables(MessageBase, tag="list_tables", kw_only=True):
    """Ask for a page of the public table list (also pushed on change while in the lobby):
    ``lobby.LOBBY_PAGE`` tables from the ``offset``-th."""

    game: GameId | None = None
    offset: Annotated[int, Meta(ge=0, le=MAX_LIST_OFFSET)] = 0


class QuickMatch(MessageBase, tag="quick_match", kw_only=True):
    """Pair me with the next person waiting for the same game and rules, rated or not."""

    game: GameId
    rules: Preset | Options | None = None
    rated: bool | None = None  # None: rated for an account, casual for a guest


class CancelQuickMatch(MessageBase, tag="cancel_quick_match", kw_only=True):
    """Stop waiting for a quick match."""


class PlayComputer(MessageBase, tag="play_computer", kw_only=True):
    """Start a game against bots at once: ``players`` seats, me in seat 0."""

    game: GameId
    players: Annotated[int, Meta(ge=2, le=MAX_SEATS)] = 2
    level: BotLevel = "medium"
    rules: Preset | Options | None = None
    bot_pace: BotPace | None = None  # as in create_table
    rated: bool = False  # as in create_table: against the bots' fixed ratings


class Action(MessageBase, tag="action", kw_only=True):
    """Play ``action`` (docs/actions.md); ``expected`` is the last event number I have seen."""

    table_id: Id
    action: ActionText
    expected: EventNo


class Resign(MessageBase, tag="resign", kw_only=True):
    """Resign the game at this table."""

    table_id: Id


class ContinueHand(MessageBase, tag="continue", kw_only=True):
    """I have read the summary of hand ``hand``: the next one may start (its bots wait for
    every person at the table, or ``HAND_WAIT`` seconds; docs/protocol.md#pacing)."""

    table_id: Id
    hand: Annotated[int, Meta(ge=1, le=MAX_HAND)]


class ChatSend(MessageBase, tag="chat", kw_only=True):
    """Say something at a table (plain text, at most 300 characters)."""

    table_id: Id
    text: ChatText

    def __post_init__(self) -> None:
        self.text = clean_text(self.text).strip()
        if not self.text:
            raise ValueError("text must contain visible characters - at `$.text`")


class Resync(MessageBase, tag="resync", kw_only=True):
    """I missed events after ``last_event``: send me a fresh ``table_state``."""

    table_id: Id
    last_event: EventNo


class HintAsk(MessageBase, tag="hint", kw_only=True):
    """What would the strongest bot play for me now? Only in games against the computer."""

    table_id: Id


class TakebackAsk(MessageBase, tag="takeback", kw_only=True):
    """Take back my last move: at once in a casual game against the computer; between
    people, the others are asked (docs/protocol.md#takeback).  Never at a rated table."""

    table_id: Id


class TakebackAnswer(MessageBase, tag="takeback_answer", kw_only=True):
    """Let the player who asked take their last move back (``accept``), or refuse."""

    table_id: Id
    accept: bool


class RematchAsk(MessageBase, tag="rematch", kw_only=True):
    """After the end: a new table with the same game, rules, seats and settings."""

    table_id: Id


class Contribute(MessageBase, tag="contribute", kw_only=True):
    """My seat's random value for the deal, sent after the table state that carried the
    table's ``commitment`` (docs/fairness.md); once per seat, before the game starts."""

    table_id: Id
    value: Contribution


class Ping(MessageBase, tag="ping", kw_only=True):
    """Keep-alive; answered by ``pong`` with the same ``nonce``."""

    nonce: Annotated[int, Meta(ge=0, le=MAX_NONCE)] | None = None


# The requests a client makes at one table (each names it by ``table_id``): the hub passes
# them, unchanged, to the table here or to the process that owns it.
TableMessage: TypeAlias = (
    JoinTable
    | LeaveTable
    | Spectate
    | Action
    | Resign
    | ContinueHand
    | ChatSend
    | Resync
    | HintAsk
    | TakebackAsk
    | TakebackAnswer
    | RematchAsk
    | Contribute
)

ClientMessage: TypeAlias = (
    Hello
    | CreateTable
    | ListTables
    | QuickMatch
    | CancelQuickMatch
    | PlayComputer
    | Ping
    | TableMessage
)

# ---------------------------------------------------------------- server → client


class Welcome(MessageBase, tag="welcome", kw_only=True):
    """Answer to ``hello``: my player id, cleaned name (None: none chosen) and the token to
    resume with."""

    player_id: Id
    name: Name | None
    resume_token: Token
    protocol: int = PROTOCOL_VERSION
    account: str | None = None
    tables: list[Id] = []


class Error(MessageBase, tag="error", kw_only=True):
    """A rejected request; the request changed nothing and the connection stays open."""

    code: ErrorCode
    message: str
    table_id: Id | None = None
    why: WhyNot | None = None
    rule: RuleFault | None = None  # with bad_rules: the option at fault, when one is


class TableList(MessageBase, tag="table_list", kw_only=True):
    """A page of the public tables: ``tables`` from the ``offset``-th, of ``total``."""

    tables: list[TableSummary]
    offset: int = 0
    total: int | None = None  # None: not said (all of them are in ``tables``)


class TableState(MessageBase, tag="table_state", kw_only=True):
    """A full snapshot of a table for one recipient (after join, spectate or resync)."""

    table_id: Id
    game: GameId
    rules: Options
    seats: list[SeatInfo]
    seat: SeatNo | None
    event: EventNo
    view: WireView
    legal: list[str]
    to_move: SeatNo | None
    why_not: dict[str, WhyNot] = {}
    clocks: list[float | None] | None = None
    private: bool = False
    time_control: TimeControl | None = None
    log: list[LogEntry] = []
    chat: list[ChatEntry] = []
    outcome: OutcomeInfo | None = None
    record_id: int | None = None
    # The bots' pace here (docs/protocol.md#pacing); ``instant`` at a table of bots only.
    bot_pace: BotPace = "normal"
    spectators: SpectatorList = msgspec.field(default_factory=SpectatorList)
    # The fair deal (docs/fairness.md): SHA-256 of the server's secret for this game, and
    # whether the recipient's seat has given its contribution, and whether the game is
    # dealt (it started: too late to contribute).
    commitment: Digest | None = None
    contributed: bool = False
    dealt: bool = False
    rated: bool = False  # a rated table (docs/ratings.md)
    # Take-backs (docs/protocol.md#takeback): the seat whose request waits for answers, and
    # whether the recipient may take back (or ask to take back) their last move now.
    takeback: SeatNo | None = None
    can_take_back: bool = False


class Event(MessageBase, tag="event", kw_only=True):
    """Event number ``number`` at a table, with the recipient's view after it."""

    table_id: Id
    number: Annotated[int, Meta(ge=1)]
    kind: EventKind
    seat: SeatNo | None = None
    action: str | None = None
    by_bot: bool = False
    view: WireView
    legal: list[str]
    to_move: SeatNo | None
    why_not: dict[str, WhyNot] = {}
    clocks: list[float | None] | None = None
    seats: list[SeatInfo] | None = None
    # What the action closed, as the game tells (``game.closed()``): the trick it finished,
    # and the hand when it was the hand's last trick.  Public: the same for every recipient.
    closed: dict[str, Any] | None = None
    takeback: SeatNo | None = None  # as in table_state
    can_take_back: bool = False


class ChatPosted(MessageBase, tag="chat", kw_only=True):
    """Chat said at a table; ``text`` is plain text, never markup (``name`` None: a person
    who chose no name)."""

    table_id: Id
    seat: SeatNo | None
    name: Name | None
    text: ChatText


class Spectators(MessageBase, tag="spectators", kw_only=True):
    """Who watches ``table_id`` now (sent to everyone at the table when it changes)."""

    table_id: Id
    count: Annotated[int, Meta(ge=0)]
    names: Annotated[list[Name | None], Meta(max_length=MAX_SPECTATOR_NAMES)]


class Pong(MessageBase, tag="pong", kw_only=True):
    """Answer to ``ping``."""

    nonce: int | None = None


class GameOver(MessageBase, tag="game_over", kw_only=True):
    """The game at a table ended; the record is stored under ``record_id``."""

    table_id: Id
    outcome: OutcomeInfo
    record_id: int | None = None


class HintWhy(PartBase, kw_only=True):
    """Why the bot chose its action (``trumps.ai.Explain``): a reason code and its numbers,
    for the client to word in the player's language."""

    code: str
    numbers: dict[str, float] = {}


class Hint(MessageBase, tag="hint", kw_only=True):
    """The strongest bot's choice for the recipient's seat at event ``event``, and why:
    ``why`` for people, ``reasoning`` the engine's own English note (for debugging)."""

    table_id: Id
    event: EventNo
    action: str
    why: HintWhy | None = None
    reasoning: str = ""
    values: dict[str, float] | None = None


class Rematch(MessageBase, tag="rematch", kw_only=True):
    """``by`` asked for a rematch of ``table_id``: join ``new_table_id`` to play it (``by``
    None: a person who chose no name)."""

    table_id: Id
    new_table_id: Id
    by: Name | None


class Replaced(MessageBase, tag="replaced", kw_only=True):
    """The seat at ``table_id`` is played from another connection of the same player now
    (another tab): this connection hears no more of the table until it joins again."""

    table_id: Id
    seat: SeatNo


ClosedReason: TypeAlias = Literal["idle", "not_started"]


class TableClosed(MessageBase, tag="table_closed", kw_only=True):
    """The server gave ``table_id`` up unfinished: a table of bots nobody watched for a
    while (``idle``), or one that never started (``not_started``).  Sent to everyone at it
    and to its creator; it leaves the lobby list, and requests for it are ``no_such_table``."""

    table_id: Id
    reason: ClosedReason


class Waiting(MessageBase, tag="waiting", kw_only=True):
    """Answer to ``quick_match``: waiting for another person to ask for the same game."""

    game: GameId
    rules: Preset | Options | None = None
    rated: bool = False


ServerMessage: TypeAlias = (
    Welcome
    | Error
    | TableList
    | TableState
    | Event
    | ChatPosted
    | Pong
    | GameOver
    | Waiting
    | Hint
    | Rematch
    | Replaced
    | TableClosed
    | Spectators
)

CLIENT_TYPES: Final[dict[str, type[msgspec.Struct]]] = {
    str(c.__struct_config__.tag): c for c in get_args(ClientMessage)
}
SERVER_TYPES: Final[dict[str, type[msgspec.Struct]]] = {
    str(c.__struct_config__.tag): c for c in get_args(ServerMessage)
}

_client_decoder: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)
_server_decoder: msgspec.json.Decoder[ServerMessage] = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


def encode(msg: msgspec.Struct) -> bytes:
    """The JSON bytes of a message."""
    return _encoder.encode(msg)


def _classify(raw: bytes, exc: msgspec.ValidationError) -> ProtocolError:
    try:
        obj = json.loads(raw)
    except ValueError:
        return ProtocolError("bad_json", "not valid JSON")
    if not isinstance(obj, dict):
        return ProtocolError("bad_json", "a message must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str):
        return ProtocolError("unknown_type", "the message has no string `type` field")
    if kind not in CLIENT_TYPES:
        return ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}")
    return ProtocolError("bad_field", f"{kind}: {exc}")


def decode_client(data: bytes | str) -> ClientMessage:
    """Parse one client frame; raises ``ProtocolError`` with a code from ``ERROR_CODES``."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"message is {len(raw)} bytes; the limit is {MAX_MESSAGE_BYTES}"
        )
    try:
        try:
            return _client_decoder.decode(raw)
        except msgspec.ValidationError as exc:
            raise _classify(raw, exc) from None
    except msgspec.DecodeError as exc:
        raise ProtocolError("bad_json", f"not valid JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "the JSON is nested too deeply") from None


def decode_server(data: bytes | str) -> ServerMessage:
    """Parse one server frame (for clients and tests); raises ``msgspec.DecodeError``."""
    return _server_decoder.decode(data)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of both unions, with shared definitions under ``$defs``."""
    (client, server), defs = msgspec.json.schema_components(
        (ClientMessage, ServerMessage), ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"trumps wire protocol, version {PROTOCOL_VERSION}",
        "protocol": PROTOCOL_VERSION,
        "max_message_bytes": MAX_MESSAGE_BYTES,
        "client_message": client,
        "server_message": server,
        "$defs": defs,
    }


def main() -> None:
    """Print the JSON Schema (``python -m trumps.server.wire.protocol > protocol.schema.json``)."""
    sys.stdout.write(json.dumps(json_schema(), indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
