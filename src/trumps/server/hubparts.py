"""What the hub and the parts it holds know of each other, so that no part imports the hub
or the cluster: the server-wide settings (``HubOptions``), what the hub asks of the service
it is part of (``ClusterLink``: ``LocalCluster`` when the process is the whole service,
``Cluster`` for one of several over Redis) and what that service asks of the hub
(``ClusterHost``, which ``Hub`` is).  mypy checks every side."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Protocol

from trumps.ratings import Rating
from trumps.server.limits.quota import FairUse
from trumps.server.matchmaking.lobby import LiveTable, Lobby
from trumps.server.service.bus import RemoteConn
from trumps.server.service.busmessages import TableRequest
from trumps.server.tables.timing import TimeSource
from trumps.server.transport.connection import Connection
from trumps.server.wire.protocol import Error, QuickMatch, RuleFault, ServerMessage
from trumps.server.wire.wiretypes import BotPace, ErrorCode
from trumps.store import RunningTable, Store

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = [
    "FINISHED_TTL",
    "GUESTS_PER_ADDRESS",
    "GUEST_WINDOW",
    "PROBE_EVERY",
    "ClusterHost",
    "ClusterLink",
    "HubOptions",
    "Peer",
    "TableCommands",
    "refuse",
]

FINISHED_TTL: Final = 60.0  # seconds a finished table stays open for a last look
PROBE_EVERY: Final = 1.0  # seconds between two probes of the store (and checks of Redis)
# New guest identities (hellos without a resume token) one address may make a window: each
# reserves a player id in the database.  Far above a household's tabs or a classroom.
GUESTS_PER_ADDRESS: Final = 60
GUEST_WINDOW: Final = 60.0  # seconds

Peer = Connection | RemoteConn  # a connection here, or one on another process


def refuse(
    conn: Peer,
    code: ErrorCode,
    message: str,
    table_id: str | None = None,
    rule: RuleFault | None = None,
) -> None:
    """Answer ``conn``'s request with an ``error``: it changed nothing."""
    conn.put_nowait(Error(code=code, message=message, table_id=table_id, rule=rule))


@dataclass
class HubOptions:
    """Server-wide settings."""

    bot_time: float | None = None  # caps each level's budget (trumps.ai.level_limits)
    seed: int | None = None  # deals derive from this when set (tests, demos): never public
    per_second: int = 20  # messages a connection may send per second …
    per_minute: int = 600  # … and per minute
    finished_ttl: float = FINISHED_TTL
    commit_window: float = 0.002  # seconds a group commit waits for more tables' writes
    max_open_tables: int = 10  # unfinished tables one player may create or sit at
    fair: FairUse = field(default_factory=FairUse)  # hints and tables per address (quota)
    guests_per_address: int = GUESTS_PER_ADDRESS  # new guests an address makes a minute
    bot_workers: int = 0  # processes bots think in (0: threads of this process)
    # Tables whose creator did not choose (docs/protocol.md#pacing): `trumps serve` gives
    # normal (ServerSettings); a hub made in code does not wait unless told.
    bot_pace: BotPace = "instant"
    # Several processes form one service through Redis (with PostgreSQL as the store):
    redis_url: str | None = None  # None: this process is the whole service
    node_id: str | None = None  # this process's name in the service (default: made up)
    redis_prefix: str = "trumps:"  # of its keys and channels: services may share a Redis
    time: TimeSource | None = None  # the tables' timers (None: the loop's; tests: ManualTime)
    probe_every: float = PROBE_EVERY  # seconds between two probes of the store
    # Each bot level's fixed rating per family (docs/ratings.md; ``trumps serve
    # --bot-ratings``): a rated game against bots moves its person by these.
    bot_ratings: Mapping[str, Mapping[str, Rating]] = field(default_factory=dict)


class ClusterLink(Protocol):
    """What the hub asks of the service it is part of: the same questions whether this
    process is the whole service (``LocalCluster``) or one of several (``Cluster``)."""

    node: str  # this process's name in the service

    @property
    def available(self) -> bool:
        """Whether requests can be routed now (Redis reachable; always, alone)."""
        ...

    @property
    def redis(self) -> Redis | None:
        """Where budgets shared by every process are counted (None: in this one)."""
        ...

    async def start(self) -> None:
        """Take the stored tables this process should run."""
        ...

    async def stop(self) -> None:
        """After the hub stopped its tables: let the others (if any) take them."""
        ...

    async def forward(self, conn: Connection, request: TableRequest) -> bool:
        """Pass a request for a table not here to its owner; False: no such table."""
        ...

    def forward_soon(self, conn: Connection, request: TableRequest) -> None:
        """``forward`` in the background (nobody waits for it)."""
        ...

    async def tables_of(self, player: int) -> list[str]:
        """Unfinished tables ``player`` sits at on the other processes (or all)."""
        ...

    async def open_tables(self, player: int | None) -> int:
        """Unfinished tables ``player`` created or sits at, anywhere."""
        ...

    def offer(
        self, players: set[int], msg: ServerMessage, besides: Collection[object] = ()
    ) -> None:
        """Send ``msg`` to every connection of ``players``, wherever it is."""
        ...

    def sessions_ended(self, ids: list[int]) -> None:
        """Close these sessions' sockets on the other processes."""
        ...

    async def quick_match(self, conn: Connection, key: str) -> tuple[str, int] | None:
        """Whoever waits for ``key`` (their node and connection id), or None: ``conn``
        waits now."""
        ...

    async def cancel_match(self, conn: Connection) -> None:
        """``conn`` stops waiting for a quick match (it asked)."""
        ...

    def stop_waiting(self, conn: Connection) -> None:
        """``conn`` stops waiting for a quick match (it is gone)."""
        ...

    def matched(self, node: str, conn_id: int, table_id: str) -> None:
        """Tell ``node`` that its waiting connection has a table here."""
        ...


class TableCommands(Protocol):
    """The requests at tables a cluster passes to this process (``hub.requests``)."""

    def table_command(self, conn: Peer, live: LiveTable, request: TableRequest) -> None: ...

    async def quick_match(self, conn: Connection, msg: QuickMatch) -> None: ...


class ClusterHost(Protocol):
    """What the service of several processes asks of this process's hub."""

    store: Store
    tables: dict[str, LiveTable]
    connections: set[Connection]
    lobby: Lobby
    stopping: bool

    def adopt(self, running: RunningTable) -> bool: ...

    def lose(self, table_id: str) -> None: ...

    def conn_by_id(self, conn_id: int) -> Connection | None: ...

    def remote_command(self, remote: RemoteConn, request: TableRequest) -> None: ...

    def remote_gone(self, remote: RemoteConn) -> None: ...

    def close_sessions(self, ids: list[int]) -> None: ...

    @property
    def requests(self) -> TableCommands: ...
