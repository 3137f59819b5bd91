"""The building blocks of the wire protocol (docs/protocol.md): its limits, the closed list
of error codes, the constrained field types every message is made of, the text cleaning of
names and chat, ``ProtocolError``, and the two bases of message types.  The messages
themselves are in ``trumps.server.wire.protocol``, which re-exports all of this."""

from __future__ import annotations

import re
from typing import Annotated, Any, Final, Literal, TypeAlias, get_args

from msgspec import Meta

from trumps.games import GAMES

PROTOCOL_VERSION: Final = 1
MAX_MESSAGE_BYTES: Final = 16 * 1024
MAX_NONCE: Final = 2**53 - 1  # a ping nonce: what JavaScript holds exactly
MAX_HAND: Final = 10_000  # a `continue`'s hand number
MAX_NAME_CHARS: Final = 32
MAX_CHAT_CHARS: Final = 300
MAX_ID_CHARS: Final = 64  # a table or player id
MAX_TOKEN_CHARS: Final = 128  # a resume token
MAX_ACTION_CHARS: Final = 32  # an action string
MAX_PRESET_CHARS: Final = 32  # a rule preset's name
MAX_OPTIONS: Final = 32  # entries of a rule options object
MAX_SECONDS: Final = 24 * 3600  # any duration: clock base and increment, grace
MAX_LIST_OFFSET: Final = 100_000  # where a page of the table list starts
MAX_SPECTATOR_NAMES: Final = 10  # names a spectator list shows (the count says how many in all)
# The most seats a table may have: the largest game's (Twenty-Five is for up to 10).
MAX_SEATS: Final = max(cls.max_players for cls in GAMES.values())

# The closed list of error codes, with their meanings (docs/protocol.md mirrors this table).
ERROR_CODES: Final[dict[str, str]] = {
    "bad_json": "The frame is not valid UTF-8 JSON, or not a JSON object.",
    "unknown_type": "The message has no string `type`, or a `type` the server does not know.",
    "bad_field": "A field is missing, unknown, of the wrong type or out of range (the message names it).",
    "too_large": "The message is larger than MAX_MESSAGE_BYTES (16 KiB); the connection stays open.",
    "bad_version": "`hello` asked for a protocol version the server does not speak.",
    "not_hello": "The first message on a connection was not `hello`.",
    "bad_token": "The resume token is forged, expired or belongs to someone else.",
    "bad_rules": "Unknown rule preset or option, or a seat list the game does not allow.",
    "no_such_table": "No table with that id (or it is private and the id is wrong).",
    "table_full": "The table (or the requested seat) has no open seat.",
    "not_seated": "The connection holds no seat at that table, so it cannot act, resign or chat there.",
    "not_your_turn": "The seat is not the one to move.",
    "invalid_action": "The action string is not an action at all (trumps.InvalidAction).",
    "illegal_action": "A well-formed action that the rules do not allow now (trumps.IllegalAction).",
    "stale_event": "The game changed after the event number `expected` (or it is in the future); resync first.",
    "game_over": "The game at that table has ended.",
    "not_allowed": "Not possible at this table: a hint where people play, a rematch before the end.",
    "rate_limited": "Too many messages on this connection, or too many unfinished tables of yours.",
    "hint_pending": "A hint for this seat is still being thought: one at a time.",
    "rated_no_hints": "No hints at a rated table: its game is the player's alone (the analysis comes after it).",
    "internal_error": "The server failed; the request changed nothing.",
    "unavailable": "The game store cannot be reached just now; the request changed nothing. Try again shortly.",
}

ErrorCode: TypeAlias = Literal[
    "bad_json",
    "unknown_type",
    "bad_field",
    "too_large",
    "bad_version",
    "not_hello",
    "bad_token",
    "bad_rules",
    "no_such_table",
    "table_full",
    "not_seated",
    "not_your_turn",
    "invalid_action",
    "illegal_action",
    "stale_event",
    "game_over",
    "not_allowed",
    "rate_limited",
    "hint_pending",
    "rated_no_hints",
    "internal_error",
    "unavailable",
]
assert tuple(get_args(ErrorCode)) == tuple(ERROR_CODES), "ErrorCode and ERROR_CODES differ"

GameId: TypeAlias = Literal["kozyri", "twentyfive"]
BotLevel: TypeAlias = Literal["random", "easy", "medium", "hard", "expert"]
SeatKind: TypeAlias = Literal["human", "random", "easy", "medium", "hard", "expert"]
Reason: TypeAlias = Literal[
    "out_of_cards", "draw_rule", "repetition", "max_plies", "target", "resigned", "timeout"
]
EventKind: TypeAlias = Literal[
    "start",
    "action",
    "resign",
    "timeout",
    "takeback",
    "join",
    "leave",
    "disconnect",
    "takeover",
    "return",
    "takeback_ask",
    "takeback_no",
]
OnTimeout: TypeAlias = Literal["move", "forfeit"]
# How fast bots move where a person plays (docs/protocol.md#pacing).
BotPace: TypeAlias = Literal["normal", "fast", "instant"]

Id = Annotated[str, Meta(min_length=1, max_length=MAX_ID_CHARS, pattern=r"^[A-Za-z0-9_-]+$")]
Token = Annotated[str, Meta(min_length=1, max_length=MAX_TOKEN_CHARS)]
Name = Annotated[str, Meta(min_length=1, max_length=MAX_NAME_CHARS)]
ChatText = Annotated[str, Meta(min_length=1, max_length=MAX_CHAT_CHARS)]
ActionText = Annotated[str, Meta(min_length=1, max_length=MAX_ACTION_CHARS)]
Preset = Annotated[str, Meta(min_length=1, max_length=MAX_PRESET_CHARS)]
# A seat's contribution to a fair deal (trumps.fairdeal): 16-128 lowercase hex digits.
Contribution = Annotated[str, Meta(min_length=16, max_length=128, pattern=r"^([0-9a-f]{2})+$")]
Digest = Annotated[str, Meta(min_length=64, max_length=64, pattern=r"^[0-9a-f]+$")]
SeatNo = Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
EventNo = Annotated[int, Meta(ge=0)]
Seconds = Annotated[float, Meta(ge=0, le=MAX_SECONDS)]
Options = Annotated[dict[str, Any], Meta(max_length=MAX_OPTIONS)]

# Control, invisible and bidi formatting characters, and those that draw as nothing (Hangul
# fillers, the blank Braille pattern, tag characters); the joiners U+200C/U+200D stay, since
# Persian words need the zero-width non-joiner.
_CONTROL = re.compile(
    r"[\x00-\x1f\x7f-\x9f\xad\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u2028-\u202e"
    r"\u2060-\u2069\u2800\u3164\ufeff\uffa0\U000e0000-\U000e007f]"
)


def clean_text(text: str) -> str:
    """``text`` with control and invisible formatting characters removed; never interpreted."""
    return _CONTROL.sub("", text)


class ProtocolError(ValueError):
    """Bad client input: ``code`` is one of ``ERROR_CODES``, ``message`` says what is wrong."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown protocol error code {code!r}")
        super().__init__(f"{code}: {message}")
        self.code: ErrorCode = code
        self.message = message
