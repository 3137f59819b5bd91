"""Talking to a ``Hub`` without a network, for the hub-level tests: connections are
outboxes; a message another process encoded arrives as JSON text and is decoded here."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from trumps.server import protocol
from trumps.server.hub import Connection, Hub
from trumps.server.protocol import Error, ServerMessage, Welcome

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


async def hello(hub: Hub, name: str, token: str | None = None) -> tuple[Connection, Welcome]:
    conn = hub.connect()
    msg: dict[str, Any] = {"type": "hello", "protocol": 1, "name": name}
    if token:
        msg["resume_token"] = token
    await said(hub, conn, msg)
    return conn, await next_of(conn, Welcome)
