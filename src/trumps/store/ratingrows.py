"""Ratings in SQL: a rated game moves its people's ratings in the transaction that stores
it finished (docs/ratings.md), and the queries of leaderboards and profiles.

A part of ``SqlStore`` (``trumps.store.sql``).  The ratings themselves are computed by
``trumps.ratings``; this module reads the people's ratings (locked on PostgreSQL, so that
two games ending at once for one player are rated one after the other), lets their
deviation grow for the time since their last rated game, and writes the new ratings and
what the game did to each (``rating_changes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from trumps.games import Outcome
from trumps.ratings import FAMILIES, NEW, PROVISIONAL_DEVIATION, Rating, idle, rate_game
from trumps.store._tables import game_players, games, players, rating_changes, ratings
from trumps.store.base import (
    HeadToHead,
    LeaderboardRow,
    RatingChange,
    RatingPlan,
)

__all__ = ["RATING_PERIOD", "RatingRows", "check_plan"]

RATING_PERIOD = 7 * 24 * 3600.0  # a week without a rated game grows a deviation by one period
_NEVER = 0.0  # the ``updated`` of a rating row made before its first game


def _rating(row: Any) -> Rating:
    return Rating(
        value=float(row.value),
        deviation=float(row.deviation),
        volatility=float(row.volatility),
        games=int(row.games),
    )


def _check_family(family: str) -> None:
    if family not in FAMILIES:
        raise ValueError(f"unknown rating family {family!r}; the families are {sorted(FAMILIES)}")


def check_plan(plan: RatingPlan, seats: int, outcome: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` unless ``plan`` can rate a game of ``seats`` seats that ended
    with ``outcome``: a known family, sides holding every seat once, people and bots in
    real seats, one player in at most one seat, forfeits only of people's seats, and a
    rating the model can compute (tried on new ratings, before any transaction)."""
    _check_family(plan.family)
    if sorted(s for side in plan.sides for s in side) != list(range(seats)):
        raise ValueError(f"a rating plan's sides must hold each of the {seats} seats once")
    if not set(plan.people) | set(plan.fixed) <= set(range(seats)):
        raise ValueError("a rating plan names a seat the game does not have")
    if set(plan.people) & set(plan.fixed):
        raise ValueError("a rating plan's seat is both a person's and a bot's")
    ids = list(plan.people.values())
    if len(ids) != len(set(ids)):
        raise ValueError("one player holds two seats of a rated game")
    if not set(plan.forfeited) <= set(plan.people):
        raise ValueError("a rating plan forfeits a seat that is not a person's")
    if not plan.people or (plan.movers is not None and not set(plan.movers) <= set(plan.people)):
        raise ValueError("a rating plan must rate at least one person, and only people")
    rate_game(plan.family, [NEW] * seats, Outcome.from_json(outcome), plan.sides, plan.forfeited)


class RatingRows:
    """The ``ratings`` and ``rating_changes`` tables."""

    _engine: AsyncEngine

    async def _lock_ratings(self, conn: AsyncConnection, plans: Sequence[RatingPlan]) -> None:
        """On PostgreSQL, make and lock the rating rows of every player a batch of writes
        rates, in one order (family, player): two processes rating the same players wait
        for each other instead of deadlocking, and a new player's first rating is never
        inserted twice (rows are made here as new ratings, ON CONFLICT DO NOTHING)."""
        if self._engine.dialect.name != "postgresql" or not plans:
            return
        keys = sorted({(p.family, pid) for p in plans for pid in p.people.values()})
        new = NEW
        await conn.execute(
            pg_insert(ratings).on_conflict_do_nothing(),
            [
                {
                    "player_id": pid,
                    "family": family,
                    "value": new.value,
                    "deviation": new.deviation,
                    "volatility": new.volatility,
                    "games": 0,
                    "updated": _NEVER,
                }
                for family, pid in keys
            ],
        )
        for family, pid in keys:  # one by one, in order: the lock order is the key order
            await conn.execute(
                select(ratings.c.player_id)
                .where(ratings.c.family == family, ratings.c.player_id == pid)
                .with_for_update()
            )

    async def _rate(
        self,
        conn: AsyncConnection,
        game_id: int,
        plan: RatingPlan,
        outcome: Mapping[str, Any],
        now: float,
    ) -> None:
        """Rate finished game ``game_id`` by ``plan`` inside the caller's transaction."""
        people = dict(plan.people)  # checked before the transaction (check_plan)
        movers = set(people) if plan.movers is None else set(plan.movers)
        seats = sum(len(side) for side in plan.sides)
        query = (
            select(ratings)
            .where(ratings.c.family == plan.family, ratings.c.player_id.in_(people.values()))
            .order_by(ratings.c.player_id)
        )
        if self._engine.dialect.name == "postgresql":
            query = query.with_for_update()
        stored = {int(row.player_id): row for row in await conn.execute(query)}
        before: list[Rating] = []
        for seat in range(seats):
            if seat in people:
                row = stored.get(people[seat])
                if row is None or row.games == 0:  # none yet (or made by _lock_ratings)
                    rating = NEW
                else:
                    rating = idle(_rating(row), (now - row.updated) / RATING_PERIOD)
            else:
                rating = plan.fixed.get(seat, NEW)
            before.append(rating)
        after = rate_game(
            plan.family, before, Outcome.from_json(outcome), plan.sides, plan.forfeited
        )
        written = {s: p for s, p in people.items() if s in movers}
        for seat, player_id in sorted(written.items(), key=lambda item: item[1]):
            new = after[seat]
            values = {
                "value": new.value,
                "deviation": new.deviation,
                "volatility": new.volatility,
                "games": new.games,
                "updated": now,
            }
            if player_id in stored:  # (a row _lock_ratings made counts as stored)
                await conn.execute(
                    update(ratings)
                    .where(ratings.c.player_id == player_id, ratings.c.family == plan.family)
                    .values(values)
                )
            else:
                await conn.execute(
                    insert(ratings).values(player_id=player_id, family=plan.family, **values)
                )
        await conn.execute(
            insert(rating_changes),
            [
                {
                    "game_id": game_id,
                    "seat": seat,
                    "player_id": player_id,
                    "family": plan.family,
                    "before": before[seat].value,
                    "after": after[seat].value,
                    "deviation": after[seat].deviation,
                    "at": now,
                }
                for seat, player_id in sorted(written.items())
            ],
        )
        await conn.execute(update(games).where(games.c.id == game_id).values(rated=True))

    async def player_ratings(self, player_id: int) -> dict[str, Rating]:
        """The player's rating in each family they played a rated game of."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(ratings).where(ratings.c.player_id == player_id, ratings.c.games > 0)
            )
            return {str(row.family): _rating(row) for row in rows}

    async def leaderboard(
        self,
        family: str,
        *,
        min_games: int,
        limit: int = 50,
        offset: int = 0,
        active_since: float | None = None,
    ) -> list[LeaderboardRow]:
        """The accounts of ``family`` with at least ``min_games`` rated games (one at least),
        a rating no longer provisional and, if given, a rated game since ``active_since``
        (seconds since 1970), best first."""
        _check_family(family)
        if limit < 0 or offset < 0 or min_games < 0:
            raise ValueError("limit, offset and min_games must be ≥ 0")
        query = (
            select(ratings, players.c.name, players.c.login)
            .join(players, players.c.id == ratings.c.player_id)
            .where(
                ratings.c.family == family,
                ratings.c.games >= max(1, min_games),
                ratings.c.deviation <= PROVISIONAL_DEVIATION,
                ratings.c.updated >= (active_since or 0.0),
                players.c.login.is_not(None),
            )
            .order_by(ratings.c.value.desc(), ratings.c.player_id)
            .limit(limit)
            .offset(offset)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            LeaderboardRow(player_id=int(row.player_id), name=str(row.name), rating=_rating(row))
            for row in rows
        ]

    async def rating_history(self, player_id: int, family: str | None = None) -> list[RatingChange]:
        """What each rated game did to the player's rating, oldest first."""
        query = select(rating_changes).where(rating_changes.c.player_id == player_id)
        if family is not None:
            _check_family(family)
            query = query.where(rating_changes.c.family == family)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query.order_by(rating_changes.c.game_id))).all()
        return [_change(row) for row in rows]

    async def game_rating_changes(self, game_ids: Sequence[int]) -> dict[int, list[RatingChange]]:
        """The rating changes of these games (a casual game has none)."""
        if not game_ids:
            return {}
        async with self._engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(rating_changes)
                    .where(rating_changes.c.game_id.in_(list(game_ids)))
                    .order_by(rating_changes.c.game_id, rating_changes.c.seat)
                )
            ).all()
        found: dict[int, list[RatingChange]] = {}
        for row in rows:
            found.setdefault(int(row.game_id), []).append(_change(row))
        return found

    async def results_by_game(self, player_id: int) -> dict[str, dict[str, int]]:
        """The player's finished games by game: how many won, drawn and lost (a seat a
        takeover bot finished for them is not theirs: it is not in their history)."""
        query = (
            select(games.c.game, games.c.outcome, game_players.c.seat)
            .join(game_players, game_players.c.game_id == games.c.id)
            .where(game_players.c.player_id == player_id, games.c.outcome.is_not(None))
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        found: dict[str, dict[str, int]] = {}
        for game, outcome, seat in rows:
            tally = found.setdefault(str(game), {"won": 0, "drawn": 0, "lost": 0})
            tally[_result(outcome, int(seat))] += 1
        return found

    async def head_to_head(self, player_id: int, limit: int = 20) -> list[HeadToHead]:
        """The people this player met most in finished games: games together, and how many
        of them the player won, drew and lost (from the player's seat's outcome)."""
        me, them = game_players.alias("me"), game_players.alias("them")
        query = (
            select(them.c.player_id, players.c.name, games.c.outcome, me.c.seat)
            .select_from(me)
            .join(them, and_(them.c.game_id == me.c.game_id, them.c.seat != me.c.seat))
            .join(games, games.c.id == me.c.game_id)
            .join(players, players.c.id == them.c.player_id)
            .where(
                me.c.player_id == player_id,
                them.c.player_id.is_not(None),
                them.c.player_id != player_id,
                games.c.outcome.is_not(None),
            )
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        tally: dict[int, list[Any]] = {}
        for other, name, outcome, seat in rows:
            entry = tally.setdefault(int(other), [str(name), 0, 0, 0])
            entry[1 + ("won", "drawn", "lost").index(_result(outcome, int(seat)))] += 1
        ranked = sorted(tally.items(), key=lambda item: (-sum(item[1][1:]), item[0]))
        return [
            HeadToHead(player_id=pid, name=e[0], won=e[1], drawn=e[2], lost=e[3])
            for pid, e in ranked[:limit]
        ]


def _result(outcome: Mapping[str, Any], seat: int) -> str:
    if outcome.get("draw"):
        return "drawn"
    return "won" if seat in outcome.get("winners", ()) else "lost"


def _change(row: Any) -> RatingChange:
    return RatingChange(
        game_id=int(row.game_id),
        seat=int(row.seat),
        player_id=int(row.player_id),
        family=str(row.family),
        before=float(row.before),
        after=float(row.after),
        deviation=float(row.deviation),
        at=float(row.at),
    )
