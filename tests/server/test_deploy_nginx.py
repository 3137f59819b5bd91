"""The example nginx configuration (``deploy/nginx.conf``) in front of two servers.

The file itself is run, with only its ports changed: nginx as a plain process of the test
(no root needed: a free port, and its pid, logs and temporary files in the test's folder)
proxies two ``trumps serve`` processes.  Through it: the WebSocket upgrade, a move played
at a table, ``/healthz`` and ``/readyz`` from both processes in turn, and, once one process
is stopped, every request still answered by the other.  Then the same file in front of
one service (two ``--redis`` processes on one PostgreSQL): two players land on different
processes through nginx, the owner of their table is stopped, and the player who was on it
reconnects through nginx with the resume token, has the seat again, and the game goes on.

Without nginx the tests are skipped (``apt-get install nginx``); CI installs it and sets
``TRUMPS_REQUIRE_NGINX=1``, which makes a missing nginx a failure instead (the service test
also needs PostgreSQL and ``redis-server``: ``TRUMPS_REQUIRE_POSTGRES``/``_REDIS`` likewise).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.clusterkit import Seat, consistent, play
from server.e2e import (
    TIMEOUT,
    Client,
    Msg,
    RedisProc,
    ServerProc,
    connected,
    free_port,
    postgres_database,
    run,
)
from server.redis_env import need_redis_server
from store.postgres import need_postgres
from trumps.store import SqlStore

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "nginx.conf"
REQUIRE_ENV = "TRUMPS_REQUIRE_NGINX"


def nginx_binary() -> str | None:
    """Debian's nginx (in /usr/sbin, which a user's PATH may lack)."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def need_nginx() -> str:
    found = nginx_binary()
    if found is not None:
        return found
    if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
        pytest.fail(f"nginx is not installed, and {REQUIRE_ENV} is set", pytrace=False)
    pytest.skip(f"nginx is not installed (apt-get install nginx); {REQUIRE_ENV}=1 fails instead")


def site_config(upstreams: list[int], port: int) -> str:
    """The example with the test's ports; each thing replaced must be in it exactly once,
    so the example cannot drift from what is tested."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for old, new in (
        ("server 127.0.0.1:8001 ", f"server 127.0.0.1:{upstreams[0]} "),
        ("server 127.0.0.1:8002 ", f"server 127.0.0.1:{upstreams[1]} "),
        ("listen 80;", f"listen 127.0.0.1:{port};"),
    ):
        assert text.count(old) == 1, f"{EXAMPLE.name} should contain {old!r} once"
        text = text.replace(old, new)
    return text


def main_config(prefix: Path, site: Path) -> str:
    """A whole nginx.conf around the site, everything nginx writes kept under ``prefix``."""
    lines = [
        "daemon off;",
        "worker_processes 1;",
        f"pid {prefix / 'nginx.pid'};",
        f"error_log {prefix / 'error.log'} warn;",
        "events { worker_connections 256; }",
        "http {",
        f"    access_log {prefix / 'access.log'};",
        *(
            f"    {kind}_temp_path {prefix / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        ),
        f"    include {site};",
        "}",
    ]
    if os.geteuid() == 0:
        # Started by root, nginx's workers would switch to `nobody`, who cannot enter the
        # test's folder; as any other user this line is not needed.
        lines.insert(0, "user root root;")
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def nginx(binary: str, upstreams: list[int], prefix: Path) -> Iterator[str]:
    """nginx on a free port in front of ``upstreams``; yields its http:// address."""
    port = free_port()
    site = prefix / "trumps.conf"
    site.write_text(site_config(upstreams, port))
    conf = prefix / "nginx.conf"
    conf.write_text(main_config(prefix, site))
    check = subprocess.run(
        [binary, "-t", "-p", str(prefix), "-c", str(conf)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
    log = prefix / "nginx.out"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [binary, "-p", str(prefix), "-c", str(conf)], stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:  # up once it proxies a request
            assert proc.poll() is None, log.read_text() + (prefix / "error.log").read_text()
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)  # polling the start, as for the servers (server.e2e)
        yield url
    finally:
        proc.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        try:
            proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def play_one_move(ws_url: str) -> None:
    """Through the proxy: the socket upgrades (from the page the proxy serves: the server
    checks its Origin against the Host the proxy passes on), a table starts and a move is
    played."""
    page = ws_url.replace("ws://", "http://").removesuffix("/ws")
    client = await Client(ws_url, origin=page).connect()
    await client.hello("Ana")
    await client.send({"type": "create_table", "game": "kozyri", "seats": ["human", "easy"]})
    state = await client.expect("table_state")
    table_id, seat = state["table_id"], state["seat"]
    msg = state
    while not (msg["type"] in ("event", "table_state") and msg.get("legal")):
        assert msg["type"] != "error", msg
        msg = await client.recv()  # the start, maybe the bot's move first
    number = msg["number"] if msg["type"] == "event" else msg["event"]
    action = msg["legal"][0]
    await client.act(table_id, action, number)
    heard = await client.until(
        lambda m: m["type"] == "error" or (m["type"] == "event" and m.get("seat") == seat)
    )
    assert heard["type"] == "event" and heard["action"] == action, heard
    assert heard["number"] == number + 1


def test_the_example_nginx_configuration(tmp_path: Path) -> None:
    binary = need_nginx()
    servers = [
        ServerProc(f"sqlite+aiosqlite:///{tmp_path / f'{name}.db'}", tmp_path, seed=7)
        for name in ("a", "b")
    ]
    prefix = tmp_path / "nginx"
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / kind).mkdir(parents=True)
    try:
        for server in servers:
            server.start()
        nodes = {s.get("/healthz").json()["node"]: s for s in servers}
        assert len(nodes) == 2
        with nginx(binary, [s.port for s in servers], prefix) as url:
            seen = set()
            for _ in range(4):  # round robin: each process in turn
                health = httpx.get(url + "/healthz", timeout=TIMEOUT)
                assert health.status_code == 200 and health.json()["ok"] is True
                seen.add(health.json()["node"])
            assert seen == set(nodes)
            for _ in range(2):
                ready = httpx.get(url + "/readyz", timeout=TIMEOUT)
                assert ready.status_code == 200 and ready.json() == {"ready": True}

            run(lambda: play_one_move(url.replace("http://", "ws://") + "/ws"))

            servers[1].stop()  # as in a rolling upgrade: the other one answers everything
            alive = next(n for n, s in nodes.items() if s is servers[0])
            for _ in range(4):
                health = httpx.get(url + "/healthz", timeout=TIMEOUT)
                assert health.status_code == 200 and health.json()["node"] == alive
            assert httpx.get(url + "/readyz", timeout=TIMEOUT).status_code == 200
    finally:
        for server in servers:
            server.stop()


def _connections(servers: dict[str, ServerProc]) -> dict[str, int]:
    """How many sockets each process holds (asked of each directly, not through nginx)."""
    return {node: s.get("/healthz").json()["connections"] for node, s in servers.items()}


async def _through(ws_url: str, name: str, servers: dict[str, ServerProc]) -> tuple[Seat, str]:
    """``name`` connected through nginx, and the process nginx chose."""
    before = await asyncio.to_thread(_connections, servers)
    seat = Seat(await connected(ws_url, name), name)
    after = await asyncio.to_thread(_connections, servers)
    [node] = [n for n in servers if after[n] > before[n]]
    return seat, node


def test_the_example_nginx_configuration_in_front_of_one_service(tmp_path: Path) -> None:
    """nginx (the example file) in front of two ``--redis`` processes on one PostgreSQL:
    Ana and Rui land on different processes and play one table; the owner (Ana's process)
    is stopped (SIGTERM), so nginx sends Ana's new socket to the other one, where her
    resume token seats her again at the table it took over, and the game goes on."""
    binary = need_nginx()
    need_postgres()
    need_redis_server()
    redis = RedisProc(tmp_path).start()
    prefix = tmp_path / "nginx"
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / kind).mkdir(parents=True)
    try:
        with postgres_database() as db:
            servers = {
                node: ServerProc(
                    db, tmp_path, seed=None, extra=("--redis", redis.url, "--node-id", node)
                )
                for node in ("A", "B")
            }
            try:
                for server in servers.values():
                    server.start()
                ports = [s.port for s in servers.values()]
                with nginx(binary, ports, prefix) as url:
                    ws_url = url.replace("http://", "ws://") + "/ws"
                    run(lambda: _play_through_a_stop(ws_url, db, servers))
            finally:
                for server in servers.values():
                    server.stop()
    finally:
        redis.stop()


async def _play_through_a_stop(ws_url: str, db: str, servers: dict[str, ServerProc]) -> None:
    ana, ana_node = await _through(ws_url, "Ana", servers)
    rui, rui_node = await _through(ws_url, "Rui", servers)
    for _ in range(4):  # nginx takes turns: at most a few sockets to reach the other one
        if rui_node != ana_node:
            break
        rui, rui_node = await _through(ws_url, "Rui", servers)
    assert rui_node != ana_node, "nginx sent every socket to one process"
    await ana.now.send({"type": "create_table", "game": "kozyri", "rules": {"max_plies": 60},
                        "seats": ["human", "human"], "grace": 600})  # fmt: skip
    made = await ana.now.expect("table_state")
    ana.table_id = rui.table_id = made["table_id"]
    await rui.now.send({"type": "join_table", "table_id": rui.table_id})
    for seat in (ana, rui):
        await seat.now.until(lambda m: m["type"] == "event" and m["kind"] == "start")
    await play([ana, rui], 4)
    store = SqlStore(db)
    try:
        assert (await store.table_owner(ana.table_id))[1] == ana_node
        await asyncio.to_thread(servers[ana_node].stop)  # SIGTERM: it hands the table over
        # Ana's socket closed with her process; she comes back through nginx with her token.
        again, node = await _through_with_token(ws_url, ana, servers[rui_node])
        assert node == rui_node
        assert again["seat"] == _seat_of(made) and again["table_id"] == ana.table_id
        await rui.now.until(lambda m: m["type"] == "event" and m["kind"] == "return")
        # (the other process took the table: asked once it has said so, not at the stop —
        # the stopping one releases it and the other adopts it a moment later)
        assert (await store.table_owner(ana.table_id))[1] == rui_node
    finally:
        await store.close()
    await play([ana, rui], 200)
    if not ana.over():
        await ana.now.until(lambda m: m["type"] == "game_over")
    store = SqlStore(db)
    try:
        running = [t for t in await store.running_tables() if t.table_id == ana.table_id]
        if running:
            record = running[0].record
        else:
            [summary] = [g for g in await store.finished_games() if g.table_id == ana.table_id]
            record = await store.get_game(summary.id)
    finally:
        await store.close()
    assert record["outcome"] is not None
    consistent([ana, rui], record)


def _seat_of(state: Msg) -> int:
    seat = state["seat"]
    assert isinstance(seat, int), state
    return seat


async def _through_with_token(ws_url: str, seat: Seat, left: ServerProc) -> tuple[Msg, str]:
    """``seat``'s person reconnects through nginx with the resume token: the snapshot of
    its table, and the process (the one ``left``) that sent it."""
    before = await asyncio.to_thread(left.get, "/healthz")
    client = await connected(ws_url, seat.name, seat.now.token)
    seat.clients.append(client)
    state = await client.until(
        lambda m: m["type"] == "table_state" and m["table_id"] == seat.table_id
    )
    after = await asyncio.to_thread(left.get, "/healthz")
    assert after.json()["connections"] > before.json()["connections"], "not on the process left"
    return state, after.json()["node"]
