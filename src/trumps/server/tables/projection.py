"""What a live table shows each recipient: views, snapshots, numbered events, errors.

Every message to a seat is built from ``game.view(seat)``; spectators get the game's public
view, ``game.view(None)``.  An action is shown to everyone but its actor as
``game.public_action`` says (a Twenty-Five ``rob XX`` or ``discard XX`` is just ``rob`` or
``discard``): the game, not the server, knows what is secret.  Each event is numbered (1, 2, 3, … without gaps) and sent to every subscriber in
the order the table made it.
"""

from __future__ import annotations

import logging
from typing import cast

from trumps.fairdeal import commitment
from trumps.games.base import Why
from trumps.games.viewtypes import View
from trumps.host.notes import PlyNote, PlyNotes, shown_action, shown_why, why_not_for
from trumps.host.takeback import Refusal, takeback_refusal
from trumps.server.tables.commands import Outbox
from trumps.server.tables.tablebase import GAME_KINDS, TableBase, _Entry
from trumps.server.wire.protocol import (
    ChatEntry,
    LogEntry,
    OutcomeInfo,
    SeatInfo,
    WhyNot,
    wire_view,
)
from trumps.server.wire.protocol import Error as ErrorMsg
from trumps.server.wire.protocol import Event as EventMsg
from trumps.server.wire.protocol import GameOver as GameOverMsg
from trumps.server.wire.protocol import TableState as TableStateMsg
from trumps.server.wire.wiretypes import BotLevel, BotPace, ErrorCode, EventKind, GameId, Reason

__all__ = ["LOG_IN_SNAPSHOT", "PlyNote", "Projection", "why_msg"]

log = logging.getLogger("trumps.server.tables.table")

LOG_IN_SNAPSHOT = 300  # the most recent events a snapshot carries


def why_msg(why: Why | None) -> WhyNot | None:
    """The wire form of the game's reason why an action is not legal now
    (``trumps.host.notes.shown_why``: no card of another hand is named)."""
    return None if why is None else WhyNot(**shown_why(why))


class Projection:
    """The messages of a table, each built for its recipient: a part the table holds as
    ``table.projection``, reading the table's state (``TableBase``) and numbering its
    events."""

    def __init__(self, table: TableBase) -> None:
        self.table = table
        self._plies: PlyNotes | None = None  # ``ply_notes``, made at first use

    def forget_notes(self) -> None:
        """The game was dealt anew (``Seating.deal``): its notes are made again."""
        self._plies = None

    def outcome_info(self) -> OutcomeInfo | None:
        outcome = self.table.game.outcome
        if outcome is None:
            return None
        return OutcomeInfo(
            winners=list(outcome.winners),
            losers=list(outcome.losers),
            draw=outcome.draw,
            reason=cast(Reason, outcome.reason),
        )

    def send_game_over(self) -> None:
        info = self.outcome_info()
        assert info is not None
        msg = GameOverMsg(
            table_id=self.table.table_id, outcome=info, record_id=self.table.record_id
        )
        for conn in self.table._subs:
            self.table._send(conn, msg)

    # -- messages -----------------------------------------------------------------------
    def view_for(self, seat: int | None) -> View:
        """What ``seat`` may see: the game's view for it; for None (a spectator) the game's
        public view (no private hand, no private discard).  Before the game starts it is not
        dealt yet (docs/fairness.md): everyone is shown the public view."""
        if not self.table.started and self.table.secret is not None:
            return self.table.game.undealt_view(seat)
        return self.table.game.view(seat)

    def seat_infos(self) -> list[SeatInfo]:
        names = self.table.shown_names()
        return [
            SeatInfo(
                seat=s,
                name=names[s],
                bot=cast(BotLevel | None, seat.level),
                taken=self.table.taken(s),
                connected=seat.level is not None or seat.conn is not None,
                away=seat.away,
                left=seat.away and seat.owner is None,
            )
            for s, seat in enumerate(self.table.seats)
        ]

    def legal_for(self, seat: int | None) -> list[str]:
        if (
            seat is None
            or not self.table.started
            or self.table.over
            or self.table.game.current_player != seat
        ):
            return []
        return self.table.game.legal_actions()

    def why_for(self, seat: int | None, view: View, legal: list[str]) -> dict[str, WhyNot]:
        """For the seat to move: why each card it may not play now is not (``trumps.host``)."""
        return {
            a: cast(WhyNot, why_msg(w))
            for a, w in why_not_for(self.table.game, seat, view, legal).items()
        }

    def takeback_refusal(self, seat: int) -> Refusal | None:
        """Why ``seat`` may not take back its last move now (``trumps.host.takeback``)."""
        return takeback_refusal(
            seat=seat,
            rated=self.table.config.rated,
            started=self.table.started,
            over=self.table.over,
            asked=None if self.table.takeback is None else self.table.takeback.seat,
            events=self.table.events,
            notes=self.ply_notes(),
            plies=len(self.table.game.history),
        )

    def can_take_back(self, seat: int | None) -> bool:
        return (
            seat is not None
            and self.table.seats[seat].level is None
            and self.takeback_refusal(seat) is None
        )

    def to_move(self) -> int | None:
        return self.table.game.current_player if self.table.started else None

    def shown(self, action: str | None, actor: int | None, viewer: int | None) -> str | None:
        return shown_action(self.table.game, action, actor, viewer)

    def ply_notes(self) -> list[PlyNote]:
        """What each action's event told beyond the action (``trumps.host.notes``)."""
        if self._plies is None:
            self._plies = PlyNotes()
        return self._plies.of(self.table.game)

    def log_entry(self, e: _Entry, seat: int | None, notes: list[PlyNote]) -> LogEntry:
        note = notes[e.ply] if e.ply is not None and e.ply < len(notes) else PlyNote()
        return LogEntry(
            number=e.number,
            kind=e.kind,
            seat=e.seat,
            action=self.shown(e.action, e.seat, seat),
            by_bot=e.by_bot,
            closed=note.closed,
            next_hand=note.next_hand,
            took=note.took,
        )

    def snapshot(self, seat: int | None) -> TableStateMsg:
        view, legal = self.view_for(seat), self.legal_for(seat)
        notes = self.ply_notes()
        return TableStateMsg(
            table_id=self.table.table_id,
            game=cast(GameId, self.table.game.game_id),
            rules=self.table.game.rules,
            seats=self.seat_infos(),
            seat=seat,
            event=self.table.number,
            view=wire_view(view),
            legal=legal,
            to_move=self.to_move(),
            why_not=self.why_for(seat, view, legal),
            clocks=self.table.clocks(),
            private=self.table.config.private,
            time_control=self.table.config.time_control,
            log=[self.log_entry(e, seat, notes) for e in self.table.events[-LOG_IN_SNAPSHOT:]],
            # (a stored line's "" is a person who chose no name)
            chat=[
                ChatEntry(seat=c.seat, name=c.name or None, text=c.text) for c in self.table.chat
            ],
            outcome=self.outcome_info(),
            record_id=self.table.record_id,
            bot_pace=self.shown_pace(),
            spectators=self.table.spectator_list(),
            commitment=None if self.table.secret is None else commitment(self.table.secret),
            contributed=seat is not None and self.table.seats[seat].contribution is not None,
            dealt=self.table.started,
            rated=self.table.config.rated,
            takeback=None if self.table.takeback is None else self.table.takeback.seat,
            can_take_back=self.can_take_back(seat),
        )

    def shown_pace(self) -> BotPace:
        """The bots' pace a client is told (docs/protocol.md#pacing): the table's, but
        ``instant`` at a table of bots only, whose moves are never slowed."""
        if all(seat.level is not None for seat in self.table.seats):
            return "instant"
        return self.table.config.bot_pace

    def emit(
        self,
        kind: EventKind,
        *,
        seat: int | None = None,
        action: str | None = None,
        by_bot: bool = False,
        ply: int | None = None,
    ) -> None:
        self.table.number += 1
        if kind in GAME_KINDS:
            self.table.moved = self.table.number
            self.table.takeback = None  # the game moved on: a take-back asked before is void
        self.table.events.append(_Entry(self.table.number, kind, seat, action, by_bot, ply))
        clocks, to_move = self.table.clocks(), self.to_move()
        seats = None if kind in GAME_KINDS else self.seat_infos()
        closed = self.table.game.closed() if ply is not None else None
        public: EventMsg | None = None  # spectators share one message
        asked = None if self.table.takeback is None else self.table.takeback.seat
        for conn, viewer in self.table._subs.items():
            if viewer is None and public is not None:
                self.table._send(conn, public)
                continue
            view, legal = self.view_for(viewer), self.legal_for(viewer)
            msg = EventMsg(
                table_id=self.table.table_id,
                number=self.table.number,
                kind=kind,
                seat=seat,
                action=self.shown(action, seat, viewer),
                by_bot=by_bot,
                view=wire_view(view),
                legal=legal,
                to_move=to_move,
                why_not=self.why_for(viewer, view, legal),
                clocks=clocks,
                seats=seats,
                closed=closed,
                takeback=asked,
                can_take_back=self.can_take_back(viewer),
            )
            if viewer is None:
                public = msg
            self.table._send(conn, msg)

    def error(self, conn: Outbox, code: ErrorCode, message: str, why: WhyNot | None = None) -> None:
        self.table._send(
            conn, ErrorMsg(code=code, message=message, table_id=self.table.table_id, why=why)
        )
