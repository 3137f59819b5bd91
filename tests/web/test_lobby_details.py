"""Lobby details players noticed (issue "A table people can follow", part 4), in Chromium."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from server.e2e import ServerProc
from web.test_browser import open_page, pytestmark, run, server, set_name

__all__ = ["pytestmark", "server"]


def test_a_game_against_the_computer_is_offered_to_watch_not_to_join(server: ServerProc) -> None:
    """Ana plays the computer; in Rui's lobby her table has a Watch button and no Join
    button that could never work (it had a dead Join)."""

    async def body(browser: Browser) -> None:
        _, ana = await open_page(browser, server.http + "/", name="Ana")
        await ana.get_by_test_id("play-computer").click()
        await expect(ana.get_by_test_id("table")).to_be_visible()
        _, rui = await open_page(browser, server.http + "/", name="Rui")
        row = rui.locator(".table-list li", has_text="Ana")
        await expect(row).to_have_count(1)
        await expect(row.get_by_role("button", name="Watch")).to_be_visible()
        await expect(row.get_by_role("button", name="Join")).to_have_count(0)

    run(body)


def test_a_first_visit_in_persian_gets_a_persian_guest_name(server: ServerProc) -> None:
    """Without a saved name the page says who you are in your language ("Guest" stayed
    English in Persian)."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/", locale="fa-IR")
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
        await expect(page.get_by_test_id("name-input")).to_have_value("مهمان")
        await set_name(page, "Sara")
        await expect(page.get_by_test_id("name-input")).to_have_value("Sara")

    run(body)
