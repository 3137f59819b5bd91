"""``GET /readyz``: what a load balancer asks before sending a process new players.

The app runs in this process (its lifespan driven by the test, requests through httpx's
ASGI transport) on an SQLite store that the test can hold or make fail.  Ready is 200
``{"ready": true}``; while the store cannot be reached, and from the first moment of a
stop, it is 503 with the reason, while ``/healthz`` (liveness) stays 200.  No sleeps as
synchronisation: the tests wait on the store's own events, or poll with a deadline.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import httpx
import pytest
from sqlalchemy.exc import OperationalError
from starlette.applications import Starlette

from server.appkit import client, running
from server.outage import UnreachableStore
from trumps.server.hub import Connection, Hub
from trumps.server.hubparts import HubOptions
from trumps.server.transport.app import ServerSettings, create_app
from trumps.server.wire.protocol import Error, TableState, Welcome
from trumps.store import Fenced, SqlStore, TableWrite

SECRET = "readyz-test-secret-0123456789"


class HeldStore(SqlStore):
    """An SQL store whose table commits wait at a gate the test opens, or fail while
    ``down``; ``calls`` counts the commits tried (every retry too)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.gate = asyncio.Event()
        self.gate.set()
        self.down = False
        self.calls = 0
        self.called = asyncio.Event()  # set at each try, cleared by the test

    async def commit_tables(self, writes: Sequence[TableWrite]) -> list[int | Fenced]:
        self.calls += 1
        self.called.set()
        await self.gate.wait()
        if self.down:
            raise OperationalError("commit", {}, ConnectionRefusedError("no database"))
        return await super().commit_tables(writes)


def run(tmp_path: Path, body: Callable[[Starlette, HeldStore], Awaitable[None]]) -> None:
    async def main() -> None:
        store = HeldStore(f"sqlite+aiosqlite:///{tmp_path / 'ready.db'}")
        settings = ServerSettings(
            db=store.url, secret=SECRET, hub=HubOptions(bot_time=0.01), freeze_gc=False
        )
        app = create_app(settings, store)
        await asyncio.wait_for(body(app, store), 60)

    asyncio.run(main())


async def create_table(hub: Hub) -> Connection:
    """A player and a waiting table: the table's creation is a store write."""
    conn = hub.connect()
    await hub.handle(conn, json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
    assert isinstance(await conn.outbox.get(), Welcome)
    msg = {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
    await hub.handle(conn, json.dumps(msg))
    return conn


async def next_table_state(conn: Connection) -> TableState:
    while True:
        msg = await conn.outbox.get()
        assert msg is not None, "the connection was closed"
        if isinstance(msg, TableState):
            return msg


def test_ready_then_not_while_the_store_is_down_then_ready_again(tmp_path: Path) -> None:
    async def body(app: Starlette, store: HeldStore) -> None:
        async with running(app), client(app) as http:
            answer = await http.get("/readyz")
            assert answer.status_code == 200 and answer.json() == {"ready": True}
            assert answer.headers["cache-control"] == "no-store"

            store.down = True
            store.called.clear()
            conn = await create_table(app.state.server.hub)
            await store.called.wait()  # the first try fails …
            store.called.clear()
            await store.called.wait()  # … and this retry comes after the failure was seen
            answer = await http.get("/readyz")
            assert answer.status_code == 503
            assert answer.json() == {"ready": False, "reason": "the game store cannot be reached"}
            assert (await http.get("/healthz")).status_code == 200  # alive all the same

            store.down = False  # the next retry succeeds and the table is told
            await next_table_state(conn)
            answer = await http.get("/readyz")
            assert answer.status_code == 200 and answer.json() == {"ready": True}

    run(tmp_path, body)


def test_not_ready_from_the_first_moment_of_a_stop(tmp_path: Path) -> None:
    """While the shutdown still stores the tables' last writes (the store holds them
    here), /readyz already answers 503 "stopping"; the stop then ends normally."""

    async def body(app: Starlette, store: HeldStore) -> None:
        hub: Hub = app.state.server.hub
        lifespan = app.router.lifespan_context(app)
        await lifespan.__aenter__()
        async with client(app) as http:
            assert (await http.get("/readyz")).status_code == 200
            store.gate.clear()  # the table's creation waits in its commit
            store.called.clear()
            conn = await create_table(hub)
            await store.called.wait()

            stop = asyncio.create_task(lifespan.__aexit__(None, None, None))
            while await conn.outbox.get() is not None:  # the stop closes every connection
                pass
            answer = await http.get("/readyz")
            assert answer.status_code == 503
            assert answer.json() == {"ready": False, "reason": "stopping"}
            assert not stop.done()  # still storing what the table holds

            store.gate.set()
            await stop
            assert (await http.get("/readyz")).status_code == 503

    run(tmp_path, body)


async def until_ready(http: httpx.AsyncClient, want: bool, within: float = 10.0) -> httpx.Response:
    """Poll ``/readyz`` until it says ``want`` (the failure names what it said last)."""
    deadline = time.monotonic() + within
    while True:
        answer = await http.get("/readyz")
        if answer.status_code == (200 if want else 503):
            return answer
        assert time.monotonic() < deadline, f"/readyz stayed {answer.status_code}: {answer.text}"
        await asyncio.sleep(0.02)


def test_an_idle_process_is_not_ready_while_its_store_is_away_and_ready_again_by_itself(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Nobody plays, so no table commit fails: /readyz still turns 503 while the store
    cannot be reached (the hub probes it), the HTTP API answers 503 ``unavailable`` in its
    error shape with one log line and no traceback, and both come back by themselves."""

    async def main() -> None:
        store = UnreachableStore(f"sqlite+aiosqlite:///{tmp_path / 'idle.db'}")
        settings = ServerSettings(
            db=store.url, secret=SECRET, hub=HubOptions(bot_time=0.01), freeze_gc=False
        )
        app = create_app(settings, store)
        hub: Hub = app.state.server.hub
        hub.options.probe_every = 0.02
        async with running(app), client(app) as http:
            await until_ready(http, True)
            assert (await http.get("/api/games")).status_code == 200

            store.down = True
            caplog.clear()
            answer = await until_ready(http, False)
            assert answer.json() == {"ready": False, "reason": "the game store cannot be reached"}
            assert (await http.get("/healthz")).status_code == 200  # alive all the same
            with caplog.at_level(logging.WARNING):
                caplog.clear()
                games = await http.get("/api/games")
                assert games.status_code == 503, games.text
                assert games.json()["error"] == "unavailable"
                assert set(games.json()) == {"error", "message"}
                login = await http.post("/api/login", json={"login": "ana", "password": "x" * 12})
                assert login.status_code == 503 and login.json()["error"] == "unavailable"
            said = [r for r in caplog.records if "/api/games" in r.getMessage()]
            assert len(said) == 1 and said[0].exc_info is None, caplog.text
            assert not any(r.exc_info for r in caplog.records), caplog.text
            conn = hub.connect()  # a new player is refused with the protocol's code
            await hub.handle(conn, json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
            refused = await conn.outbox.get()
            assert isinstance(refused, Error) and refused.code == "unavailable"

            store.down = False
            assert (await until_ready(http, True)).json() == {"ready": True}
            assert (await http.get("/api/games")).status_code == 200
            await hub.handle(conn, json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
            assert isinstance(await conn.outbox.get(), Welcome)

    asyncio.run(asyncio.wait_for(main(), 60))
