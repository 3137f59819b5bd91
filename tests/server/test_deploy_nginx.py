"""The example nginx configuration (``deploy/nginx.conf``) in front of two servers.

The file itself is run, with only its ports changed: nginx as a plain process of the test
(no root needed: a free port, and its pid, logs and temporary files in the test's folder)
proxies two ``trumps serve`` processes.  Through it: the WebSocket upgrade, a move played
at a table, ``/healthz`` and ``/readyz`` from both processes in turn, and, once one process
is stopped, every request still answered by the other.

Without nginx the test is skipped (``apt-get install nginx``); CI installs it and sets
``TRUMPS_REQUIRE_NGINX=1``, which makes a missing nginx a failure instead.
"""

from __future__ import annotations

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

from server.e2e import TIMEOUT, Client, ServerProc, free_port, run

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
