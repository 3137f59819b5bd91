"""The app in the test's own process, for the tests of its HTTP API and sessions: its
lifespan driven by the test (``running``), requests through httpx's ASGI transport
(``client``, ``http_client``), accounts made and tokens tried over it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from starlette.applications import Starlette

from server.hubkit import said
from trumps.server.hub import Hub
from trumps.server.wire.protocol import Error

SECRET = "sessions-test-secret-0123456789"
PASSWORD = "correct horse battery staple 42"


@asynccontextmanager
async def running(app: Starlette) -> AsyncIterator[None]:
    async with app.router.lifespan_context(app):
        yield


def client(app: Starlette) -> httpx.AsyncClient:
    # An error the app does not handle is a 500 here, as a client would see it.
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://t")


def http_client(app: Starlette, address: str = "127.0.0.1") -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://t")


def hub_of(app: Starlette) -> Hub:
    hub: Hub = app.state.server.hub
    return hub


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def register(http: httpx.AsyncClient, login: str, token: str | None = None) -> str:
    answer = await http.post(
        "/api/accounts",
        json={"login": login, "password": PASSWORD},
        headers=auth(token) if token else {},
    )
    assert answer.status_code == 201, answer.text
    token_: str = answer.json()["resume_token"]
    return token_


async def refused_hello(hub: Hub, token: str) -> None:
    conn = hub.connect()
    await said(hub, conn, {"type": "hello", "protocol": 1, "name": "Ana", "resume_token": token})
    msg = await conn.outbox.get()
    assert isinstance(msg, Error) and msg.code == "bad_token", msg
