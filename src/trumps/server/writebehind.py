"""Write-behind of live tables: running games in batches, finished games at once.

A table that changed is marked dirty; within ``flush_interval`` seconds every dirty table's
running record (seed included, for the store only) is written in one transaction — a
commit per batch, not per move.  A finished game is stored before anyone is told the game
is over, retrying a busy database: a finished game must not be lost.  One write runs at a
time, so a finished game never races a batch holding its running row.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from trumps.errors import TrumpsError
from trumps.server.lobby import LiveTable
from trumps.server.table import Table
from trumps.store import RunningUpdate, Store

__all__ = ["WriteBehind"]

log = logging.getLogger("trumps.server.hub")

FINISH_ATTEMPTS = 8  # tries to store a finished game, backing off from 0.1 s


def _player_ids(table: Table) -> list[int | None]:
    return [o if isinstance(o, int) else None for o in table.owners()]


class WriteBehind:
    """Stores the running and finished games of ``tables``."""

    def __init__(
        self, store: Store, tables: Mapping[str, LiveTable], flush_interval: float
    ) -> None:
        self.store = store
        self.tables = tables
        self.flush_interval = flush_interval
        self.stopping = False
        self._dirty: set[str] = set()  # tables changed since the last flush
        self._written_ids: dict[str, list[int | None]] = {}  # the seats last stored
        self._flusher: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()  # one write at a time: a batch or a finished game

    def mark(self, table_id: str) -> None:
        """A running table changed: store it with the next batch."""
        self._dirty.add(table_id)
        if not self.stopping and (self._flusher is None or self._flusher.done()):
            self._flusher = asyncio.create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        await asyncio.sleep(self.flush_interval)  # gather this interval's changes
        await self.flush()

    async def flush(self) -> None:
        """Write the running record of every table changed since the last flush, in one
        transaction (a move is stored within ``flush_interval`` seconds)."""
        async with self._lock:
            while self._dirty:
                batch, updates = sorted(self._dirty), []
                self._dirty.clear()
                for table_id in batch:
                    live = self.tables.get(table_id)
                    if live is None or live.table.over:
                        continue
                    table = live.table
                    ids = _player_ids(table)
                    known = self._written_ids.get(table_id)
                    updates.append(
                        RunningUpdate(
                            table_id,
                            table.running_record(),
                            None if ids == known else ids,
                            {**table.meta(), "rules_name": live.rules_name},
                        )
                    )
                try:
                    await self.store.update_running_many(updates)
                except Exception:
                    log.exception("storing %d running games failed; retrying", len(updates))
                    self._dirty.update(batch)
                    await asyncio.sleep(1.0)
                    continue
                for u in updates:
                    if u.player_ids is not None:
                        self._written_ids[u.table_id] = list(u.player_ids)

    async def finished(self, table: Table, record: dict[str, Any]) -> int:
        """Store the finished game (after any write of its running row in flight); its id."""
        self._dirty.discard(table.table_id)
        self._written_ids.pop(table.table_id, None)
        ids = _player_ids(table)
        async with self._lock:
            for attempt in range(FINISH_ATTEMPTS):
                try:
                    return await self.store.save_game(record, table.table_id, ids)
                except TrumpsError:
                    raise
                except Exception:
                    if attempt == FINISH_ATTEMPTS - 1:
                        raise
                    log.warning(
                        "table %s: storing the finished game failed; retrying",
                        table.table_id,
                        exc_info=True,
                    )
                    await asyncio.sleep(0.1 * 2**attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    async def close(self) -> None:
        """Finish the pending writes (the last moves before a stop)."""
        self.stopping = True
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await self._flusher
        with contextlib.suppress(Exception):
            await self.flush()
