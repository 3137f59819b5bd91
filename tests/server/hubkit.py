"""Talking to a ``Hub`` without a network, for the hub-level tests: connections are
outboxes; a message another process encoded arrives as JSON text and is decoded here."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec

from trumps.server import protocol
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.protocol import Error, ServerMessage, Welcome
from trumps.server.sessions import Sessions
from trumps.store import SqlStore

SECRET = "hub-test-secret-0123456789"

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
