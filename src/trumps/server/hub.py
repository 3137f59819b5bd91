"""The hub: connections, the lobby, quick matching and the live tables of one server.

Everything a connection says arrives through ``Hub.handle`` as raw frames; the hub decodes
them (``protocol.decode_client``), answers lobby requests itself and passes table requests to
the table's own writer task (``Table``), which is the only code that touches a game.  The hub
is each table's ``TableListener``: tables that changed are written behind in one transaction
every ``flush_interval`` (a commit per batch, not per move), and when a game ends its
finished record is stored before anyone is told the game is over.  On start it
resumes every running table from the store, so a restart (even after ``kill -9``) loses no
finished game and at most the moves of the last ``flush_interval`` (half a second).

No sockets here either: a connection is an outbox queue drained by the transport
(``trumps.server.app``), which makes the hub testable without a network.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from trumps.errors import TrumpsError
from trumps.games import Game, new_game
from trumps.records import InvalidRecord, replay
from trumps.server.auth import BadToken, Tokens
from trumps.server.bots import BotRunner
from trumps.server.protocol import (
    PROTOCOL_VERSION,
    Action,
    CancelQuickMatch,
    ChatSend,
    ClientMessage,
    CreateTable,
    Error,
    ErrorCode,
    Hello,
    HintAsk,
    JoinTable,
    LeaveTable,
    ListTables,
    Ping,
    PlayComputer,
    Pong,
    ProtocolError,
    QuickMatch,
    Rematch,
    RematchAsk,
    Resign,
    Resync,
    ServerMessage,
    Spectate,
    TableList,
    TableSummary,
    Waiting,
    Welcome,
    decode_client,
)
from trumps.server.ratelimit import Buckets, RateLimit
from trumps.server.table import (
    Act,
    Chat,
    Disconnect,
    HintCmd,
    Join,
    Leave,
    ResignCmd,
    ResyncCmd,
    Table,
    TableConfig,
)
from trumps.store import RunningUpdate, Store

__all__ = ["Connection", "Hub", "HubOptions"]

log = logging.getLogger(__name__)

MAX_BACKLOG: Final = 4096  # messages queued for a connection before it counts as dead
FINISHED_TTL: Final = 60.0  # seconds a finished table stays open for a last look
LOBBY_DEBOUNCE: Final = 0.2  # seconds between live table-list pushes


@dataclass
class HubOptions:
    """Server-wide settings."""

    bot_time: float = 0.5  # seconds a bot may think per move
    seed: int | None = None  # deals derive from this when set (tests, demos): never public
    per_second: int = 20  # messages a connection may send per second …
    per_minute: int = 600  # … and per minute
    finished_ttl: float = FINISHED_TTL
    flush_interval: float = 0.5  # seconds between write-behind batches of running games
    max_open_tables: int = 10  # unfinished tables one player may create or sit at
    bot_workers: int = 0  # processes bots think in (0: threads of this process)


class Connection:
    """One client: its identity once it said ``hello`` and its outbox of messages."""

    _ids = itertools.count(1)

    def __init__(self) -> None:
        self.id = next(self._ids)
        self.outbox: asyncio.Queue[ServerMessage | None] = asyncio.Queue()
        self.player: int | None = None
        self.name = ""
        self.account: str | None = None
        self.tables: set[str] = set()
        self.lobby: tuple[bool, str | None] = (False, None)  # watching the list, of a game
        self.closed = False
        self.budget: Buckets | None = None  # its rate limit, from the first message on

    def put_nowait(self, item: ServerMessage, /) -> None:
        """Queue a message; a client that stops reading is cut off, not buffered forever."""
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_BACKLOG:
            log.warning("connection %d stopped reading; closing it", self.id)
            self.close()
            return
        self.outbox.put_nowait(item)

    def close(self) -> None:
        """Ask the transport to close (a None in the outbox)."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


@dataclass
class _Live:
    """Bookkeeping the hub keeps beside a table."""

    table: Table
    summary: TableSummary | None = None
    rules_name: str | dict[str, Any] | None = None
    expires: asyncio.TimerHandle | None = None
    creator: int | None = None
    rematch: str | None = None  # the table made for a rematch of this one


def _rules_key(game: str, rules: object) -> str:
    return json.dumps([game, rules], sort_keys=True)


class Hub:
    """Every live table and connection of one server process."""

    def __init__(self, store: Store, tokens: Tokens, options: HubOptions | None = None) -> None:
        self.store = store
        self.tokens = tokens
        self.options = options or HubOptions()
        self.tables: dict[str, _Live] = {}
        self.connections: set[Connection] = set()
        self._waiting: dict[str, Connection] = {}  # quick match: rules key -> who waits
        self._limit = RateLimit(self.options.per_second, self.options.per_minute)
        self._lobby_task: asyncio.Task[None] | None = None
        self._seeds = itertools.count(0)
        self._stopping = False
        self.runner = BotRunner(self.options.bot_workers)
        self._dirty: set[str] = set()  # tables changed since the last flush
        self._written_ids: dict[str, list[int | None]] = {}  # the seats last stored
        self._flusher: asyncio.Task[None] | None = None
        self._write_lock = asyncio.Lock()  # one write at a time: a batch or a finished game

    # -- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the bot workers and resume every running table kept in the store."""
        await self.runner.start()
        for running in await self.store.running_tables():
            meta = running.meta
            try:
                if meta is None:
                    raise InvalidRecord("no table settings were stored with it")
                game = replay(running.record)
                if game.outcome is not None:
                    raise InvalidRecord("its record is already finished")
            except (TrumpsError, KeyError, TypeError) as e:
                log.error("cannot resume table %s: %s", running.table_id, e)
                continue
            table = Table.resume(
                running.table_id,
                game,
                meta,
                list(running.player_ids),
                listener=self,
                runner=self.runner,
                bot_time=self.options.bot_time,
                started_at=running.record.get("started"),
            )
            self.tables[table.table_id] = _Live(table, rules_name=meta.get("rules_name"))
            table.launch()
            log.info("resumed table %s at ply %d", table.table_id, len(game.history))

    async def stop(self) -> None:
        """Stop every table, finishing pending writes (the running rows stay for a restart)."""
        self._stopping = True
        for conn in list(self.connections):
            conn.close()
        for live in list(self.tables.values()):
            await live.table.stop()
            if live.expires is not None:
                live.expires.cancel()
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await self._flusher
        with contextlib.suppress(Exception):
            await self.flush()  # the last moves before the stop
        if self._lobby_task is not None:
            self._lobby_task.cancel()
        self.runner.close()

    # -- connections ------------------------------------------------------------------------
    def connect(self) -> Connection:
        conn = Connection()
        self.connections.add(conn)
        return conn

    def disconnect(self, conn: Connection) -> None:
        """The transport is gone: seats wait for their owner's grace period."""
        self.connections.discard(conn)
        conn.closed = True
        for key, waiting in list(self._waiting.items()):
            if waiting is conn:
                del self._waiting[key]
        for table_id in conn.tables:
            live = self.tables.get(table_id)
            if live is not None:
                live.table.submit(Disconnect(conn))
        conn.tables.clear()

    async def handle(self, conn: Connection, data: bytes | str) -> None:
        """One frame from ``conn``: answered, or rejected with an ``error`` that changed nothing."""
        if conn.budget is None:
            conn.budget = self._limit.buckets()
        if not conn.budget.allow():
            self._error(conn, "rate_limited", "too many messages; slow down")
            return
        try:
            msg = decode_client(data)
        except ProtocolError as e:
            self._error(conn, e.code, e.message)
            return
        table_id = getattr(msg, "table_id", None)
        try:
            await self._dispatch(conn, msg)
        except Exception:
            log.exception("request %r failed", type(msg).__name__)
            self._error(conn, "internal_error", "the server failed on this request", table_id)

    def _error(
        self, conn: Connection, code: ErrorCode, message: str, table_id: str | None = None
    ) -> None:
        conn.put_nowait(Error(code=code, message=message, table_id=table_id))

    async def _dispatch(self, conn: Connection, msg: ClientMessage) -> None:
        if conn.player is None:
            if not isinstance(msg, Hello):
                self._error(conn, "not_hello", "say hello first")
                return
            await self._hello(conn, msg)
            return
        if isinstance(msg, Hello):
            self._error(conn, "bad_field", "hello: this connection already said hello")
        elif isinstance(msg, Ping):
            conn.put_nowait(Pong(nonce=msg.nonce))
        elif isinstance(msg, ListTables):
            conn.lobby = (True, msg.game)
            conn.put_nowait(TableList(tables=self._summaries(msg.game)))
        elif isinstance(msg, CreateTable):
            self._create(conn, msg)
        elif isinstance(msg, PlayComputer):
            seats: list[str] = ["human"] + [msg.level] * (msg.players - 1)
            self._create(conn, CreateTable(game=msg.game, rules=msg.rules, seats=seats))  # type: ignore[arg-type]
        elif isinstance(msg, QuickMatch):
            self._quick_match(conn, msg)
        elif isinstance(msg, CancelQuickMatch):
            for key, waiting in list(self._waiting.items()):
                if waiting is conn:
                    del self._waiting[key]
        else:
            self._at_table(conn, msg)

    # -- hello -------------------------------------------------------------------------------
    async def _hello(self, conn: Connection, msg: Hello) -> None:
        if msg.protocol != PROTOCOL_VERSION:
            self._error(
                conn,
                "bad_version",
                f"this server speaks protocol {PROTOCOL_VERSION}, not {msg.protocol}",
            )
            return
        player_id: int | None = None
        account: str | None = None
        if msg.resume_token is not None:
            try:
                player_id = self.tokens.check(msg.resume_token)
                player = await self.store.get_player(player_id)
            except BadToken as e:
                self._error(conn, "bad_token", str(e))
                return
            except LookupError:
                self._error(conn, "bad_token", "the resume token names no player here")
                return
            account = player.login
            if player.name != msg.name:
                await self.store.rename_player(player_id, msg.name)
        else:
            player_id = await self.store.add_player(msg.name)
        conn.player, conn.name, conn.account = player_id, msg.name, account
        mine = [
            table_id
            for table_id, live in self.tables.items()
            if not live.table.over and live.table.seat_of_owner(player_id) is not None
        ]
        conn.put_nowait(
            Welcome(
                player_id=str(player_id),
                name=msg.name,
                resume_token=self.tokens.issue(player_id),
                account=account,
                tables=mine,
            )
        )
        for table_id in mine:
            conn.tables.add(table_id)
            self.tables[table_id].table.submit(Join(conn, name=conn.name, player=player_id))

    # -- tables ------------------------------------------------------------------------------
    def _new_seed(self) -> int:
        if self.options.seed is None:
            return secrets.randbits(63)
        return self.options.seed + next(self._seeds)

    def _open_tables(self, player: int | None) -> int:
        """Unfinished tables ``player`` created or sits at."""
        return sum(
            1
            for live in self.tables.values()
            if not live.table.over
            and (live.creator == player or live.table.seat_of_owner(player) is not None)
        )

    def _create(self, conn: Connection, msg: CreateTable) -> Table | None:
        if self._open_tables(conn.player) >= self.options.max_open_tables:
            self._error(
                conn,
                "rate_limited",
                f"you have {self.options.max_open_tables} unfinished tables; finish or leave one",
            )
            return None
        try:
            game = new_game(
                msg.game, players=len(msg.seats), rules=msg.rules, seed=self._new_seed()
            )
        except (TrumpsError, ValueError, TypeError) as e:
            self._error(conn, "bad_rules", str(e))
            return None
        levels = [None if kind == "human" else kind for kind in msg.seats]
        config = TableConfig(
            time_control=msg.time_control,
            on_timeout=msg.on_timeout,
            grace=msg.grace,
            takeover=msg.takeover,
            private=msg.private,
        )
        rules_name = msg.rules if msg.rules else type(game).DEFAULT_PRESET
        table = self._open(conn, game, levels, config, rules_name)
        if any(level is None for level in levels):
            table.submit(Join(conn, name=conn.name, player=conn.player))
        else:  # a table of bots: the creator watches it play
            table.submit(Join(conn, spectate=True))
            table.start()
        self._lobby_changed()
        return table

    def _open(
        self,
        conn: Connection,
        game: Game,
        levels: Sequence[str | None],
        config: TableConfig,
        rules_name: str | dict[str, Any] | None,
    ) -> Table:
        """A new live table created by ``conn``'s player, its task running."""
        table = Table(
            "t-" + secrets.token_urlsafe(9),  # an invite link: not guessable
            game,
            levels,
            config=config,
            listener=self,
            runner=self.runner,
            bot_time=self.options.bot_time,
        )
        self.tables[table.table_id] = _Live(table, rules_name=rules_name, creator=conn.player)
        table.launch()
        conn.tables.add(table.table_id)
        return table

    def _quick_match(self, conn: Connection, msg: QuickMatch) -> None:
        try:  # people asking for the same rules in other words are matched
            rules = new_game(msg.game, players=2, rules=msg.rules, seed=0).rules
        except (TrumpsError, ValueError, TypeError) as e:
            self._error(conn, "bad_rules", str(e))
            return
        key = _rules_key(msg.game, rules)
        other = self._waiting.get(key)
        if other is not None and other.player == conn.player:
            conn.put_nowait(Waiting(game=msg.game, rules=msg.rules))
            return
        if other is None or other.closed:
            for k, waiting in list(self._waiting.items()):
                if waiting is conn:
                    del self._waiting[k]
            self._waiting[key] = conn
            conn.put_nowait(Waiting(game=msg.game, rules=msg.rules))
            return
        del self._waiting[key]
        table = self._create(
            other, CreateTable(game=msg.game, rules=msg.rules, seats=["human", "human"])
        )
        if table is None:  # bad rules: both hear why
            self._error(conn, "bad_rules", f"no {msg.game} table with those rules")
            return
        conn.tables.add(table.table_id)
        table.submit(Join(conn, name=conn.name, player=conn.player))

    def _at_table(self, conn: Connection, msg: ClientMessage) -> None:
        table_id: str = msg.table_id  # type: ignore[union-attr]
        live = self.tables.get(table_id)
        if live is None:
            self._error(conn, "no_such_table", f"no table {table_id!r}", table_id)
            return
        table = live.table
        if isinstance(msg, JoinTable):
            conn.tables.add(table_id)
            table.submit(Join(conn, seat=msg.seat, name=conn.name, player=conn.player))
        elif isinstance(msg, Spectate):
            conn.tables.add(table_id)
            table.submit(Join(conn, spectate=True))
        elif isinstance(msg, LeaveTable):
            conn.tables.discard(table_id)
            table.submit(Leave(conn))
        elif isinstance(msg, Action):
            table.submit(Act(conn, msg.action, msg.expected))
        elif isinstance(msg, Resign):
            table.submit(ResignCmd(conn))
        elif isinstance(msg, ChatSend):
            table.submit(Chat(conn, conn.name, msg.text))
        elif isinstance(msg, Resync):
            table.submit(ResyncCmd(conn))
        elif isinstance(msg, HintAsk):
            table.submit(HintCmd(conn))
        elif isinstance(msg, RematchAsk):
            self._rematch(conn, live)

    def _rematch(self, conn: Connection, live: _Live) -> None:
        """The same game, rules, seats and settings again; people who sat there are told.

        When several players ask, the first request makes the table and the others sit
        down at it."""
        old = live.table
        seat = old.seat_of_owner(conn.player)
        if seat is None:
            self._error(
                conn, "not_seated", "only a player of that game can ask for a rematch", old.table_id
            )
            return
        if not old.over:
            self._error(conn, "not_allowed", "the game has not ended", old.table_id)
            return
        made = self.tables.get(live.rematch) if live.rematch else None
        if made is not None and not made.table.started:
            conn.tables.add(made.table.table_id)
            made.table.submit(Join(conn, seat=seat, name=conn.name, player=conn.player))
            return
        if self._open_tables(conn.player) >= self.options.max_open_tables:
            self._error(conn, "rate_limited", "too many unfinished tables of yours", old.table_id)
            return
        game = new_game(
            old.game.game_id, players=old.game.players, rules=old.game.rules, seed=self._new_seed()
        )
        config = TableConfig.from_json(old.config.to_json())
        table = self._open(conn, game, old.levels, config, live.rules_name)
        table_id = live.rematch = table.table_id
        table.submit(Join(conn, seat=seat, name=conn.name, player=conn.player))
        others = {o for s, o in enumerate(old.owners()) if s != seat and isinstance(o, int)}
        offer = Rematch(table_id=old.table_id, new_table_id=table_id, by=conn.name)
        for other in self.connections:
            if other.player in others:
                other.put_nowait(offer)
        self._lobby_changed()

    # -- the lobby ---------------------------------------------------------------------------
    def _summary(self, live: _Live) -> TableSummary:
        table = live.table
        return TableSummary(
            table_id=table.table_id,
            game=table.game.game_id,  # type: ignore[arg-type]
            rules=live.rules_name if live.rules_name is not None else table.game.rules,
            seats=table.seat_infos(),
            open_seats=len(table.open_seats()),
            started=table.started,
            time_control=table.config.time_control,
        )

    def _summaries(self, game: str | None = None) -> list[TableSummary]:
        out = []
        for live in self.tables.values():
            table = live.table
            if table.config.private or table.over:
                continue
            if game is None or table.game.game_id == game:
                if live.summary is None:
                    live.summary = self._summary(live)
                out.append(live.summary)
        return out

    def _lobby_changed(self) -> None:
        if self._lobby_task is None or self._lobby_task.done():
            self._lobby_task = asyncio.create_task(self._push_lobby())

    async def _push_lobby(self) -> None:
        await asyncio.sleep(LOBBY_DEBOUNCE)  # debounce: many changes, one push
        lists: dict[str | None, TableList] = {}
        for conn in list(self.connections):
            watching, game = conn.lobby
            if watching:
                if game not in lists:
                    lists[game] = TableList(tables=self._summaries(game))
                conn.put_nowait(lists[game])

    # -- TableListener ------------------------------------------------------------------------
    def table_changed(self, table: Table) -> None:
        live = self.tables.get(table.table_id)
        if live is None:
            return
        if not table.config.private:
            summary = self._summary(live)
            if summary != live.summary:
                live.summary = summary
                self._lobby_changed()
        if table.started and not table.over:
            self._dirty.add(table.table_id)
            if not self._stopping and (self._flusher is None or self._flusher.done()):
                self._flusher = asyncio.create_task(self._flush_soon())
        if not table.started and not any(table.owners()) and table.levels.count(None):
            self._drop(table.table_id)  # everyone left before the start

    async def _flush_soon(self) -> None:
        await asyncio.sleep(self.options.flush_interval)  # gather this interval's changes
        await self.flush()

    async def flush(self) -> None:
        """Write the running record of every table changed since the last flush, in one
        transaction (write-behind: a move is stored within ``flush_interval`` seconds)."""
        async with self._write_lock:
            while self._dirty:
                batch, updates = sorted(self._dirty), []
                self._dirty.clear()
                for table_id in batch:
                    live = self.tables.get(table_id)
                    if live is None or live.table.over:
                        continue
                    table = live.table
                    ids = [o if isinstance(o, int) else None for o in table.owners()]
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

    async def table_finished(self, table: Table, record: dict[str, Any]) -> int | None:
        """Store the finished game (after any write of its running row in flight), retrying
        a busy database: a finished game must not be lost."""
        live = self.tables.get(table.table_id)
        self._dirty.discard(table.table_id)
        self._written_ids.pop(table.table_id, None)
        ids = [o if isinstance(o, int) else None for o in table.owners()]
        async with self._write_lock:
            for attempt in range(8):
                try:
                    record_id = await self.store.save_game(record, table.table_id, ids)
                    break
                except TrumpsError:
                    raise
                except Exception:
                    if attempt == 7:
                        raise
                    log.warning(
                        "table %s: storing the finished game failed; retrying",
                        table.table_id,
                        exc_info=True,
                    )
                    await asyncio.sleep(0.1 * 2**attempt)
        if live is not None:
            live.summary = None
            self._lobby_changed()
            loop = asyncio.get_running_loop()
            live.expires = loop.call_later(self.options.finished_ttl, self._drop, table.table_id)
        return record_id

    def _drop(self, table_id: str) -> None:
        live = self.tables.pop(table_id, None)
        if live is None:
            return
        live.table.submit_stop()
        for conn in self.connections:
            conn.tables.discard(table_id)
        self._lobby_changed()

    # -- reading ------------------------------------------------------------------------------
    def public_tables(self, game: str | None = None) -> list[dict[str, Any]]:
        return [msgspec.to_builtins(s) for s in self._summaries(game)]

    def stats(self) -> Mapping[str, Any]:
        return {
            "connections": len(self.connections),
            "tables": len(self.tables),
            "running": sum(1 for t in self.tables.values() if t.table.started and not t.table.over),
            "time": time.time(),
        }
