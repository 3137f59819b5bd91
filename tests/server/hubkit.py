"""Talking to a ``Hub`` without a network, for the hub-level tests: connections are
outboxes; a message another process encoded arrives as JSON text and is decoded here."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec

from server.e2e import postgres_database
from server.redis_env import REDIS_URL, fresh_prefix, need_redis
from store.postgres import need_postgres
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.wire import protocol
from trumps.server.wire.protocol import Error, Event, Hint, ServerMessage, TableState, Welcome
from trumps.store import SqlStore

SECRET = "hub-test-secret-0123456789"
CLUSTER_SECRET = "cluster-test-secret-0123456789"

_SERVER_MESSAGE = msgspec.json.Decoder(protocol.ServerMessage)


async def said(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    await hub.handle(conn, json.dumps(msg))


def decoded(msg: ServerMessage | str) -> ServerMessage:
    """A message as a table sent it (one from another process arrives as JSON text)."""
    return _SERVER_MESSAGE.decode(msg) if isinstance(msg, str) else msg


async def next_of(conn: Connection, kind: type[ServerMessage]) -> Any:
    """The next message of ``kind`` (an error before it fails the test)."""
    while True:
        raw = await conn.outbox.get()
        assert raw is not None, "the connection was closed"
        msg = decoded(raw)
        if isinstance(msg, kind):
            return msg
        assert not isinstance(msg, Error), msg


async def next_or_error(conn: Connection, kind: type[ServerMessage]) -> Any:
    """The next message of ``kind`` or the next error, whichever comes first."""
    while True:
        raw = await conn.outbox.get()
        assert raw is not None, "the connection was closed"
        msg = decoded(raw)
        if isinstance(msg, kind | Error):
            return msg


async def hello(
    hub: Hub, name: str, token: str | None = None, *, contributes: bool = False
) -> tuple[Connection, Welcome]:
    conn = hub.connect()
    msg: dict[str, Any] = {"type": "hello", "protocol": 1, "name": name}
    if contributes:
        msg["contributes"] = True
    if token:
        msg["resume_token"] = token
    await said(hub, conn, msg)
    return conn, await next_of(conn, Welcome)


def run_hub(
    db: Path,
    body: Callable[[Hub, Any], Awaitable[None]],
    *,
    store_class: type[SqlStore] = SqlStore,
    **options: Any,
) -> None:
    """Run ``body(hub, store)`` against a hub on the SQLite file ``db`` (bots think 0.01 s,
    deals from seed 1 unless ``options`` say otherwise), at most a minute."""

    async def main() -> None:
        store = store_class(f"sqlite+aiosqlite:///{db}")
        await store.create()
        settings = {"bot_time": 0.01, "seed": 1, **options}
        hub = Hub(store, Sessions(store, SECRET), HubOptions(**settings))
        await hub.start()
        try:
            await asyncio.wait_for(body(hub, store), 60)
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())


def run_cluster(body: Callable[[Hub, Hub, SqlStore], Awaitable[None]], **options: Any) -> None:
    """Run ``body(a, b, store)`` against two hubs as one service (a fresh PostgreSQL
    database, Redis under a fresh prefix), A dealing from seed 1 and B from 100, both with
    the hub ``options`` given, at most a minute; skipped (failed in CI) without PostgreSQL
    or Redis."""
    need_postgres()
    need_redis()
    prefix = fresh_prefix()
    with postgres_database() as url:

        async def main() -> None:
            store_a, store_b = SqlStore(url), SqlStore(url)
            await store_a.create()
            hubs = [
                Hub(
                    store,
                    Sessions(store, CLUSTER_SECRET),
                    HubOptions(
                        bot_time=0.01,
                        seed=seed,
                        redis_url=REDIS_URL,
                        node_id=node,
                        redis_prefix=prefix,
                        **options,
                    ),
                )
                for store, seed, node in ((store_a, 1, "A"), (store_b, 100, "B"))
            ]
            for hub in hubs:
                await hub.start()
            try:
                await asyncio.wait_for(body(hubs[0], hubs[1], store_a), 60)
            finally:
                for hub in hubs:
                    await hub.stop()
                await store_a.close()
                await store_b.close()

        asyncio.run(main())


async def to_move(conn: Connection, table_id: str) -> Any:
    """The first snapshot or event of ``table_id`` in which ``conn`` has legal actions."""
    while True:
        msg = await conn.outbox.get()
        assert msg is not None and not isinstance(msg, Error), msg
        if isinstance(msg, TableState | Event) and msg.table_id == table_id and msg.legal:
            return msg


async def my_turn(hub: Hub, conn: Connection) -> str:
    """``conn`` plays the computer (random) until it is its turn: the table's id."""
    await said(hub, conn, {"type": "play_computer", "game": "kozyri", "level": "random"})
    state = await next_of(conn, TableState)
    if state.legal:
        return str(state.table_id)
    while True:
        msg = await next_of(conn, Event)
        if msg.legal:
            return str(msg.table_id)


async def hint(hub: Hub, conn: Connection, table_id: str) -> Hint | Error:
    """Ask for a hint at ``table_id``: the hint or the error it earns."""
    await said(hub, conn, {"type": "hint", "table_id": table_id})
    answer: Hint | Error = await next_or_error(conn, Hint)
    return answer


async def create(hub: Hub, conn: Connection) -> TableState | Error:
    """Create a two-person Svoi Kozyri table: its snapshot or the error it earns."""
    await said(hub, conn, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
    answer: TableState | Error = await next_or_error(conn, TableState)
    return answer
