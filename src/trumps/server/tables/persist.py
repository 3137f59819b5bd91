"""What a live table stores, and when: nothing is told before it is durable.

Every command a table handles may add events (numbered, shown to the seats), chat lines, a
new seat owner or the end of the game.  While the command runs, the table's messages are
held (``TableBase._send``); if it changed anything, the table hands its *pending write* —
the new events and chat, its small settings row, the finished record at the end — to its
listener, which stores it with the writes of every other table in one transaction (the
hub's group commit, ``trumps.server.tables.commit``), and only then are the held messages sent.
So a crash at any instant loses nothing that anyone was told: a move nobody heard of yet
may be lost, and its player sees the position before it again.

The write is fenced: it carries the number this process owns the table under, and the
store refuses it if another process took the table over meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from trumps.ratings import bot_rating, family_of, rateable, sides_of
from trumps.records import record_of
from trumps.server.tables.tablebase import CHAT_IN_SNAPSHOT, GAME_KINDS, TableBase, _Entry
from trumps.store import ChatLine, RatingPlan, TableEvent, TableWrite

__all__ = ["TableStorage"]


class TableStorage:
    """A table's durable state, held by the table: its pending write, what the store has
    of it (``table.stored``), and its rebuilding after a restart."""

    def __init__(self, table: TableBase) -> None:
        self.table = table

    def running_record(self) -> dict[str, Any]:
        """The record so far, seed included: for the store only, never for a client."""
        fair = self.table.fairness() if self.table.started else None  # dealt from it at the start
        return record_of(
            self.table.game, self.table.record_names(), started=self.table.started_at, fair=fair
        )

    def meta(self) -> dict[str, Any]:
        """What the store keeps beside the record to resume this table after a restart."""
        return {
            **self.table.labels,
            **self.table.config.to_json(),
            "seats": self.table.levels,
            "names": self.table.names,
            "away": [seat.away for seat in self.table.seats],
            "starters": [
                s.starter if isinstance(s.starter, int) else None for s in self.table.seats
            ],
            "clocks": self.table.clocks(),
            "number": self.table.number,
            "started": self.table.started,
            "chat_count": self.table.chat_count,
            **self._fair_meta(),
        }

    def _fair_meta(self) -> dict[str, Any]:
        if self.table.secret is None:
            return {}
        return {
            "fair": {
                "secret": self.table.secret,
                "promised": [seat.promised for seat in self.table.seats],
                "contributions": [seat.contribution for seat in self.table.seats],
            }
        }

    def needs_write(self) -> bool:
        """Whether the table changed since its last write (or was never stored)."""
        table, stored = self.table, self.table.stored
        return (
            not stored.created
            or stored.meta_dirty
            or len(table.events) > stored.events
            or bool(stored.chat)
            or (table.final_record is not None and table.record_id is None)
        )

    def pending_write(self) -> TableWrite:
        """Everything new since the last write, for the store (the seed included)."""
        table, stored = self.table, self.table.stored
        ids = [o if isinstance(o, int) else None for o in table.owners()]
        plan = self.rating_plan() if table.final_record is not None else None
        if plan is not None:  # a rated game stays in the history of whoever gave it up
            ids = [plan.people.get(s, o) if o is None else o for s, o in enumerate(ids)]
        return TableWrite(
            table.table_id,
            dict(table.final_record) if table.final_record is not None else self.running_record(),
            events=[
                TableEvent(e.number, e.kind, e.seat, e.action, e.by_bot, e.ply)
                for e in table.events[stored.events :]
            ],
            chat=list(stored.chat),
            player_ids=None if ids == stored.ids else ids,
            meta=self.meta(),
            fence=stored.fence,
            game_id=stored.row,
            bot_seats=self.bot_seats() if table.final_record is not None else None,
            rating=plan,
            undone=stored.undone,
        )

    def rating_plan(self) -> RatingPlan | None:
        """How the finished game moves ratings (docs/ratings.md), or None: a casual table, a
        table with no person, a person's seat held by no account, or a game nobody moved in
        and nobody gave up (aborted).

        The people are those who held the seats at the start.  A seat its starter gave up
        (left, or a takeover bot played it at any time, even if they came back) is a loss
        for them.  A game given up before any move (a resignation, a clock run out) is a
        loss for whoever gave it up, and moves nobody else's rating."""
        if not self.table.config.rated or self.table.game.outcome is None:
            return None
        people = {s: seat.starter for s, seat in enumerate(self.table.seats) if seat.level is None}
        if not people or not all(isinstance(o, int) for o in people.values()):
            return None
        family = family_of(self.table.game)
        taken = {e.seat for e in self.table.events if e.kind == "takeover" and e.seat is not None}
        gave_up = {s for s, o in people.items() if s in taken or self.table.seats[s].owner != o}
        movers: list[int] | None = None
        if rateable(self.table.game) is not None:  # no move was made
            quit = {
                e.seat
                for e in self.table.events
                if e.kind in ("resign", "timeout") and e.seat is not None
            }
            movers = sorted((quit | gave_up) & set(people))
            if not movers:
                return None
            gave_up |= set(movers)
        return RatingPlan(
            family,
            {s: int(cast(int, o)) for s, o in people.items()},
            sides_of(self.table.game),
            fixed={
                s: bot_rating(self.table.bot_ratings, family, seat.level)
                for s, seat in enumerate(self.table.seats)
                if seat.level is not None
            },
            forfeited=sorted(gave_up),
            movers=movers,
        )

    def bot_seats(self) -> list[int]:
        """The people's seats a takeover bot plays now (at the end: it finished them)."""
        return [s for s, seat in enumerate(self.table.seats) if seat.level is None and seat.away]

    def wrote(self, write: TableWrite, game_id: int) -> None:
        """``write`` (from ``pending_write``) is durable, in row ``game_id``."""
        stored = self.table.stored
        stored.created = True
        stored.meta_dirty = False
        stored.row = game_id
        stored.events += len(write.events)
        if write.undone is not None and write.undone == stored.undone:
            stored.undone = None
        del stored.chat[: len(write.chat)]
        if write.player_ids is not None:
            stored.ids = list(write.player_ids)

    def restore(
        self,
        *,
        events: Sequence[TableEvent],
        chat: Sequence[ChatLine],
        player_ids: Sequence[int | None],
        fence: int,
        chat_count: int,
        game_id: int,
    ) -> None:
        """The stored log of a resumed table: its events, latest chat, accounts and fence."""
        table, stored = self.table, self.table.stored
        table.events = [
            _Entry(e.number, e.kind, e.seat, e.action, e.by_bot, e.ply)  # type: ignore[arg-type]
            for e in events
        ]
        stored.events = len(table.events)
        if table.events:
            table.number = max(table.number, table.events[-1].number)
            moved = [e.number for e in table.events if e.kind in GAME_KINDS]
            table.moved = moved[-1] if moved else 0
        table.chat = list(chat[-CHAT_IN_SNAPSHOT:])
        table.chat_count = max(chat_count, chat[-1].number if chat else 0)
        stored.ids = list(player_ids)
        stored.fence = fence
        stored.row = game_id
        stored.created = True
