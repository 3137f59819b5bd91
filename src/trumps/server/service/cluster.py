"""One service of several processes: table ownership, routing, the shared lobby, failover.

Every running table has one owner process at a time, recorded in the database as an
expiring lease with a fencing number (``Store.claim_tables``): the owner renews its leases
every ``RENEW_EVERY`` seconds; a table whose lease ran out (its owner died or froze) is
claimed by another process, which raises the fencing number and rebuilds the table from the
store, so a former owner that wakes up can never write to it again (its writes are
``Fenced``) and gives it up.  Takeover comes within ``LEASE + RENEW_EVERY`` seconds.

A client may connect to any process.  Its requests for a table owned elsewhere travel over
the bus (``trumps.server.service.bus``) to the owner, which answers through a ``RemoteConn``; a
table that moves is announced (``moved``) so the processes holding its players'
connections seat them again at the new owner.  The lobby's public list is a Redis hash each
owner keeps its rows in; quick match waits in one Redis key per game and rules; rematch
offers go to every process.  The clocks are fair across a failover: a resumed table's
clocks are those of its last stored write, so the time it had no owner is not charged.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Collection, Coroutine
from typing import TYPE_CHECKING, Any, Final

import msgspec

from trumps.server.limits.quota import address_key
from trumps.server.matchmaking.lobby import unfinished_tables
from trumps.server.service.bus import ALIVE_TTL, PREFIX, Bus
from trumps.server.service.busmessages import (
    BusMessage,
    Cmd,
    Disconnected,
    Ended,
    Gone,
    LobbyChanged,
    Matched,
    Moved,
    Offer,
    Out,
    Rejoin,
    Released,
    TableRequest,
    raw,
)
from trumps.server.tasks import Background, stop_tasks, wait_event
from trumps.server.transport.connection import Connection
from trumps.server.wire.protocol import JoinTable, LeaveTable, ServerMessage, Spectate, TableSummary

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from trumps.server.hubparts import ClusterHost

__all__ = ["LEASE", "RENEW_EVERY", "Cluster"]

log = logging.getLogger("trumps.server.service.cluster")

LEASE: Final = 3.0  # seconds a table's lease lasts unless its owner renews it
RENEW_EVERY: Final = 1.0  # seconds between renewals (and takeover scans)
OWNER_WAIT: Final = 6.0  # seconds a request waits for a table between owners
CLAIM_AT_ONCE: Final = 100  # tables one scan takes over
DEAD_NOTICE: Final = 600  # seconds a "taken for dead" notice waits for its process

_summary = msgspec.json.Decoder(TableSummary)


class Cluster:
    """This process's part in a service of several (``hub.cluster``)."""

    def __init__(self, hub: ClusterHost, url: str, node: str, prefix: str = PREFIX) -> None:
        self.hub = hub
        self.node = node
        self.bus = Bus(url, node, self._on_message, prefix)
        self.lobby_key = self.bus.key("lobby")
        self.bus.on_reconnect = self._republish
        self._owners: dict[str, str] = {}  # table -> its owner, as last heard
        self._tasks: list[asyncio.Task[None]] = []
        self._scan_now = asyncio.Event()
        self._trust_after = 0.0  # loop time before which no process is taken for dead
        self._silent_since: dict[str, float] = {}  # process -> when its heartbeat was missed
        self._refresh: asyncio.Task[None] | None = None
        self._background = Background()
        hub.lobby.on_row = self.publish_row  # this process's rows go to the shared list

    @property
    def available(self) -> bool:
        return self.bus.available

    @property
    def redis(self) -> Redis:
        """Where budgets are counted for every process (``quota.Counters``)."""
        return self.bus.redis

    # -- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        await self.bus.start()
        await self.scan()
        await self._refresh_lobby()
        self._tasks.append(asyncio.create_task(self._lease_loop(), name="leases"))

    async def stop(self) -> None:
        """After the hub stopped its tables: hand them to the other processes at once."""
        await stop_tasks(self._tasks)
        await self._background.close()
        try:
            await self.hub.store.release_tables(self.node)
            rows = [t for t in self.hub.tables if t in self.hub.lobby.published]
            if rows:
                await self.bus.redis.hdel(self.lobby_key, *rows)
            self.bus.broadcast(Released(node=self.node))
            self.bus.broadcast(LobbyChanged())
            await asyncio.sleep(0)  # let the sender publish
            await asyncio.wait_for(self._flush_bus(), 2.0)
        except Exception as e:
            log.warning("could not hand the tables over (%s): they move when the leases end", e)
        await self.bus.stop()

    async def _flush_bus(self) -> None:
        while self.bus._queue:
            await asyncio.sleep(0.01)

    # -- leases and takeover ------------------------------------------------------------------
    async def _lease_loop(self) -> None:
        failing = False
        while True:
            await wait_event(self._scan_now, RENEW_EVERY)
            self._scan_now.clear()
            try:
                await self.scan()
                failing = False
            except Exception as e:
                if not failing:
                    log.warning("lease scan failed (retrying every second): %s", e)
                failing = True

    async def scan(self) -> None:
        """Renew this process's leases, give up the tables it lost, take over the tables
        nobody owns, and let go of connections whose process died."""
        hub = self.hub
        owned = await hub.store.renew_leases(self.node, LEASE)
        for table_id, live in list(hub.tables.items()):
            table = live.table
            if table.stored.created and not table.over and table_id not in owned:
                log.warning("table %s: another process owns it now; giving it up", table_id)
                hub.lose(table_id)
        if not hub.stopping:
            for stored in await hub.store.claim_tables(self.node, LEASE, limit=CLAIM_AT_ONCE):
                if hub.adopt(stored):
                    self._owners[stored.table_id] = self.node
                    self.bus.broadcast(Moved(table_id=stored.table_id, node=self.node))
        if not self.bus.available or asyncio.get_running_loop().time() < self._trust_after:
            return  # whose connections died is asked once every process could beat again
        remotes = self.bus.remotes()
        others = {r.node for r in remotes} - {self.node}
        alive = await self.bus.alive(others)
        now = asyncio.get_running_loop().time()
        for node in alive:
            self._silent_since.pop(node, None)
        # Dead: no heartbeat for a whole ALIVE_TTL as seen from here (one missing key is
        # also what a process whose loop lagged, or an emptied Redis, looks like).
        dead = {
            n for n in others - alive if now - self._silent_since.setdefault(n, now) >= ALIVE_TTL
        }
        for remote in remotes:
            if remote.node in dead:
                hub.remote_gone(remote)
                self.bus.forget(remote)
        for node in dead:  # if it was only cut off from Redis, it learns this when back
            self._silent_since.pop(node, None)
            await self.bus.redis.set(self.bus.key(f"dead:{node}"), b"1", ex=DEAD_NOTICE)

    # -- routing ------------------------------------------------------------------------------
    async def owner(self, table_id: str, *, fresh: bool = False) -> str | None:
        """The process that owns ``table_id`` (waiting a little for one between owners);
        None if no such table is running."""
        if not fresh and table_id in self._owners:
            return self._owners[table_id]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + OWNER_WAIT
        while True:
            exists, owner = await self.hub.store.table_owner(table_id)
            if not exists:
                self._owners.pop(table_id, None)
                return None
            if owner is not None:
                self._owners[table_id] = owner
                return owner
            if loop.time() > deadline:
                raise TimeoutError(f"table {table_id} has no owner")
            self._scan_now.set()  # perhaps this process can take it
            await asyncio.sleep(0.2)

    async def forward(self, conn: Connection, request: TableRequest) -> bool:
        """Send ``conn``'s ``request`` to its table's owner; False if there is no such
        table."""
        table_id = request.table_id
        owner = await self.owner(table_id)
        if owner is None:
            return False
        live = self.hub.tables.get(table_id)
        if not self.bus.available and not (owner == self.node and live is not None):
            raise ConnectionError("Redis cannot be reached")  # answered ``unavailable``
        if owner == self.node and live is not None:  # it moved here
            self.hub.requests.table_command(conn, live, request)
            return True
        cmd = Cmd(
            sender=self.node,
            conn=conn.id,
            player=conn.player,
            name=conn.name,
            contributes=conn.contributes,
            account=conn.account is not None,  # (whether it is an account, not its login)
            # The owner counts what this request makes against the client's address
            # (a rematch's table): its hash travels, never the address itself.
            address=None if conn.address is None else address_key(conn.address),
            request=request,
        )
        self.bus.send(owner, cmd)
        return True

    def forward_soon(self, conn: Connection, request: TableRequest) -> None:
        """``forward`` in the background (a disconnect, a rejoin: nobody waits for it)."""
        self._spawn(self._forward_quietly(conn, request))

    async def _forward_quietly(self, conn: Connection, request: TableRequest) -> None:
        try:
            await self.forward(conn, request)
        except Exception as e:
            log.info("table %s: %s not forwarded (%s)", request.table_id, type(request), e)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self._background.spawn(coro)

    def _on_message(self, msg: BusMessage) -> None:
        hub = self.hub
        if isinstance(msg, Cmd):
            request = msg.request
            if request.table_id not in hub.tables:  # not here (any more): the sender looks again
                if not isinstance(request, (Disconnected, LeaveTable)):
                    self.bus.send(msg.sender, Gone(cmd=msg))
                return
            remote = self.bus.remote(msg.sender, msg.conn)
            remote.player, remote.name = msg.player, msg.name or None
            remote.address_key = msg.address
            remote.contributes = msg.contributes
            remote.account = "account" if msg.account else None
            hub.remote_command(remote, request)
        elif isinstance(msg, Out):
            conn = hub.conn_by_id(msg.conn)
            if conn is not None:
                if msg.table_id:
                    conn.tables.add(msg.table_id)
                conn.put_nowait(bytes(msg.message).decode())  # sent on as it came
        elif isinstance(msg, Gone):
            self._owners.pop(msg.cmd.request.table_id, None)
            self._spawn(self._again(msg.cmd))
        elif isinstance(msg, Moved):
            table_id, node = msg.table_id, msg.node
            self._owners[table_id] = node
            if node != self.node:
                hub.lose(table_id)  # if this process still had it, it is stale
            for conn in list(hub.connections):
                if table_id in conn.tables and conn.player is not None:
                    again: TableRequest = (
                        Spectate(table_id=table_id)
                        if table_id in conn.watching
                        else Rejoin(table_id=table_id)
                    )
                    self.forward_soon(conn, again)
        elif isinstance(msg, LobbyChanged):
            if self._refresh is None or self._refresh.done():
                self._refresh = asyncio.create_task(self._refresh_lobby())
        elif isinstance(msg, Offer):
            players = set(msg.players)
            text = bytes(msg.message).decode()
            for conn in list(hub.connections):
                if conn.player in players:
                    conn.put_nowait(text)
        elif isinstance(msg, Matched):
            conn = hub.conn_by_id(msg.conn)
            if conn is not None:
                conn.match_key = conn.match_request = None
                conn.tables.add(msg.table_id)
                self._owners[msg.table_id] = msg.node
                self.forward_soon(conn, JoinTable(table_id=msg.table_id))
        elif isinstance(msg, Released):
            self._scan_now.set()
        elif isinstance(msg, Ended):
            hub.close_sessions(msg.sessions)

    async def tables_of(self, player: int) -> list[str]:
        """The unfinished tables ``player`` sits at, on any process."""
        return await self.hub.store.player_tables(player)

    async def open_tables(self, player: int | None) -> int:
        """Unfinished tables ``player`` created or sits at, on any process."""
        if player is None:
            return unfinished_tables(self.hub.tables, player)
        return await self.hub.store.open_tables(player)

    def sessions_ended(self, ids: list[int]) -> None:
        """Tell every process to close the sockets of these ended sessions."""
        self.bus.broadcast(Ended(sessions=ids))

    async def _again(self, cmd: Cmd) -> None:
        """A request reached a process that no longer has the table: to the owner now."""
        table_id = cmd.request.table_id
        with contextlib.suppress(Exception):
            owner = await self.owner(table_id, fresh=True)
            if owner is not None and owner != self.node:
                self.bus.send(owner, cmd)
            elif owner == self.node and table_id in self.hub.tables:
                self._on_message(cmd)

    # -- messages to players anywhere ---------------------------------------------------------
    def offer(
        self, players: set[int], msg: ServerMessage, besides: Collection[object] = ()
    ) -> None:
        """Send ``msg`` to every connection of ``players``, on any process (``besides``, who
        heard it already, cannot be told apart on the others: they may hear it twice)."""
        self.bus.broadcast(Offer(players=sorted(players), message=raw(msg)))

    # -- the shared lobby ---------------------------------------------------------------------
    def publish_row(self, table_id: str, row: TableSummary | None) -> None:
        """This process's table ``table_id`` has a new lobby row (None: it leaves the list)."""
        self._spawn(self._publish_row(table_id, row))

    async def _publish_row(self, table_id: str, row: TableSummary | None) -> None:
        try:
            if row is None:
                await self.bus.redis.hdel(self.lobby_key, table_id)
            else:
                entry = {"node": self.node, "row": msgspec.to_builtins(row)}
                await self.bus.redis.hset(self.lobby_key, table_id, msgspec.json.encode(entry))
            self.bus.broadcast(LobbyChanged())
        except Exception as e:
            log.info("lobby row of %s not published (%s)", table_id, e)

    def _republish(self) -> None:
        """Redis is back (perhaps empty, it keeps nothing on disk): publish this process's
        lobby rows again and read the others'."""
        for table_id in list(self.hub.lobby.published):
            live = self.hub.tables.get(table_id)
            if live is not None and live.summary is not None:
                self.publish_row(table_id, live.summary)
        # The others had no heartbeat from anyone while Redis was away (and an emptied
        # Redis has none): nobody is taken for dead before all could beat again.
        self._trust_after = asyncio.get_running_loop().time() + ALIVE_TTL
        self._silent_since.clear()
        self._scan_now.set()
        self.bus.broadcast(LobbyChanged())
        self._spawn(self._rejoin_if_taken_for_dead())
        for conn in list(self.hub.connections):  # waits for a quick match were only in Redis
            request = conn.match_request
            if request is not None and not conn.closed:
                self._spawn(self.hub.requests.quick_match(conn, request))

    async def _rejoin_if_taken_for_dead(self) -> None:
        """While this process alone was cut off from Redis, the others may have taken it for
        dead and unseated its players at their tables: those connections are closed, so
        their clients reconnect and are seated again by their resume tokens."""
        try:
            if await self.bus.redis.getdel(self.bus.key(f"dead:{self.node}")) is None:
                return
        except Exception as e:  # Redis went again: asked at the next return
            log.warning("could not ask whether this process was taken for dead: %s", e)
            return
        hub = self.hub
        for conn in list(hub.connections):
            if any(t not in hub.tables for t in conn.tables):
                conn.close()
        log.warning("the other processes took this one for dead: its players reconnect")

    async def _refresh_lobby(self) -> None:
        """Read every process's lobby rows (those of live processes only)."""
        try:
            raw = await self.bus.redis.hgetall(self.lobby_key)
            entries = {
                (k.decode() if isinstance(k, bytes) else k): msgspec.json.decode(v)
                for k, v in raw.items()
            }
            nodes = {e["node"] for e in entries.values()} - {self.node}
            alive = await self.bus.alive(nodes)
        except Exception as e:
            log.info("lobby not refreshed (%s)", e)
            return
        rows = {}
        for table_id, entry in entries.items():
            if entry["node"] in alive and table_id not in self.hub.tables:
                rows[table_id] = _summary.decode(msgspec.json.encode(entry["row"]))
        self.hub.lobby.remote_rows = rows
        self.hub.lobby.changed()

    # -- quick match --------------------------------------------------------------------------
    def _match_key(self, key: str) -> str:
        return self.bus.key("match:" + hashlib.sha256(key.encode()).hexdigest()[:32])

    async def quick_match(self, conn: Connection, key: str) -> tuple[str, int] | None:
        """Pair ``conn`` with whoever waits for ``key`` on any process: their (node,
        connection id), or None when ``conn`` now waits."""
        redis = self.bus.redis
        name = self._match_key(key)
        me = msgspec.json.encode({"node": self.node, "c": conn.id, "p": conn.player})
        for _ in range(4):
            raw = await redis.getdel(name)
            if raw is None:
                if await redis.set(name, me, nx=True, ex=3600):
                    conn.match_key = name
                    return None
                continue
            other = msgspec.json.decode(raw)
            if other["p"] == conn.player:  # the same player asking again keeps the place
                await redis.set(name, me, ex=3600)
                conn.match_key = name
                return None
            if other["node"] == self.node:
                waiting = self.hub.conn_by_id(other["c"])
                if waiting is None or waiting.closed:
                    continue
            elif not await self.bus.alive({other["node"]}):
                continue
            return other["node"], int(other["c"])
        raise RuntimeError("quick match: too much contention")

    def stop_waiting(self, conn: Connection) -> None:
        """``conn`` is gone: its place in the queue is given up in the background."""
        self._spawn(self.cancel_match(conn))

    async def cancel_match(self, conn: Connection) -> None:
        name = conn.match_key
        conn.match_request = None
        if name is None:
            return
        conn.match_key = None
        with contextlib.suppress(Exception):
            raw = await self.bus.redis.get(name)
            if raw is not None and msgspec.json.decode(raw).get("c") == conn.id:
                await self.bus.redis.delete(name)

    def matched(self, node: str, conn_id: int, table_id: str) -> None:
        """Tell ``node`` that its waiting connection ``conn_id`` has a table here."""
        self.bus.send(node, Matched(conn=conn_id, table_id=table_id, node=self.node))
