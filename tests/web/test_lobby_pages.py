"""The lobby's table list comes in pages (issue 17 §1: the list pushed to everyone stays
bounded): a person sees which tables of how many, and Next and Previous move between pages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect
from websockets.asyncio.client import connect

from server.e2e import ServerProc
from trumps.server.matchmaking.lobby import LOBBY_PAGE
from web.kit import Run, open_page

MAKERS, EACH = 6, 9  # 54 public tables: more than a page, each maker under its own cap


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProc]:
    proc = ServerProc(
        f"sqlite+aiosqlite:///{tmp_path / 'web.db'}",
        tmp_path,
        extra=("--creations-per-address", "100", "--tables-per-address", "100"),
    )
    proc.start()
    yield proc
    proc.stop()


async def make_tables(server: ServerProc) -> list:  # type: ignore[type-arg]
    sockets = []
    for k in range(MAKERS):
        ws = await connect(server.ws)
        sockets.append(ws)
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": f"Maker{k}"}))
        for _ in range(EACH):
            await ws.send(json.dumps({"type": "create_table", "game": "kozyri",
                                      "seats": ["human", "human"]}))  # fmt: skip
        made = 0
        while made < EACH:
            msg = json.loads(await ws.recv())
            assert msg["type"] != "error", msg
            made += msg["type"] == "table_state"
    return sockets


def test_the_lobby_shows_its_tables_a_page_at_a_time(server: ServerProc, run: Run) -> None:
    total = MAKERS * EACH
    assert total > LOBBY_PAGE

    async def body(browser: Browser) -> None:
        makers = await make_tables(server)  # kept open: their tables stay listed
        try:
            _, page = await open_page(browser, server.http + "/#lobby", name="Reader")
            pager = page.get_by_test_id("lobby-pager")
            rows = page.locator(".table-list li")
            await expect(pager).to_contain_text(f"Tables 1–{LOBBY_PAGE} of {total}")
            await expect(rows).to_have_count(LOBBY_PAGE)
            previous = pager.get_by_role("button", name="Previous")
            await expect(previous).to_be_disabled()
            await pager.get_by_role("button", name="Next").click()
            await expect(pager).to_contain_text(f"Tables {LOBBY_PAGE + 1}–{total} of {total}")
            await expect(rows).to_have_count(total - LOBBY_PAGE)
            await expect(pager.get_by_role("button", name="Next")).to_be_disabled()
            await previous.click()
            await expect(rows).to_have_count(LOBBY_PAGE)
        finally:
            for ws in makers:
                await ws.close()

    run(body)
