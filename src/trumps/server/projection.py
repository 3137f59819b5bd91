"""What a live table shows each recipient: views, snapshots, numbered events, errors.

Every message to a seat is built from ``game.view(seat)``; spectators get a public view with
no private hand at all, and a Twenty-Five discard (``rob XX``) reaches only the seat that
made it.  Each event is numbered (1, 2, 3, … without gaps) and sent to every subscriber in
the order the table made it.
"""

from __future__ import annotations

from typing import Any, cast

from trumps.server.commands import Outbox
from trumps.server.protocol import (
    BotLevel,
    ErrorCode,
    EventKind,
    GameId,
    LogEntry,
    OutcomeInfo,
    Reason,
    SeatInfo,
)
from trumps.server.protocol import Error as ErrorMsg
from trumps.server.protocol import Event as EventMsg
from trumps.server.protocol import GameOver as GameOverMsg
from trumps.server.protocol import TableState as TableStateMsg
from trumps.server.tablebase import GAME_KINDS, TableBase, _Entry

__all__ = ["LOG_IN_SNAPSHOT", "Projection"]

LOG_IN_SNAPSHOT = 300  # the most recent events a snapshot carries


class Projection(TableBase):
    """The messages of a table, each built for its recipient."""

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
        if kind in GAME_KINDS:
            self.moved = self.number
        self.events.append(_Entry(self.number, kind, seat, action, by_bot))
        clocks, to_move = self.clocks(), self._to_move()
        seats = None if kind in GAME_KINDS else self.seat_infos()
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
