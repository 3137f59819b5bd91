"""``trumps connect``: the address as people write it, and one line saying why a server
cannot be reached (refused, no such host, timed out) instead of a client that retries
forever or a traceback.  The Textual app itself is tested in ``tests/tui``."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from click.testing import CliRunner

import trumps.tui.connect as connect_pkg
from trumps.cli import cli
from trumps.tui.connect import net


class _Health(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b'{"ok": true}' if self.path == "/healthz" else b"{}"
        self.send_response(200 if self.path == "/healthz" else 404)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def http_server() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The Textual app is not run here: record what it would have been started with."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(connect_pkg, "run", lambda *a: calls.append(a))
    return calls


def error_line(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_host_and_port_without_http_connects(
    http_server: int, started: list[tuple[Any, ...]]
) -> None:
    result = CliRunner().invoke(cli, ["connect", f"127.0.0.1:{http_server}", "--name", "Ana"])
    assert result.exit_code == 0, result.output
    assert len(started) == 1
    url = started[0][0]
    assert net.server_address(url).ws_url == f"ws://127.0.0.1:{http_server}/ws"
    assert started[0][1] == "Ana"


def test_refused_port_says_refused(started: list[tuple[Any, ...]]) -> None:
    port = free_port()
    line = error_line(["connect", f"127.0.0.1:{port}"])
    assert line.startswith(f"Error: cannot connect to http://127.0.0.1:{port}: connection refused")
    assert not started


def test_unknown_host_says_no_such_host(started: list[tuple[Any, ...]]) -> None:
    line = error_line(["connect", "no-such-host.invalid:8000"])
    assert "cannot connect to http://no-such-host.invalid:8000: " in line
    assert "no such host" in line or "cannot look up the host" in line
    assert not started


def test_silent_server_says_timed_out(
    monkeypatch: pytest.MonkeyPatch, started: list[tuple[Any, ...]]
) -> None:
    # A socket that listens but never answers: the kernel accepts, nobody replies.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        monkeypatch.setattr(net.reach, "__defaults__", (0.3,))
        line = error_line(["connect", f"http://127.0.0.1:{port}"])
    assert line == f"Error: cannot connect to http://127.0.0.1:{port}: timed out (no answer)"
    assert not started


def test_a_bad_address_is_a_usage_error(started: list[tuple[Any, ...]]) -> None:
    result = CliRunner().invoke(cli, ["connect", "ftp://example.org"])
    assert result.exit_code == 2
    assert "127.0.0.1:8000" in result.stderr and "Traceback" not in result.output
    assert not started
