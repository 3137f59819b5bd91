"""One live table: the single writer that owns a game (STYLE habit 8, issue 4 items 3–6).

A ``Table`` runs as one asyncio task consuming commands from a queue in order — joins and
leaves, actions (with the event number the client last saw), resignations, resyncs and bot
moves — and emitting numbered events.  Every message to a seat is built from
``game.view(seat)``; spectators get a public view with no private hand at all.  Rejected
commands answer with an ``Error`` carrying a protocol error code and change nothing.

Subscribers are per-connection ``asyncio.Queue`` objects; the queue itself identifies the
connection.  Bots act through the same command path: when a bot seat is to move, its
``decide`` runs in a worker thread and its choice is enqueued as a ``BotMove``.  No sockets
and no store here: the server and persistence layers wrap this class.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, cast

from trumps.ai import Bot, Limits, make_bot
from trumps.errors import IllegalAction, InvalidAction
from trumps.games import Game
from trumps.records import record_of
from trumps.server.protocol import (
    BotLevel,
    ErrorCode,
    EventKind,
    GameId,
    OutcomeInfo,
    Reason,
    SeatInfo,
    ServerMessage,
)
from trumps.server.protocol import Error as ErrorMsg
from trumps.server.protocol import Event as EventMsg
from trumps.server.protocol import GameOver as GameOverMsg
from trumps.server.protocol import TableState as TableStateMsg

__all__ = [
    "Act",
    "BotMove",
    "Command",
    "Join",
    "Leave",
    "ResignCmd",
    "ResyncCmd",
    "Start",
    "Stop",
    "Subscriber",
    "Table",
    "TableNotOver",
]

Subscriber: TypeAlias = "asyncio.Queue[ServerMessage]"


class TableNotOver(RuntimeError):
    """``Table.record()`` before the game ended: a running record holds the seed."""


# ---------------------------------------------------------------- commands


@dataclass(frozen=True)
class Join:
    """Subscribe ``conn``: sit in ``seat`` (a human seat) or spectate when ``seat`` is None."""

    conn: Subscriber
    seat: int | None = None
    name: str | None = None


@dataclass(frozen=True)
class Leave:
    """Unsubscribe ``conn`` (a seated player's seat opens again)."""

    conn: Subscriber


@dataclass(frozen=True)
class Act:
    """``conn`` plays ``action``; ``expected`` is the last event number it has seen."""

    conn: Subscriber
    action: str
    expected: int


@dataclass(frozen=True)
class ResignCmd:
    """``conn`` resigns for its seat."""

    conn: Subscriber


@dataclass(frozen=True)
class ResyncCmd:
    """``conn`` asks for a fresh snapshot."""

    conn: Subscriber


@dataclass(frozen=True)
class BotMove:
    """A bot's decision for ``seat``, made when the table was at event ``expected``."""

    seat: int
    action: str
    expected: int


@dataclass(frozen=True)
class Start:
    """Start the game if every human seat is taken (a bot-only table starts on this)."""


@dataclass(frozen=True)
class Stop:
    """End the table's task."""


Command: TypeAlias = Join | Leave | Act | ResignCmd | ResyncCmd | BotMove | Start | Stop


# ---------------------------------------------------------------- the table


class Table:
    """The one writer of a live table.

    ``seats`` has one entry per seat: a bot level (``"random"`` … ``"expert"``) or None for a
    seat open to a person.  The game starts (event 1, kind ``start``) once every human seat is
    taken, checked after each command; a table of bots only starts on ``start()`` (a
    ``Start`` command), so watchers can subscribe first.
    """

    def __init__(
        self,
        table_id: str,
        game: Game,
        seats: Sequence[str | None],
        *,
        bot_time: float = 0.05,
        bot_seed: int | None = None,
    ) -> None:
        if len(seats) != game.players:
            raise ValueError(f"{game.players} seats needed, got {len(seats)}")
        self.table_id = table_id
        self.game = game
        self.levels: list[str | None] = list(seats)
        self.bots: dict[int, Bot] = {
            s: make_bot(level, game.game_id) for s, level in enumerate(seats) if level is not None
        }
        self.bot_time = bot_time
        self._rng = random.Random(bot_seed)
        self.commands: asyncio.Queue[Command] = asyncio.Queue()
        self.number = 0  # the latest event number
        self.started = False
        self.names: list[str | None] = [None] * game.players
        self._holder: dict[int, Subscriber] = {}  # human seat -> its connection
        self._subs: dict[Subscriber, int | None] = {}  # connection -> seat or None
        self._bot_task: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._final: dict[str, Any] | None = None
        self._start_asked = False

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

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    # -- the writer loop --------------------------------------------------------------------
    async def run(self) -> None:
        try:
            while True:
                command = await self.commands.get()
                if isinstance(command, Stop):
                    return
                self._handle(command)
                self._maybe_start()
                self._maybe_bot()
        finally:
            if self._bot_task is not None:
                self._bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._bot_task

    def _handle(self, command: Command) -> None:
        if isinstance(command, Join):
            self._join(command)
        elif isinstance(command, Leave):
            self._leave(command)
        elif isinstance(command, Act):
            self._act(command)
        elif isinstance(command, ResignCmd):
            self._resign(command)
        elif isinstance(command, ResyncCmd):
            if command.conn not in self._subs:
                self._error(command.conn, "not_seated", "not at this table; join or spectate")
            else:
                command.conn.put_nowait(self._snapshot(self._subs[command.conn]))
        elif isinstance(command, BotMove):
            self._bot_move(command)
        elif isinstance(command, Start):
            self._start_asked = True

    # -- commands -----------------------------------------------------------------------
    def _join(self, c: Join) -> None:
        if c.conn in self._subs:
            self._leave(Leave(c.conn))
        if c.seat is None:
            self._subs[c.conn] = None
            c.conn.put_nowait(self._snapshot(None))
            return
        if not 0 <= c.seat < self.game.players or self.levels[c.seat] is not None:
            self._error(c.conn, "table_full", f"seat {c.seat} is not open for a person")
            return
        if c.seat in self._holder:
            self._error(c.conn, "table_full", f"seat {c.seat} is taken")
            return
        self._holder[c.seat] = c.conn
        self._subs[c.conn] = c.seat
        self.names[c.seat] = c.name
        c.conn.put_nowait(self._snapshot(c.seat))
        self._emit("join", seat=c.seat)

    def _leave(self, c: Leave) -> None:
        seat = self._subs.pop(c.conn, None)
        if seat is not None:
            del self._holder[seat]
            self._emit("leave", seat=seat)

    def _seat_of(self, conn: Subscriber) -> int | None:
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
        if c.expected != self.number:
            self._error(
                c.conn, "stale_event", f"expected event {c.expected}, latest is {self.number}"
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
        self._after_action(seat, by_bot=False)

    def _bot_move(self, c: BotMove) -> None:
        self._bot_task = None
        if (
            c.expected != self.number
            or self.over
            or not self.started
            or self.game.current_player != c.seat
        ):
            return  # the table moved on while the bot thought; _maybe_bot asks again
        self.game.play(c.action)  # a bot returns one of the legal actions
        self._after_action(c.seat, by_bot=True)

    def _after_action(self, seat: int, *, by_bot: bool) -> None:
        self._emit("action", seat=seat, action=self.game.history[-1], by_bot=by_bot)
        self._maybe_end()

    def _resign(self, c: ResignCmd) -> None:
        seat = self._seat_of(c.conn)
        if seat is None:
            return
        if self.over:
            self._error(c.conn, "game_over", "the game at this table has ended")
            return
        self.game.resign(seat)
        self._emit("resign", seat=seat)
        self._maybe_end()

    # -- game flow ----------------------------------------------------------------------
    def _maybe_start(self) -> None:
        if self.started:
            return
        humans = [s for s, level in enumerate(self.levels) if level is None]
        if (humans or self._start_asked) and all(s in self._holder for s in humans):
            self.started = True
            self._emit("start")
            self._maybe_end()

    def _maybe_end(self) -> None:
        outcome = self.game.outcome
        if outcome is None or self._final is not None:
            return
        names = [
            self.names[s] or (f"{self.levels[s]} bot" if self.levels[s] else f"Seat {s}")
            for s in range(self.game.players)
        ]
        self._final = record_of(self.game, names)
        info = OutcomeInfo(
            winners=list(outcome.winners),
            losers=list(outcome.losers),
            draw=outcome.draw,
            reason=cast(Reason, outcome.reason),
        )
        for conn in self._subs:
            conn.put_nowait(GameOverMsg(table_id=self.table_id, outcome=info))

    def _maybe_bot(self) -> None:
        seat = self.game.current_player
        if not self.started or self._bot_task is not None or seat is None or seat not in self.bots:
            return
        view, legal = self.game.view(seat), self.game.legal_actions()
        self._bot_task = asyncio.create_task(self._think(seat, view, legal, self.number))

    async def _think(self, seat: int, view: dict[str, Any], legal: list[str], number: int) -> None:
        bot = self.bots[seat]
        rng = random.Random(self._rng.getrandbits(64))
        decision = await asyncio.to_thread(bot.decide, view, legal, Limits(time=self.bot_time), rng)
        self.submit(BotMove(seat, decision.action, number))

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

    def _seats(self) -> list[SeatInfo]:
        return [
            SeatInfo(
                seat=s,
                name=self.names[s],
                bot=cast(BotLevel | None, self.levels[s]),
                connected=self.levels[s] is not None or s in self._holder,
            )
            for s in range(self.game.players)
        ]

    def _legal_for(self, seat: int | None) -> list[str]:
        if seat is None or not self.started or self.game.current_player != seat:
            return []
        return self.game.legal_actions()

    def _to_move(self) -> int | None:
        return self.game.current_player if self.started else None

    def _snapshot(self, seat: int | None) -> TableStateMsg:
        return TableStateMsg(
            table_id=self.table_id,
            game=cast(GameId, self.game.game_id),
            rules=self.game.rules,
            seats=self._seats(),
            seat=seat,
            event=self.number,
            view=self.view_for(seat),
            legal=self._legal_for(seat),
            to_move=self._to_move(),
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
        for conn, viewer in self._subs.items():
            conn.put_nowait(
                EventMsg(
                    table_id=self.table_id,
                    number=self.number,
                    kind=kind,
                    seat=seat,
                    action=action,
                    by_bot=by_bot,
                    view=self.view_for(viewer),
                    legal=self._legal_for(viewer),
                    to_move=self._to_move(),
                )
            )

    def _error(self, conn: Subscriber, code: ErrorCode, message: str) -> None:
        conn.put_nowait(ErrorMsg(code=code, message=message, table_id=self.table_id))
