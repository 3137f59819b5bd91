"""The HTTP side's safe defaults (issue "Hardening the service", parts 1 and 3): bodies
refused before they are read, JSON only where state changes, security headers on every
answer, paging bounds.  The app runs in this process; requests go through httpx's ASGI
transport, whose request bodies are generators the test can watch being read."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from server.appkit import client, running
from trumps.server.hubparts import HubOptions
from trumps.server.identity.accounts import MAX_BODY_BYTES
from trumps.server.transport.app import ServerSettings, create_app
from trumps.web import STATIC

SECRET = "http-safety-test-secret-0123456789"


def run(tmp_path: Path, body: Callable[[Starlette, httpx.AsyncClient], Awaitable[None]]) -> None:
    async def main() -> None:
        settings = ServerSettings(
            db=f"sqlite+aiosqlite:///{tmp_path / 'http.db'}", secret=SECRET,
            hub=HubOptions(bot_time=0.01), freeze_gc=False, static=STATIC,
        )  # fmt: skip
        app = create_app(settings)
        async with running(app), client(app) as http:
            await asyncio.wait_for(body(app, http), 60)

    asyncio.run(main())


class Watched:
    """A request body of ``chunks`` chunks of 64 KiB; ``read`` counts those taken."""

    def __init__(self, chunks: int) -> None:
        self.chunks, self.read = chunks, 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for _ in range(self.chunks):
            self.read += 1
            yield b"x" * 65536


@pytest.mark.parametrize("path", ["/api/login", "/api/accounts"])
def test_a_body_announced_too_large_is_refused_unread(tmp_path: Path, path: str) -> None:
    """A 96 MiB POST was read whole (server +190 MB) before the 4 KiB check."""

    async def body(_app: Starlette, http: httpx.AsyncClient) -> None:
        big = Watched(1536)
        answer = await http.post(path, content=big.__aiter__(), headers={
            "content-type": "application/json", "content-length": str(1536 * 65536)})  # fmt: skip
        assert answer.status_code == 413 and answer.json()["error"] == "too_large"
        assert big.read <= 1

    run(tmp_path, body)


def test_a_streamed_body_is_read_no_further_than_the_limit(tmp_path: Path) -> None:
    async def body(_app: Starlette, http: httpx.AsyncClient) -> None:
        big = Watched(1536)  # no Content-Length: chunked
        answer = await http.post("/api/login", content=big.__aiter__(),
                                 headers={"content-type": "application/json"})  # fmt: skip
        assert answer.status_code == 413 and answer.json()["error"] == "too_large"
        assert big.read * 65536 <= MAX_BODY_BYTES + 65536

    run(tmp_path, body)


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", None])
def test_state_changing_endpoints_take_json_only(tmp_path: Path, kind: str | None) -> None:
    """A cross-site ``text/plain`` form could create accounts."""

    async def body(_app: Starlette, http: httpx.AsyncClient) -> None:
        headers = {} if kind is None else {"content-type": kind}
        raw = b'{"login": "mallory", "password": "correct horse battery"}'
        answer = await http.post("/api/accounts", content=raw, headers=headers)
        assert answer.status_code == 415 and answer.json()["error"] == "bad_content_type"
        made = await http.post("/api/login", content=raw, headers=headers)
        assert made.status_code == 415

    run(tmp_path, body)


@pytest.mark.parametrize(
    "path", ["/", "/api/catalog", "/healthz", "/api/games", "/no/such/page", "/i18n/fa.json"]
)
def test_every_answer_carries_the_security_headers(tmp_path: Path, path: str) -> None:
    async def body(_app: Starlette, http: httpx.AsyncClient) -> None:
        h = (await http.get(path)).headers
        csp = h["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "'unsafe-inline'" not in csp.split("script-src")[-1].split(";")[0]
        assert h["x-frame-options"] == "DENY"
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "no-referrer"

    run(tmp_path, body)


def test_the_page_s_files_and_refusals_carry_the_security_headers_too(tmp_path: Path) -> None:
    """A script under the fingerprinted prefix, a 413 and a 415 answer: the same headers."""

    async def body(_app: Starlette, http: httpx.AsyncClient) -> None:
        page = (await http.get("/")).text
        script = re.search(r'src="(/static/[^"]+\.js)"', page)
        assert script is not None, page[:500]
        big = {"content-type": "application/json", "content-length": "100000"}
        answers = [
            await http.get(script.group(1)),
            await http.post("/api/login", content=b"{}", headers=big),
            await http.post("/api/login", content=b"{}", headers={"content-type": "text/plain"}),
        ]
        assert [a.status_code for a in answers] == [200, 413, 415]
        for a in answers:
            assert "frame-ancestors 'none'" in a.headers["content-security-policy"]
            assert a.headers["x-content-type-options"] == "nosniff"
            assert a.headers["x-frame-options"] == "DENY"

    run(tmp_path, body)


@pytest.mark.parametrize(
    "query",
    [
        "games?offset=100000000000000000000000",
        "games?limit=-1",
        "games?offset=x",
        "tables?offset=-1",
        "tables?limit=100000",
        "tables?offset=x",
    ],
)
def test_paging_out_of_bounds_is_a_clear_400(tmp_path: Path, query: str) -> None:
    """``offset=10^23`` answered 500; the public tables are paged like the games."""

    async def body(_app: Starlette, http: httpx.AsyncClient) -> None:
        answer = await http.get("/api/" + query)
        assert answer.status_code == 400 and answer.json()["error"] == "bad_field"

    run(tmp_path, body)
