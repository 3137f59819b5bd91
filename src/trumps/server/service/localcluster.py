"""The service of one process: what ``Cluster`` answers for a service of several, answered
here, where every table and every connection is (``hub.cluster`` when no Redis is given).

The hub asks its cluster the same questions whether it is alone or not (who owns a table,
who waits for a quick match, how many tables a player has open, who should hear an offer);
this is the one-process answer to each, as Colyseus's ``LocalPresence`` is to its
``RedisPresence``.  It keeps the quick-match queue, since only this process can be waited in.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from trumps.server.matchmaking.lobby import QuickMatches, unfinished_tables
from trumps.server.service.busmessages import TableRequest
from trumps.server.transport.connection import Connection
from trumps.server.wire.protocol import ServerMessage

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from trumps.server.hubparts import ClusterHost

__all__ = ["LocalCluster"]

EVERY_TABLE: Final = 2**31 - 1  # a process alone takes every stored table at its start


class LocalCluster:
    """One process that is the whole service: nothing to route, share or take over."""

    available: Final = True  # no Redis to lose
    redis: Redis | None = None  # budgets are counted in this process (quota.Counters)

    def __init__(self, hub: ClusterHost, node: str, lease: float) -> None:
        self.hub, self.node, self.lease = hub, node, lease
        self.matches = QuickMatches()

    async def start(self) -> None:
        """Take every table kept in the store (a restart, even after ``kill -9``)."""
        hub = self.hub
        for running in await hub.store.claim_tables(
            self.node, self.lease, everything=True, limit=EVERY_TABLE
        ):
            hub.adopt(running)

    async def stop(self) -> None:
        """Nobody to hand the tables to: they stay stored for the next start."""

    async def forward(self, conn: Connection, request: TableRequest) -> bool:
        """No other process owns a table: one not here does not exist."""
        return False

    def forward_soon(self, conn: Connection, request: TableRequest) -> None:
        """As ``forward``: nowhere to send it."""

    async def tables_of(self, player: int) -> list[str]:
        """The tables ``player`` sits at on other processes: none."""
        return []

    async def open_tables(self, player: int | None) -> int:
        """Unfinished tables ``player`` created or sits at: all of them are here."""
        return unfinished_tables(self.hub.tables, player)

    def offer(
        self, players: set[int], msg: ServerMessage, besides: Collection[object] = ()
    ) -> None:
        """Send ``msg`` to every connection of ``players`` but those in ``besides`` (who
        heard it already, at the table)."""
        for conn in list(self.hub.connections):
            if conn.player in players and conn not in besides:
                conn.put_nowait(msg)

    def sessions_ended(self, ids: list[int]) -> None:
        """Their sockets here are closed by the hub; there are no others."""

    # -- quick match ---------------------------------------------------------------------------
    async def quick_match(self, conn: Connection, key: str) -> tuple[str, int] | None:
        """Pair ``conn`` with whoever waits for ``key``: their (node, connection id), or None
        when ``conn`` now waits."""
        other = self.matches.pair(conn, key)
        return None if other is None else (self.node, other.id)

    async def cancel_match(self, conn: Connection) -> None:
        """``conn`` stops waiting (it asked)."""
        self.stop_waiting(conn)

    def stop_waiting(self, conn: Connection) -> None:
        """``conn`` stops waiting (it is gone)."""
        conn.match_request = None
        self.matches.cancel(conn)

    def matched(self, node: str, conn_id: int, table_id: str) -> None:
        """Never asked: a partner found here is always here."""
        raise AssertionError(f"no process {node!r} besides this one")
