"""Connections before any WebSocket (issue 17 §1 "Connections"): raw TCP connections that
say nothing, or send half a request and stop (slowloris), are counted per address and in
all and closed after the header deadline, and ``/healthz`` keeps answering.

An auditor held 140 silent sockets against a server limited to 128 open files and
``/healthz`` timed out: uvicorn waits for a request for ever and counted nothing before the
WebSocket handshake.  Real ``trumps serve`` processes on loopback; the whole 127.0.0.0/8
network is this machine, so 127.0.0.2 is another client address."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import resource
import selectors
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from server.e2e import ServerProc
from trumps.server.limits.conngate import ConnGate, Trusted, Verdict
from trumps.server.limits.sockets import FILE_RESERVE

FILES = 128  # the server's open-file limit in the flood test
ATTACK = 140  # more raw sockets than it has files
PARTIAL = b"GET /ws HTTP/1.1\r\nHost: x\r\n"  # headers begun, never ended
WAIT = 10.0  # seconds any one wait of these tests may take


@contextlib.contextmanager
def file_limit(files: int) -> Iterator[None]:
    """Processes started inside inherit a soft limit of ``files`` open files."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.fixture
def servers() -> Iterator[list[ServerProc]]:
    procs: list[ServerProc] = []
    yield procs
    for proc in procs:
        proc.stop()


def get_from(source: str, server: ServerProc, path: str, timeout: float = WAIT) -> httpx.Response:
    """GET ``path`` from the client address ``source``."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=timeout) as client:
        return client.get(server.http + path)


def raw(server: ServerProc, count: int, partial: int = 0) -> list[socket.socket]:
    """``count`` TCP connections from 127.0.0.1, the first ``partial`` of them sending half
    a request's headers; the rest send nothing."""
    socks = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        if n < partial:
            sock.sendall(PARTIAL)
        socks.append(sock)
    return socks


def closed_by_server(socks: list[socket.socket], within: float) -> dict[socket.socket, bytes]:
    """Wait (on the sockets, at most ``within`` seconds) until the server has closed each
    one; what each received before its end.  Sockets still open are left out."""
    got: dict[socket.socket, bytes] = dict.fromkeys(socks, b"")
    ended: dict[socket.socket, bytes] = {}
    deadline = time.monotonic() + within
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, sock)
        while len(ended) < len(socks) and (left := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                ready: socket.socket = key.data
                try:
                    data = ready.recv(4096)
                except ConnectionResetError:
                    data = b""
                if data:
                    got[ready] += data
                else:
                    selector.unregister(ready)
                    ended[ready] = got[ready]
    return ended


def ask_health(sock: socket.socket) -> bytes:
    """Send ``GET /healthz`` on an open connection and read the whole answer; its status
    line (b"" if the server had closed the connection)."""
    sock.settimeout(WAIT)
    with contextlib.suppress(ConnectionError):
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = b""
    with contextlib.suppress(ConnectionResetError):
        while b"\r\n\r\n" not in answer and (chunk := sock.recv(4096)):
            answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        length = re.search(rb"(?im)^content-length: *(\d+)", head)
        while length and len(body) < int(length[1]) and (chunk := sock.recv(4096)):
            body += chunk
    return answer.split(b"\r\n", 1)[0]


def test_a_flood_of_silent_and_half_sent_connections_leaves_healthz_answering(
    tmp_path: Path, servers: list[ServerProc]
) -> None:
    server = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}", tmp_path,
                        extra=("--hello-timeout", "1"))  # fmt: skip
    with file_limit(FILES):
        servers.append(server.start())
    socks = raw(server, ATTACK, partial=ATTACK // 2)
    try:
        # Another address is answered at once, from the room kept beyond the backstop …
        assert get_from("127.0.0.2", server, "/healthz").status_code == 200
        # … which serves health checks only.
        assert get_from("127.0.0.2", server, "/api/games").status_code == 503
        # Every one of the flood is closed: those past the backstop at once (503), the rest
        # when their second to finish a request's headers is up.
        ended = closed_by_server(socks, within=1 + WAIT)
        assert len(ended) == ATTACK, f"{ATTACK - len(ended)} sockets still open"
        refused = [data for data in ended.values() if data]
        assert refused and all(data.startswith(b"HTTP/1.1 503 ") for data in refused)
        timed_out = ATTACK - len(refused)
        assert timed_out >= FILES - FILE_RESERVE  # the backstop was reached and held
    finally:
        for sock in socks:
            sock.close()
    assert get_from("127.0.0.1", server, "/healthz").status_code == 200  # all free again


def test_a_request_begun_on_a_kept_connection_must_be_finished_in_time(
    tmp_path: Path, servers: list[ServerProc]
) -> None:
    """uvicorn stops its keep-alive timer at a request's first byte: the header deadline
    starts again there."""
    server = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'k.db'}", tmp_path,
                        extra=("--hello-timeout", "1"))  # fmt: skip
    servers.append(server.start())
    (sock,) = raw(server, 1)
    try:
        assert ask_health(sock) == b"HTTP/1.1 200 OK"
        sock.sendall(PARTIAL)
        assert sock in closed_by_server([sock], within=1 + WAIT)
    finally:
        sock.close()


def test_an_address_holds_only_its_share_of_connections(
    tmp_path: Path, servers: list[ServerProc]
) -> None:
    """``--sockets-per-address 3``: an address holds at most 6 connections of any kind; the
    7th is refused at once (429) while another address is served."""
    server = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}", tmp_path,
                        extra=("--sockets-per-address", "3"))  # fmt: skip
    servers.append(server.start())
    socks = raw(server, 10)
    try:
        answers = [ask_health(sock) for sock in socks]
        assert answers.count(b"HTTP/1.1 200 OK") == 6, answers
        assert answers.count(b"HTTP/1.1 429 Too Many Requests") == 4, answers
        assert get_from("127.0.0.2", server, "/healthz").status_code == 200
    finally:
        for sock in socks:
            sock.close()


def test_a_game_socket_is_a_connection_until_it_ends(
    tmp_path: Path, servers: list[ServerProc]
) -> None:
    """A WebSocket is counted from its first byte to its end, past the upgrade."""
    server = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}", tmp_path,
                        extra=("--sockets-per-address", "3"))  # fmt: skip
    servers.append(server.start())

    async def main() -> None:
        games = [await connect(server.ws) for _ in range(3)]
        for ws in games:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
        socks = raw(server, 4)
        try:
            answers = [await asyncio.to_thread(ask_health, sock) for sock in socks]
            assert answers == [b"HTTP/1.1 200 OK"] * 3 + [b"HTTP/1.1 429 Too Many Requests"]
            await games.pop().close()  # its connection is given back …
            again = raw(server, 1)  # … and taken by the next one
            socks += again
            assert await asyncio.to_thread(ask_health, again[0]) == b"HTTP/1.1 200 OK"
        finally:
            for sock in socks:
                sock.close()
            for ws in games:
                await ws.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_trusted_proxy_is_not_held_to_one_address_s_share(
    tmp_path: Path, servers: list[ServerProc]
) -> None:
    """Behind a proxy every connection comes from the proxy's address: it is not cut off."""
    server = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", tmp_path,
                        extra=("--sockets-per-address", "3",
                               "--forwarded-allow-ips", "127.0.0.0/8"))  # fmt: skip
    servers.append(server.start())
    socks = raw(server, 10)
    try:
        assert [ask_health(sock) for sock in socks] == [b"HTTP/1.1 200 OK"] * 10
    finally:
        for sock in socks:
            sock.close()


def test_the_gate_counts_connections_per_address_and_in_all() -> None:
    gate = ConnGate(per_address=3, total=4, reserve=2, trusted=Trusted.of(("10.0.0.0/8",)))
    assert [gate.admit("a") for _ in range(4)] == [Verdict.OPEN] * 3 + [
        Verdict.TOO_MANY_FROM_ADDRESS
    ]
    assert gate.admit("b") is Verdict.OPEN and gate.count == 4
    # Past the backstop: the reserve, for health checks, to an address holding little.
    assert gate.admit("a") is Verdict.TOO_MANY_FROM_ADDRESS
    assert gate.admit("b") is Verdict.HEALTH_ONLY
    assert gate.admit("b") is Verdict.FULL  # it holds two already
    assert gate.admit("c") is Verdict.HEALTH_ONLY
    assert gate.admit("d") is Verdict.FULL and gate.count == 6  # the reserve is taken
    gate.release("a")
    assert gate.admit("d") is Verdict.HEALTH_ONLY
    assert gate.held == {"a": 2, "b": 2, "c": 1, "d": 1} and gate.count == 6
    for address in ("c", "d", "a"):
        gate.release(address)
    assert gate.admit("e") is Verdict.OPEN and gate.count == 4
    # A trusted proxy is held to the backstop only.
    for address in ("a", "b", "b", "e"):
        gate.release(address)
    assert gate.held == {} and gate.count == 0
    assert [gate.admit("10.1.2.3") for _ in range(4)] == [Verdict.OPEN] * 4
    assert gate.admit("10.1.2.3") is Verdict.FULL
    assert gate.held == {"10.1.2.3": 4} and gate.count == 4


@pytest.mark.parametrize(
    ("allowed", "address", "trusted"),
    [
        ((), "127.0.0.1", False),
        (("127.0.0.1",), "127.0.0.1", True),
        (("127.0.0.1",), "127.0.0.2", False),
        (("10.0.0.0/24",), "10.0.0.9", True),
        (("10.0.0.0/24",), "10.0.1.9", False),
        (("2001:db8::/32",), "2001:db8::1", True),
        (("10.0.0.1",), "::ffff:10.0.0.1", True),  # as a dual-stack socket names it
        (("*",), "198.51.100.7", True),
        (("proxy.local",), "proxy.local", True),  # not an address: compared as written
    ],
)
def test_trusted_proxies_are_the_forwarded_allow_ips(
    allowed: tuple[str, ...], address: str, trusted: bool
) -> None:
    assert (address in Trusted.of(allowed)) is trusted
