"""The first screen (issue 27, part 3), in Chromium against a real ``trumps serve``: a first
visit shows the two games as large choices and reaches a table against the computer in at
most two taps, with the level in plain words; "Play a friend" makes a private table and its
invite link in one step, and the link asks a visitor's name once, then seats them; the
page's address names the table, so a reload or Back and Forward open what it names."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from web.a11y import axe, severe
from web.kit import SHOTS, Run, open_page

# The document never wider than the window (nothing scrolls sideways on a phone).
NO_SIDEWAYS_JS = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


def sent(page: Page) -> list[dict[str, Any]]:
    """The messages the page sends on its WebSocket, as they go."""
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(json.loads(f))))
    return frames


async def my_table_id(page: Page) -> str:
    await expect(page.get_by_test_id("table")).to_be_visible()
    await expect(page.get_by_test_id("turn")).to_be_visible()
    table_id = await page.evaluate("() => new URLSearchParams(location.search).get('table')")
    assert table_id, page.url
    return str(table_id)


def test_a_first_visit_plays_the_computer_in_one_tap_and_the_level_in_words(
    server: ServerProc, run: Run
) -> None:
    """The first screen is the two games (nothing of the lobby's form); one tap on a game
    starts it against the computer; a level chosen first is the second tap, is sent, and is
    kept for the next visit."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/", pace="instant")
        frames = sent(page)
        await page.reload()
        await expect(page.get_by_test_id("home-screen")).to_be_visible()
        await expect(page.get_by_test_id("lobby")).to_be_hidden()
        assert await page.get_by_test_id("home-play-kozyri").is_visible()
        assert await page.get_by_test_id("home-play-twentyfive").is_visible()
        levels = page.locator("[data-testid^='home-level-']")
        assert await levels.all_inner_texts() == ["beginner", "easy", "medium", "hard", "expert"]
        await expect(page.get_by_test_id("home-level-medium")).to_have_attribute(
            "aria-checked", "true"
        )

        await page.get_by_test_id("home-level-expert").click()  # tap 1
        await page.get_by_test_id("home-play-twentyfive").click()  # tap 2
        await my_table_id(page)
        asked = [f for f in frames if f.get("type") == "play_computer"]
        assert [(f["game"], f["players"], f["level"]) for f in asked] == [
            ("twentyfive", 4, "expert")
        ]
        names = page.locator("#table .opponents .seat-name")
        await expect(names).to_have_count(3)

        # Back: the first screen again, the level kept; one tap starts Svoi Kozyri.
        await page.go_back()
        await expect(page.get_by_test_id("home-screen")).to_be_visible()
        await expect(page.get_by_test_id("home-level-expert")).to_have_attribute(
            "aria-checked", "true"
        )
        await page.get_by_test_id("home-play-kozyri").click()
        await my_table_id(page)
        asked = [f for f in frames if f.get("type") == "play_computer"]
        assert (asked[-1]["game"], asked[-1]["players"], asked[-1]["level"]) == (
            "kozyri",
            2,
            "expert",
        )

    run(body)


def test_the_address_names_the_table_and_a_reload_opens_it(server: ServerProc, run: Run) -> None:
    """The table's address is /?table=ID; a reload there shows that table (my seat, my hand)
    rather than the first screen, and the lobby has an address of its own."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/", name="Ana")
        await page.get_by_test_id("home-play-twentyfive").click()
        table_id = await my_table_id(page)
        cards = page.locator("[data-testid='hand'] [data-testid^='card-']")
        await expect(cards).to_have_count(5)
        await page.reload()
        await expect(page.locator("html[data-ready='1']")).to_have_count(1)
        assert await my_table_id(page) == table_id
        await expect(cards).to_have_count(5)
        await expect(page.get_by_test_id("home-screen")).to_be_hidden()

        await page.locator("nav [data-show='lobby']").click()
        await expect(page.get_by_test_id("lobby")).to_be_visible()
        assert page.url.endswith("/#lobby"), page.url
        await page.reload()
        await expect(page.get_by_test_id("lobby")).to_be_visible()
        await page.go_back()
        await expect(page.get_by_test_id("table")).to_be_visible()
        assert f"?table={table_id}" in page.url

    run(body)


def test_play_a_friend_makes_the_invite_and_the_link_asks_the_name_once(
    server: ServerProc, run: Run
) -> None:
    """One tap makes a private table with its invite link in view; a visitor who never chose
    a name is asked once, is seated under that name, and a second link is not asked again."""

    async def body(browser: Browser) -> None:
        _, ana = await open_page(browser, server.http + "/", name="Ana")
        await ana.get_by_test_id("home-friend-kozyri").click()
        link = ana.get_by_test_id("invite-link")
        await expect(link).to_be_visible()
        url = await link.input_value()
        assert "?table=" in url, url

        ctx, noor = await open_page(browser, url, phone=True)
        dialog = noor.get_by_test_id("invite-dialog")
        await expect(dialog).to_be_visible()
        found = severe(await axe(noor))
        assert not found, [(v.rule, v.impact, v.help, v.targets) for v in found]
        await noor.get_by_test_id("invite-name").fill("Noor")
        await noor.get_by_test_id("invite-join").click()
        await expect(dialog).to_be_hidden()
        await expect(noor.get_by_test_id("turn")).to_be_visible()
        await expect(ana.locator("#table .opponents .seat-name")).to_have_text(["Noor"])
        await expect(noor.locator("#table .opponents .seat-name")).to_have_text(["Ana"])
        assert await noor.evaluate(NO_SIDEWAYS_JS)

        # The name is asked once: the next link seats the visitor at once.
        ana.once("dialog", lambda d: asyncio.ensure_future(d.accept()))  # "a bot plays your seat"
        await ana.get_by_test_id("leave").click()
        await expect(ana.get_by_test_id("home-screen")).to_be_visible()  # back where she came from
        await ana.get_by_test_id("home-friend-twentyfive").click()
        again = ana.get_by_test_id("invite-link")
        await expect(again).not_to_have_value(url)
        second = await again.input_value()
        await noor.goto(second)
        await expect(noor.locator("[data-testid='hand'] [data-testid^='card-']")).to_have_count(5)
        await expect(noor.get_by_test_id("invite-dialog")).to_have_count(0)
        await ctx.close()

    run(body)


def test_the_first_screen_fits_a_phone_and_a_desktop_in_english_and_persian(
    server: ServerProc, run: Run
) -> None:
    """Both games, the levels and the way to the lobby, inside the width at each size; the
    screenshots are the README's and docs/hosting.md's."""

    async def body(browser: Browser) -> None:
        for locale, phone, shot in (
            ("en-GB", False, "home-en.png"),
            ("en-GB", True, "home-phone-en.png"),
            ("fa-IR", True, "home-phone-fa.png"),
        ):
            ctx, page = await open_page(
                browser, server.http + "/", locale=locale, phone=phone, still=True
            )
            await expect(page.get_by_test_id("home-screen")).to_be_visible()
            assert await page.evaluate(NO_SIDEWAYS_JS), locale
            for testid in ("home-play-kozyri", "home-play-twentyfive", "home-level-random"):
                box = await page.get_by_test_id(testid).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= (390 if phone else 1280)
            if locale == "fa-IR":
                await expect(page.get_by_test_id("home-play-kozyri")).to_contain_text("سوی کوزیری")
            await page.screenshot(path=str(SHOTS / shot))
            await ctx.close()

    run(body)
