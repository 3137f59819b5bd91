"""One live table: the single writer that owns a game (STYLE habit 8, issue 4 items 3–6).

A ``Table`` runs as one asyncio task consuming commands from a queue in order — joins and
leaves, disconnects, actions (with the event number the client last saw), resignations,
resyncs, chat, bot moves, timer expiries — and emitting numbered events.  Every message to
a seat is built from ``game.view(seat)``; spectators get a public view with no private hand
at all, and a Twenty-Five discard (``rob XX``) reaches only the seat that made it.  Rejected
commands answer with an ``Error`` carrying a protocol error code and change nothing.

Seats survive real life: a seat belongs to its *owner* (a player id), not to a connection.
A dropped connection leaves the seat with its owner; after ``grace`` seconds a bot of the
``takeover`` level plays for it (event ``takeover``, its moves marked ``by_bot``), and the
owner takes it back by joining again (event ``return``).  A Fischer clock per person's seat,
when the table has a time control, ends a turn at zero with a default move (the ``easy``
bot's choice) or a forfeit.

Subscribers are per-connection outboxes (anything with ``put_nowait``).  Bots act through
the same command path: when a bot (or a takeover bot) is to move, its ``decide`` runs in a
worker thread and its choice is enqueued as a ``BotMove``.  No sockets and no store here:
a ``TableListener`` (the server's hub) is told about changes and persists them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, TypeAlias, cast

from trumps.ai import Limits, make_bot
from trumps.errors import IllegalAction, InvalidAction
from trumps.games import Game
from trumps.records import record_of
from trumps.server.bots import BotRequest, BotRunner
from trumps.server.protocol import (
    BotLevel,
    ChatPosted,
    ErrorCode,
    EventKind,
    GameId,
    LogEntry,
    OnTimeout,
    OutcomeInfo,
    Reason,
    SeatInfo,
    ServerMessage,
    TimeControl,
)
from trumps.server.protocol import Error as ErrorMsg
from trumps.server.protocol import Event as EventMsg
from trumps.server.protocol import GameOver as GameOverMsg
from trumps.server.protocol import Hint as HintMsg
from trumps.server.protocol import TableState as TableStateMsg

__all__ = [
    "Act",
    "BotMove",
    "Chat",
    "Command",
    "ConnCommand",
    "Disconnect",
    "GraceOver",
    "HintCmd",
    "Join",
    "Leave",
    "Outbox",
    "ResignCmd",
    "ResyncCmd",
    "Start",
    "Stop",
    "Subscriber",
    "Table",
    "TableConfig",
    "TableListener",
    "TableNotOver",
    "Timeout",
]

log = logging.getLogger(__name__)

HINT_LEVEL = "expert"  # hints come from the strongest bot
LOG_IN_SNAPSHOT = 300  # the most recent events a snapshot carries
TIMEOUT_FLOOR = 10.0  # seconds a seat gets for each move after its clock ran out ("move")


class Outbox(Protocol):
    """Where a table puts the messages for one connection."""

    def put_nowait(self, item: ServerMessage, /) -> None: ...


Subscriber: TypeAlias = Outbox


class TableNotOver(RuntimeError):
    """``Table.record()`` before the game ended: a running record holds the seed."""


class TableListener(Protocol):
    """What a table tells the server about (persistence, the lobby list)."""

    def table_changed(self, table: Table) -> None:
        """An event happened: seats, progress or clocks changed (write-behind)."""

    async def table_finished(self, table: Table, record: dict[str, Any]) -> int | None:
        """The game ended: store the record; returns its id (sent in ``game_over``)."""


# ---------------------------------------------------------------- configuration


@dataclass
class TableConfig:
    """The settings of a table, chosen at creation (and stored to resume it)."""

    time_control: TimeControl | None = None
    on_timeout: OnTimeout = "move"
    grace: float = 30.0
    takeover: str = "medium"
    private: bool = False

    def to_json(self) -> dict[str, Any]:
        tc = self.time_control
        return {
            "time_control": None if tc is None else {"base": tc.base, "increment": tc.increment},
            "on_timeout": self.on_timeout,
            "grace": self.grace,
            "takeover": self.takeover,
            "private": self.private,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        tc = data.get("time_control")
        return cls(
            time_control=None if tc is None else TimeControl(**tc),
            on_timeout=data.get("on_timeout", "move"),
            grace=float(data.get("grace", 30.0)),
            takeover=data.get("takeover", "medium"),
            private=bool(data.get("private", False)),
        )


# ---------------------------------------------------------------- commands


@dataclass(frozen=True)
class ConnCommand:
    """A request of one connection, answered (or refused) to that connection."""

    conn: Outbox


@dataclass(frozen=True)
class Join(ConnCommand):
    """Subscribe ``conn``: sit in ``seat`` (a person's seat; None = any open one, or the one
    ``player`` already owns), or spectate when ``spectate``.  ``player`` identifies the person
    across connections; without it the connection itself is the owner."""

    seat: int | None = None
    name: str | None = None
    player: int | None = None
    spectate: bool = False

    def __post_init__(self) -> None:
        # Old call style Join(conn) means watching; Join(conn, seat=k) means sitting.
        if self.seat is None and self.player is None and self.name is None:
            object.__setattr__(self, "spectate", True)


@dataclass(frozen=True)
class Leave(ConnCommand):
    """``conn`` leaves on purpose: its seat opens (a running game goes on with a bot)."""


@dataclass(frozen=True)
class Disconnect(ConnCommand):
    """``conn`` is gone without leaving: its seat waits ``grace`` seconds for the owner."""


@dataclass(frozen=True)
class Act(ConnCommand):
    """``conn`` plays ``action``; ``expected`` is the last event number it has seen."""

    action: str
    expected: int


@dataclass(frozen=True)
class ResignCmd(ConnCommand):
    """``conn`` resigns for its seat."""


@dataclass(frozen=True)
class ResyncCmd(ConnCommand):
    """``conn`` asks for a fresh snapshot."""


@dataclass(frozen=True)
class Chat(ConnCommand):
    """``conn`` says ``text`` (already cleaned) as ``name``."""

    name: str
    text: str


@dataclass(frozen=True)
class HintCmd(ConnCommand):
    """``conn`` asks what the strongest bot would play for its seat."""


@dataclass(frozen=True)
class BotMove:
    """A bot's decision for ``seat``, made when the table was at event ``expected``."""

    seat: int
    action: str
    expected: int


@dataclass(frozen=True)
class GraceOver:
    """The grace period of ``seat`` (started as its ``epoch``-th absence) has run out."""

    seat: int
    epoch: int


@dataclass(frozen=True)
class Timeout:
    """``seat``'s clock should have run out at event ``expected``."""

    seat: int
    expected: int


@dataclass(frozen=True)
class Start:
    """Start the game if every person's seat is taken (a bot-only table starts on this)."""


@dataclass(frozen=True)
class Stop:
    """End the table's task."""


Command: TypeAlias = (
    Join
    | Leave
    | Disconnect
    | Act
    | ResignCmd
    | ResyncCmd
    | Chat
    | HintCmd
    | BotMove
    | GraceOver
    | Timeout
    | Start
    | Stop
)


@dataclass
class _Seat:
    """The server-side state of one seat."""

    level: str | None  # a bot level for a bot seat, None for a person's seat
    owner: object = None  # the person who holds it (player id or connection)
    name: str | None = None
    conn: Outbox | None = None  # the owner's live connection
    away: bool = False  # a takeover bot plays for the seat
    epoch: int = 0  # counts absences, so a stale grace timer is ignored
    clock: float | None = None  # seconds left (person's seat at a timed table)
    timed_out: bool = False  # the clock ran out once: TIMEOUT_FLOOR per move since


@dataclass
class _Entry:
    number: int
    kind: EventKind
    seat: int | None
    action: str | None
    by_bot: bool


_GAME_KINDS: frozenset[str] = frozenset({"start", "action", "resign", "timeout"})


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ---------------------------------------------------------------- the table


class Table:
    """The one writer of a live table.

    ``seats`` has one entry per seat: a bot level (``"random"`` … ``"expert"``) or None for a
    seat open to a person.  The game starts (event ``start``) once every person's seat is
    taken, checked after each command; a table of bots only starts on ``start()`` (a
    ``Start`` command), so watchers can subscribe first.
    """

    def __init__(
        self,
        table_id: str,
        game: Game,
        seats: Sequence[str | None],
        *,
        config: TableConfig | None = None,
        listener: TableListener | None = None,
        runner: BotRunner | None = None,
        bot_time: float = 0.05,
        bot_seed: int | None = None,
    ) -> None:
        if len(seats) != game.players:
            raise ValueError(f"{game.players} seats needed, got {len(seats)}")
        self.table_id = table_id
        self.game = game
        self.config = config or TableConfig()
        self.listener = listener
        self.seats = [_Seat(level) for level in seats]
        for level in {*seats, self.config.takeover} - {None}:
            make_bot(cast(str, level), game.game_id)  # an unknown level fails here, not later
        self.runner = runner or BotRunner(0)
        self.bot_time = bot_time
        self._rng = random.Random(bot_seed)
        self.commands: asyncio.Queue[Command] = asyncio.Queue()
        self.number = 0  # the latest event number
        self.moved = 0  # the latest event that changed the game (not a join, leave …)
        self.started = False
        self.started_at: str | None = None
        self.record_id: int | None = None
        self.events: list[_Entry] = []
        self._subs: dict[Outbox, int | None] = {}  # connection -> seat or None
        self._bot_task: asyncio.Task[None] | None = None
        self._hints: set[asyncio.Task[None]] = set()
        self._timers: dict[Hashable, asyncio.TimerHandle] = {}
        self._task: asyncio.Task[None] | None = None
        self._final: dict[str, Any] | None = None
        self._start_asked = False
        self._clock_seat: int | None = None
        self._clock_since = 0.0
        if self.config.time_control is not None:
            for seat in self.seats:
                if seat.level is None:
                    seat.clock = self.config.time_control.base

    @property
    def levels(self) -> list[str | None]:
        return [seat.level for seat in self.seats]

    @property
    def names(self) -> list[str | None]:
        return [seat.name for seat in self.seats]

    # -- the outside surface --------------------------------------------------------------
    def submit(self, command: Command) -> None:
        """Enqueue a command (safe before the task runs; commands are handled in order)."""
        self.commands.put_nowait(command)

    def start(self) -> None:
        self.submit(Start())

    def launch(self) -> asyncio.Task[None]:
        """Run the table as a task of the running loop."""
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name=f"table-{self.table_id}")
        return self._task

    def submit_stop(self) -> None:
        """Ask the task to end after the commands already queued, without waiting."""
        self.submit(Stop())

    async def stop(self) -> None:
        """Stop the task after the commands already queued."""
        self.submit(Stop())
        if self._task is not None:
            await self._task

    def record(self) -> dict[str, Any]:
        """The finished game's record (SPEC §7); raises ``TableNotOver`` while it runs."""
        if self._final is None:
            raise TableNotOver(f"table {self.table_id}: the game has not ended")
        return dict(self._final)

    def running_record(self) -> dict[str, Any]:
        """The record so far, seed included: for the store only, never for a client."""
        return record_of(self.game, self.record_names(), started=self.started_at)

    def record_names(self) -> list[str]:
        return [
            seat.name or (f"{seat.level} bot" if seat.level else f"Seat {s}")
            for s, seat in enumerate(self.seats)
        ]

    def owners(self) -> list[object]:
        return [seat.owner for seat in self.seats]

    def open_seats(self) -> list[int]:
        """The people's seats nobody holds."""
        return [s for s, seat in enumerate(self.seats) if seat.level is None and seat.owner is None]

    def seat_of_owner(self, owner: object) -> int | None:
        for s, seat in enumerate(self.seats):
            if seat.owner is not None and seat.owner == owner:
                return s
        return None

    def meta(self) -> dict[str, Any]:
        """What the store keeps beside the record to resume this table after a restart."""
        return {
            **self.config.to_json(),
            "seats": self.levels,
            "names": self.names,
            "away": [seat.away for seat in self.seats],
            "clocks": self.clocks(),
            "number": self.number,
            "started": self.started,
        }

    @classmethod
    def resume(
        cls,
        table_id: str,
        game: Game,
        meta: dict[str, Any],
        owners: Sequence[object],
        *,
        listener: TableListener | None = None,
        runner: BotRunner | None = None,
        bot_time: float = 0.05,
        started_at: str | None = None,
    ) -> Table:
        """A table rebuilt after a restart from its replayed game and stored ``meta``.

        Every person is disconnected: their grace periods start when the task runs.
        """
        table = cls(
            table_id,
            game,
            meta["seats"],
            config=TableConfig.from_json(meta),
            listener=listener,
            runner=runner,
            bot_time=bot_time,
        )
        table.started = bool(meta.get("started", True))
        table.started_at = started_at
        table.number = table.moved = int(meta.get("number", 0))
        for s, seat in enumerate(table.seats):
            seat.owner = owners[s] if seat.level is None else None
            seat.name = meta.get("names", [None] * game.players)[s]
            seat.away = bool(meta.get("away", [False] * game.players)[s])
            clocks = meta.get("clocks")
            if clocks is not None and clocks[s] is not None:
                seat.clock = float(clocks[s])
        return table

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    # -- the writer loop --------------------------------------------------------------------
    async def run(self) -> None:
        for s, seat in enumerate(self.seats):  # a resumed table: everyone is absent
            if seat.owner is not None and seat.conn is None and not seat.away:
                self._absent(s)
        self._maybe_bot()
        self._arm_clock()
        try:
            while True:
                command = await self.commands.get()
                if isinstance(command, Stop):
                    return
                number = self.number
                try:
                    self._handle(command)
                    self._maybe_start()
                except Exception:
                    log.exception("table %s failed on %r", self.table_id, command)
                    if isinstance(command, ConnCommand):
                        self._error(
                            command.conn, "internal_error", "the server failed on this request"
                        )
                if self._final is not None and self.record_id is None and self.listener:
                    await self._finish()
                self._maybe_bot()
                if self.number != number:
                    self._arm_clock()
                    if self.listener is not None:
                        self.listener.table_changed(self)
        finally:
            for timer in self._timers.values():
                timer.cancel()
            for hint in list(self._hints):
                hint.cancel()
            if self._bot_task is not None:
                self._bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._bot_task

    async def _finish(self) -> None:
        assert self.listener is not None and self._final is not None
        try:
            self.record_id = await self.listener.table_finished(self, dict(self._final))
        except Exception:
            log.exception("table %s: storing the finished game failed", self.table_id)
            self.record_id = None
        self._send_game_over()

    def _handle(self, command: Command) -> None:
        if isinstance(command, Join):
            self._join(command)
        elif isinstance(command, Leave):
            self._leave(command.conn, on_purpose=True)
        elif isinstance(command, Disconnect):
            self._leave(command.conn, on_purpose=False)
        elif isinstance(command, Act):
            self._act(command)
        elif isinstance(command, ResignCmd):
            self._resign(command)
        elif isinstance(command, ResyncCmd):
            if command.conn not in self._subs:
                self._error(command.conn, "not_seated", "not at this table; join or spectate")
            else:
                command.conn.put_nowait(self._snapshot(self._subs[command.conn]))
        elif isinstance(command, Chat):
            self._chat(command)
        elif isinstance(command, HintCmd):
            self._hint(command)
        elif isinstance(command, BotMove):
            self._bot_move(command)
        elif isinstance(command, GraceOver):
            self._grace_over(command)
        elif isinstance(command, Timeout):
            self._timeout(command)
        elif isinstance(command, Start):
            self._start_asked = True

    # -- seats --------------------------------------------------------------------------
    def _join(self, c: Join) -> None:
        owner: object = c.player if c.player is not None else c.conn
        if c.spectate:
            self._unsubscribe(c.conn)
            self._subs[c.conn] = None
            c.conn.put_nowait(self._snapshot(None))
            return
        mine = self.seat_of_owner(owner)
        if mine is not None and c.seat is not None and c.seat != mine:
            self._error(c.conn, "table_full", f"you hold seat {mine}; seat {c.seat} is not yours")
            return
        if mine is not None:  # the owner comes back (a reload, a new connection)
            self._rebind(mine, c.conn, c.name)
            return
        if c.seat is not None:
            if not 0 <= c.seat < self.game.players or self.seats[c.seat].level is not None:
                self._error(c.conn, "table_full", f"seat {c.seat} is not open for a person")
                return
            if self.seats[c.seat].owner is not None:
                self._error(c.conn, "table_full", f"seat {c.seat} is taken")
                return
            seat_no = c.seat
        else:
            free = self.open_seats()
            if not free:
                self._error(c.conn, "table_full", "no open seat at this table")
                return
            seat_no = free[0]
        if self.over:
            self._error(c.conn, "game_over", "the game at this table has ended")
            return
        self._unsubscribe(c.conn)
        seat = self.seats[seat_no]
        seat.owner, seat.conn, seat.name = owner, c.conn, c.name
        self._subs[c.conn] = seat_no
        c.conn.put_nowait(self._snapshot(seat_no))
        self._emit("join", seat=seat_no)
        if seat.away:  # a newcomer takes over from the takeover bot
            seat.away = False
            self._emit("return", seat=seat_no)

    def _rebind(self, seat_no: int, conn: Outbox, name: str | None) -> None:
        seat = self.seats[seat_no]
        if seat.conn is not None and seat.conn is not conn:
            self._subs.pop(seat.conn, None)  # the older connection stops hearing this table
        self._unsubscribe(conn)
        seat.conn, seat.epoch = conn, seat.epoch + 1
        if name:
            seat.name = name
        self._cancel_timer(("grace", seat_no))
        self._subs[conn] = seat_no
        conn.put_nowait(self._snapshot(seat_no))
        if seat.away and not self.over:
            seat.away = False
            self._emit("return", seat=seat_no)
        elif not self.over:
            self._emit("join", seat=seat_no)

    def _unsubscribe(self, conn: Outbox) -> None:
        seat_no = self._subs.pop(conn, None)
        if seat_no is not None and self.seats[seat_no].conn is conn:
            self.seats[seat_no].conn = None

    def _leave(self, conn: Outbox, *, on_purpose: bool) -> None:
        if conn not in self._subs:
            return
        seat_no = self._subs[conn]
        self._unsubscribe(conn)
        if seat_no is None or self.over:
            return
        seat = self.seats[seat_no]
        if seat.conn is not None:  # another connection of the owner holds it
            return
        if on_purpose:
            seat.owner = None
            seat.epoch += 1
            self._cancel_timer(("grace", seat_no))
            self._emit("leave", seat=seat_no)
            if self.started:
                seat.away = True
                self._emit("takeover", seat=seat_no)
            else:
                seat.name = None
        else:
            self._emit("leave", seat=seat_no)
            self._absent(seat_no)

    def _absent(self, seat_no: int) -> None:
        """Start the grace period of a seat whose owner is not connected."""
        seat = self.seats[seat_no]
        seat.epoch += 1
        self._set_timer(("grace", seat_no), self.config.grace, GraceOver(seat_no, seat.epoch))

    def _grace_over(self, c: GraceOver) -> None:
        seat = self.seats[c.seat]
        if c.epoch != seat.epoch or seat.conn is not None or self.over:
            return
        if self.started:
            if not seat.away:
                seat.away = True
                self._emit("takeover", seat=c.seat)
        else:  # nobody is waiting for a person who never came back before the start
            seat.owner, seat.name = None, None
            self._emit("leave", seat=c.seat)

    # -- play -----------------------------------------------------------------------------
    def _seat_of(self, conn: Outbox) -> int | None:
        seat = self._subs.get(conn)
        if seat is None:
            self._error(conn, "not_seated", "this connection holds no seat at this table")
        return seat

    def _act(self, c: Act) -> None:
        seat = self._seat_of(c.conn)
        if seat is None:
            return
        if self.over:
            self._error(c.conn, "game_over", "the game at this table has ended")
            return
        if not self.moved <= c.expected <= self.number:
            self._error(
                c.conn,
                "stale_event",
                f"you saw event {c.expected}; the game changed at event {self.moved}"
                if c.expected < self.moved
                else f"event {c.expected} has not happened; the latest is {self.number}",
            )
            return
        if not self.started or self.game.current_player != seat:
            self._error(c.conn, "not_your_turn", f"seat {seat} is not the one to move")
            return
        try:
            self.game.play(c.action)
        except InvalidAction as e:
            self._error(c.conn, "invalid_action", str(e))
            return
        except IllegalAction as e:
            self._error(c.conn, "illegal_action", str(e))
            return
        self._charge_clock(moved=True)
        self._after_action("action", seat, by_bot=False)

    def _bot_move(self, c: BotMove) -> None:
        self._bot_task = None
        if (
            c.expected != self.number
            or self.over
            or not self.started
            or self.game.current_player != c.seat
            or not self._bot_plays(c.seat)
        ):
            return  # the table moved on while the bot thought; _maybe_bot asks again
        self.game.play(c.action)  # a bot returns one of the legal actions
        self._charge_clock(moved=True)
        self._after_action("action", c.seat, by_bot=True)

    def _after_action(self, kind: EventKind, seat: int, *, by_bot: bool) -> None:
        self._emit(kind, seat=seat, action=self.game.history[-1], by_bot=by_bot)
        self._maybe_end()

    def _resign(self, c: ResignCmd) -> None:
        seat = self._seat_of(c.conn)
        if seat is None:
            return
        if self.over:
            self._error(c.conn, "game_over", "the game at this table has ended")
            return
        if not self.started:
            self._error(c.conn, "not_your_turn", "the game has not started; leave instead")
            return
        self._charge_clock(moved=False)
        self.game.resign(seat)
        self._emit("resign", seat=seat)
        self._maybe_end()

    def _chat(self, c: Chat) -> None:
        if c.conn not in self._subs:
            self._error(c.conn, "not_seated", "not at this table; join or spectate to chat")
            return
        msg = ChatPosted(table_id=self.table_id, seat=self._subs[c.conn], name=c.name, text=c.text)
        for conn in self._subs:
            conn.put_nowait(msg)

    def _hint(self, c: HintCmd) -> None:
        seat = self._seat_of(c.conn)
        if seat is None:
            return
        if any(other.level is None for s, other in enumerate(self.seats) if s != seat):
            self._error(c.conn, "not_allowed", "hints are for games against the computer only")
            return
        if self.over or not self.started or self.game.current_player != seat:
            self._error(c.conn, "not_your_turn", f"seat {seat} is not the one to move")
            return
        request = BotRequest(
            HINT_LEVEL,
            self.game.game_id,
            self.game.view(seat),
            self.game.legal_actions(),
            self.bot_time,
            self._rng.getrandbits(64),
        )
        task = asyncio.create_task(self._advise(c.conn, request, self.number))
        self._hints.add(task)
        task.add_done_callback(self._hints.discard)

    async def _advise(self, conn: Outbox, request: BotRequest, number: int) -> None:
        try:
            decision = await self.runner.decide(request)
        except Exception:
            log.exception("table %s: the hint failed", self.table_id)
            self._error(conn, "internal_error", "no hint this time")
            return
        conn.put_nowait(
            HintMsg(
                table_id=self.table_id,
                event=number,
                action=decision.action,
                reasoning=decision.reasoning,
                values=decision.values,
            )
        )

    # -- clocks -------------------------------------------------------------------------
    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def clocks(self) -> list[float | None] | None:
        """Seconds left per seat (None for a seat without a clock), or None if untimed."""
        if self.config.time_control is None:
            return None
        out: list[float | None] = []
        for s, seat in enumerate(self.seats):
            left = seat.clock
            if left is not None and s == self._clock_seat:
                left = max(0.0, left - (self._now() - self._clock_since))
            out.append(None if left is None else round(left, 3))
        return out

    def _charge_clock(self, *, moved: bool) -> None:
        """Stop the running clock, charging the time used (and adding the increment)."""
        s, tc = self._clock_seat, self.config.time_control
        if s is None or tc is None:
            return
        seat = self.seats[s]
        assert seat.clock is not None
        seat.clock = max(0.0, seat.clock - (self._now() - self._clock_since))
        if moved:
            seat.clock += tc.increment
            if seat.timed_out:
                seat.clock = max(seat.clock, TIMEOUT_FLOOR)
        self._clock_seat = None
        self._cancel_timer("clock")

    def _arm_clock(self) -> None:
        """Run the clock of the person to move, if any; a timer fires at zero."""
        if self._clock_seat is not None:
            self._charge_clock(moved=False)
        s = self.game.current_player
        if (
            self.config.time_control is None
            or not self.started
            or self.over
            or s is None
            or self.seats[s].clock is None
            or self._bot_plays(s)
        ):
            return
        self._clock_seat, self._clock_since = s, self._now()
        clock = self.seats[s].clock
        assert clock is not None
        self._set_timer("clock", clock, Timeout(s, self.number))

    def _timeout(self, c: Timeout) -> None:
        if c.expected != self.number or self._clock_seat != c.seat or self.over:
            return
        self._charge_clock(moved=False)
        seat = self.seats[c.seat]
        seat.timed_out = True
        if self.config.on_timeout == "forfeit":
            self.game.resign(c.seat, "timeout")
            self._emit("timeout", seat=c.seat)
            self._maybe_end()
            return
        # The default move: what the easy bot would play from this seat's own view.
        bot = make_bot("easy", self.game.game_id)
        decision = bot.decide(
            self.game.view(c.seat), self.game.legal_actions(), Limits(time=0.01), self._rng
        )
        self.game.play(decision.action)
        seat.clock = max(seat.clock or 0.0, TIMEOUT_FLOOR)
        self._after_action("timeout", c.seat, by_bot=True)

    def _set_timer(self, key: Hashable, delay: float, command: Command) -> None:
        self._cancel_timer(key)
        loop = asyncio.get_running_loop()
        self._timers[key] = loop.call_later(max(0.0, delay), self.submit, command)

    def _cancel_timer(self, key: Hashable) -> None:
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()

    # -- game flow ----------------------------------------------------------------------
    def _maybe_start(self) -> None:
        if self.started:
            return
        humans = [s for s, seat in enumerate(self.seats) if seat.level is None]
        if (humans or self._start_asked) and all(
            self.seats[s].owner is not None and self.seats[s].conn is not None for s in humans
        ):
            self.started = True
            self.started_at = _now_iso()
            self._emit("start")
            self._maybe_end()

    def _maybe_end(self) -> None:
        outcome = self.game.outcome
        if outcome is None or self._final is not None:
            return
        self._charge_clock(moved=False)
        for key in list(self._timers):
            self._cancel_timer(key)
        self._final = record_of(self.game, self.record_names(), started=self.started_at)
        if self.listener is None:
            self._send_game_over()

    def outcome_info(self) -> OutcomeInfo | None:
        outcome = self.game.outcome
        if outcome is None:
            return None
        return OutcomeInfo(
            winners=list(outcome.winners),
            losers=list(outcome.losers),
            draw=outcome.draw,
            reason=cast(Reason, outcome.reason),
        )

    def _send_game_over(self) -> None:
        info = self.outcome_info()
        assert info is not None
        msg = GameOverMsg(table_id=self.table_id, outcome=info, record_id=self.record_id)
        for conn in self._subs:
            conn.put_nowait(msg)

    def _bot_plays(self, seat: int) -> bool:
        """A bot moves for a bot's seat, an absent person's seat, or a seat nobody holds."""
        state = self.seats[seat]
        return state.level is not None or state.away or (self.started and state.owner is None)

    def _maybe_bot(self) -> None:
        seat = self.game.current_player
        if (
            not self.started
            or self._bot_task is not None
            or seat is None
            or self.over
            or not self._bot_plays(seat)
        ):
            return
        view, legal = self.game.view(seat), self.game.legal_actions()
        self._bot_task = asyncio.create_task(self._think(seat, view, legal, self.number))

    async def _think(self, seat: int, view: dict[str, Any], legal: list[str], number: int) -> None:
        level = self.seats[seat].level or self.config.takeover
        seed = self._rng.getrandbits(64)
        try:
            decision = await self.runner.decide(
                BotRequest(level, self.game.game_id, view, legal, self.bot_time, seed)
            )
            action = decision.action
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "table %s: bot for seat %d failed; playing a legal move", self.table_id, seat
            )
            action = legal[0]
        self.submit(BotMove(seat, action, number))

    # -- messages -----------------------------------------------------------------------
    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see; for None (a spectator) the public view: no private hand,
        no private discard."""
        if seat is not None:
            return self.game.view(seat)
        view = self.game.view(0)
        full = self.game.to_json()
        for s in range(self.game.players):
            view["hands"][s] = {"count": len(full["hands"][s]), "known": self.public_known(s)}
        view["seat"] = None
        if "joker_discard" in view:
            view["joker_discard"] = None
        robbed = view.get("robbed")
        if isinstance(robbed, dict):
            view["robbed"] = {"seat": robbed["seat"]}
        return view

    def public_known(self, seat: int) -> list[str]:
        """The cards of ``seat``'s hand that everyone, a spectator included, knows.

        Not what another *player* knows: in the 2-player duel each player deduces the
        other's whole hand from their own (K19), which a spectator cannot.  Svoi Kozyri
        tracks the public ones (picked up, handed over as sixes) in its position's
        ``known``; in Twenty-Five every other seat's view shows the same public cards (a
        robbed turn-up), so any other seat's view gives them.
        """
        full = self.game.to_json()
        if "known" in full:
            return list(full["known"][seat])
        other = (seat + 1) % self.game.players
        hand = self.game.view(other)["hands"][seat]
        return list(hand["known"]) if isinstance(hand, dict) else []

    def seat_infos(self) -> list[SeatInfo]:
        return [
            SeatInfo(
                seat=s,
                name=seat.name,
                bot=cast(BotLevel | None, seat.level),
                connected=seat.level is not None or seat.conn is not None,
                away=seat.away,
            )
            for s, seat in enumerate(self.seats)
        ]

    def _legal_for(self, seat: int | None) -> list[str]:
        if seat is None or not self.started or self.over or self.game.current_player != seat:
            return []
        return self.game.legal_actions()

    def _to_move(self) -> int | None:
        return self.game.current_player if self.started else None

    def _shown(self, action: str | None, actor: int | None, viewer: int | None) -> str | None:
        if action is None or viewer == actor:
            return action
        return self.game.public_action(action, viewer)  # the game knows what is secret

    def _snapshot(self, seat: int | None) -> TableStateMsg:
        return TableStateMsg(
            table_id=self.table_id,
            game=cast(GameId, self.game.game_id),
            rules=self.game.rules,
            seats=self.seat_infos(),
            seat=seat,
            event=self.number,
            view=self.view_for(seat),
            legal=self._legal_for(seat),
            to_move=self._to_move(),
            clocks=self.clocks(),
            private=self.config.private,
            time_control=self.config.time_control,
            log=[
                LogEntry(
                    number=e.number,
                    kind=e.kind,
                    seat=e.seat,
                    action=self._shown(e.action, e.seat, seat),
                    by_bot=e.by_bot,
                )
                for e in self.events[-LOG_IN_SNAPSHOT:]
            ],
            outcome=self.outcome_info(),
            record_id=self.record_id,
        )

    def _emit(
        self,
        kind: EventKind,
        *,
        seat: int | None = None,
        action: str | None = None,
        by_bot: bool = False,
    ) -> None:
        self.number += 1
        if kind in _GAME_KINDS:
            self.moved = self.number
        self.events.append(_Entry(self.number, kind, seat, action, by_bot))
        clocks, to_move = self.clocks(), self._to_move()
        seats = None if kind in _GAME_KINDS else self.seat_infos()
        public: EventMsg | None = None  # spectators share one message
        for conn, viewer in self._subs.items():
            if viewer is None and public is not None:
                conn.put_nowait(public)
                continue
            msg = EventMsg(
                table_id=self.table_id,
                number=self.number,
                kind=kind,
                seat=seat,
                action=self._shown(action, seat, viewer),
                by_bot=by_bot,
                view=self.view_for(viewer),
                legal=self._legal_for(viewer),
                to_move=to_move,
                clocks=clocks,
                seats=seats,
            )
            if viewer is None:
                public = msg
            conn.put_nowait(msg)

    def _error(self, conn: Outbox, code: ErrorCode, message: str) -> None:
        conn.put_nowait(ErrorMsg(code=code, message=message, table_id=self.table_id))
