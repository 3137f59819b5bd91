"""How to play (issue 11, part 3): each game's rules in the page, in the player's language,
from the lobby and from the table (on that table's game); and the first-game walkthrough,
shown once and gone for good when dismissed (localStorage).  Same harness as
``test_browser.py``: a real ``trumps serve`` and Debian's Chromium."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from server.e2e import ServerProc
from web.kit import SHOTS, Run, open_page, set_name


def test_how_to_play_from_the_lobby_and_the_table_in_persian(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale="fa-IR", still=True)
        await set_name(page, "Olena")
        # From the lobby: Svoi Kozyri's rules, in Persian, with their rule ids.
        await page.get_by_test_id("help-open").click()
        help_box = page.get_by_test_id("help")
        await expect(help_box).to_be_visible()
        rules = page.get_by_test_id("rules-kozyri")
        await expect(rules.locator("li")).to_have_count(7)
        text = await rules.inner_text()
        # Persian words; rule ids stay the rules' own Latin identifiers (K9), never "K۹".
        assert "حکم" in text and "K9" in text and "K۹" not in text and "beats" not in text, text
        await page.get_by_test_id("help-tab-twentyfive").click()
        await expect(page.get_by_test_id("rules-twentyfive")).to_contain_text("آس دل")
        await page.screenshot(path=str(SHOTS / "help-fa.png"))
        await page.get_by_test_id("help-close").click()
        await expect(help_box).to_be_hidden()
        # At a Twenty-Five table: the walkthrough, and How to play opens on this game.
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        walk = page.get_by_test_id("walkthrough")
        await expect(walk).to_be_visible()
        await expect(walk.locator("li")).to_have_count(4)
        await page.get_by_test_id("help-open").click()
        await expect(page.get_by_test_id("rules-twentyfive")).to_be_visible()
        await page.get_by_test_id("help-close").click()
        await page.get_by_test_id("walkthrough-done").click()
        await expect(walk).to_have_count(0)
        # Remembered: not shown again after a reload.
        await page.reload()
        await expect(page.locator("html[data-ready='1']")).to_have_count(1)
        await expect(page.get_by_test_id("table")).to_be_visible()
        await expect(
            page.get_by_test_id("hand").locator("[data-testid^='card-']")
        ).not_to_have_count(0)
        await expect(page.get_by_test_id("walkthrough")).to_have_count(0)
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)
