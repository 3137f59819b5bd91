"""The hub: the routing of one server's connections to its lobby and live tables.

Everything a connection says arrives through ``Hub.handle`` as raw frames; the hub decodes
them (``protocol.decode_client``), answers hello, table creation and rematches itself, lets
the ``Lobby`` and ``QuickMatches`` (``trumps.server.matchmaking.lobby``) answer the lobby's requests, and
passes table requests to the table's own writer task (``Table``), which is the only code
that touches a game.  The hub is each table's ``TableListener``: what a command changed at a
table (its events, chat, seats, the finished record) is stored through the group commit
(``trumps.server.tables.commit``: the writes of every table in a few milliseconds share one
transaction) before anyone is told of it.  On start it resumes every table from the store,
started or still waiting for players, so a restart (even after ``kill -9``) loses nothing
anyone has seen.  While the store cannot be reached, requests that need it are refused with
``unavailable`` and the tables wait, showing their last durable state, their clocks held
(nobody is charged for time in which no move could be made).  Whether the store answers is
known from the group commit and from a cheap probe every ``PROBE_EVERY`` seconds, so an idle
process too stops being ready (``ready``) while its store is away, and is ready again by
itself when it is back.

No sockets here either: a connection is an outbox queue drained by the transport
(``trumps.server.transport.app``), which makes the hub testable without a network.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

import msgspec
from sqlalchemy.exc import SQLAlchemyError

from trumps.errors import TrumpsError
from trumps.records import InvalidRecord, replay
from trumps.server.availability import Availability
from trumps.server.hubparts import (
    GUEST_WINDOW,
    GUESTS_PER_ADDRESS,
    HubOptions,
    refuse,
)
from trumps.server.identity.auth import BadToken
from trumps.server.identity.sessions import SESSION_ENDED, Sessions
from trumps.server.limits.quota import Counters, address_key
from trumps.server.limits.ratelimit import RateLimit
from trumps.server.matchmaking.lobby import LOBBY_PAGE, LiveTable, Lobby
from trumps.server.matchmaking.tablemaking import TableRequests
from trumps.server.service.bus import RemoteConn
from trumps.server.service.busmessages import Disconnected, TableRequest
from trumps.server.service.cluster import LEASE, Cluster
from trumps.server.service.localcluster import LocalCluster
from trumps.server.tables.bots import BotRunner
from trumps.server.tables.commit import GroupCommit, one_line
from trumps.server.tables.table import (
    Disconnect,
    Join,
    Table,
)
from trumps.server.tasks import Background, stop_tasks
from trumps.server.transport.connection import Connection
from trumps.server.wire.protocol import (
    CancelQuickMatch,
    ChatSend,
    ClientMessage,
    CreateTable,
    Hello,
    JoinTable,
    LeaveTable,
    ListTables,
    Ping,
    PlayComputer,
    Pong,
    QuickMatch,
    RematchAsk,
    Resync,
    TableClosed,
    Welcome,
    decode_client,
)
from trumps.server.wire.wiretypes import PROTOCOL_VERSION, ProtocolError, SeatKind
from trumps.store import Fenced, RunningTable, Store

__all__ = ["GUESTS_PER_ADDRESS", "GUEST_WINDOW", "Connection", "Hub", "HubOptions", "LiveTable"]

log = logging.getLogger(__name__)


# Requests before which a guest is stored: it sits, makes a table or chats.
_STORE_GUEST_FIRST = (CreateTable, PlayComputer, QuickMatch, JoinTable, ChatSend, RematchAsk)
# Requests answered without the store, also while it is unreachable.
_WITHOUT_STORE = (Ping, ListTables, Resync, LeaveTable, CancelQuickMatch)
# What a store that cannot be reached raises (the driver's errors, under SQLAlchemy's).
_STORE_DOWN = (OSError, SQLAlchemyError)


class Hub:
    """Every live table and connection of one server process."""

    def __init__(
        self,
        store: Store,
        sessions: Sessions,
        options: HubOptions | None = None,
        *,
        runner: BotRunner | None = None,
    ) -> None:
        """``runner``: where bots think (default: ``options.bot_workers`` processes)."""
        self.store = store
        self.sessions = sessions
        self.options = options or HubOptions()
        self.tables: dict[str, LiveTable] = {}
        self.connections: set[Connection] = set()
        self._limit = RateLimit(self.options.per_second, self.options.per_minute)
        self.lobby = Lobby(self.tables, lambda: self.connections)
        self.runner = runner or BotRunner(self.options.bot_workers)
        self.committer = GroupCommit(store, self.options.commit_window)
        self._probe: asyncio.Task[None] | None = None
        self._background = Background()
        self.stopping = False
        self._by_id: dict[int, Connection] = {}
        self.node = self.options.node_id or (
            f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        )
        # The service this process is part of: the local one when it is the whole service,
        # else the Redis one (the parts this hub is made of see only the ClusterLink it is).
        self.cluster: Cluster | LocalCluster = (
            Cluster(self, self.options.redis_url, self.node, self.options.redis_prefix)
            if self.options.redis_url
            else LocalCluster(self, self.node, LEASE)
        )
        self.availability = Availability(
            store,
            self.committer,
            self.cluster,
            self.tables,
            probe_every=self.options.probe_every,
            stopping=lambda: self.stopping,
        )
        # Budgets per player and address: shared by every process of a service.
        self.counters = Counters(self.cluster.redis, self.options.redis_prefix)
        self.requests = TableRequests(
            self,
            self.tables,
            self.lobby,
            self.cluster,
            options=self.options,
            runner=self.runner,
            counters=self.counters,
            background=self._background,
            conn_by_id=self.conn_by_id,
            store=self.store,
        )

    # -- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the bot workers and take the tables kept in the store: all of them when this
        process is the whole service, else those whose owner's lease ran out."""
        await self.runner.start()
        self._probe = asyncio.create_task(self.availability.watch(), name="store-probe")
        await self.cluster.start()

    def adopt(self, running: RunningTable) -> bool:
        """Rebuild a stored table here and run it; False if it cannot be resumed."""
        meta = running.meta
        try:
            if meta is None:
                raise InvalidRecord("no table settings were stored with it")
            game = replay(running.record)
            if game.outcome is not None:
                raise InvalidRecord("its record is already finished")
        except (TrumpsError, KeyError, TypeError) as e:
            log.error("cannot resume table %s: %s", running.table_id, e)
            return False
        table = Table.resume(
            running.table_id,
            game,
            meta,
            list(running.player_ids),
            listener=self,
            runner=self.runner,
            bot_time=self.options.bot_time,
            started_at=running.record.get("started"),
            stored=running,
            time=self.options.time,
        )
        table.bot_ratings = self.options.bot_ratings
        creator = meta.get("creator")
        table.labels = {"rules_name": meta.get("rules_name"), "creator": creator}
        address = meta.get("address")
        table.labels = {**table.labels, "address": address} if address else table.labels
        self.tables[table.table_id] = LiveTable(
            table, rules_name=meta.get("rules_name"), creator=creator, address=address
        )
        if address:  # it counts against its creator's address again (after a restart)
            self._spawn(self.counters.hold(f"tables:{address}", table.table_id))
        if self.availability.held:
            table.hold_clock()
        table.launch()
        self.lobby.table_changed(self.tables[table.table_id])
        log.info("resumed table %s at ply %d", table.table_id, len(game.history))
        return True

    def lose(self, table_id: str) -> None:
        """Another process owns ``table_id`` now: stop it here without a word or a write."""
        live = self.tables.pop(table_id, None)
        if live is not None:
            live.table.submit_stop()
            if live.expires is not None:
                live.expires.cancel()
            self.lobby.changed()

    async def stop(self) -> None:
        """Stop every table after storing what they are doing (the rows stay for a restart)."""
        self.stopping = True
        if self._probe is not None:
            await stop_tasks([self._probe])
        for conn in list(self.connections):
            conn.close()
        self.committer.stopping()  # a store that fails now is not waited for
        for live in list(self.tables.values()):
            await live.table.stop()
            if live.expires is not None:
                live.expires.cancel()
        await self.committer.close()
        await self._background.close()  # writes under way finish before the store closes
        await self.cluster.stop()  # the other processes (if any) take the tables at once
        await self.lobby.close()
        self.runner.close()

    # -- connections ------------------------------------------------------------------------
    def connect(self, address: str | None = None) -> Connection:
        """A new connection from ``address`` (the client's IP; None: not known)."""
        conn = Connection()
        conn.address = address
        self.connections.add(conn)
        self._by_id[conn.id] = conn
        return conn

    def conn_by_id(self, conn_id: int) -> Connection | None:
        return self._by_id.get(conn_id)

    def disconnect(self, conn: Connection) -> None:
        """The transport is gone: seats wait for their owner's grace period."""
        self.connections.discard(conn)
        self._by_id.pop(conn.id, None)
        conn.closed = True
        self.cluster.stop_waiting(conn)
        for table_id in conn.tables:
            live = self.tables.get(table_id)
            if live is not None:
                live.table.submit(Disconnect(conn))
            else:
                self.cluster.forward_soon(conn, Disconnected(table_id=table_id))
        conn.tables.clear()

    def remote_gone(self, remote: RemoteConn) -> None:
        """The process holding ``remote`` died: its seats wait for their owners."""
        for live in self.tables.values():
            if live.table.hears(remote):
                live.table.submit(Disconnect(remote))

    def remote_command(self, remote: RemoteConn, request: TableRequest) -> None:
        """A request from a connection on another process, for a table here."""
        live = self.tables.get(request.table_id)
        if live is not None:
            self.requests.table_command(remote, live, request)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self._background.spawn(coro)

    async def handle(self, conn: Connection, data: bytes | str) -> None:
        """One frame from ``conn``: answered, or rejected with an ``error`` that changed nothing.

        While the store is unreachable, everything but pings, lobby lists, resyncs and
        leaving is refused with ``unavailable`` (nothing could be stored)."""
        if conn.budget is None:
            conn.budget = self._limit.buckets()
        if not conn.budget.allow():
            refuse(conn, "rate_limited", "too many messages; slow down")
            return
        if conn.session is not None:
            self._touch(conn)
        try:
            msg = decode_client(data)
        except ProtocolError as e:
            refuse(conn, e.code, e.message)
            return
        table_id = getattr(msg, "table_id", None)
        self.availability.check()  # (Redis may have gone or come back since the last probe)
        if self.availability.down and not isinstance(msg, _WITHOUT_STORE):
            self._unavailable(conn, table_id)
            return
        try:
            await self._dispatch(conn, msg)
        except _STORE_DOWN as e:
            log.warning("request %r: the store is unreachable: %s", type(msg).__name__, one_line(e))
            self.availability.store_failed(e)
            self._unavailable(conn, table_id)
        except TimeoutError:  # a table between owners for too long
            self._unavailable(conn, table_id)
        except Exception:
            log.exception("request %r failed", type(msg).__name__)
            refuse(conn, "internal_error", "the server failed on this request", table_id)

    def _touch(self, conn: Connection) -> None:
        """Note a session's use now and then (at most once per ``touch_every``)."""
        now = self.sessions.clock()
        if now - conn.touched < self.sessions.touch_every or conn.session is None:
            return
        conn.touched = now
        session = conn.session

        async def touch() -> None:
            try:
                await self.sessions.touch(session)
            except Exception as e:  # noted again at the next message after touch_every
                log.info("session %d: last use not noted: %s", session, e)

        self._spawn(touch())

    async def _store_guest(self, conn: Connection) -> None:
        """Store the guest ``conn`` is, with the id and token its ``welcome`` gave."""
        assert conn.player is not None and conn.token is not None
        # The players' name column holds no NULL: "" stands for no name chosen.
        name = conn.name or ""
        session = await self.sessions.open_guest(name, conn.token, conn.label, conn.player)
        conn.session, conn.touched, conn.pending = session.id, self.sessions.clock(), False

    def close_sessions(self, ids: list[int]) -> None:
        """These sessions ended: close their sockets here (reason ``SESSION_ENDED``)."""
        ended = set(ids)
        for conn in list(self.connections):
            if conn.session in ended:
                conn.close(SESSION_ENDED)

    def sessions_ended(self, ids: list[int]) -> None:
        """Close the sockets of ended sessions on this process and every other one."""
        if not ids:
            return
        self.close_sessions(ids)
        self.cluster.sessions_ended(ids)

    def _unavailable(self, conn: Connection, table_id: str | None) -> None:
        refuse(conn, "unavailable", "the game store cannot be reached; try again shortly", table_id)

    async def _dispatch(self, conn: Connection, msg: ClientMessage) -> None:
        if conn.player is None:
            if not isinstance(msg, Hello):
                refuse(conn, "not_hello", "say hello first")
                return
            await self._hello(conn, msg)
            return
        if conn.pending and isinstance(msg, _STORE_GUEST_FIRST):
            await self._store_guest(conn)
        if isinstance(msg, Hello):
            refuse(conn, "bad_field", "hello: this connection already said hello")
        elif isinstance(msg, Ping):
            conn.put_nowait(Pong(nonce=msg.nonce))
        elif isinstance(msg, ListTables):
            conn.lobby = (True, msg.game, msg.offset)
            conn.put_nowait(self.lobby.page(msg.game, msg.offset))
        elif isinstance(msg, CreateTable):
            await self.requests.create(conn, msg)
        elif isinstance(msg, PlayComputer):
            seats: list[SeatKind] = ["human", *[msg.level] * (msg.players - 1)]
            made = CreateTable(
                game=msg.game, rules=msg.rules, seats=seats, bot_pace=msg.bot_pace, rated=msg.rated
            )
            await self.requests.create(conn, made)
        elif isinstance(msg, QuickMatch):
            await self.requests.quick_match(conn, msg)
        elif isinstance(msg, CancelQuickMatch):
            await self.cluster.cancel_match(conn)
        else:
            await self.requests.at_table(conn, msg)

    # -- hello -------------------------------------------------------------------------------
    async def _hello(self, conn: Connection, msg: Hello) -> None:
        if msg.protocol != PROTOCOL_VERSION:
            refuse(
                conn,
                "bad_version",
                f"this server speaks protocol {PROTOCOL_VERSION}, not {msg.protocol}",
            )
            return
        account: str | None = None
        name = msg.name  # None: no name chosen (docs/protocol.md#hello)
        if msg.resume_token is not None:
            try:
                session = await self.sessions.check(msg.resume_token)
                player = await self.store.get_player(session.player_id)
            except BadToken as e:
                refuse(conn, "bad_token", str(e))
                return
            except LookupError:
                refuse(conn, "bad_token", "the resume token names no player here")
                return
            token = msg.resume_token
            account = player.login
            kept = player.name or None  # stored "" is no name chosen
            if name is None:  # no name said: the one the player has kept
                name = kept
            elif name != kept:
                await self.store.rename_player(player.id, name)
            player_id = session.player_id
            conn.session, conn.touched = session.id, self.sessions.clock()
        else:
            # A guest is stored (with its session) when it first sits, makes a table or
            # chats (``_store_guest``): a hello alone only reserves its id — within its
            # address's budget of new identities.
            if not await self._new_guest_allowed(conn):
                limit = self.options.guests_per_address
                refuse(
                    conn,
                    "rate_limited",
                    f"your address made {limit} new guests this minute; try again shortly",
                )
                return
            token = self.sessions.new_token()
            player_id = await self.store.reserve_player_id()
            conn.pending = True
        conn.token = token
        conn.player, conn.name, conn.account = player_id, name, account
        conn.contributes = msg.contributes
        mine = [
            table_id
            for table_id, live in self.tables.items()
            if not live.table.over and live.table.seat_of_owner(player_id) is not None
        ]
        # (and seats at tables other processes own)
        mine += [t for t in await self.cluster.tables_of(player_id) if t not in mine]
        conn.put_nowait(
            Welcome(
                player_id=str(player_id),
                name=name,
                resume_token=token,
                account=account,
                tables=mine,
            )
        )
        for table_id in mine:
            conn.tables.add(table_id)
            live = self.tables.get(table_id)
            if live is not None:
                live.table.submit(Join(conn, name=conn.name, player=player_id))
            else:
                self.cluster.forward_soon(conn, JoinTable(table_id=table_id))

    async def _new_guest_allowed(self, conn: Connection) -> bool:
        """Spend one of ``conn``'s address's new guests this window (on every process)."""
        if conn.address is None:  # not from a socket
            return True
        key = f"guest:{address_key(conn.address)}"
        return await self.counters.spend(key, self.options.guests_per_address, GUEST_WINDOW)

    # -- TableListener ------------------------------------------------------------------------
    def table_changed(self, table: Table) -> None:
        live = self.tables.get(table.table_id)
        if live is None:
            return
        self.lobby.table_changed(live)
        if not table.started and not any(table.owners()) and table.levels.count(None):
            self._drop(table.table_id)  # everyone left before the start
            self._forget(table)

    def table_expired(self, table: Table) -> None:
        """``table`` gave itself up unfinished (bots nobody watched, or a game that never
        started): it is gone, row and all, and once its row is deleted everyone at it and its
        creator are told (nobody, if another process owns it now)."""
        live = self.tables.get(table.table_id)
        if live is None or table.expired is None:
            return
        msg = TableClosed(table_id=table.table_id, reason=table.expired)  # type: ignore[arg-type]
        subscribers, creator = table.subscribers(), live.creator

        def tell() -> None:
            for sub in subscribers:
                sub.put_nowait(msg)
            if creator is not None:  # on whichever process it is
                self.cluster.offer({creator}, msg, besides=subscribers)

        log.info("table %s given up: %s", table.table_id, table.expired)
        self._drop(table.table_id)
        self._forget(table, tell)

    async def table_write(self, table: Table) -> int:
        """Store what changed at ``table`` with the other tables' writes (group commit)."""
        write = table.storage.pending_write()
        # This process owns the table: the write renews the lease (and a first write makes
        # the row, with its creator).
        live = self.tables.get(table.table_id)
        write = dataclasses.replace(
            write, owner=self.node, lease=LEASE, creator=live.creator if live else None
        )
        result = await self.committer.write(write)
        if isinstance(result, Fenced):  # another process owns the table now
            if live is not None:
                live.address = None  # it still counts against its address, over there
            self._drop(table.table_id)
            raise result
        table.storage.wrote(write, result)
        if write.record["outcome"] is not None:  # the game is stored: a last look, then gone
            live = self.tables.get(table.table_id)
            if live is not None:
                live.summary = None
                self.requests.unhold(live)  # finished: no longer counts against its address
                self.lobby.changed()
                loop = asyncio.get_running_loop()
                live.expires = loop.call_later(
                    self.options.finished_ttl, self._drop, table.table_id
                )
        return result

    def _forget(self, table: Table, then: Callable[[], None] | None = None) -> None:
        """Delete the stored row of a table given up unfinished (in the background), fenced
        like its writes, then call ``then``: never if another process owns it now."""
        table_id, fence = table.table_id, table.stored.fence

        async def forget() -> None:
            delay = 0.05  # retried while the store is away, as the group commit is
            while True:
                try:
                    deleted = await self.store.discard_running(table_id, fence, self.node)
                    break
                except _STORE_DOWN as e:
                    if self.stopping:  # it resumes after a restart and is given up again
                        log.warning("table %s: could not forget it: %s", table_id, e)
                        return
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 2.0)
            if not deleted:
                log.info("table %s: not forgotten here: another process owns it", table_id)
            elif then is not None:
                then()

        self._spawn(forget())

    def _drop(self, table_id: str) -> None:
        live = self.tables.pop(table_id, None)
        if live is None:
            return
        self.lobby.forget(table_id)
        self.requests.unhold(live)
        live.table.submit_stop()
        for conn in self.connections:
            conn.tables.discard(table_id)
        self.lobby.changed()

    # -- reading ------------------------------------------------------------------------------
    def public_tables(
        self, game: str | None = None, *, offset: int = 0, limit: int = LOBBY_PAGE
    ) -> tuple[list[dict[str, Any]], int]:
        """``limit`` rows of the public list (of ``game``) from ``offset``, and its size
        (``GET /api/tables``: a page, as the lobby sends it)."""
        rows = self.lobby.summaries(game)
        return [msgspec.to_builtins(s) for s in rows[offset : offset + limit]], len(rows)

    def stats(self) -> Mapping[str, Any]:
        """Counts for ``/healthz``; the queues (messages waiting in connections' outboxes,
        writes waiting for the store) show a process falling behind."""
        backlog = [c.outbox.qsize() for c in self.connections]
        return {
            "connections": len(self.connections),
            "tables": len(self.tables),
            "running": sum(1 for t in self.tables.values() if t.table.started and not t.table.over),
            "outbox": sum(backlog),
            "outbox_max": max(backlog, default=0),
            "commit_queue": self.committer.queued,
            "transactions": self.committer.transactions,
            "writes": self.committer.writes,
            "time": time.time(),
        }
