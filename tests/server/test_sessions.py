"""Sessions that can be ended (issue 17 §2): resume tokens kept on the server.

The app runs in this process (lifespan driven by the test, HTTP through httpx's ASGI
transport); sockets are the hub's plain connections (``server.hubkit``), so a closed
socket is seen as the connection's close with its reason.  No sleeps: every wait is on a
message or an event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

import httpx
from argon2 import PasswordHasher
from sqlalchemy import func, select
from starlette.applications import Starlette

from server.appkit import (
    PASSWORD,
    SECRET,
    auth,
    http_client,
    hub_of,
    refused_hello,
    register,
    running,
)
from server.hubkit import hello, next_of, run_cluster, said
from trumps.server.hub import Connection, Hub
from trumps.server.hubparts import HubOptions
from trumps.server.identity.auth import Passwords
from trumps.server.identity.sessions import SESSION_ENDED, Sessions
from trumps.server.transport.app import ServerSettings, create_app
from trumps.server.wire.protocol import Error, Pong, TableState
from trumps.store import SqlStore
from trumps.store._tables import players

Body = Callable[[Starlette, httpx.AsyncClient], Awaitable[None]]


def run(tmp_path: Path, body: Body, **settings: Any) -> None:
    async def main() -> None:
        app = create_app(
            ServerSettings(
                db=f"sqlite+aiosqlite:///{tmp_path / 's.db'}",
                secret=SECRET,
                hub=HubOptions(bot_time=0.01),
                freeze_gc=False,
                **settings,
            )
        )
        async with running(app), http_client(app) as http:
            await asyncio.wait_for(body(app, http), 60)

    asyncio.run(main())


async def log_in(http: httpx.AsyncClient, login: str, **headers: str) -> str:
    answer = await http.post("/api/login", json={"login": login, "password": PASSWORD},
                             headers=headers)  # fmt: skip
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["resume_token"]
    return token


async def closed(conn: Connection) -> str:
    """Wait for the server to close ``conn``; its close reason."""
    while (await conn.outbox.get()) is not None:
        pass
    return conn.close_reason


def test_logout_ends_the_session_and_closes_its_sockets(tmp_path: Path) -> None:
    """``POST /api/logout`` was 404: "Log out" only cleared the browser."""

    async def body(app: Starlette, http: httpx.AsyncClient) -> None:
        token = await register(http, "ana")
        conn, welcome = await hello(hub_of(app), "Ana", token)
        assert welcome.account == "ana" and welcome.resume_token == token
        other = await log_in(http, "ana")  # another device
        out = await http.post("/api/logout", headers=auth(token))
        assert out.status_code == 200, out.text
        assert await closed(conn) == SESSION_ENDED
        await refused_hello(hub_of(app), token)
        assert (await http.get("/api/sessions", headers=auth(token))).status_code == 401
        # The other device's session goes on.
        assert (await http.get("/api/sessions", headers=auth(other))).status_code == 200
        assert (await http.post("/api/logout")).status_code == 401  # no token: nothing

    run(tmp_path, body)


def test_sessions_are_listed_with_the_current_one_and_each_can_be_ended(tmp_path: Path) -> None:
    async def body(app: Starlette, http: httpx.AsyncClient) -> None:
        first = await register(http, "ana")
        second = await log_in(http, "ana", **{"user-agent": "Mozilla/5.0 (X11; Linux x86_64) "
                                               "Gecko/20100101 Firefox/140.0"})  # fmt: skip
        assert first != second and len(second) >= 43  # 256 random bits
        listed = (await http.get("/api/sessions", headers=auth(second))).json()["sessions"]
        assert len(listed) == 2
        current = [s for s in listed if s["current"]]
        assert len(current) == 1 and current[0]["label"] == "Firefox on Linux"
        old = next(s for s in listed if not s["current"])
        assert old["created"] <= old["last_used"]
        # Bob cannot end Ana's session; Ana can.
        bob = await register(http, "bob")
        gone = await http.delete(f"/api/sessions/{old['id']}", headers=auth(bob))
        assert gone.status_code == 404
        assert (await http.get("/api/sessions", headers=auth(first))).status_code == 200
        ended = await http.delete(f"/api/sessions/{old['id']}", headers=auth(second))
        assert ended.status_code == 200, ended.text
        assert (await http.get("/api/sessions", headers=auth(first))).status_code == 401
        assert (await http.delete("/api/sessions/x", headers=auth(second))).status_code == 404

    run(tmp_path, body)


def test_log_out_everywhere_ends_every_session_of_the_player(tmp_path: Path) -> None:
    async def body(app: Starlette, http: httpx.AsyncClient) -> None:
        tokens = [await register(http, "ana"), await log_in(http, "ana"), await log_in(http, "ana")]
        bob = await register(http, "bob")
        conns = [(await hello(hub_of(app), "Ana", t))[0] for t in tokens]
        out = await http.post("/api/logout/everywhere", headers=auth(tokens[1]))
        assert out.status_code == 200 and len(out.json()["ended"]) == 3
        for conn in conns:
            assert await closed(conn) == SESSION_ENDED
        for token in tokens:
            await refused_hello(hub_of(app), token)
        assert (await http.get("/api/sessions", headers=auth(bob))).status_code == 200

    run(tmp_path, body)


def test_a_guest_token_stops_opening_the_player_once_it_became_an_account(
    tmp_path: Path,
) -> None:
    """The guest's stateless token still opened the account after the sign-up."""

    async def body(app: Starlette, http: httpx.AsyncClient) -> None:
        hub = hub_of(app)
        guest, welcome = await hello(hub, "Ana")
        await said(hub, guest, {"type": "chat", "table_id": "nope", "text": "hi"})  # stored
        account = await register(http, "ana", welcome.resume_token)
        assert account != welcome.resume_token
        assert await closed(guest) == SESSION_ENDED
        await refused_hello(hub, welcome.resume_token)
        _, again = await hello(hub, "Ana", account)
        assert again.account == "ana" and again.player_id == welcome.player_id

    run(tmp_path, body)


def test_login_and_password_change_rotate_the_token(tmp_path: Path) -> None:
    async def body(app: Starlette, http: httpx.AsyncClient) -> None:
        hub = hub_of(app)
        await register(http, "ana")
        guest_conn, guest = await hello(hub, "Guest")
        await said(hub, guest_conn, {"type": "chat", "table_id": "nope", "text": "hi"})  # stored
        # Logging in from the guest's browser ends the guest's session.
        token = await log_in(http, "ana", authorization=f"Bearer {guest.resume_token}")
        await refused_hello(hub, guest.resume_token)
        other = await log_in(http, "ana")
        conn, _ = await hello(hub, "Ana", other)
        wrong = await http.post("/api/password", headers=auth(token),
                                json={"password": "nope", "new_password": PASSWORD + "!"})  # fmt: skip
        assert wrong.status_code == 401
        changed = await http.post("/api/password", headers=auth(token),
                                  json={"password": PASSWORD, "new_password": PASSWORD + "!"})  # fmt: skip
        assert changed.status_code == 200, changed.text
        fresh = changed.json()["resume_token"]
        assert await closed(conn) == SESSION_ENDED
        for old in (token, other):
            await refused_hello(hub, old)
        _, welcome = await hello(hub, "Ana", fresh)
        assert welcome.account == "ana"
        logged = await http.post("/api/login", json={"login": "ana", "password": PASSWORD + "!"})
        assert logged.status_code == 200

    run(tmp_path, body)


def test_an_ended_session_s_sockets_close_on_every_process() -> None:
    """Two hubs as one service (PostgreSQL + Redis): resume works on either, and ending
    the session on A closes its socket on B too (the Redis bus), whose next hello fails."""

    async def body(a: Hub, b: Hub, store: SqlStore) -> None:
        on_a, welcome = await hello(a, "Ana")
        await said(a, on_a, {"type": "chat", "table_id": "nope", "text": "hi"})  # stored
        on_b, again = await hello(b, "Ana", welcome.resume_token)
        assert again.player_id == welcome.player_id
        session = await store.find_session(a.sessions.digest(welcome.resume_token))
        assert session is not None
        a.sessions_ended(await store.end_sessions(session.player_id))  # as /api/logout on A
        assert await closed(on_a) == SESSION_ENDED
        assert await closed(on_b) == SESSION_ENDED
        await refused_hello(b, welcome.resume_token)

    run_cluster(body)


def test_resume_works_after_a_restart(tmp_path: Path) -> None:
    token: list[str] = []

    async def first(app: Starlette, http: httpx.AsyncClient) -> None:
        token.append(await register(http, "ana"))

    async def second(app: Starlette, http: httpx.AsyncClient) -> None:
        _, welcome = await hello(hub_of(app), "Ana", token[0])
        assert welcome.account == "ana" and welcome.resume_token == token[0]

    run(tmp_path, first)
    run(tmp_path, second)


class CountingStore(SqlStore):
    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.touches = 0
        self.touched = asyncio.Event()

    async def touch_session(self, session_id: int, now: float) -> None:
        self.touches += 1
        await super().touch_session(session_id, now)
        self.touched.set()


def test_last_use_is_written_at_most_once_per_few_minutes(tmp_path: Path) -> None:
    async def main() -> None:
        store = CountingStore(f"sqlite+aiosqlite:///{tmp_path / 't.db'}")
        await store.create()
        now = [1_000_000.0]
        sessions = Sessions(store, SECRET, clock=lambda: now[0])
        hub = Hub(store, sessions)
        try:
            conn, welcome = await hello(hub, "Ana")
            await said(hub, conn, {"type": "chat", "table_id": "nope", "text": "hi"})  # stored
            assert isinstance(await conn.outbox.get(), Error)  # (no such table)
            for _ in range(15):
                await said(hub, conn, {"type": "ping", "nonce": 1})
                assert isinstance(await conn.outbox.get(), Pong)
            assert store.touches == 0
            now[0] += sessions.touch_every + 1
            await said(hub, conn, {"type": "ping", "nonce": 1})
            await said(hub, conn, {"type": "ping", "nonce": 1})
            for _ in range(2):
                assert isinstance(await conn.outbox.get(), Pong)
            await asyncio.wait_for(store.touched.wait(), 10)
            assert store.touches == 1  # (a write the pings before had spawned ran before it)
            found = await store.find_session(sessions.digest(welcome.resume_token))
            assert found is not None and found.last_used == now[0]
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())


class CountingHasher(PasswordHasher):
    def __init__(self) -> None:
        super().__init__()
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.verified += 1
        return super().verify(hash, password)


def test_an_unknown_login_costs_a_verification_like_a_known_one(tmp_path: Path) -> None:
    """An unknown login answered in 5 ms, a known one in 200 ms."""

    async def body(app: Starlette, http: httpx.AsyncClient) -> None:
        await register(http, "ana")
        hasher = CountingHasher()
        app.state.server.accounts.passwords = Passwords(hasher)
        for login in ("ana", "nobody"):
            before = hasher.verified
            answer = await http.post("/api/login", json={"login": login, "password": "x" * 12})
            assert answer.status_code == 401 and answer.json()["error"] == "bad_login"
            assert hasher.verified == before + 1, login

    run(tmp_path, body)


def test_logins_are_throttled_per_account_from_any_address(tmp_path: Path) -> None:
    async def body(app: Starlette, http: httpx.AsyncClient) -> None:
        await register(http, "ana")
        answers = []
        for n in range(8):  # each try from another address
            async with http_client(app, f"10.0.0.{n + 1}") as other:
                answer = await other.post("/api/login", json={"login": "ana", "password": "bad"})
                answers.append(answer.status_code)
        # Five at once, then one each 12 s: the sixth is refused unless the tries were slow.
        assert answers[:5] == [401] * 5 and 429 in answers[5:], answers
        async with http_client(app, "10.0.1.1") as other:  # another login is not held up
            answer = await other.post("/api/login", json={"login": "bob", "password": "bad"})
            assert answer.status_code == 401

    run(tmp_path, body)


def test_common_and_weak_passwords_are_refused(tmp_path: Path) -> None:
    """``12345678`` and ``password`` were accepted."""

    async def body(app: Starlette, http: httpx.AsyncClient) -> None:
        for weak in ("12345678", "password", "qwertyuiop", "olena.k2026"):
            answer = await http.post("/api/accounts", json={"login": "olena.k", "password": weak})
            assert answer.status_code == 400 and answer.json()["error"] == "weak_password", weak
        assert (await http.post("/api/login", json={"login": "olena.k", "password": "password"})
                ).status_code == 401  # fmt: skip
        token = await register(http, "olena.k")
        changed = await http.post("/api/password", headers=auth(token),
                                  json={"password": PASSWORD, "new_password": "12345678"})  # fmt: skip
        assert changed.status_code == 400 and changed.json()["error"] == "weak_password"
        assert (await http.get("/api/sessions", headers=auth(token))).status_code == 200

    run(tmp_path, body)


def test_a_guest_is_stored_only_when_it_sits_makes_a_table_or_chats(tmp_path: Path) -> None:
    """Every token-less ``hello`` wrote a player row that was never removed (160 a second
    from one client)."""

    async def main() -> None:
        store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
        await store.create()
        hub = Hub(store, Sessions(store, SECRET))

        async def rows() -> int:
            async with store._engine.connect() as conn:
                return int(
                    (await conn.execute(select(func.count()).select_from(players))).scalar_one()
                )

        try:
            seen = set()
            for n in range(20):
                conn, welcome = await hello(hub, f"Guest {n}")
                seen.add(welcome.player_id)
                hub.disconnect(conn)
            assert await rows() == 0 and len(seen) == 20  # ids given, nothing stored
            await refused_hello(hub, welcome.resume_token)  # a token that was never stored
            watcher, _ = await hello(hub, "Watcher")
            await said(hub, watcher, {"type": "list_tables"})
            await said(hub, watcher, {"type": "ping", "nonce": 1})
            assert await rows() == 0
            ana, ana_welcome = await hello(hub, "Ana")
            await said(
                hub, ana, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
            )
            table_id = (await next_of(ana, TableState)).table_id
            assert await rows() == 1
            rui, rui_welcome = await hello(hub, "Rui")
            await said(hub, rui, {"type": "chat", "table_id": table_id, "text": "hi"})
            assert await rows() == 2
            for name, token, player in (("Ana", ana_welcome.resume_token, ana_welcome.player_id),
                                        ("Rui", rui_welcome.resume_token, rui_welcome.player_id)):  # fmt: skip
                _, again = await hello(hub, name, token)
                assert again.player_id == player  # the id the first welcome gave
            assert str((await store.get_player(int(ana_welcome.player_id))).name) == "Ana"
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())
