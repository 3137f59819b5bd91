"""Login throttles hold across the processes of a service (issue 17 §2): two apps of
``trumps serve --redis`` on one PostgreSQL and Redis, in one loop.  They were counted in
each process, so with N processes an attacker had N times the tries.  While Redis cannot be
reached, tries are refused (503 ``unavailable``), not let through uncounted."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import redis.asyncio as redis
from starlette.applications import Starlette
from starlette.routing import Route

from server.appkit import running
from server.e2e import postgres_database
from server.redis_env import REDIS_URL, need_redis
from store.postgres import need_postgres
from trumps.server.hubparts import HubOptions
from trumps.server.identity.accounts import Accounts, LoginLimits
from trumps.server.identity.sessions import Sessions
from trumps.server.limits.quota import Counters
from trumps.server.transport.app import ServerSettings, create_app
from trumps.store import SqlStore

SECRET = "login-cluster-secret-0123456789"
PASSWORD = "correct horse battery staple 42"

Body = Callable[[Starlette, Starlette], Awaitable[None]]


def two_processes(body: Body, per_address: int, per_account: int) -> None:
    """Two apps as two processes of one service (their own node ids: the Redis is shared
    with other tests, and the keys they count under are this test's own logins and
    addresses)."""
    need_postgres()
    need_redis()
    with postgres_database() as url:

        async def main() -> None:
            apps = [
                create_app(
                    ServerSettings(
                        db=url,
                        secret=SECRET,
                        hub=HubOptions(
                            bot_time=0.01,
                            redis_url=REDIS_URL,
                            node_id=f"login-{node}-{uuid.uuid4().hex[:8]}",
                        ),
                        freeze_gc=False,
                        login_per_minute=per_address,
                        login_per_account=per_account,
                    )
                )
                for node in "AB"
            ]
            async with running(apps[0]), running(apps[1]):
                await asyncio.wait_for(body(apps[0], apps[1]), 60)

        asyncio.run(main())


def fresh_address() -> str:
    """An address no other test counts tries of (TEST-NET-3 with a random host part)."""
    n = uuid.uuid4().int
    return f"203.0.{n % 256}.{(n >> 8) % 254 + 1}"


async def try_login(app: Starlette, login: str, address: str, password: str = "wrong") -> int:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
        answer = await http.post("/api/login", json={"login": login, "password": password})
        return answer.status_code


def test_an_account_s_login_tries_count_on_every_process() -> None:
    login = f"ana{uuid.uuid4().hex[:12]}"

    async def body(a: Starlette, b: Starlette) -> None:
        transport = httpx.ASGITransport(app=a, client=(fresh_address(), 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            made = await http.post("/api/accounts", json={"login": login, "password": PASSWORD})
            assert made.status_code == 201, made.text
        # Each try on the other process, from another address: five in all, not on each.
        codes = [await try_login((a, b)[n % 2], login, fresh_address()) for n in range(6)]
        assert codes == [401] * 5 + [429], codes
        assert await try_login(b, login, fresh_address(), PASSWORD) == 429  # even the right one
        other = f"bob{uuid.uuid4().hex[:12]}"  # another login is not held up
        assert await try_login(a, other, fresh_address()) == 401

    two_processes(body, per_address=100, per_account=5)


def test_an_address_s_tries_count_on_every_process() -> None:
    address = fresh_address()

    async def body(a: Starlette, b: Starlette) -> None:
        logins = [f"nobody{uuid.uuid4().hex[:12]}" for _ in range(5)]  # no account limit met
        codes = [await try_login((a, b)[n % 2], login, address) for n, login in enumerate(logins)]
        assert codes == [401] * 4 + [429], codes
        assert await try_login(a, logins[0], fresh_address()) == 401  # another address may

    two_processes(body, per_address=4, per_account=100)


def test_logins_are_refused_while_redis_cannot_be_reached(tmp_path: Path) -> None:
    """Fail closed, as the hub does with every budget: a throttle that waved tries through
    while it could not count them would be no throttle."""

    async def main() -> None:
        store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")
        await store.create()
        client = redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=2)
        accounts = Accounts(
            store,
            Sessions(store, SECRET),
            lambda ids: None,
            LoginLimits(),
            counters=Counters(client, "trumps-test-down:"),
        )
        app = Starlette(routes=[Route("/api/login", accounts.login, methods=["POST"])])
        try:
            transport = httpx.ASGITransport(app=app, client=("198.51.100.30", 40000))
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                answer = await http.post("/api/login", json={"login": "ana", "password": "x"})
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"] == "unavailable"
        finally:
            await client.aclose()
            await store.close()

    asyncio.run(asyncio.wait_for(main(), 60))
