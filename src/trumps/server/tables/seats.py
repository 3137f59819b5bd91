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

import unicodedata

from trumps.games import new_game
from trumps.server.tables.commands import ContributeCmd, GraceOver, Join, Outbox
from trumps.server.tables.config import GUESTS_CASUAL
from trumps.server.tables.projection import Projection
from trumps.server.wire.protocol import Replaced, SpectatorList, Spectators
from trumps.server.wire.wiretypes import MAX_SPECTATOR_NAMES

__all__ = ["Seats"]


class Seats(Projection):
    """Joining, spectating, reconnecting, leaving and grace periods."""

    _spectators_told = SpectatorList()  # the list the table was last told (never changed in place)

    def _join(self, c: Join) -> None:
        owner: object = c.player if c.player is not None else c.conn
        if c.spectate:
            self._unsubscribe(c.conn)
            self._subs[c.conn] = None
            self._watchers[c.conn] = (owner, c.name)  # None: no name chosen
            self._send(c.conn, self._snapshot(None))
            self._spectators_changed(told=c.conn)
            return
        mine = self.seat_of_owner(owner)
        if mine is not None and c.seat is not None and c.seat != mine:
            self._error(c.conn, "table_full", f"you hold seat {mine}; seat {c.seat} is not yours")
            return
        if mine is None and self.config.rated and not c.account:
            self._error(c.conn, "not_allowed", GUESTS_CASUAL)
            return
        if mine is not None:  # the owner comes back (a reload, a new connection)
            held = self.seats[mine].conn
            if c.again and held is not None and held is not c.conn:
                return  # the table moved; the owner sits here on a newer connection
            self._rebind(mine, c.conn, c.name)
            return
        if c.seat is not None:
            if not 0 <= c.seat < self.game.players:
                last = self.game.players - 1
                self._error(c.conn, "bad_field", f"seat {c.seat}: this table has seats 0–{last}")
                return
            if self.seats[c.seat].level is not None:
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
        seat.promised, seat.contribution = _promises(c.conn), None
        self._subs[c.conn] = seat_no
        seat.away = False  # a newcomer in a seat given up: the takeover bot stops
        self._send(c.conn, self._snapshot(seat_no))
        self._emit("join", seat=seat_no)
        self._spectators_changed()  # a spectator who sat down watches no more

    def _rebind(self, seat_no: int, conn: Outbox, name: str | None) -> None:
        seat = self.seats[seat_no]
        old = seat.conn
        if old is not None and old is not conn:
            self._subs.pop(old, None)  # the older connection stops hearing this table …
            self._send(old, Replaced(table_id=self.table_id, seat=seat_no))  # … and is told
        self._unsubscribe(conn)
        seat.conn, seat.epoch = conn, seat.epoch + 1
        if seat.contribution is None:  # the client now in the seat keeps its own promise
            seat.promised = _promises(conn)
        if name:
            seat.name = name
        self._cancel_timer(("grace", seat_no))
        self._subs[conn] = seat_no
        self._spectators_changed()
        if self.over:  # a last look at the finished game
            self._send(conn, self._snapshot(seat_no))
            return
        seat.away = False  # the owner is back (within the grace period or after a takeover)
        self._send(conn, self._snapshot(seat_no))
        self._emit("return", seat=seat_no)

    def _unsubscribe(self, conn: Outbox) -> None:
        self._watchers.pop(conn, None)
        seat_no = self._subs.pop(conn, None)
        if seat_no is not None and self.seats[seat_no].conn is conn:
            self.seats[seat_no].conn = None

    def _leave(self, conn: Outbox, *, on_purpose: bool) -> None:
        if conn not in self._subs:
            return
        seat_no = self._subs[conn]
        self._unsubscribe(conn)
        self._spectators_changed()
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
                self._open_seat(seat_no)
                self._spectators_changed()  # a watcher numbered for this name is not now
        else:
            self._emit("disconnect", seat=seat_no)
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
            seat.owner = None
            self._open_seat(c.seat)
            self._emit("leave", seat=c.seat)
            self._spectators_changed()

    def _open_seat(self, seat_no: int) -> None:
        """A seat given up before the start: whoever sits there next deals anew."""
        seat = self.seats[seat_no]
        seat.name, seat.promised, seat.contribution = None, False, None
        self.stored.meta_dirty = True

    # -- the fair deal ---------------------------------------------------------------------
    def _contribute(self, c: ContributeCmd) -> None:
        seat_no = self._seat_of(c.conn)  # None: it was told it holds no seat here
        if seat_no is None:
            return
        seat = self.seats[seat_no]
        if self.secret is None:
            self._error(c.conn, "not_allowed", "this table's deal takes no contributions")
            return
        if self.started:
            self._error(c.conn, "not_allowed", "this game is dealt already: too late to contribute")
            return
        if seat.contribution == c.value:
            return  # sent again after a reconnection: already counted
        if seat.contribution is not None:
            self._error(c.conn, "not_allowed", f"seat {seat_no} has contributed already")
            return
        seat.contribution, seat.promised = c.value, True
        self.stored.meta_dirty = True  # durable before the game is dealt from it

    def _deal(self) -> None:
        """Deal the game from the secret and the contributions, as it starts."""
        fair = self.fairness()
        if fair is None or fair.seed == self.game.seed:
            return
        game = self.game
        self._plies = None  # the notes were of the game before the deal
        self.game = new_game(game.game_id, players=game.players, rules=game.rules, seed=fair.seed)

    # -- who watches -----------------------------------------------------------------------
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

    def _spectators_changed(self, told: Outbox | None = None) -> None:
        """Tell everyone at the table who watches, when that changed (but ``told``, whose
        snapshot just said so)."""
        now = self.spectator_list()
        if now == self._spectators_told:
            return
        self._spectators_told = now
        msg = Spectators(table_id=self.table_id, count=now.count, names=now.names)
        for conn in self._subs:
            if conn is not told:
                self._send(conn, msg)

    def _seat_of(self, conn: Outbox) -> int | None:
        seat = self._subs.get(conn)
        if seat is None:
            self._error(conn, "not_seated", "this connection holds no seat at this table")
        return seat


def _name_key(name: str) -> str:
    """A name as compared for sameness: compatibility-normalised, case-folded, spaces
    collapsed (``Ａｎａ``, ``ANA`` and ``ana `` are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _promises(conn: Outbox) -> bool:
    """Whether ``conn``'s client promised to contribute to the deals (its ``hello``)."""
    return bool(getattr(conn, "contributes", False))
