"""Post-game analyses in SQL: one row per analysed game (docs/analysis.md).

A part of ``SqlStore`` (``trumps.store.sql``).  A process that starts an analysis claims
the game's row (``running``) under a token of its own (``owner``), beats its heart into
``updated`` while it works and writes the result (``done``); one that fails drops the row.
Two processes asked at once: the first insert wins and the other reports the running one.
A ``running`` row whose heart stopped (its process died) may be claimed again, under a new
token: from then on the old maker's writes match nothing.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from trumps.store._tables import analyses
from trumps.store.base import AnalysisRow

__all__ = ["AnalysisRows"]

RUNNING = "running"
DONE = "done"


class AnalysisRows:
    """The ``analyses`` table."""

    _engine: AsyncEngine

    async def get_analysis(self, game_id: int) -> AnalysisRow | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(analyses).where(analyses.c.game_id == game_id))
            ).first()
        if row is None:
            return None
        result: dict[str, Any] | None = row.result
        return AnalysisRow(
            game_id=int(row.game_id),
            status=str(row.status),
            result=result,
            requested_by=None if row.requested_by is None else int(row.requested_by),
            requested=float(row.requested),
            updated=float(row.updated),
        )

    async def claim_analysis(
        self, game_id: int, player: int | None, now: float, stale_before: float
    ) -> str | None:
        owner = secrets.token_hex(16)
        values = {
            "status": RUNNING,
            "requested_by": player,
            "requested": now,
            "updated": now,
            "owner": owner,
        }
        try:
            async with self._engine.begin() as conn:
                await conn.execute(insert(analyses).values(game_id=game_id, **values))
            return owner
        except IntegrityError:
            pass
        async with self._engine.begin() as conn:
            taken = await conn.execute(
                update(analyses)
                .where(
                    and_(
                        analyses.c.game_id == game_id,
                        analyses.c.status == RUNNING,
                        analyses.c.updated < stale_before,
                    )
                )
                .values(**values)
            )
            return owner if taken.rowcount else None

    def _mine(self, game_id: int, owner: str) -> Any:
        return and_(
            analyses.c.game_id == game_id,
            analyses.c.status == RUNNING,
            analyses.c.owner == owner,
        )

    async def touch_analysis(self, game_id: int, owner: str, now: float) -> bool:
        async with self._engine.begin() as conn:
            done = await conn.execute(
                update(analyses).where(self._mine(game_id, owner)).values(updated=now)
            )
            return bool(done.rowcount)

    async def finish_analysis(
        self, game_id: int, owner: str, result: dict[str, Any], now: float
    ) -> bool:
        async with self._engine.begin() as conn:
            done = await conn.execute(
                update(analyses)
                .where(self._mine(game_id, owner))
                .values(status=DONE, result=result, updated=now)
            )
            return bool(done.rowcount)

    async def drop_analysis(self, game_id: int, owner: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(delete(analyses).where(self._mine(game_id, owner)))

    async def analyses_of(self, player: int, since: float, stale_before: float) -> tuple[int, int]:
        async with self._engine.connect() as conn:
            started = await conn.execute(
                select(func.count())
                .select_from(analyses)
                .where(and_(analyses.c.requested_by == player, analyses.c.requested >= since))
            )
            running = await conn.execute(
                select(func.count())
                .select_from(analyses)
                .where(
                    and_(
                        analyses.c.requested_by == player,
                        analyses.c.status == RUNNING,
                        analyses.c.updated >= stale_before,
                    )
                )
            )
            return int(started.scalar_one()), int(running.scalar_one())
