"""Bots at a live table: moves for bot seats (and absent people's), and hints.

When a bot (or a takeover bot) is to move, its ``decide`` runs off the event loop
(``BotRunner``: worker processes or threads) and its choice comes back as a ``BotMove``
command, handled in order like any other; a choice made for an event the table has moved
past is dropped and the bot asked again.  A hint is the strongest bot's choice from the
asking seat's own view, sent to that connection only.

Pacing (docs/protocol.md#pacing): where a person plays, a bot's move is sent no sooner than
a natural delay after the latest move (its thinking time included), and after a longer hold
when that move closed a trick or a hand (``game.closed()``), so that everyone at the table,
spectators too, can follow each card; a bot-only table never waits.  The wait is a timer of
the table's ``TimeSource``, so tests run it on ``ManualTime``.

Fair use (issue 17 §1): while only bots play (``bots_play``) — a table of bots only, or a
started table whose every person gave the seat up or stayed away past the grace period, so
that takeover bots play for them — the table's moves come after everyone else's (kind
``"bots"``), it stops while nobody watches, and it is given up after ``BOTS_IDLE_END``
seconds unwatched.  A person within the grace period is expected back and counts as
present, so a dropped connection that comes back in time changes nothing; a person who
comes back later (``return``), a newcomer in a given-up seat (``join``) or a spectator
sets it going again, at the people's priority once a person plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any, Final

from trumps.ai.base import Decision
from trumps.games.viewtypes import View
from trumps.host.pacing import HINT_LEVEL, PACES, Pace, pace_delay
from trumps.server.tables.bots import BotRequest, Kind
from trumps.server.tables.commands import BotMove, ContinueCmd, Expire, HintCmd, Outbox
from trumps.server.tables.projection import Projection
from trumps.server.tables.seats import Seating
from trumps.server.tables.tablebase import TableBase
from trumps.server.wire.protocol import Hint as HintMsg
from trumps.server.wire.protocol import HintWhy

__all__ = [
    "BOTS_IDLE_END",
    "HINTS_AT_ONCE",
    "HINT_LEVEL",
    "PACES",
    "UNSTARTED_END",
    "Pace",
    "TableBots",
    "hint_message",
]

log = logging.getLogger("trumps.server.tables.table")

RATED_NO_HINTS: Final = (
    "no hints at a rated table: the game is yours alone (analysis comes after it)"
)
#: A table only bots play (``TableBots.bots_play``: bots only, or every person gone) stops
#: when nobody watches it and is given up after this many seconds unwatched: its moves
#: would only spend the bot time all tables share, and five minutes is enough for a reload
#: or a dropped connection to come back to it (after the grace period, for a person).
BOTS_IDLE_END: Final = 300.0
#: A table whose game has not started is given up this long after its making (or the
#: server's restart): enough to send an invite and wait for a friend, short enough that
#: the lobby does not fill up with tables nobody answers.
UNSTARTED_END: Final = 1800.0
HINTS_AT_ONCE: Final = 1  # hints being thought for one seat (issue 17: no flooding)


def hint_message(table_id: str, number: int, decision: Decision) -> HintMsg:
    """The ``hint`` message for a bot's decision at event ``number`` (docs/protocol.md)."""
    why = decision.explain
    return HintMsg(
        table_id=table_id,
        event=number,
        action=decision.action,
        why=None if why is None else HintWhy(code=why.code, numbers=dict(why.numbers)),
        reasoning=decision.reasoning,
        values=decision.values,
    )


class TableBots:
    """A table's bots, held by the table as ``table.bots``: asking them for moves and
    hints (the answers come back as commands), their pace, and whether they play at all."""

    def __init__(self, table: TableBase, projection: Projection, seating: Seating) -> None:
        self.table = table
        self.projection = projection  # the table's messages (its errors)
        self.seating = seating  # who holds which seat
        self._moved_at: float | None = None  # when the latest game event happened (None: not yet)
        self._paced_move: BotMove | None = None  # a bot's chosen move waiting for its time
        # a hand, and the seats whose people read its summary
        self._hand_read: tuple[int, frozenset[int]] = (0, frozenset())
        self._pace_rng = random.Random()  # the natural delays' variation (not the bots' seeds)
        self._idle_armed = False  # a table only bots play, nobody watching: its end is set
        self._bot_kind: Kind = "people"  # what the bot move being thought was queued as
        self._bot_task: asyncio.Task[None] | None = None  # the bot move being thought
        self._hints: set[asyncio.Task[None]] = set()
        self._hinting: dict[int, int] = {}  # seat -> its hints being thought

    def thinking(self) -> list[asyncio.Task[None]]:
        """The bot move and the hints being thought now."""
        return [t for t in (self._bot_task, *self._hints) if t is not None and not t.done()]

    def chose(self) -> None:
        """The bot move being thought came back (a ``BotMove`` command)."""
        self._bot_task = None

    async def stop(self) -> None:
        """Stop thinking: the table's task ends."""
        for hint in list(self._hints):
            hint.cancel()
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._bot_task

    @property
    def bots_only(self) -> bool:
        """A table of bots only by its seats (nobody's seat): it is never paced."""
        return all(seat.level is not None for seat in self.table.seats)

    @property
    def people_present(self) -> bool:
        """A person holds a seat and is expected to play it: seated, or disconnected but
        still within the grace period (the takeover bot does not play for them yet)."""
        return any(
            seat.level is None and seat.owner is not None and not seat.away
            for seat in self.table.seats
        )

    @property
    def bots_play(self) -> bool:
        """Only bots play here now, and so it is run as a table of bots only (its moves
        after everyone else's, stopped while nobody watches, given up after
        ``BOTS_IDLE_END`` unwatched): a table of bots only, or a started game where every
        person's seat is played by the takeover bot — the person left on purpose
        (``leave_table``) or has been away past the grace period.  A person away for less
        than the grace period still counts as playing: a brief disconnection is never
        penalised."""
        return self.bots_only or (self.table.started and not self.people_present)

    def bot_kind(self) -> Kind:
        """What this table's bot moves are queued as (``BotRunner``)."""
        return "bots" if self.bots_play else "people"

    def pace_delay(self) -> float:
        """Seconds the next bot move waits after the latest move: 0 at a table of bots
        only, else the table's pace (a longer hold when that move closed a trick or hand)."""
        if self.bots_only:
            return 0.0
        closed = self.table.game.closed()  # what the latest move closed, as the game tells
        unread = closed is not None and "hand" in closed and self._unread(closed)
        return pace_delay(
            PACES[self.table.config.bot_pace],
            closed,
            over=self.table.over,
            unread=unread,
            rng=self._pace_rng,
        )

    def _unread(self, closed: dict[str, Any]) -> bool:
        """A person at the table has not yet said they read the summary of the hand that
        ``closed`` ended."""
        hand, read = self._hand_read
        done = read if hand == closed["hand"].get("hand") else frozenset()
        people = {
            s for s, seat in enumerate(self.table.seats)
            if seat.level is None and seat.owner is not None and not seat.away
        }  # fmt: skip
        return bool(people - done)

    def continue_hand(self, c: ContinueCmd) -> None:
        """A person read the summary of hand ``c.hand``: once all have, the next hand's bot
        move waits only the pace."""
        seat = self.seating.seat_of(c.conn)
        if seat is None:
            return
        hand, read = self._hand_read
        self._hand_read = (c.hand, (read if hand == c.hand else frozenset()) | {seat})
        move = self._paced_move
        if move is not None and move.expected == self.table.number:
            self._pace(move)  # its time again, from the pace now

    def _due(self) -> float:
        """When the next bot move may be sent: the pace after the latest move."""
        since = self.table.time.now() if self._moved_at is None else self._moved_at
        return since + self.pace_delay()

    def _pace(self, move: BotMove) -> None:
        """Send ``move`` when it is due (now, if it is)."""
        wait = self._due() - self.table.time.now()
        if wait <= 0:
            self._paced_move = None
            self.table._cancel_timer("bot")
            self.table.submit(move)
            return
        self._paced_move = move

        def due() -> None:
            self._paced_move = None
            self.table.submit(move)

        self.table._timers.set("bot", wait, due)

    def moved(self) -> None:
        """A game event happened now: the next bot move is paced from here."""
        self._moved_at = self.table.time.now()

    def hint(self, c: HintCmd) -> None:
        seat = self.seating.seat_of(c.conn)
        if seat is None:
            return
        if self.table.config.rated:  # the strongest bot's moves would be anyone's rating
            self.projection.error(c.conn, "rated_no_hints", RATED_NO_HINTS)
            return
        if any(other.level is None for s, other in enumerate(self.table.seats) if s != seat):
            self.projection.error(
                c.conn, "not_allowed", "hints are for games against the computer only"
            )
            return
        if self.table.over or not self.table.started or self.table.game.current_player != seat:
            self.projection.error(c.conn, "not_your_turn", f"seat {seat} is not the one to move")
            return
        if self._hinting.get(seat, 0) >= HINTS_AT_ONCE:
            self.projection.error(
                c.conn, "hint_pending", "a hint for this seat is still being thought"
            )
            return
        request = BotRequest(
            HINT_LEVEL,
            self.table.game.game_id,
            self.table.game.view(seat),
            self.table.game.legal_actions(),
            self.table.bot_time,
            self.table._rng.getrandbits(64),
        )
        task = asyncio.create_task(self._advise(c.conn, request, self.table.number))
        self._hints.add(task)
        self._hinting[seat] = self._hinting.get(seat, 0) + 1
        task.add_done_callback(self._hints.discard)
        task.add_done_callback(lambda _: self._hinted(seat))

    def _hinted(self, seat: int) -> None:
        left = self._hinting.pop(seat, 1) - 1
        if left > 0:
            self._hinting[seat] = left

    async def _advise(self, conn: Outbox, request: BotRequest, number: int) -> None:
        try:
            decision = await self.table.runner.decide(
                request, table=self.table.table_id, kind="hint"
            )
        except Exception:
            log.exception("table %s: the hint failed", self.table.table_id)
            self.projection.error(conn, "internal_error", "no hint this time")
            return
        self.table._send(conn, hint_message(self.table.table_id, number, decision))

    def _watched(self) -> bool:
        """A table only bots play (``bots_play``) moves while somebody watches it (else it
        waits, and is given up after ``BOTS_IDLE_END`` seconds)."""
        # A rated game under way plays on unwatched: whoever gave it up loses it, and it
        # must end to be rated (docs/ratings.md).
        rated = self.table.config.rated and bool(self.table.game.history)
        if not self.bots_play or self.table._subs or self.table.over or rated:
            self.table._cancel_timer("idle")
            self._idle_armed = False
            return True
        if not self._idle_armed:
            self._idle_armed = True
            self.table._set_timer("idle", BOTS_IDLE_END, Expire("idle"))
        return False

    def expire(self, c: Expire) -> None:
        """Give the table up, if it is still what the timer was set for."""
        if self.table.over:
            return
        if c.reason == "idle" and not self.table._subs and self.bots_play and self._idle_armed:
            self.table.expired = "idle"
        elif c.reason == "not_started" and not self.table.started:
            self.table.expired = "not_started"

    def maybe_bot(self) -> None:
        seat = self.table.game.current_player
        if self.table.started and not self._watched():
            if self._bot_task is not None:  # not wanted now: its place in the queue goes
                self._bot_task.cancel()
                self._bot_task = None
                self.table._cancel_timer("bot")  # a paced move already chosen waits for a watcher
                self._paced_move = None
            return
        if self._bot_task is not None and self._bot_kind != self.bot_kind():
            self._bot_kind = self.bot_kind()  # a person came back or left while it was queued
            self.table.runner.requeue(self.table.table_id, self._bot_kind)
        if (
            not self.table.started
            or self._bot_task is not None
            or seat is None
            or self.table.over
            or not self.table._bot_plays(seat)
        ):
            return
        view, legal = self.table.game.view(seat), self.table.game.legal_actions()
        self._bot_kind = self.bot_kind()
        self._bot_task = asyncio.create_task(self._think(seat, view, legal, self.table.number))

    async def _think(self, seat: int, view: View, legal: list[str], number: int) -> None:
        level = self.table.seats[seat].level or self.table.config.takeover
        seed = self.table._rng.getrandbits(64)
        try:
            decision = await self.table.runner.decide(
                BotRequest(level, self.table.game.game_id, view, legal, self.table.bot_time, seed),
                table=self.table.table_id,
                kind=self._bot_kind,  # as it is now: requeued if it changes meanwhile
            )
            action = decision.action
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "table %s: bot for seat %d failed; playing a legal move", self.table.table_id, seat
            )
            action = legal[0]
        self._pace(BotMove(seat, action, number))  # sent when due (the module docstring)
