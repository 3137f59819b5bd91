"""Behaviours of issue 17 ("Hardening the service") that held before it and must keep
holding; each had no test of its own (/tmp/audit17.md, gap 6):

1. a session unused for longer than ``SESSION_IDLE`` is refused at ``hello`` and as a
   Bearer token by ``Sessions.check`` itself, before any expiry sweep removes it;
2. ``hint`` and ``rematch`` from a stranger or a spectator are ``not_seated`` and nothing
   reaches the seats;
3. a running game is not served over HTTP (its record, replay and download are 404) and no
   list shows its seed or a hand;
4. paths that climb out of the static folder (``..``, ``%2e%2e``, ``..%2f`` …) find nothing;
5. no token, nor a 12-character piece of one, reaches the server's log at ``debug``.

1 runs the app in this process with a clock the test moves (as ``test_sessions``); 2, 3 play
against the module's ``trumps serve`` on SQLite and on PostgreSQL (``served``); 4 talks to
the module's SQLite one over raw sockets; 5 runs one of its own on SQLite and reads its log.
No sleeps: every wait is on a message or an answer.
"""

from __future__ import annotations

import asyncio
import http.client
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from server.appkit import SECRET, auth, http_client, hub_of, refused_hello, register, running
from server.e2e import TIMEOUT, Client, Msg, ServerProc, connected, strings_in
from server.e2e import run as run_clients
from server.hubkit import hello
from server.scenekit import Pool, Scene, open_table, ping_pong, run_pool, snapshot
from trumps.server.hubparts import HubOptions
from trumps.server.identity.sessions import SESSION_IDLE, Sessions
from trumps.server.transport.app import ServerSettings, create_app
from trumps.store import SqlStore
from trumps.web import STATIC

Serve = Any  # the ``served`` fixture of tests/server/conftest.py: (**options) -> ServerProc


# ---------------------------------------------------------------- 1. idle sessions


class NoSweep(SqlStore):
    """An SQL store whose expiry sweep removes nothing: whatever refuses an idle session
    must be ``Sessions.check``."""

    async def expire(
        self, sessions_before: float, guests_before: float, unused_before: float | None = None
    ) -> tuple[int, int]:
        return 0, 0


def test_a_session_idle_too_long_is_refused_at_hello_and_over_http(tmp_path: Path) -> None:
    """Ana's session (a socket ``hello``) and Bob's (a Bearer token) last used more than
    ``SESSION_IDLE`` ago are refused and their rows deleted, with no sweep run; Cyd, who
    used hers half-way through, goes on."""

    async def main() -> None:
        store = NoSweep(f"sqlite+aiosqlite:///{tmp_path / 'idle.db'}")
        app = create_app(ServerSettings(db=store.url, secret=SECRET,
                                        hub=HubOptions(bot_time=0.01), freeze_gc=False),
                         store)  # fmt: skip
        sessions: Sessions = app.state.server.sessions
        now = [1_000_000.0]
        sessions.clock = lambda: now[0]
        async with running(app), http_client(app) as http:
            await asyncio.wait_for(body(app, http, sessions, now), 60)

    async def body(app: Starlette, http: httpx.AsyncClient, sessions: Sessions,
                   now: list[float]) -> None:  # fmt: skip
        hub = hub_of(app)
        ana, bob, cy = [await register(http, login) for login in ("ana", "bob", "cyd")]
        _, welcome = await hello(hub, "Ana", ana)
        assert welcome.account == "ana"
        assert (await http.get("/api/sessions", headers=auth(bob))).status_code == 200
        start = now[0]
        now[0] = start + SESSION_IDLE / 2
        assert (await http.get("/api/sessions", headers=auth(cy))).status_code == 200  # used

        now[0] = start + SESSION_IDLE + 1
        for token in (ana, bob):  # still stored: nothing swept them
            assert await store_has(sessions, token)
        await refused_hello(hub, ana)
        refused = await http.get("/api/sessions", headers=auth(bob))
        assert refused.status_code == 401, refused.text
        assert refused.json()["error"] == "bad_token" and "expired" in refused.json()["message"]
        for token in (ana, bob):  # … and check ended them
            assert not await store_has(sessions, token)
        assert (await http.get("/api/sessions", headers=auth(ana))).status_code == 401
        await refused_hello(hub, bob)

        # Idleness, not age: Cyd's session, as old but used half-way, still opens her.
        assert (await http.get("/api/sessions", headers=auth(cy))).status_code == 200
        _, welcome = await hello(hub, "Cyd", cy)
        assert welcome.account == "cyd"

    asyncio.run(main())


async def store_has(sessions: Sessions, token: str) -> bool:
    return await sessions.store.find_session(sessions.digest(token)) is not None


# ---------------------------------------------------------------- 2. hint and rematch


async def resigned(scene: Scene) -> int | None:
    """Olena resigns; every member hears the game end (its record stored): its id."""
    await scene.seats[0].send({"type": "resign", "table_id": scene.table_id})
    ids = {(await c.until(lambda m: m["type"] == "game_over"))["record_id"] for c in scene.members}
    assert len(ids) == 1, ids
    record_id: int | None = ids.pop()
    return record_id


async def my_turn(player: Client, state: Msg) -> Msg:
    """From ``state`` (a table against bots), wait until ``player`` is to move; a fresh
    snapshot then (nothing moves at the table until it acts)."""
    table_id = state["table_id"]
    while state["to_move"] != 0:  # (seat 0 against the computer)
        state = await player.until(lambda m: m["type"] == "event" and m["table_id"] == table_id)
    return await snapshot(player, table_id)


def test_hints_are_for_the_seat_alone(served: Serve) -> None:
    """Against the computer, Olena's own ``hint`` is answered; the same request from a
    stranger and from a spectator is ``not_seated``, and neither Olena nor the spectator
    hears anything of it (their next message is their pong) while the table stays as it
    was."""
    server = served()

    async def main(pool: Pool) -> None:
        olena = await pool.hello("Olena")
        await olena.send({"type": "play_computer", "game": "kozyri", "level": "random"})
        state = await olena.expect("table_state")
        tid = state["table_id"]
        before = await my_turn(olena, state)
        watcher, stranger = await pool.hello("Watcher"), await pool.hello("Stranger")
        await watcher.send({"type": "spectate", "table_id": tid})
        assert (await watcher.expect("table_state"))["seat"] is None
        await olena.until(lambda m: m["type"] == "spectators" and m["count"] == 1)
        for outsider in (stranger, watcher):
            err = await outsider.error({"type": "hint", "table_id": tid})
            assert err["code"] == "not_seated" and err["table_id"] == tid, err
            for client in (olena, watcher, stranger):
                await ping_pong(client)  # nothing came before the pong: no hint, no event
        state = await snapshot(olena, tid)
        assert (state["event"], state["view"], state["legal"]) == (
            before["event"], before["view"], before["legal"],
        )  # fmt: skip
        # The seat's own request is answered: a hint was there for the taking.
        await olena.send({"type": "hint", "table_id": tid})
        hint = await olena.expect("hint")
        assert hint["table_id"] == tid and hint["action"] in before["legal"], hint
        await ping_pong(watcher)

    run_pool(server, main)


def test_rematch_is_for_the_players_of_the_game_alone(served: Serve) -> None:
    """A stranger and a spectator asking a rematch, before and after the end, get
    ``not_seated``: no table is made, no offer reaches the seats; a player's own request
    then reaches the other player."""
    server = served()

    async def main(pool: Pool) -> None:
        scene = await open_table(pool, cards=False)
        tid = scene.table_id
        stranger = await pool.hello("Stranger")
        rematch = {"type": "rematch", "table_id": tid}
        tables = listed(server)
        for outsider in (stranger, scene.watcher):
            await scene.reject(outsider, rematch, "not_seated")
        assert listed(server) == tables
        await resigned(scene)
        scene.base = await scene.snapshots()
        assert scene.base[0]["outcome"] is not None
        for outsider in (stranger, scene.watcher):
            await scene.reject(outsider, rematch, "not_seated")
        assert listed(server) <= tables  # no new table
        # Olena's own request makes the table and Taras is offered it.
        await scene.seats[0].send(rematch)
        offer = await scene.seats[1].until(lambda m: m["type"] == "rematch")
        assert offer["table_id"] == tid and offer["by"] == "Olena", offer

    run_pool(server, main)


def listed(server: ServerProc) -> set[str]:
    return {t["table_id"] for t in server.get("/api/tables").json()["tables"]}


# ---------------------------------------------------------------- 3. running games


def test_a_running_game_is_not_served_over_http(served: Serve) -> None:
    """While Olena and Taras play, their game's row id gives 404 for the record, the
    replay and the download, and neither ``/api/games`` nor ``/api/tables`` shows its seed
    or a card of a hand; once it ends, the same id serves the record."""
    server = served(seed=SEED)  # a seed no other figure in the answers could contain

    async def main(pool: Pool) -> None:
        scene = await open_table(pool)
        hands = set(scene.hand(0)) | set(scene.hand(1))
        store = SqlStore(server.db)
        try:
            rows = [r for r in await store.running_tables() if r.table_id == scene.table_id]
        finally:
            await store.close()
        assert len(rows) == 1, rows
        game_id, seed = rows[0].game_id, str(rows[0].record["seed"])
        for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/replay",
                     f"/api/games/{game_id}?download=1"):  # fmt: skip
            answer = server.get(path)
            assert answer.status_code == 404, (path, answer.text)
            assert answer.json()["error"] == "no_such_game", answer.text
            assert "content-disposition" not in answer.headers
            assert seed not in answer.text, answer.text
        for path in ("/api/games", "/api/games?limit=100", "/api/tables",
                     "/api/tables?game=kozyri"):  # fmt: skip
            answer = server.get(path)
            assert answer.status_code == 200, answer.text
            listed = answer.json()
            assert seed not in answer.text, (path, answer.text)
            assert not hands & set(strings_in(listed)), (path, answer.text)
            assert not {"seed", "hands", "view", "actions"} & keys_in(listed), (path, listed)
        assert all(
            g["table_id"] != scene.table_id for g in server.get("/api/games").json()["games"]
        )
        assert any(
            t["table_id"] == scene.table_id for t in server.get("/api/tables").json()["tables"]
        )

        # The same id once the game is over: the record, with its seed, is public.
        assert await resigned(scene) == game_id
        record = server.get(f"/api/games/{game_id}")
        assert record.status_code == 200, record.text
        assert str(record.json()["seed"]) == seed

    run_pool(server, main)


SEED = 73_915_662_048_117


def keys_in(obj: Any) -> set[str]:
    """Every key of every object inside a JSON value."""
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in keys_in(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in keys_in(v)}
    return set()


# ---------------------------------------------------------------- 4. static traversal

WEB = STATIC.parent  # the package the server serves
# Files outside the static folder that a path climbing out of it would reach.
OUTSIDE = [
    WEB / "__init__.py",
    WEB / "i18n.py",
    WEB.parent / "server" / "transport" / "app.py",
    WEB / "locale" / "messages.pot",
    Path("/etc/passwd"),
]
CLIMBS = [
    "/static/../..",
    "/static/..",
    "/static/%2e%2e",
    "/static/%2e%2e/%2e%2e",
    "/static/..%2f..",
    "/static/../__init__.py",
    "/static/../../server/app.py",
    "/static/%2e%2e/__init__.py",
    "/static/%2E%2E/%2E%2E/server/app.py",
    "/static/..%2f__init__.py",
    "/static/..%2F..%2Fserver%2Fapp.py",
    "/static/%2e%2e%2f__init__.py",
    "/static/..\\__init__.py",
    "/static/%2e%2e%5c__init__.py",
    "/static/%252e%252e/__init__.py",
    "/static/cards/../../__init__.py",
    "/static/cards/../../locale/messages.pot",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/" + "%2e%2e/" * 12 + "etc/passwd",
    "{v}/../__init__.py",
    "{v}/cards/../../__init__.py",
    "{v}/cards/..%2f..%2f__init__.py",
    "{v}/%2e%2e/__init__.py",
    "{v}/%2e%2e/%2e%2e/server/app.py",
    "{v}//etc/passwd",
    "/../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/i18n/..%2f..",
    "/i18n/../fa.json",
    "/i18n/..%2ffa.json",
    "/i18n/..%2f..%2f__init__.json",
    "/i18n/%2e%2e%2flocale%2fmessages.json",
    "/i18n/..%2f..%2fstatic%2fapp.json",
]


def raw_get(server: ServerProc, path: str) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (``http.client`` neither normalises nor quotes it)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


@pytest.mark.parametrize("module_servers", ["sqlite"], indirect=True)
def test_paths_that_climb_out_of_the_static_folder_find_nothing(served: Serve) -> None:
    """``..`` in every spelling (plain, ``%2e%2e``, ``..%2f``, backslash, double-encoded),
    under ``/static/``, the versioned prefix, ``/`` and ``/i18n/``: 404, and no byte of a
    file outside the static folder comes back.  The same client fetches the page's own
    files (and ``..`` that stays inside the folder)."""
    server = served()
    found = re.search(r'"(/static/v-[0-9a-f]{12})/', server.get("/").text)
    assert found is not None
    prefix = found.group(1)
    for inside in (
        f"{prefix}/app.js",
        "/static/app.js",
        "/static/cards/../app.js",
        "/i18n/fa.json",
    ):
        status, body = raw_get(server, inside)
        assert status == 200 and body, inside
    secrets_ = {path: path.read_bytes()[:64] for path in OUTSIDE}
    problems = []
    for climb in CLIMBS:
        path = climb.format(v=prefix)
        status, body = raw_get(server, path)
        shown = [str(p) for p, head in secrets_.items() if head in body]
        if status != 404 or shown:
            problems.append(f"{path}: {status} {shown} {body[:80]!r}")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- 5. tokens and the log


def test_tokens_never_reach_the_log(tmp_path: Path) -> None:
    """At ``--log-level debug``: a new guest's ``hello``, a resume, an account made from the
    guest, a login, a logout, and hellos with the ended tokens.  No token, nor any 12
    characters of one, is in the server's output."""
    server = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'log.db'}", tmp_path,
                        extra=("--log-level", "debug")).start()  # fmt: skip
    tokens: list[str] = []

    async def main() -> None:
        guest = await connected(server.ws, "Ana")
        assert guest.token is not None
        await guest.send({"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        await guest.expect("table_state")  # the guest is stored: its token resumes it
        again = await connected(server.ws, "Ana", guest.token)
        assert again.player_id == guest.player_id and again.token == guest.token
        password = {"login": "ana-log", "password": "correct horse battery staple 42"}
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            made = await http.post("/api/accounts", json=password, headers=auth(guest.token))
            assert made.status_code == 201, made.text
            logged = await http.post("/api/login", json=password)
            assert logged.status_code == 200, logged.text
            account, login = made.json()["resume_token"], logged.json()["resume_token"]
            out = await http.post("/api/logout", headers=auth(login))
            assert out.status_code == 200, out.text
            assert (await http.get("/api/sessions", headers=auth(login))).status_code == 401
            assert (await http.get("/api/sessions", headers=auth(account))).status_code == 200
        tokens.extend({guest.token, account, login})
        for ended in (login, guest.token):  # refused tokens are not written down either
            client = await Client(server.ws).connect()
            await client.send({"type": "hello", "protocol": 1, "name": "Ana",
                               "resume_token": ended})  # fmt: skip
            assert (await client.expect("error"))["code"] == "bad_token"

    try:
        run_clients(main)
    finally:
        server.stop()
    text = server.log.read_text(encoding="utf-8", errors="replace")
    assert "DEBUG " in text, text[-2000:]  # the level took: there is something to search
    assert len(tokens) == 3 and all(len(t) >= 43 for t in tokens), tokens
    pieces = {t[i : i + 12] for t in tokens for i in range(len(t) - 11)}
    leaked = [line for line in text.splitlines() if any(p in line for p in pieces)]
    assert not leaked, "\n".join(leaked)
