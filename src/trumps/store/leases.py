"""Ownership of running tables in SQL: the leases of a service of several processes.

A part of ``SqlStore`` (``trumps.store.sql``): each running row names its owner process and
until when its lease lasts (``games.owner``, ``games.lease_until``); claiming a table raises
its fencing number (``games.fence``), which every write of the table must carry.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from trumps.store._tables import RUNNING, game_players, games

if TYPE_CHECKING:
    from trumps.store.base import RunningTable

__all__ = ["Leases"]


class Leases:
    """Leases, claims and the queries that find a player's tables on any process."""

    _engine: AsyncEngine

    async def _running(self, only: set[int] | None) -> list[RunningTable]:
        raise NotImplementedError

    async def claim_tables(
        self, owner: str, lease: float, *, everything: bool = False, limit: int = 100
    ) -> list[RunningTable]:
        now = self._now()
        free = games.c.status == RUNNING
        if not everything:
            free = free & ((games.c.lease_until.is_(None)) | (games.c.lease_until < now))
        async with self._engine.begin() as conn:
            candidates = select(games.c.id).where(free).order_by(games.c.id).limit(limit)
            if self._engine.dialect.name == "postgresql":
                candidates = candidates.with_for_update(skip_locked=True)
            ids = [row[0] for row in await conn.execute(candidates)]
            if not ids:
                return []
            # Checked again row by row: another process may have claimed one meanwhile.
            claimed = await conn.execute(
                update(games)
                .where(games.c.id.in_(ids), free)
                .values(owner=owner, lease_until=now + lease, fence=games.c.fence + 1)
                .returning(games.c.id)
            )
            got = {row[0] for row in claimed}
        return [t for t in await self._running(got) if t.game_id in got]

    async def renew_leases(self, owner: str, lease: float) -> set[str]:
        mine = (games.c.status == RUNNING) & (games.c.owner == owner)
        async with self._engine.begin() as conn:
            owned = {row[0] for row in await conn.execute(select(games.c.table_id).where(mine))}
            # Rows a commit is writing just now are skipped, not waited for (waiting on them
            # in another order than the commit deadlocks): that commit renews them itself.
            free = select(games.c.id).where(mine)
            if self._engine.dialect.name == "postgresql":
                free = free.with_for_update(skip_locked=True)
            await conn.execute(
                update(games)
                .where(games.c.id.in_(free), mine)
                .values(lease_until=self._now() + lease)
            )
        return owned

    async def release_tables(self, owner: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(games)
                .where(games.c.status == RUNNING, games.c.owner == owner)
                .values(lease_until=None, owner=None)
            )

    async def table_owner(self, table_id: str) -> tuple[bool, str | None]:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(games.c.owner, games.c.lease_until).where(
                        games.c.status == RUNNING, games.c.table_id == table_id
                    )
                )
            ).one_or_none()
        if row is None:
            return False, None
        live = row.owner is not None and row.lease_until is not None
        return True, row.owner if live and row.lease_until >= self._now() else None

    async def player_tables(self, player: int) -> list[str]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(games.c.table_id)
                .where(
                    games.c.status == RUNNING,
                    games.c.id.in_(
                        select(game_players.c.game_id).where(game_players.c.player_id == player)
                    ),
                )
                .order_by(games.c.id)
            )
            return [row[0] for row in rows]

    async def open_tables(self, player: int) -> int:
        seated = select(game_players.c.game_id).where(game_players.c.player_id == player)
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(games.c.id).where(
                    games.c.status == RUNNING,
                    (games.c.creator_id == player) | games.c.id.in_(seated),
                )
            )
            return len(rows.all())

    @staticmethod
    def _now() -> float:
        """Seconds since 1970.  Leases are compared across processes and machines: their
        clocks must agree to well within a lease (NTP does that)."""
        return time.time()
