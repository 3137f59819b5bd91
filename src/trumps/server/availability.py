"""Whether a process can take moves now: its store and (for a service) Redis reachable.

The hub probes its store every ``probe_every`` seconds and hears from the bus whether Redis
is connected; readiness (``/readyz``) follows both, and while either is away every table's
clock is held, so nobody is charged for time in which a move would have been refused.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from trumps.server.commit import one_line, unreachable

if TYPE_CHECKING:
    from trumps.server.commit import GroupCommit
    from trumps.server.hubparts import ClusterLink
    from trumps.server.lobby import LiveTable
    from trumps.store import Store

__all__ = ["PROBE_TIMEOUT", "Availability"]

log = logging.getLogger("trumps.server.hub")

PROBE_TIMEOUT: Final = 3.0  # seconds a probe may take before the store counts as away


class Availability:
    """The hub's part that follows its store and Redis (mixed into ``Hub``)."""

    stopping: bool
    committer: GroupCommit
    cluster: ClusterLink
    tables: Mapping[str, LiveTable]
    store: Store
    options: Any
    _store_answers: bool
    _held: bool

    def ready(self) -> tuple[bool, str]:
        """Whether this process should get new players (readiness): (ready, why not)."""
        if self.stopping:
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

    def _availability(self) -> None:
        """Hold every table's clock when the service goes down, release them when it is
        back: nobody is charged for time in which their move would have been refused."""
        down = self.down
        if down == self._held:
            return
        self._held = down
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
            self._availability()

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
        self._availability()
        return answered

    async def _watch_store(self) -> None:
        """Probe the store every ``probe_every`` seconds, and follow Redis (the bus says
        whether it is connected): readiness and the held clocks follow both."""
        while True:
            await self.probe_store()
            if self._held:  # tables made meanwhile (on another's request) are held too
                for live in self.tables.values():
                    live.table.hold_clock()
            await asyncio.sleep(self.options.probe_every)
