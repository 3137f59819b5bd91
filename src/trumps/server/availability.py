"""Whether a process can take moves now: its store and (for a service) Redis reachable.

The hub holds one (``hub.availability``), which probes its store every ``probe_every`` seconds and hears from the bus whether Redis
is connected; readiness (``/readyz``) follows both, and while either is away every table's
clock is held, so nobody is charged for time in which a move would have been refused.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final

from trumps.server.tables.commit import one_line, unreachable

if TYPE_CHECKING:
    from trumps.server.hubparts import ClusterLink
    from trumps.server.matchmaking.lobby import LiveTable
    from trumps.server.tables.commit import GroupCommit
    from trumps.store import Store

__all__ = ["PROBE_TIMEOUT", "Availability"]

log = logging.getLogger("trumps.server.hub")

PROBE_TIMEOUT: Final = 3.0  # seconds a probe may take before the store counts as away


class Availability:
    """Whether this process's store and (for a service) Redis can be reached, and what
    follows from it: readiness, refused requests, held clocks (``hub.availability``)."""

    def __init__(
        self,
        store: Store,
        committer: GroupCommit,
        cluster: ClusterLink,
        tables: Mapping[str, LiveTable],
        *,
        probe_every: float,
        stopping: Callable[[], bool],
    ) -> None:
        self.store, self.committer, self.cluster, self.tables = store, committer, cluster, tables
        self.probe_every = probe_every
        self._stopping = stopping
        self._store_answers = True  # the last probe (or request) reached the store
        self.held = False  # the tables' clocks are held: no move can be taken now
        committer.on_change = self.check

    def ready(self) -> tuple[bool, str]:
        """Whether this process should get new players (readiness): (ready, why not)."""
        if self._stopping():
            return False, "stopping"
        if not self.store_available:
            return False, "the game store cannot be reached"
        if not self.cluster.available:
            return False, "Redis cannot be reached"
        return True, "ready"

    # -- whether the store and Redis can be reached --------------------------------------------
    @property
    def store_available(self) -> bool:
        """The store answered the last probe and took the last transaction."""
        return self._store_answers and self.committer.available

    @property
    def down(self) -> bool:
        """No move can be taken now: the store or (for a service) Redis is unreachable."""
        return not self.store_available or not self.cluster.available

    def check(self) -> None:
        """Hold every table's clock when the service goes down, release them when it is
        back: nobody is charged for time in which their move would have been refused."""
        down = self.down
        if down == self.held:
            return
        self.held = down
        for live in self.tables.values():
            if down:
                live.table.hold_clock()
            else:
                live.table.release_clock()
        if down:
            log.warning("moves cannot be taken now (%s): the clocks are held", self.ready()[1])
        else:
            log.warning("moves can be taken again: the clocks run again")

    def store_failed(self, e: BaseException) -> None:
        """A request found the store unreachable: so it is until a probe reaches it."""
        if unreachable(e) and self._store_answers:
            self._store_answers = False
            self.check()

    async def probe_store(self) -> bool:
        """Ask the store something cheap (a one-row read), within ``PROBE_TIMEOUT``; note
        whether it answered (``store_available``, ``ready``) and return it."""
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                await self.store.table_owner("")
            answered = True
        except Exception as e:
            if self._store_answers:
                log.warning("the game store cannot be reached: %s", one_line(e))
            answered = False
        if answered and not self._store_answers:
            log.warning("the game store answers again")
        self._store_answers = answered
        self.check()
        return answered

    async def watch(self) -> None:
        """Probe the store every ``probe_every`` seconds, and follow Redis (the bus says
        whether it is connected): readiness and the held clocks follow both."""
        while True:
            await self.probe_store()
            if self.held:  # tables made meanwhile (on another's request) are held too
                for live in self.tables.values():
                    live.table.hold_clock()
            await asyncio.sleep(self.probe_every)
