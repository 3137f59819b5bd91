"""The bus between the processes of one service: Redis pub/sub.

Each process (a *node*) listens on its own channel and on one channel for everybody.  What
crosses it is transient: a connection's request travelling to the process that owns the
table, the messages that table sends back to that connection, and notices for everyone
(a table moved to another owner, the lobby changed, a rematch is offered).  The truth is
in the database: every move is stored there before any of these messages is sent.

Why pub/sub and not streams: a message on this bus is worth something only for the next
moment — a command whose owner died is answered by nobody, and the player's client, which
numbers every event, notices the silence or the gap and asks again (``resync``) from
whichever process it reaches next.  Streams would keep and replay what nobody needs after
a failover, at the cost of trimming and consumer groups; pub/sub has the lowest latency
and nothing to clean up.

Sending never waits: messages are queued and a sender task publishes each moment's worth
in one pipelined round trip, the messages for one node in one publish.  Every node also
keeps a heartbeat key that expires ``ALIVE_TTL`` seconds after its last beat, so the others
can tell a node that died from one that is merely quiet.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Final

import msgspec
import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from trumps.server.service.busmessages import BusMessage, Out, decode_batch, encode_batch, raw
from trumps.server.tasks import stop_tasks
from trumps.server.wire.protocol import ServerMessage, TableState

__all__ = ["ALIVE_TTL", "Bus", "RemoteConn"]

log = logging.getLogger("trumps.server.service.bus")

ALIVE_TTL: Final = 3  # seconds a node's heartbeat key outlives its last beat
BEAT_EVERY: Final = 1.0  # seconds between heartbeats
SEND_TRIES: Final = 3  # publishes of one batch before it is given up
REDIS_CONNECTIONS: Final = (
    64  # a process's Redis connections; more commands wait for one (5 s at most)
)
PREFIX: Final = "trumps:"  # of every key and channel (several services may share a Redis)


class RemoteConn:
    """A connection held by another process, as a table sees it (an outbox).

    One object per (node, connection id), so tables can use it as a key; what is put
    into it travels over the bus to that node, which puts it into the real connection."""

    def __init__(self, bus: Bus, node: str, conn_id: int) -> None:
        self.bus, self.node, self.conn_id = bus, node, conn_id
        self.player: int | None = None
        self.name: str | None = None  # None: the player chose no name
        self.contributes = False  # its client promised contributions (its process says)
        self.account: str | None = None  # its account's login; None: a guest
        # What its client's address is counted under (``quota.address_key``: a hash, as
        # the connection's process sent it with the request); None: not known.
        self.address_key: str | None = None
        self.closed = False
        self.tables: set[str] = set()  # (kept by the connection's own process)

    def put_nowait(self, item: ServerMessage, /) -> None:
        table = item.table_id if isinstance(item, TableState) else None
        self.bus.send(self.node, Out(conn=self.conn_id, table_id=table, message=raw(item)))

    def __repr__(self) -> str:
        return f"RemoteConn({self.node!r}, {self.conn_id})"


class Bus:
    """This node's side of the bus; ``on_message`` gets every message meant for it."""

    def __init__(
        self,
        url: str,
        node: str,
        on_message: Callable[[BusMessage], None],
        prefix: str = PREFIX,
    ) -> None:
        self.url, self.node, self.prefix = url, node, prefix
        self.on_message = on_message
        self.on_reconnect: Callable[[], None] | None = None  # Redis is back after a loss
        # A command on a connection Redis closed (it restarted) is tried again on a new one.
        # The pool is bounded and waits for a free connection: a burst of commands (a
        # thousand players saying hello at once) queues instead of failing with "too many
        # connections", as redis-py's default pool of 100 did under load.
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=5,
            socket_timeout=5,
            socket_connect_timeout=5,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), retries=3),
        )
        self.redis: redis.Redis = redis.Redis.from_pool(pool)
        self._reachable = False  # the last command to Redis succeeded
        self._listening = False  # subscribed to this node's channels
        self._queue: list[tuple[str, BusMessage]] = []
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._remotes: dict[tuple[str, int], RemoteConn] = {}
        self.sent = 0  # publishes made (for stats)

    @property
    def available(self) -> bool:
        """Redis answers and this node hears its channels (what it sends may arrive)."""
        return self._reachable and self._listening

    @available.setter
    def available(self, value: bool) -> None:
        self._reachable = value

    # -- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Connect (raises if Redis cannot be reached) and start listening and beating."""
        await self.redis.ping()
        await self._beat_once()
        self.available = True
        self._listening = True  # (subscribed below, before the first message can matter)
        self._tasks = [
            asyncio.create_task(self._listen(), name="bus-listen"),
            asyncio.create_task(self._send_loop(), name="bus-send"),
            asyncio.create_task(self._beat(), name="bus-beat"),
        ]

    async def stop(self) -> None:
        await stop_tasks(self._tasks)
        with contextlib.suppress(Exception):
            await self.redis.delete(self._alive_key(self.node))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- sending -------------------------------------------------------------------------------
    def remote(self, node: str, conn_id: int) -> RemoteConn:
        """The one ``RemoteConn`` of connection ``conn_id`` on ``node``."""
        key = (node, conn_id)
        conn = self._remotes.get(key)
        if conn is None:
            conn = self._remotes[key] = RemoteConn(self, node, conn_id)
        return conn

    def forget(self, conn: RemoteConn) -> None:
        self._remotes.pop((conn.node, conn.conn_id), None)

    def remotes(self) -> list[RemoteConn]:
        return list(self._remotes.values())

    def send(self, node: str, msg: BusMessage) -> None:
        """Queue ``msg`` for ``node`` (sent within the moment, never waited for)."""
        self._queue.append((node, msg))
        self._wake.set()

    def broadcast(self, msg: BusMessage) -> None:
        """Queue ``msg`` for every node, this one included."""
        self.send("*", msg)

    async def _send_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._queue = self._queue, []
            if not batch:
                continue
            grouped: dict[str, list[BusMessage]] = {}
            for node, msg in batch:
                grouped.setdefault(node, []).append(msg)
            for attempt in range(SEND_TRIES):
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for node, messages in grouped.items():
                            pipe.publish(self._channel(node), encode_batch(messages))
                        await pipe.execute()
                    self.sent += len(grouped)
                    self.available = True
                    break
                except Exception as e:
                    # A connection from before a Redis restart fails once, then a new one
                    # is made: try again at once.  Beyond that, what was in flight is lost
                    # (clients see the gap in the event numbers and resync).
                    await self._fresh_connections()
                    if attempt == SEND_TRIES - 1:
                        if self.available:
                            log.error("Redis failed (%s); messages to other processes lost", e)
                        self.available = False
                        await asyncio.sleep(0.5)
                    else:
                        await asyncio.sleep(0.05 * (attempt + 1))

    # -- receiving -----------------------------------------------------------------------------
    async def _listen(self) -> None:
        delay = 0.1
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel(self.node), self._channel("*"))
                if not self._listening:  # back after a loss
                    await self._fresh_connections()
                    await self._beat_once()
                    self.available = True
                    self._listening = True
                    log.warning("Redis is back")
                    if self.on_reconnect is not None:
                        self.on_reconnect()
                delay = 0.1
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is None or message.get("type") != "message":
                        continue
                    try:
                        batch = decode_batch(message["data"])
                    except (msgspec.DecodeError, msgspec.ValidationError) as e:
                        log.error("a batch from the bus could not be read (%s): dropped", e)
                        continue
                    for msg in batch:
                        try:
                            self.on_message(msg)
                        except Exception:
                            log.exception("bus message %r failed", type(msg).__name__)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except Exception as e:
                if self.available:
                    log.error("lost Redis (%s); reconnecting", e)
                self.available = False
                self._listening = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def _fresh_connections(self) -> None:
        """Drop the idle pooled connections: after Redis restarted they are all dead."""
        with contextlib.suppress(Exception):
            await self.redis.connection_pool.disconnect(inuse_connections=False)

    # -- liveness ------------------------------------------------------------------------------
    async def _beat_once(self) -> None:
        await self.redis.set(self._alive_key(self.node), b"1", ex=ALIVE_TTL)

    async def _beat(self) -> None:
        while True:
            try:
                await self._beat_once()
                self.available = True
            except Exception as e:
                if self.available:
                    log.error("Redis failed (%s)", e)
                self.available = False
            await asyncio.sleep(BEAT_EVERY)

    async def alive(self, nodes: set[str]) -> set[str]:
        """The nodes of ``nodes`` whose heartbeat has not run out."""
        if not nodes:
            return set()
        ordered = sorted(nodes)
        found = await self.redis.mget([self._alive_key(n) for n in ordered])
        return {n for n, v in zip(ordered, found, strict=True) if v is not None}

    def key(self, name: str) -> str:
        """A Redis key of this service (every key and channel starts with ``prefix``)."""
        return self.prefix + name

    def _channel(self, node: str) -> str:
        return self.key(f"node:{node}")

    def _alive_key(self, node: str) -> str:
        return self.key(f"alive:{node}")
