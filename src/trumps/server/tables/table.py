"""One live table: the single writer that owns a game (STYLE habit 8, issue 4 items 3–6).

A ``Table`` runs as one asyncio task consuming commands (``trumps.server.tables.commands``) from a
queue in order — joins and leaves, disconnects, actions (with the event number the client
last saw), resignations, resyncs, chat, bot moves, timer expiries — and emitting numbered
events.  Rejected commands answer with an ``Error`` carrying a protocol error code and
change nothing.  The table is its state (``tablebase``: seats, events, clocks and timers on an
injected ``TimeSource``) and the parts it holds, one module per concern:

- ``projection`` (``table.projection``): what each seat and spectator is sent (built from
  that seat's view), the numbered events, errors;
- ``seats`` (``table.seating``): owners, reconnects, leaving, the grace period;
- ``botplay`` (``table.bots``): bot moves and hints, thought off the event loop;
- ``persist`` (``table.storage``): what is stored, and held back until it is;
- this module: the command loop, actions, resignations, timeouts, start and end.

A Fischer clock per person's seat, when the table has a time control, ends a turn at zero
with a default move (the ``easy`` bot's choice) or a forfeit.  Subscribers are
per-connection outboxes (anything with ``put_nowait``).  No sockets and no store here: a
``TableListener`` (the server's hub) is told about changes and persists them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol, Unpack

from trumps.ai import Limits, make_bot
from trumps.errors import IllegalAction, InvalidAction
from trumps.games import Game
from trumps.host.takeback import kept_after_takeback
from trumps.records import record_of
from trumps.server.tables.botplay import HINT_LEVEL, UNSTARTED_END, TableBots
from trumps.server.tables.bots import BotRunner
from trumps.server.tables.clock import TIMEOUT_FLOOR
from trumps.server.tables.commands import (
    Act,
    BotMove,
    Chat,
    Command,
    ConnCommand,
    ContinueCmd,
    ContributeCmd,
    Disconnect,
    Expire,
    GraceOver,
    HintCmd,
    Join,
    Leave,
    Outbox,
    ResignCmd,
    ResyncCmd,
    Start,
    Stop,
    Subscriber,
    TakebackAnswerCmd,
    TakebackCmd,
    Timeout,
)
from trumps.server.tables.config import TableConfig
from trumps.server.tables.persist import TableStorage
from trumps.server.tables.projection import LOG_IN_SNAPSHOT, Projection, why_msg
from trumps.server.tables.seats import Seating
from trumps.server.tables.tablebase import CHAT_IN_SNAPSHOT, TableBase, TableOptions, TakebackAsk
from trumps.server.tables.timing import TimeSource
from trumps.server.wire.protocol import ChatPosted
from trumps.server.wire.wiretypes import EventKind
from trumps.store import ChatLine, RunningTable

__all__ = [
    "HINT_LEVEL",
    "LOG_IN_SNAPSHOT",
    "TIMEOUT_FLOOR",
    "Act",
    "BotMove",
    "Chat",
    "Command",
    "ConnCommand",
    "ContinueCmd",
    "ContributeCmd",
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
    "TakebackAnswerCmd",
    "TakebackCmd",
    "Timeout",
]

log = logging.getLogger(__name__)


class _Abandoned(Exception):
    """A change could not be stored: the table's task ends (another process owns it)."""


class TableNotOver(RuntimeError):
    """``Table.record()`` before the game ended: a running record holds the seed."""


class TableListener(Protocol):
    """What a table tells the server about (persistence, the lobby list)."""

    def table_changed(self, table: Table) -> None:
        """An event happened and is stored: seats, progress or clocks changed."""

    def table_expired(self, table: Table) -> None:
        """``table`` gave itself up unfinished (``table.expired`` says why): forget it."""

    async def table_write(self, table: Table) -> int:
        """Store ``table.storage.pending_write()`` (then call ``table.storage.wrote``); its game id.

        Waits until the write is durable.  Raises when it can never be (another process
        owns the table, the server stops): the table then ends without telling anyone."""


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Table(TableBase):
    """The one writer of a live table.

    ``seats`` has one entry per seat: a bot level (``"random"`` … ``"expert"``) or None for a
    seat open to a person.  The game starts (event ``start``) once every person's seat is
    taken, checked after each command; a table of bots only starts on ``start()`` (a
    ``Start`` command), so watchers can subscribe first.  ``time`` is where the clocks and
    timers read the time (default: the event loop; tests pass a ``ManualTime``).
    """

    def __init__(
        self,
        table_id: str,
        game: Game,
        seats: Sequence[str | None],
        *,
        listener: TableListener | None = None,
        **options: Unpack[TableOptions],
    ) -> None:
        super().__init__(table_id, game, seats, **options)
        self.listener = listener
        self.projection = Projection(self)  # what each recipient is shown; its events
        self.seating = Seating(self, self.projection)  # who sits and watches, and how
        self.storage = TableStorage(self)  # what it stores, and when
        self.bots = TableBots(self, self.projection, self.seating)  # its bots' moves, pace, hints

    # -- the outside surface --------------------------------------------------------------
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
        """The finished game's record (docs/records.md); raises ``TableNotOver`` while it runs."""
        if self.final_record is None:
            raise TableNotOver(f"table {self.table_id}: the game has not ended")
        return dict(self.final_record)

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
        bot_time: float | None = 0.05,
        started_at: str | None = None,
        time: TimeSource | None = None,
        stored: RunningTable | None = None,
    ) -> Table:
        """A table rebuilt after a restart from its replayed game and stored ``meta``
        (and, from ``stored``, its event log, chat and fencing number).

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
            time=time,
            secret=(meta.get("fair") or {}).get("secret"),
        )
        table.started = bool(meta.get("started", True))
        table.started_at = started_at
        table.number = table.moved = int(meta.get("number", 0))
        for s, seat in enumerate(table.seats):
            seat.owner = owners[s] if seat.level is None else None
            seat.name = meta.get("names", [None] * game.players)[s]
            seat.away = bool(meta.get("away", [False] * game.players)[s])
            seat.starter = meta.get("starters", [None] * game.players)[s]
            fair = meta.get("fair")
            if fair is not None:
                seat.promised = bool(fair["promised"][s])
                seat.contribution = fair["contributions"][s]
            clocks = meta.get("clocks")
            if clocks is not None and clocks[s] is not None:
                table.clock.left[s] = float(clocks[s])
        if stored is not None:
            table.storage.restore(
                events=stored.events,
                chat=stored.chat,
                player_ids=stored.player_ids,
                fence=stored.fence,
                chat_count=int(meta.get("chat_count", 0)),
                game_id=stored.game_id,
            )
        return table

    # -- the writer loop --------------------------------------------------------------------
    async def run(self) -> None:
        for s, seat in enumerate(self.seats):  # a resumed table: everyone is absent
            if seat.owner is not None and seat.conn is None and not seat.away:
                self.seating.absent(s)
        if not self.started:
            self._set_timer("unstarted", UNSTARTED_END, Expire("not_started"))
        self.bots.maybe_bot()
        self._arm_clock()
        try:
            while True:
                command = await self.commands.get()
                try:
                    if isinstance(command, Stop):
                        return
                    await self._step(command)
                except _Abandoned:
                    self.abandoned = True
                    return
                finally:
                    self.commands.task_done()
        finally:
            self._timers.cancel_all()
            await self.bots.stop()

    async def _step(self, command: Command) -> None:
        """Handle one command and store what it changed; only then send its messages, and
        let the bots, the clock and the listener catch up."""
        number = self.number
        self._held = []
        try:
            try:
                self._handle(command)
                self._maybe_start()
            except Exception:
                log.exception("table %s failed on %r", self.table_id, command)
                if isinstance(command, ConnCommand):
                    self.projection.error(
                        command.conn, "internal_error", "the server failed on this request"
                    )
            if self.listener is not None and self.storage.needs_write():
                final = self.final_record is not None and self.record_id is None
                try:
                    game_id = await self.listener.table_write(self)
                except Exception as e:
                    # Not durable, so never told: this process gives the table up.
                    log.warning("table %s: stopped, its changes not stored: %s", self.table_id, e)
                    self._held = []
                    raise _Abandoned from e
                if final:
                    self.record_id = game_id
                    self.projection.send_game_over()
        finally:
            held, self._held = self._held, None
            for conn, msg in held:
                conn.put_nowait(msg)
        if self.expired is not None:
            if self.listener is not None:
                self.listener.table_expired(self)
            return
        self.bots.maybe_bot()
        if self.number != number:
            self._arm_clock()
            if self.listener is not None:
                self.listener.table_changed(self)

    async def settled(self) -> None:
        """Wait until every command queued so far is handled and no bot or hint is still
        thinking (for tests: with a ``ManualTime`` the table then waits only on time)."""
        while True:
            await self.commands.join()
            thinking = self.bots.thinking()
            if not thinking:
                if self.commands.empty():
                    return
                continue
            await asyncio.wait(thinking)

    def _handle(self, command: Command) -> None:
        if isinstance(command, Join):
            self.seating.join(command)
        elif isinstance(command, Leave):
            self.seating.leave(command.conn, on_purpose=True)
        elif isinstance(command, Disconnect):
            self.seating.leave(command.conn, on_purpose=False)
        elif isinstance(command, Act):
            self._act(command)
        elif isinstance(command, ResignCmd):
            self._resign(command)
        elif isinstance(command, ContinueCmd):
            self.bots.continue_hand(command)
        elif isinstance(command, ResyncCmd):
            if command.conn not in self._subs:
                self.projection.error(
                    command.conn, "not_seated", "not at this table; join or spectate"
                )
            else:
                self._send(command.conn, self.projection.snapshot(self._subs[command.conn]))
        elif isinstance(command, Chat):
            self._chat(command)
        elif isinstance(command, HintCmd):
            self.bots.hint(command)
        elif isinstance(command, TakebackCmd):
            self._ask_takeback(command)
        elif isinstance(command, TakebackAnswerCmd):
            self._answer_takeback(command)
        elif isinstance(command, ContributeCmd):
            self.seating.contribute(command)
        elif isinstance(command, BotMove):
            self._bot_move(command)
        elif isinstance(command, GraceOver):
            self.seating.grace_over(command)
        elif isinstance(command, Timeout):
            self._timeout(command)
        elif isinstance(command, Start):
            self._start_asked = True
        elif isinstance(command, Expire):
            self.bots.expire(command)

    def _act(self, c: Act) -> None:
        seat = self.seating.seat_of(c.conn)
        if seat is None:
            return
        if self.over:
            self.projection.error(c.conn, "game_over", "the game at this table has ended")
            return
        if not self.moved <= c.expected <= self.number:
            self.projection.error(
                c.conn,
                "stale_event",
                f"you saw event {c.expected}; the game changed at event {self.moved}"
                if c.expected < self.moved
                else f"event {c.expected} has not happened; the latest is {self.number}",
            )
            return
        if not self.started or self.game.current_player != seat:
            self.projection.error(c.conn, "not_your_turn", f"seat {seat} is not the one to move")
            return
        try:
            self.game.play(c.action)
        except InvalidAction as e:
            self.projection.error(c.conn, "invalid_action", str(e))
            return
        except IllegalAction as e:
            self.projection.error(
                c.conn, "illegal_action", str(e), why_msg(self.game.why_not(c.action, seat))
            )
            return
        self._charge_clock(moved=True)
        self._after_action("action", seat, by_bot=False)

    def _bot_move(self, c: BotMove) -> None:
        self.bots.chose()
        if (
            c.expected != self.number
            or self.over
            or not self.started
            or self.game.current_player != c.seat
            or not self._bot_plays(c.seat)
        ):
            return  # the table moved on while the bot thought; maybe_bot asks again
        self.game.play(c.action)  # a bot returns one of the legal actions
        self._charge_clock(moved=True)
        self._after_action("action", c.seat, by_bot=True)

    def _after_action(self, kind: EventKind, seat: int, *, by_bot: bool) -> None:
        ply = len(self.game.history) - 1
        self.bots.moved()
        self.projection.emit(kind, seat=seat, action=self.game.history[-1], by_bot=by_bot, ply=ply)
        self._maybe_end()

    def _resign(self, c: ResignCmd) -> None:
        seat = self.seating.seat_of(c.conn)
        if seat is None:
            return
        if self.over:
            self.projection.error(c.conn, "game_over", "the game at this table has ended")
            return
        if not self.started:
            self.projection.error(
                c.conn, "not_your_turn", "the game has not started; leave instead"
            )
            return
        self._charge_clock(moved=False)
        self.game.resign(seat)
        self.projection.emit("resign", seat=seat)
        self._maybe_end()

    # -- take-backs (docs/protocol.md#takeback; the rule: trumps.host.takeback) ------------
    def _ask_takeback(self, c: TakebackCmd) -> None:
        seat = self.seating.seat_of(c.conn)
        if seat is None:
            return
        refusal = self.projection.takeback_refusal(seat)
        if refusal is not None:
            self.projection.error(c.conn, *refusal)
            return
        # Every other person holding a seat is asked, one away too (a takeover bot's move
        # meanwhile answers no); a seat nobody holds is the bots', as at a computer's seat.
        others = frozenset(
            s
            for s, other in enumerate(self.seats)
            if s != seat and other.level is None and other.owner is not None
        )
        if not others:  # against the computer: at once
            self._take_back(seat)
            return
        self.takeback = TakebackAsk(seat, others)
        self.projection.emit("takeback_ask", seat=seat)

    def _answer_takeback(self, c: TakebackAnswerCmd) -> None:
        seat = self.seating.seat_of(c.conn)
        if seat is None:
            return
        asked = self.takeback
        if asked is None or seat not in asked.needed:
            self.projection.error(c.conn, "not_allowed", "no take-back is waiting for your answer")
            return
        if not c.accept:
            self.takeback = None
            self.projection.emit("takeback_no", seat=seat)
            return
        asked.accepted.add(seat)
        if asked.accepted >= asked.needed:
            self._take_back(asked.seat)

    def _take_back(self, seat: int) -> None:
        """Undo ``seat``'s last move and every move after it (the rule was checked)."""
        kept = kept_after_takeback(self.events, seat)
        assert kept is not None
        undone = self.game.history[kept]
        self._charge_clock(moved=False)  # the time spent stays spent
        while len(self.game.history) > kept:
            self.game.undo()
        for e in self.events:  # their events no longer add an action to the record
            if e.ply is not None and e.ply >= kept:
                e.ply = None
        stored = self.stored
        stored.undone = kept if stored.undone is None else min(stored.undone, kept)
        self.bots.moved()
        self.projection.emit("takeback", seat=seat, action=undone)

    def _chat(self, c: Chat) -> None:
        if c.conn not in self._subs:
            self.projection.error(
                c.conn, "not_seated", "not at this table; join or spectate to chat"
            )
            return
        seat = self._subs[c.conn]
        name = self.chat_name(c.conn, c.name)
        self.chat_count += 1
        line = ChatLine(self.chat_count, seat, name or "", c.text)  # "": no name chosen
        self.stored.chat.append(line)
        self.chat = [*self.chat[1 - CHAT_IN_SNAPSHOT :], line]
        msg = ChatPosted(table_id=self.table_id, seat=seat, name=name, text=c.text)
        for conn in self._subs:
            self._send(conn, msg)

    def _timeout(self, c: Timeout) -> None:
        if c.expected != self.number or self.clock.running != c.seat or self.over:
            return
        if self.clock.paused:  # it fell due as the clocks were held: set again on release
            return
        self._charge_clock(moved=False)
        if self.config.on_timeout == "forfeit":
            self.game.resign(c.seat, "timeout")
            self.projection.emit("timeout", seat=c.seat)
            self._maybe_end()
            return
        # The default move: what the easy bot would play from this seat's own view.
        legal = self.game.legal_actions()
        try:
            bot = make_bot("easy", self.game.game_id)
            action = bot.decide(self.game.view(c.seat), legal, Limits(time=0.01), self._rng).action
            if action not in legal:
                raise IllegalAction(f"the default-move bot chose {action!r}, not a legal action")
        except Exception:
            # A bot's bug must not stop the seat's clock for good: any legal move will do.
            log.exception(
                "table %s: the default-move bot failed; a random legal move", self.table_id
            )
            action = self._rng.choice(legal)
        self.game.play(action)
        self.clock.ran_out(c.seat)  # at least TIMEOUT_FLOOR seconds per move from now on
        self._after_action("timeout", c.seat, by_bot=True)

    # -- game flow ----------------------------------------------------------------------
    def _maybe_start(self) -> None:
        if self.started:
            return
        humans = [s for s, seat in enumerate(self.seats) if seat.level is None]
        if (humans or self._start_asked) and all(
            self.seats[s].owner is not None
            and self.seats[s].conn is not None
            and (
                self.secret is None  # a table of a --seed server: nothing to wait for
                or self.seats[s].contribution is not None
                or not self.seats[s].promised
            )
            for s in humans
        ):
            self.seating.deal()
            self.started = True
            for seat in self.seats:
                seat.starter = seat.owner
            self._cancel_timer("unstarted")
            self.started_at = _now_iso()
            self.bots.moved()
            self.projection.emit("start")
            self._maybe_end()

    def _maybe_end(self) -> None:
        outcome = self.game.outcome
        if outcome is None or self.final_record is not None:
            return
        self._charge_clock(moved=False)
        self._timers.cancel_all()
        self.final_record = record_of(
            self.game, self.record_names(), started=self.started_at, fair=self.fairness()
        )
        if self.listener is None:
            self.projection.send_game_over()
