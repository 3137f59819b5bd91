"""Take-backs on the page (docs/protocol.md#takeback): against the computer the button
undoes my last move at once; between people it asks, and the other player allows or
refuses from a layer on the table, in their own language."""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from web.a11y import axe, severe
from web.kit import MINE, SHOTS, Run, open_page

LEGAL = "#table [data-testid='hand'] [data-legal='true']"


async def hand(page: Page) -> list[str]:
    cards = page.locator("#table [data-testid='hand'] button.hcard")
    return [await c.get_attribute("data-card") or "" for c in await cards.all()]


async def play_first(page: Page) -> str:
    """Play my first playable card (or, with none, my first action: a Svoi Kozyri trump
    choice): the card's code, or "" for an action (the table's event changes)."""
    card = page.locator(f"{LEGAL}, #table [data-testid^='action-']:not([disabled])").first
    code = await card.get_attribute("data-card") or ""
    before = await page.get_by_test_id("table").get_attribute("data-event")
    await card.click()
    await expect(page.get_by_test_id("table")).not_to_have_attribute("data-event", before or "")
    return code


async def whose_turn(*pages: Page) -> Page:
    """The page whose player is to move (the first to say so)."""
    waits = {asyncio.ensure_future(p.wait_for_function(MINE)): p for p in pages}
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return waits[next(iter(done))]


def test_against_the_computer_take_back_puts_my_card_back_at_once(
    server: ServerProc, run: Run
) -> None:
    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana")
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        await page.wait_for_function(MINE)
        button = page.get_by_test_id("takeback")
        await expect(button).to_be_hidden()  # no move of mine yet
        held = await hand(page)
        card = await play_first(page)
        await page.wait_for_function(MINE)  # the computer replied
        await expect(button).to_have_text("Take back")
        await page.screenshot(path=str(SHOTS / "takeback-computer.png"))
        await button.click()
        await expect(
            page.locator(f"#table [data-testid='hand'] [data-card='{card}']")
        ).to_have_count(1)
        assert sorted(await hand(page)) == sorted(held)
        log = page.get_by_test_id("log").locator("li").last
        await expect(log).to_contain_text(re.compile(r"Ana took back a move: \S+"))
        await expect(button).to_be_hidden()  # that was my only move
        await page.wait_for_function(MINE)

    run(body)


def test_between_people_the_other_player_allows_or_refuses(server: ServerProc, run: Run) -> None:
    """Noor (Persian, on a phone) and Ana (English) play a duel; the one who moved asks,
    the other refuses, then allows: the card goes back to its player's hand. The question
    and the note while it waits pass axe in both languages."""

    async def body(browser: Browser) -> None:
        _, noor = await open_page(
            browser, server.http + "/", locale="fa-IR", name="Noor", phone=True
        )
        await noor.get_by_test_id("home-friend-kozyri").click()
        link = noor.get_by_test_id("invite-link")
        await expect(link).to_have_value(re.compile(r"\?table="))
        _, ana = await open_page(browser, await link.input_value(), name="Ana")
        await expect(ana.get_by_test_id("turn")).to_be_visible()
        card = ""
        while not card:  # the trumps are chosen first
            mover = await whose_turn(ana, noor)
            card = await play_first(mover)
        other = noor if mover is ana else ana
        ask = mover.get_by_test_id("takeback")
        await expect(ask).to_be_visible()
        await ask.click()
        await expect(mover.get_by_test_id("takeback-wait")).to_be_visible()
        await expect(ask).to_be_hidden()  # one request at a time
        layer = other.get_by_test_id("takeback-layer")
        await expect(layer.get_by_test_id("takeback-accept")).to_be_visible()
        await expect(layer).to_be_in_viewport()
        for page in (mover, other):
            lang = "fa" if page is noor else "en"
            await page.screenshot(
                path=str(SHOTS / f"takeback-{'asker' if page is mover else 'asked'}-{lang}.png")
            )
            assert severe(await axe(page)) == [], lang
        words = "آخرین حرکتش را پس بگیرد" if other is noor else "asks to take back their last move"
        await expect(layer).to_contain_text(words)
        # Refused: both are told, the move stands.
        await layer.get_by_test_id("takeback-refuse").click()
        await expect(layer).to_be_hidden()
        await expect(mover.get_by_test_id("takeback-wait")).to_have_count(0)
        refused = "refused the take-back" if mover is ana else "پس گرفتن حرکت را نپذیرفت"
        await expect(mover.get_by_test_id("log").locator("li").last).to_contain_text(refused)
        await expect(
            mover.locator(f"#table [data-testid='hand'] [data-card='{card}']")
        ).to_have_count(0)
        # Asked again, allowed: the card is back in its player's hand.
        await ask.click()
        await layer.get_by_test_id("takeback-accept").click()
        await expect(
            mover.locator(f"#table [data-testid='hand'] [data-card='{card}']")
        ).to_have_count(1)
        await expect(layer).to_be_hidden()
        await mover.wait_for_function(MINE)
        took = "took back a move" if other is ana else "یک حرکت را پس گرفت"
        await expect(other.get_by_test_id("log").locator("li").last).to_contain_text(took)

    run(body)
