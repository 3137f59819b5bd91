"""What the terminal client knows about the server: its tables, the lobby, its identity.

Pure state, no I/O: ``ClientState.apply(msg)`` folds one server message (a JSON dict, see
docs/protocol.md) into the state and returns what changed, plus the requests the client
must send because of it (a ``resync`` after an event gap or a stale action).  Messages the
client does not know are ignored, so a newer server does not break an older client.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Final

from trumps.errors import InvalidRecord
from trumps.games.viewtypes import View, view_of_json
from trumps.records import verify
from trumps.tui.whytext import hint_text

Msg = dict[str, Any]

FEED_MAX = 500  # lines of log and chat a table keeps
REPLACED_TEXT = "This game is open in another window. Ctrl+R: play it here."
# A person who chose no name (the server sends null: docs/protocol.md#hello).
GUEST: Final = "Guest"


# Said once at a rated table where I sit (docs/protocol.md, ``rated_no_hints``).
NO_HINTS_RATED: Final = "A rated game: no hints here. The analysis is open to it after the end."


@dataclass
class FeedItem:
    """One line of a table's log: an event, a chat line or a note (error, hint, result)."""

    kind: str  # "event", "chat" or "note"
    data: Msg
    style: str = ""


@dataclass
class TableModel:
    """One table as this client sees it."""

    table_id: str
    game: str = "kozyri"
    rules: Msg = field(default_factory=dict)
    seats: list[Msg] = field(default_factory=list)
    seat: int | None = None
    event: int = 0
    view: View | None = None  # the seat's (or the public) view; None before the first
    legal: list[str] = field(default_factory=list)
    to_move: int | None = None
    clocks: list[float | None] | None = None
    clock_at: float = 0.0
    private: bool = False
    rated: bool = False  # a rated table (docs/ratings.md)
    time_control: Msg | None = None
    outcome: Msg | None = None
    record_id: int | None = None
    feed: list[FeedItem] = field(default_factory=list)
    feed_base: int = 0  # how many feed items were dropped from the front (FEED_MAX)
    logged: int = 0  # the highest event number in the feed
    sent: bool = False  # an action is on its way
    resyncing: bool = False  # a resync is on its way; events wait for its snapshot
    hint: Msg | None = None  # the last hint, with the event number it answers
    rematch: Msg | None = None  # a rematch offer: {"new_table_id", "by"}
    left: bool = False  # we left or stopped watching
    replaced: bool = False  # another window of ours took the seat (Ctrl+R takes it back)
    spectators: Msg = field(default_factory=dict)  # who watches: {"count", "names"}
    rating_note: str = ""  # after a rated game: what it did to this player's rating
    told_no_hints: bool = False  # the log said once why a rated table has no hints
    # Take-backs (docs/protocol.md#takeback): the seat whose request waits, whether I may.
    takeback: int | None = None
    can_take_back: bool = False

    # -- reading ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.seats) or (0 if self.view is None else len(self.view["hands"]))

    @property
    def started(self) -> bool:
        return self.to_move is not None or self.outcome is not None

    @property
    def my_turn(self) -> bool:
        return (
            self.seat is not None
            and self.outcome is None
            and self.to_move == self.seat
            and bool(self.legal)
        )

    @property
    def can_act(self) -> bool:
        return self.my_turn and not self.sent and not self.resyncing

    def name_of(self, seat: int | None) -> str:
        """A seat's display name: the person's name as given, a bot's level, ``Guest`` for
        a person who chose no name, or ``open``."""
        if seat is None:
            return "a spectator"
        info = self.seats[seat] if 0 <= seat < len(self.seats) else {}
        if info.get("name"):
            return str(info["name"])
        if info.get("bot"):
            return f"{info['bot']} bot"
        if info.get("taken"):
            return GUEST
        return f"seat {seat} (open)"

    def clock_left(self, seat: int, now: float | None = None) -> float | None:
        """Seconds on ``seat``'s clock, counting down locally for the seat to move."""
        if self.clocks is None or not 0 <= seat < len(self.clocks):
            return None
        base = self.clocks[seat]
        if base is None:
            return None
        if seat == self.to_move and self.outcome is None:
            now = time.monotonic() if now is None else now
            return max(0.0, base - (now - self.clock_at))
        return base

    def hand_count(self, seat: int) -> int | None:
        if self.view is None or not 0 <= seat < len(self.view["hands"]):
            return None
        h = self.view["hands"][seat]
        return h["count"] if isinstance(h, dict) else len(h)

    def _after_leave(self, seat: Any) -> bool:
        """Whether the log's last event is ``seat``'s ``leave``: a takeover right after it
        plays a seat given up for good, not one whose player may come back."""
        last = next((i.data for i in reversed(self.feed) if i.kind == "event"), None)
        return last is not None and last.get("kind") == "leave" and last.get("seat") == seat

    # -- changing --------------------------------------------------------------------------
    def add(self, item: FeedItem) -> None:
        self.feed.append(item)
        if len(self.feed) > FEED_MAX:
            drop = len(self.feed) - FEED_MAX
            del self.feed[:drop]
            self.feed_base += drop

    def note(self, text: str, style: str = "") -> None:
        self.add(FeedItem("note", {"text": text}, style))

    def _set_clocks(self, clocks: list[float | None] | None) -> None:
        self.clocks = list(clocks) if isinstance(clocks, list) else None
        self.clock_at = time.monotonic()

    def apply_state(self, m: Msg) -> None:
        """A snapshot replaces everything; its log fills in the events we had not seen.
        A view this client cannot read raises ``ValueError`` before anything changes."""
        view = _view_in(m)
        self.game = str(m.get("game", self.game))
        self.rules = dict(m.get("rules") or {})
        self.seats = [dict(s) for s in m.get("seats", [])]
        self.seat = m.get("seat")
        self.event = int(m.get("event", 0))
        self.view = view
        self.legal = list(m.get("legal") or [])
        self.to_move = m.get("to_move")
        self._set_clocks(m.get("clocks"))
        self.private = bool(m.get("private", False))
        self.rated = bool(m.get("rated", False))
        self.time_control = m.get("time_control")
        self.outcome = m.get("outcome")
        self.record_id = m.get("record_id")
        self.sent = False
        self.resyncing = False
        self.left = False
        self.replaced = False
        self.spectators = dict(m.get("spectators") or {})
        self.takeback, self.can_take_back = m.get("takeback"), bool(m.get("can_take_back"))
        for entry in m.get("log") or []:
            if int(entry.get("number", 0)) > self.logged:
                item = dict(entry)
                if item.get("kind") == "takeover":
                    item["left"] = self._after_leave(item.get("seat"))
                self.add(FeedItem("event", item))
                self.logged = int(entry["number"])
        self.logged = max(self.logged, self.event)
        if self.rated and self.seat is not None and self.outcome is None and not self.told_no_hints:
            self.told_no_hints = True
            self.note(NO_HINTS_RATED, "cyan")

    @property
    def hints_offered(self) -> bool:
        """Whether this table offers hints to me at all: my seat at a casual table where every
        other seat is a bot (the server refuses the rest: ``not_allowed``, ``rated_no_hints``)."""
        return (
            self.seat is not None
            and not self.rated
            and all(s.get("bot") for i, s in enumerate(self.seats) if i != self.seat)
        )

    def apply_event(self, m: Msg) -> bool:
        """Apply an event; False when it does not follow the last one (resync needed)."""
        number = int(m["number"])
        if number <= self.event:
            return True  # already in a snapshot
        if number != self.event + 1 or self.resyncing:
            return False
        view = _view_in(m)  # one this client cannot read: ValueError, nothing changed
        self.event = number
        # A pick-up's size, as the view before it said (K12); the next hand after a hand's end.
        before = self.view
        took = None
        if before is not None and before["game"] == "kozyri" and m.get("action") == "take":
            took = before["take_count"]
        self.view = view
        self.legal = list(m.get("legal") or [])
        self.to_move = m.get("to_move")
        self._set_clocks(m.get("clocks"))
        self.sent = False
        self.takeback, self.can_take_back = m.get("takeback"), bool(m.get("can_take_back"))
        seat = m.get("seat")
        kind = m.get("kind")
        if m.get("seats") is not None:
            self.seats = [dict(s) for s in m["seats"]]
        else:  # the seat's state as the event's kind says (docs/protocol.md#seats-…)
            info = self.seats[seat] if isinstance(seat, int) and seat < len(self.seats) else None
            if info is not None:
                if kind in ("join", "return"):
                    info.update(connected=True, away=False, left=False)
                elif kind == "disconnect":
                    info["connected"] = False
                elif kind == "leave":
                    # In a running game the seat is given up to a bot for good.
                    info.update(connected=False, left=self.started)
                    if not self.started:  # before the start the seat is open again
                        info.update(name=None, taken=False)
                elif kind == "takeover":
                    info["away"] = True
        entry = {k: m.get(k) for k in ("number", "kind", "seat", "action", "by_bot", "closed")}
        entry["took"] = took
        if kind == "takeover":
            info = self.seats[seat] if isinstance(seat, int) and seat < len(self.seats) else {}
            entry["left"] = bool(info.get("left")) or self._after_leave(seat)
        after = self.view
        if (m.get("closed") or {}).get("hand") and after is not None and after["outcome"] is None:
            entry["next_hand"] = after["hand"]
        self.add(FeedItem("event", entry))
        self.logged = number
        return True


@dataclass
class Change:
    """What a message changed (for the screens) and what must be sent because of it."""

    kind: str
    table_id: str | None = None
    new_table: bool = False
    send: list[Msg] = field(default_factory=list)
    text: str = ""


@dataclass
class ClientState:
    """Everything the client knows; ``apply`` folds in one server message."""

    player_id: str | None = None
    name: str | None = None  # None: no name chosen (others see "Guest")
    token: str | None = None
    account: str | None = None
    welcomed: bool = False
    tables: dict[str, TableModel] = field(default_factory=dict)
    lobby: list[Msg] = field(default_factory=list)
    lobby_offset: int = 0  # where ``lobby`` starts in the whole list (a page of it) …
    lobby_total: int = 0  # … of this many tables
    waiting: Msg | None = None  # a quick match waiting: {"game", "rules", "rated"}
    errors: list[Msg] = field(default_factory=list)
    resumed: list[str] = field(default_factory=list)  # tables the last welcome gave back
    pending_join: str | None = None  # a table we asked to join (table_full: watch it)
    # The fair deal (docs/fairness.md): per table, the commitment we were shown and the
    # value we gave after it, to check the finished game's record against.
    contributions: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def signed_in(self) -> bool:
        """Whether this client plays as an account (rated games are for accounts)."""
        return bool(self.account)

    def contribution(self, m: Msg) -> Msg | None:
        """The ``contribute`` a table state asks of us: our seat's random value, once the
        table's commitment is known and before the game is dealt (the same value again
        after a reconnection)."""
        committed = m.get("commitment")
        if m.get("seat") is None or not isinstance(committed, str) or m.get("contributed"):
            return None
        if m.get("dealt") or m.get("outcome"):
            return None
        table_id = str(m["table_id"])
        kept = self.contributions.get(table_id)
        if kept is None or kept[0] != committed:
            kept = self.contributions[table_id] = (committed, secrets.token_hex(32))
        return {"type": "contribute", "table_id": table_id, "value": kept[1]}

    def fair_check(self, table_id: str, record: Msg) -> tuple[str, bool]:
        """A finished game's record checked against what we gave: (words, passed)."""
        if "fair" not in record:
            return "This game's deal was not committed to: it cannot be verified.", False
        kept = self.contributions.get(table_id)
        try:
            verify(
                record,
                committed=None if kept is None else kept[0],
                contribution=None if kept is None else kept[1],
            )
        except InvalidRecord as e:
            return f"Fair deal check FAILED: {e}", False
        mine = " and from your own contribution" if kept is not None else ""
        return (
            "Fair deal verified: every deal came from the commitment published before the "
            f"game{mine}.",
            True,
        )

    def resync(self, t: TableModel) -> Msg | None:
        """The resync request for ``t``, unless one is already on its way."""
        if t.resyncing:
            return None
        t.resyncing = True
        return {"type": "resync", "table_id": t.table_id, "last_event": t.event}

    def apply(self, m: Msg) -> Change:
        kind = str(m.get("type"))
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            return Change(kind)
        change: Change = handler(m)
        return change

    def _on_welcome(self, m: Msg) -> Change:
        self.player_id = str(m.get("player_id"))
        name = m.get("name")
        self.name = str(name) if name else None
        self.token = m.get("resume_token")
        self.account = m.get("account")
        self.welcomed = True
        self.resumed = list(m.get("tables") or [])
        send: list[Msg] = []
        for t in self.tables.values():
            # Seats given back come with a snapshot each; a table we watched (or a seat the
            # server no longer holds for us) is watched again, unless it is over or left.
            t.sent = False
            t.resyncing = False
            if t.table_id not in self.resumed and t.outcome is None and not t.left:
                send.append({"type": "spectate", "table_id": t.table_id})
        if self.waiting is not None:
            send.append({"type": "quick_match", **self.waiting})
        send.append({"type": "list_tables"})
        return Change("welcome", send=send)

    def _on_error(self, m: Msg) -> Change:
        self.errors.append(m)
        del self.errors[:-50]
        table_id = m.get("table_id")
        code = str(m.get("code"))
        text = f"{code}: {m.get('message', '')}"
        t = self.tables.get(table_id) if isinstance(table_id, str) else None
        send: list[Msg] = []
        if table_id is not None and table_id == self.pending_join:
            self.pending_join = None
            if code == "table_full":
                send.append({"type": "spectate", "table_id": table_id})
                text = "That table has no open seat: you are watching it."
        if t is not None:
            t.sent = False
            t.resyncing = False
            if code == "stale_event":
                req = self.resync(t)
                if req is not None:
                    send.append(req)
                text = "The table moved on before your move arrived; look again."
            t.note(text, "bold red")
        return Change("error", table_id if t is not None else None, send=send, text=text)

    def _on_table_closed(self, m: Msg) -> Change:
        """The server gave a table up unfinished (docs/protocol.md#table_closed)."""
        table_id = str(m.get("table_id"))
        if m.get("reason") == "idle":
            text = "The server closed a table of bots nobody watched."
        else:
            text = "The server closed a table whose game never started."
        self.lobby = [row for row in self.lobby if row.get("table_id") != table_id]
        self.lobby_total = max(0, self.lobby_total - 1)
        t = self.tables.get(table_id)
        if t is not None:
            t.legal = []
            t.note(text, "bold yellow")
        return Change("table_list", table_id if t is not None else None, text=text)

    def _on_table_list(self, m: Msg) -> Change:
        self.lobby = list(m.get("tables") or [])
        self.lobby_offset = int(m.get("offset") or 0)
        total = m.get("total")
        self.lobby_total = len(self.lobby) if total is None else int(total)
        return Change("table_list")

    def _on_table_state(self, m: Msg) -> Change:
        table_id = str(m["table_id"])
        new = table_id not in self.tables or self.tables[table_id].left
        t = self.tables.get(table_id) or TableModel(table_id)
        try:
            t.apply_state(m)  # checks the view before it changes anything
        except ValueError as e:
            return _unreadable(table_id, e)
        self.tables[table_id] = t
        if new:  # a table opened here: the chat so far, as the server stored it
            for line in m.get("chat") or []:
                t.add(FeedItem("chat", {"table_id": table_id, **line}))
        if self.pending_join == table_id:
            self.pending_join = None
        if new:
            self.waiting = None
        give = self.contribution(m)
        if give is not None:  # in full, for ``trumps record verify`` after the game
            t.note(
                f"Fair deal: commitment {m['commitment']}; your contribution {give['value']}",
                "dim",
            )
        return Change("table_state", table_id, new_table=new, send=[give] if give else [])

    def _on_event(self, m: Msg) -> Change:
        t = self.tables.get(str(m.get("table_id")))
        if t is None or t.left:
            return Change("event")
        try:
            applied = t.apply_event(m)
        except ValueError as e:
            return _unreadable(t.table_id, e)
        if not applied:
            req = self.resync(t)
            return Change("event", t.table_id, send=[req] if req else [])
        hand = (m.get("closed") or {}).get("hand")
        if hand and t.seat is not None and t.view is not None and t.view["outcome"] is None:
            # The hand's summary is in the log as it ends: the next hand need not wait for
            # this player (docs/protocol.md#continue).
            read = {"type": "continue", "table_id": t.table_id, "hand": hand.get("hand")}
            return Change("event", t.table_id, send=[read])
        return Change("event", t.table_id)

    def _on_chat(self, m: Msg) -> Change:
        t = self.tables.get(str(m.get("table_id")))
        if t is None:
            return Change("chat")
        t.add(FeedItem("chat", dict(m)))
        return Change("chat", t.table_id)

    def _on_game_over(self, m: Msg) -> Change:
        t = self.tables.get(str(m.get("table_id")))
        if t is None:
            if m.get("table_id") == self.pending_join:  # a table that ended and is gone
                self.pending_join = None
                text = f"The game at that table has ended; it is game {m.get('record_id')} in the history."
                return Change("error", text=text)
            return Change("game_over")
        t.outcome = m.get("outcome")
        t.record_id = m.get("record_id")
        t.legal = []
        t.sent = False
        t.add(FeedItem("note", {"text": outcome_text(t)}, "bold"))
        return Change("game_over", t.table_id)

    def _on_waiting(self, m: Msg) -> Change:
        self.waiting = {"game": m.get("game"), "rules": m.get("rules"), "rated": m.get("rated")}
        return Change("waiting")

    def _on_hint(self, m: Msg) -> Change:
        t = self.tables.get(str(m.get("table_id")))
        if t is None:
            return Change("hint")
        t.hint = {"event": t.event, **m}
        why = m.get("why") if isinstance(m.get("why"), dict) else None
        t.note(hint_text(str(m.get("action")), why, t.view), "cyan")
        return Change("hint", t.table_id)

    def _on_rematch(self, m: Msg) -> Change:
        t = self.tables.get(str(m.get("table_id")))
        if t is None:
            return Change("rematch")
        t.rematch = {"new_table_id": m.get("new_table_id"), "by": m.get("by")}
        text = f"{m.get('by') or 'Someone'} started a rematch: press n to join it."
        t.note(text, "bold cyan")
        return Change("rematch", t.table_id, text=text)

    def _on_spectators(self, m: Msg) -> Change:
        t = self.tables.get(str(m.get("table_id")))
        if t is None:
            return Change("spectators")
        t.spectators = {"count": m.get("count", 0), "names": list(m.get("names") or [])}
        return Change("spectators", t.table_id)

    def _on_replaced(self, m: Msg) -> Change:
        t = self.tables.get(str(m.get("table_id")))
        if t is None:
            return Change("replaced")
        t.legal = []  # the other connection plays the seat now: nothing to do here
        t.sent = False
        t.replaced = True  # until a snapshot comes (a join_table: Ctrl+R)
        text = REPLACED_TEXT
        t.note(text, "bold yellow")
        return Change("replaced", t.table_id, text=text)

    def _on_pong(self, m: Msg) -> Change:
        return Change("pong")


def outcome_text(t: TableModel) -> str:
    """The result in words, from the point of view of this client's seat."""
    o = t.outcome
    if not o:
        return ""
    reason = str(o.get("reason", "")).replace("_", " ")
    if o.get("draw"):
        return f"Game over: a draw ({reason})."
    winners = [int(s) for s in o.get("winners", [])]
    if t.seat is not None:
        verdict = "you won" if t.seat in winners else "you lost"
        names = ", ".join(t.name_of(s) for s in winners)
        return f"Game over: {verdict} ({reason}); winner{'s' if len(winners) > 1 else ''}: {names}."
    names = ", ".join(t.name_of(s) for s in winners)
    return f"Game over: winner{'s' if len(winners) > 1 else ''}: {names} ({reason})."


__all__ = [
    "REPLACED_TEXT",
    "Change",
    "ClientState",
    "FeedItem",
    "Msg",
    "TableModel",
    "outcome_text",
]


def _view_in(m: Msg) -> View | None:
    """The view a ``table_state`` or ``event`` carries, checked to be its game's whole view
    (``view_of_json``); None when it carries none."""
    data = m.get("view")
    return view_of_json(data) if data else None


def _unreadable(table_id: str, error: ValueError) -> Change:
    """A table's message whose view this client cannot read: said in one line; it changed
    nothing."""
    text = f"Table {table_id}: the server sent a view this client cannot read ({error})."
    return Change("error", table_id, text=text)
