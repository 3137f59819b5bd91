"""``X-Forwarded-For`` is believed only from the proxies the host names (issue 17 §2).

uvicorn on its own believed it from 127.0.0.1, so a client on the machine (or behind a
proxy on it that passes the header through) could claim a new address for every try and
never meet the per-address limits.  Real ``trumps serve`` processes on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.e2e import ServerProc
from trumps.server.run import proxy_options


@pytest.fixture
def start(tmp_path: Path) -> Iterator[list[ServerProc]]:
    procs: list[ServerProc] = []
    yield procs
    for proc in procs:
        proc.stop()


def tries(server: ServerProc, count: int) -> list[int]:
    """``count`` logins (each at another login, so no account limit is met), each claiming
    another address; their status codes."""
    codes = []
    for n in range(count):
        answer = httpx.post(
            server.http + "/api/login",
            json={"login": f"nobody{n}", "password": "not this one"},
            headers={"x-forwarded-for": f"203.0.113.{n + 1}"},
            timeout=30,
        )
        codes.append(answer.status_code)
    return codes


def test_forwarded_for_is_not_believed_by_default(tmp_path: Path, start: list[ServerProc]) -> None:
    server = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}", tmp_path)
    start.append(server.start())
    codes = tries(server, 15)  # all of them from 127.0.0.1: 10 a minute, then refused
    assert codes[:10] == [401] * 10 and 429 in codes[10:], codes


def test_forwarded_for_is_believed_from_a_named_proxy(
    tmp_path: Path, start: list[ServerProc]
) -> None:
    server = ServerProc(
        f"sqlite+aiosqlite:///{tmp_path / 'b.db'}",
        tmp_path,
        extra=("--forwarded-allow-ips", "127.0.0.1"),
    )
    start.append(server.start())
    codes = tries(server, 15)
    assert codes == [401] * 15, codes  # each from the address the proxy saw


def test_uvicorn_is_told_to_believe_only_the_named_proxies() -> None:
    assert proxy_options(()) == {"proxy_headers": False, "forwarded_allow_ips": ""}
    named = proxy_options(("10.0.0.2", "192.168.0.0/16"))
    assert named == {"proxy_headers": True, "forwarded_allow_ips": "10.0.0.2,192.168.0.0/16"}
