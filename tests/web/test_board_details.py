"""Details of the table a person follows (issue 11, leftovers), in Debian's Chromium: the
turn-up once robbed, the hand's corners on a phone (badges and raised cards), the card-size
setting, the trick hold that follows the table's pace, and the log after a resync.  Same
harness as ``test_browser.py``: a real ``trumps serve``, Playwright driving the page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from trumps.games import new_game
from web.test_browser import open_page, pytestmark, run, set_name

__all__ = ["pytestmark"]

# The server deals table k with seed ROB_SEED + k: at the first table of two players of
# Twenty-Five, the person (seat 0) holds the ace of trumps and may rob.  Checked below.
ROB_SEED = 2004
WS_URL = re.compile(r"/ws$")
MINE = "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
Msg = dict[str, Any]


@pytest.fixture
def rob_server(tmp_path: Path) -> Iterator[ServerProc]:
    proc = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'rob.db'}", tmp_path, seed=ROB_SEED)
    proc.start()
    yield proc
    proc.stop()


async def twentyfive(page: Page, players: int = 2) -> None:
    await page.get_by_test_id("pc-game").select_option("twentyfive")
    await page.get_by_test_id("pc-players").select_option(str(players))
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("table")).to_be_visible()


def test_a_robbed_turn_up_is_no_longer_drawn_on_the_table(rob_server: ServerProc) -> None:
    game = new_game("twentyfive", players=2, seed=ROB_SEED)
    turnup = game.view(0)["turnup"]
    robs = [a for a in game.legal_actions() if a.startswith("rob ")]
    assert game.current_player == 0 and robs

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, rob_server.http + "/", still=True)
        await set_name(page, "Aoife")
        await twentyfive(page)
        await page.wait_for_function(MINE)
        centre = page.locator(".centre.twentyfive")
        await expect(centre.locator(f".stock [data-card='{turnup}']")).to_be_visible()
        await page.get_by_test_id("action-" + robs[0].replace(" ", "-")).click()
        await expect(page.get_by_test_id("log")).to_contain_text("Aoife robbed the turn-up")
        # The card is in my hand now, and only there: the table keeps the trump suit and
        # says who robbed, with no turned-up card left by the stock.
        await expect(page.get_by_test_id(f"card-{turnup}")).to_be_visible()
        await expect(centre).to_contain_text("Aoife robbed the turn-up.")
        await expect(centre.locator(f"[data-card='{turnup}']")).to_have_count(0)
        await expect(centre.locator(".stock .turned")).to_have_count(0)
        await expect(centre).to_contain_text("Trumps:")
        await ctx.close()

    run(body)
