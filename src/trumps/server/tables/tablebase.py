"""The state of one live table and the queries on it, shared by the table's parts.

``Table`` (``trumps.server.tables.table``: the command loop and game flow) is this state with
the parts it holds, one module each, each given the state: what each recipient is shown
(``projection.Projection``, ``table.projection``), seats, watchers and grace periods
(``seats.Seating``, ``table.seating``), its bots (``botplay.TableBots``: moves, pace, hints)
and its storage (``persist.TableStorage``).  All of them
run only inside the table's one writer task.  The state also holds the table's time: the
Fischer clocks (``clock``) and the timers (``timing``), both read from one injected
``TimeSource`` so tests can drive them without waiting.
"""

from __future__ import annotations

import asyncio
import random
import unicodedata
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack, cast

from trumps.ai import make_bot
from trumps.fairdeal import Fairness
from trumps.games import Game
from trumps.host.pacing import seat_names
from trumps.ratings import Rating
from trumps.server.tables.bots import BotRunner
from trumps.server.tables.clock import FischerClocks
from trumps.server.tables.commands import Command, Outbox, Timeout
from trumps.server.tables.config import TableConfig
from trumps.server.tables.timing import KeyedTimers, LoopTime, TimeSource
from trumps.server.wire.protocol import ServerMessage, SpectatorList
from trumps.server.wire.wiretypes import MAX_SPECTATOR_NAMES, EventKind
from trumps.store import ChatLine

__all__ = [
    "CHAT_IN_SNAPSHOT",
    "GAME_KINDS",
    "StoreMarks",
    "TableBase",
    "TableOptions",
    "TakebackAsk",
]

CHAT_IN_SNAPSHOT = 50  # the latest chat lines a snapshot carries

# Events that change the game (the others change seats): only these make an action stale.
GAME_KINDS: frozenset[str] = frozenset({"start", "action", "resign", "timeout", "takeback"})


@dataclass
class StoreMarks:
    """What the store has of a table, and the changes it has not had yet (written by the
    table's ``TableStorage``, ``trumps.server.tables.persist``)."""

    created: bool = False  # the store has the table's row …
    row: int | None = None  # … with this id
    fence: int = 0  # the fencing number this process owns the table under
    events: int = 0  # how many of the table's events are stored
    ids: list[int | None] | None = None  # the seats' accounts last stored
    chat: list[ChatLine] = field(default_factory=list)  # lines said since the last write
    meta_dirty: bool = False  # a change only the settings row holds (a contribution)
    undone: int | None = None  # a take-back since the last write: the actions kept


@dataclass
class _Seat:
    """The server-side state of one seat."""

    level: str | None  # a bot level for a bot seat, None for a person's seat
    owner: object = None  # the person who holds it (player id or connection)
    name: str | None = None
    conn: Outbox | None = None  # the owner's live connection
    away: bool = False  # a takeover bot plays for the seat
    epoch: int = 0  # counts absences, so a stale grace timer is ignored
    # The fair deal (docs/fairness.md): the owner's client promised a contribution, and
    # the contribution it gave (the game is dealt once every promise is kept).
    promised: bool = False
    contribution: str | None = None
    # Who held the seat when the game started: a rated game rates them, and counts it a
    # loss for them if they gave the seat up (docs/ratings.md).
    starter: object = None


@dataclass
class TakebackAsk:
    """A take-back ``seat`` asked for (docs/protocol.md#takeback): the other people at the
    table who must accept it (``needed``), and those who have."""

    seat: int
    needed: frozenset[int]
    accepted: set[int] = field(default_factory=set)


@dataclass
class _Entry:
    number: int
    kind: EventKind
    seat: int | None
    action: str | None
    by_bot: bool
    ply: int | None = None  # the index of the action it added to the record, if any


class TableOptions(TypedDict, total=False):
    """How a table is set up beyond its game and seats (each may be left out)."""

    config: TableConfig | None  # its settings (default ``TableConfig()``)
    runner: BotRunner | None  # where its bots think (default: in this process)
    bot_time: float | None  # seconds a bot thinks per move (default 0.05; None: no limit)
    bot_seed: int | None  # the bots' random seed (None: fresh)
    time: TimeSource | None  # where its clocks and timers read the time (default: the loop)
    secret: str | None  # the server's secret of its fair deal (docs/fairness.md)


class TableBase:
    """The data of a live table; see ``Table`` for its behaviour."""

    def __init__(
        self,
        table_id: str,
        game: Game,
        seats: Sequence[str | None],
        **options: Unpack[TableOptions],
    ) -> None:
        unknown = sorted(set(options) - TableOptions.__optional_keys__)
        if unknown:  # mypy names them too; this is for callers it does not check
            raise TypeError(f"a table has no option {', '.join(unknown)}")
        config = options.get("config")
        runner = options.get("runner")
        bot_time = options.get("bot_time", 0.05)
        bot_seed = options.get("bot_seed")
        time = options.get("time")
        secret = options.get("secret")
        if len(seats) != game.players:
            raise ValueError(f"{game.players} seats needed, got {len(seats)}")
        self.table_id = table_id
        self.game = game
        # The server's secret for this game's deal; its SHA-256 is published (fairdeal).
        self.secret = secret
        self.config = config or TableConfig()
        self.seats = [_Seat(level) for level in seats]
        for level in {*seats, self.config.takeover} - {None}:
            make_bot(cast(str, level), game.game_id)  # an unknown level fails here, not later
        self.runner = runner or BotRunner(0)
        self.bot_time = bot_time
        self._rng = random.Random(bot_seed)
        self.time: TimeSource = time or LoopTime()
        self.commands: asyncio.Queue[Command] = asyncio.Queue()
        self.number = 0  # the latest event number
        self.moved = 0  # the latest event that changed the game (not a join, leave …)
        self.started = False
        self.started_at: str | None = None
        self.record_id: int | None = None
        self.events: list[_Entry] = []
        self._subs: dict[Outbox, int | None] = {}  # connection -> seat or None
        # spectator -> (person, name); the name None: the person chose none
        self._watchers: dict[Outbox, tuple[object, str | None]] = {}
        #: Why the table was given up unfinished ("idle", "not_started"), once it was.
        self.expired: str | None = None
        self._timers = KeyedTimers(self.time)
        self._task: asyncio.Task[None] | None = None
        self.final_record: dict[str, Any] | None = None  # the record, once the game ended
        self._start_asked = False
        self.takeback: TakebackAsk | None = None  # a take-back waiting for answers
        self.clock = FischerClocks(
            self.config.time_control, [seat.level is None for seat in self.seats], self.time.now
        )
        # Durability (``trumps.server.tables.persist``): what is stored, what is held back until it is.
        self.labels: dict[str, Any] = {}  # the server's own settings stored beside the table
        # The bots' fixed ratings (family -> level -> Rating), for a rated game's end.
        self.bot_ratings: Mapping[str, Mapping[str, Rating]] = {}
        self.stored = StoreMarks()  # what the store has of it, and what it has not yet
        self.chat: list[ChatLine] = []  # the latest lines (CHAT_IN_SNAPSHOT)
        self.chat_count = 0
        self.abandoned = False  # a change could not be stored: the task ended
        self._held: list[tuple[Outbox, ServerMessage]] | None = None  # sent once durable

    def _send(self, conn: Outbox, msg: ServerMessage) -> None:
        """Send ``msg`` to ``conn`` — once what it tells is stored, during a command."""
        if self._held is not None:
            self._held.append((conn, msg))
        else:
            conn.put_nowait(msg)

    # -- queries -----------------------------------------------------------------------------
    def subscribers(self) -> list[Outbox]:
        """The connections hearing this table (its seats' and its spectators')."""
        return list(self._subs)

    def hears(self, conn: Outbox) -> bool:
        """Whether ``conn`` hears this table."""
        return conn in self._subs

    @property
    def levels(self) -> list[str | None]:
        return [seat.level for seat in self.seats]

    @property
    def names(self) -> list[str | None]:
        return [seat.name for seat in self.seats]

    def fairness(self) -> Fairness | None:
        """The game's fair-deal data (secret and contributions), if it is dealt so."""
        if self.secret is None:
            return None
        return Fairness(self.secret, tuple(seat.contribution for seat in self.seats))

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

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

    def shown_names(self) -> list[str | None]:
        """Each seat's name as every client shows it: the person's; a bot seat's its level
        (``medium bot``), numbered when several bots of one level sit at the table
        (``medium bot 1``, ``medium bot 2``), so that no two seats read alike; None for a
        person's seat nobody holds, and for a person who chose no name (``taken`` tells
        them apart: clients word the latter in their own language, "Guest")."""
        return seat_names([s.level for s in self.seats], [s.name for s in self.seats])

    def taken(self, seat: int) -> bool:
        """Someone holds ``seat``: a bot, a person, or the takeover bot of a person who gave
        it up in a running game (a seat that is not taken is open and unnamed)."""
        state = self.seats[seat]
        return state.level is not None or state.owner is not None or state.away

    def record_names(self) -> list[str]:
        """The names a record stores: a person who chose no name is ``Guest`` there (stored
        data, in English), a seat nobody held ``Seat n``."""
        return [
            name or ("Guest" if self.taken(s) or self.seats[s].starter is not None else f"Seat {s}")
            for s, name in enumerate(self.shown_names())
        ]

    def watcher_names(self) -> dict[object, str | None]:
        """Each person watching (in the order they came) and the name the table shows them
        by: their own, unless a seat's name or an earlier watcher's reads the same (ignoring
        case, width and spacing), then numbered (``Ana (2)``), so that nobody watching can
        pass for a player — or for another watcher — in the list or in the chat.  None for
        a person who chose no name (each client words it: "Guest")."""
        people: dict[object, str | None] = {}
        for owner, name in self._watchers.values():
            people.setdefault(owner, name)
        shown = self.shown_names()
        out: dict[object, str | None] = {}
        for owner, name in people.items():
            if name is None:
                out[owner] = None
                continue
            taken = {
                _name_key(n)
                for s, n in enumerate(shown)
                if n and self.seats[s].owner != owner  # a player watching is still themself
            } | {_name_key(n) for n in out.values() if n}
            wanted, k = name, 2
            while _name_key(wanted) in taken:
                wanted, k = f"{name} ({k})", k + 1
            out[owner] = wanted
        return out

    def spectator_list(self) -> SpectatorList:
        """The people watching (one per person, in the order they came): their count and
        the first ``MAX_SPECTATOR_NAMES`` names.  Names only, nothing of the game."""
        names = list(self.watcher_names().values())
        return SpectatorList(count=len(names), names=names[:MAX_SPECTATOR_NAMES])

    def chat_name(self, conn: Outbox, name: str | None) -> str | None:
        """The name a line of chat from ``conn`` goes out under: a seat's own, a watcher's
        as the spectator list shows it."""
        watcher = self._watchers.get(conn)
        if watcher is None:
            return name
        return self.watcher_names().get(watcher[0], name)

    def clocks(self) -> list[float | None] | None:
        """Seconds left per seat (None for a seat without a clock), or None if untimed."""
        return self.clock.snapshot()

    def _bot_plays(self, seat: int) -> bool:
        """A bot moves for a bot's seat, an absent person's seat, or a seat nobody holds."""
        state = self.seats[seat]
        return state.level is not None or state.away or (self.started and state.owner is None)

    # -- timers and the running clock ----------------------------------------------------------
    def submit(self, command: Command) -> None:
        """Enqueue a command (safe before the task runs; commands are handled in order)."""
        self.commands.put_nowait(command)

    def _set_timer(self, key: Hashable, delay: float, command: Command) -> None:
        self._timers.set(key, delay, lambda: self.submit(command))

    def _cancel_timer(self, key: Hashable) -> None:
        self._timers.cancel(key)

    def _charge_clock(self, *, moved: bool) -> None:
        """Stop the running clock, charging the time used (and adding the increment)."""
        if self.clock.stop(moved=moved) is not None:
            self._cancel_timer("clock")

    def _arm_clock(self) -> None:
        """Run the clock of the person to move, if any; a timer fires at zero (none while
        the clocks are held: ``release_clock`` sets it)."""
        if self.clock.running is not None:
            self._charge_clock(moved=False)
        s = self.game.current_player
        if (
            self.config.time_control is None
            or not self.started
            or self.over
            or s is None
            or self.clock.left[s] is None
            or self._bot_plays(s)
        ):
            return
        left = self.clock.start(s)
        if not self.clock.paused:
            self._set_timer("clock", left, Timeout(s, self.number))

    # These two are called by the server from outside the table's task: they are synchronous
    # (nothing else runs meanwhile) and touch only the clocks and the clock's timer.
    def hold_clock(self) -> None:
        """The service cannot take moves now (its store or Redis is unreachable): the
        running clock stops charging time and cannot run out until ``release_clock``."""
        self.clock.pause()
        self._cancel_timer("clock")

    def release_clock(self) -> None:
        """Moves can be taken again: the running clock goes on from where it was held."""
        if not self.clock.paused:
            return
        self.clock.resume()
        left = self.clock.remaining()
        if left is not None and self.clock.running is not None:
            self._set_timer("clock", left, Timeout(self.clock.running, self.number))


def _name_key(name: str) -> str:
    """A name as compared for sameness: compatibility-normalised, case-folded, spaces
    collapsed (``Ａｎａ``, ``ANA`` and ``ana `` are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
