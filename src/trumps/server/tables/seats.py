"""Seats that survive real life: owners, reconnects, leaving, and the grace period.

A seat belongs to its *owner* (a player id), not to a connection.  A dropped connection
(event ``disconnect``) leaves the seat with its owner; after ``grace`` seconds a bot of the
``takeover`` level plays for it (event ``takeover``).  The owner coming back on a new
connection — within the grace period, after a takeover, or from a second tab — is event
``return`` (the bot, if any, stops; a connection that held the seat until then is sent
``replaced`` and hears no more of the table); a person sitting in a seat not theirs before
is ``join``.  A player who leaves on purpose gives the seat up (``leave``): a running game
goes on with the takeover bot (``takeover``, the seat ``left``) until a newcomer sits there,
a table that has not started opens the seat.

Before the game starts, a seat whose client promised a contribution to the deal (its
``hello`` said ``contributes``) gives it with ``contribute``; the game is dealt from the
server's secret and the contributions when it starts (``_deal``, docs/fairness.md).
"""

from __future__ import annotations

from trumps.games import new_game
from trumps.server.tables.commands import ContributeCmd, GraceOver, Join, Outbox
from trumps.server.tables.config import GUESTS_CASUAL
from trumps.server.tables.projection import Projection
from trumps.server.tables.tablebase import TableBase
from trumps.server.wire.protocol import Replaced, SpectatorList, Spectators

__all__ = ["Seating"]


class Seating:
    """A table's seats and watchers, held by the table as ``table.seating``: joining,
    spectating, reconnecting, leaving, grace periods and the fair deal's contributions."""

    def __init__(self, table: TableBase, projection: Projection) -> None:
        self.table = table
        self.projection = projection
        # the list the table was last told (never changed in place)
        self._spectators_told = SpectatorList()

    def join(self, c: Join) -> None:
        owner: object = c.player if c.player is not None else c.conn
        if c.spectate:
            self.unsubscribe(c.conn)
            self.table._subs[c.conn] = None
            self.table._watchers[c.conn] = (owner, c.name)  # None: no name chosen
            self.table._send(c.conn, self.projection.snapshot(None))
            self.spectators_changed(told=c.conn)
            return
        mine = self.table.seat_of_owner(owner)
        if mine is not None and c.seat is not None and c.seat != mine:
            self.projection.error(
                c.conn, "table_full", f"you hold seat {mine}; seat {c.seat} is not yours"
            )
            return
        if mine is None and self.table.config.rated and not c.account:
            self.projection.error(c.conn, "not_allowed", GUESTS_CASUAL)
            return
        if mine is not None:  # the owner comes back (a reload, a new connection)
            held = self.table.seats[mine].conn
            if c.again and held is not None and held is not c.conn:
                return  # the table moved; the owner sits here on a newer connection
            self.rebind(mine, c.conn, c.name)
            return
        if c.seat is not None:
            if not 0 <= c.seat < self.table.game.players:
                last = self.table.game.players - 1
                self.projection.error(
                    c.conn, "bad_field", f"seat {c.seat}: this table has seats 0–{last}"
                )
                return
            if self.table.seats[c.seat].level is not None:
                self.projection.error(
                    c.conn, "table_full", f"seat {c.seat} is not open for a person"
                )
                return
            if self.table.seats[c.seat].owner is not None:
                self.projection.error(c.conn, "table_full", f"seat {c.seat} is taken")
                return
            seat_no = c.seat
        else:
            free = self.table.open_seats()
            if not free:
                self.projection.error(c.conn, "table_full", "no open seat at this table")
                return
            seat_no = free[0]
        if self.table.over:
            self.projection.error(c.conn, "game_over", "the game at this table has ended")
            return
        self.unsubscribe(c.conn)
        seat = self.table.seats[seat_no]
        seat.owner, seat.conn, seat.name = owner, c.conn, c.name
        seat.promised, seat.contribution = _promises(c.conn), None
        self.table._subs[c.conn] = seat_no
        seat.away = False  # a newcomer in a seat given up: the takeover bot stops
        self.table._send(c.conn, self.projection.snapshot(seat_no))
        self.projection.emit("join", seat=seat_no)
        self.spectators_changed()  # a spectator who sat down watches no more

    def rebind(self, seat_no: int, conn: Outbox, name: str | None) -> None:
        seat = self.table.seats[seat_no]
        old = seat.conn
        if old is not None and old is not conn:
            self.table._subs.pop(old, None)  # the older connection stops hearing this table …
            self.table._send(
                old, Replaced(table_id=self.table.table_id, seat=seat_no)
            )  # … and is told
        self.unsubscribe(conn)
        seat.conn, seat.epoch = conn, seat.epoch + 1
        if seat.contribution is None:  # the client now in the seat keeps its own promise
            seat.promised = _promises(conn)
        if name:
            seat.name = name
        self.table._cancel_timer(("grace", seat_no))
        self.table._subs[conn] = seat_no
        self.spectators_changed()
        if self.table.over:  # a last look at the finished game
            self.table._send(conn, self.projection.snapshot(seat_no))
            return
        seat.away = False  # the owner is back (within the grace period or after a takeover)
        self.table._send(conn, self.projection.snapshot(seat_no))
        self.projection.emit("return", seat=seat_no)

    def unsubscribe(self, conn: Outbox) -> None:
        self.table._watchers.pop(conn, None)
        seat_no = self.table._subs.pop(conn, None)
        if seat_no is not None and self.table.seats[seat_no].conn is conn:
            self.table.seats[seat_no].conn = None

    def leave(self, conn: Outbox, *, on_purpose: bool) -> None:
        if conn not in self.table._subs:
            return
        seat_no = self.table._subs[conn]
        self.unsubscribe(conn)
        self.spectators_changed()
        if seat_no is None or self.table.over:
            return
        seat = self.table.seats[seat_no]
        if seat.conn is not None:  # another connection of the owner holds it
            return
        if on_purpose:
            seat.owner = None
            seat.epoch += 1
            self.table._cancel_timer(("grace", seat_no))
            self.projection.emit("leave", seat=seat_no)
            if self.table.started:
                seat.away = True
                self.projection.emit("takeover", seat=seat_no)
            else:
                self.open_seat(seat_no)
                self.spectators_changed()  # a watcher numbered for this name is not now
        else:
            self.projection.emit("disconnect", seat=seat_no)
            self.absent(seat_no)

    def absent(self, seat_no: int) -> None:
        """Start the grace period of a seat whose owner is not connected."""
        seat = self.table.seats[seat_no]
        seat.epoch += 1
        self.table._set_timer(
            ("grace", seat_no), self.table.config.grace, GraceOver(seat_no, seat.epoch)
        )

    def grace_over(self, c: GraceOver) -> None:
        seat = self.table.seats[c.seat]
        if c.epoch != seat.epoch or seat.conn is not None or self.table.over:
            return
        if self.table.started:
            if not seat.away:
                seat.away = True
                self.projection.emit("takeover", seat=c.seat)
        else:  # nobody is waiting for a person who never came back before the start
            seat.owner = None
            self.open_seat(c.seat)
            self.projection.emit("leave", seat=c.seat)
            self.spectators_changed()

    def open_seat(self, seat_no: int) -> None:
        """A seat given up before the start: whoever sits there next deals anew."""
        seat = self.table.seats[seat_no]
        seat.name, seat.promised, seat.contribution = None, False, None
        self.table.stored.meta_dirty = True

    # -- the fair deal ---------------------------------------------------------------------
    def contribute(self, c: ContributeCmd) -> None:
        seat_no = self.seat_of(c.conn)  # None: it was told it holds no seat here
        if seat_no is None:
            return
        seat = self.table.seats[seat_no]
        if self.table.secret is None:
            self.projection.error(c.conn, "not_allowed", "this table's deal takes no contributions")
            return
        if self.table.started:
            self.projection.error(
                c.conn, "not_allowed", "this game is dealt already: too late to contribute"
            )
            return
        if seat.contribution == c.value:
            return  # sent again after a reconnection: already counted
        if seat.contribution is not None:
            self.projection.error(c.conn, "not_allowed", f"seat {seat_no} has contributed already")
            return
        seat.contribution, seat.promised = c.value, True
        self.table.stored.meta_dirty = True  # durable before the game is dealt from it

    def deal(self) -> None:
        """Deal the game from the secret and the contributions, as it starts."""
        fair = self.table.fairness()
        if fair is None or fair.seed == self.table.game.seed:
            return
        game = self.table.game
        self.projection.forget_notes()  # the notes were of the game before the deal
        self.table.game = new_game(
            game.game_id, players=game.players, rules=game.rules, seed=fair.seed
        )

    def spectators_changed(self, told: Outbox | None = None) -> None:
        """Tell everyone at the table who watches, when that changed (but ``told``, whose
        snapshot just said so)."""
        now = self.table.spectator_list()
        if now == self._spectators_told:
            return
        self._spectators_told = now
        msg = Spectators(table_id=self.table.table_id, count=now.count, names=now.names)
        for conn in self.table._subs:
            if conn is not told:
                self.table._send(conn, msg)

    def seat_of(self, conn: Outbox) -> int | None:
        seat = self.table._subs.get(conn)
        if seat is None:
            self.projection.error(conn, "not_seated", "this connection holds no seat at this table")
        return seat


def _promises(conn: Outbox) -> bool:
    """Whether ``conn``'s client promised to contribute to the deals (its ``hello``)."""
    return bool(getattr(conn, "contributes", False))
