"""Comforts players ask for (issue 27, part 4), in Chromium against a real ``trumps serve``:
the hand sorted by suit (your trumps at one end) or by rank, kept; and, when asked for (off
by default), the only card you may play played by itself."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from web.kit import Run, open_page, setting

RANKS = "AKQJT98765432"
HAND = "() => [...document.querySelectorAll(\"#table [data-testid='hand'] button.hcard\")].map((b) => b.dataset.card)"
MINE_OR_OVER = (
    "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
    " || !document.querySelector(\"[data-testid='result']\")?.hidden"
)


async def twentyfive_duel(page: Page) -> None:
    await page.get_by_test_id("pc-game").select_option("twentyfive")
    await page.get_by_test_id("pc-players").select_option("2")
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await page.wait_for_function(MINE_OR_OVER)


def high_first(card: str) -> int:
    return -1 if card == "JK" else RANKS.index(card[0])


def test_the_hand_is_sorted_by_suit_or_by_rank_and_the_choice_is_kept(
    server: ServerProc, run: Run
) -> None:
    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Aoife")
        await twentyfive_duel(page)
        hand = await page.evaluate(HAND)
        assert len(hand) == 5, hand
        suits = [c[1] for c in hand if c != "JK"]
        # by suit: each suit's cards together
        assert all(
            s not in suits[i + 1 :] or suits[i + 1] == s for i, s in enumerate(suits[:-1])
        ), hand
        await setting(page, "hand-order", "rank")
        await expect(page.locator("#table [data-testid='hand'] button.hcard")).to_have_count(5)
        by_rank = await page.evaluate(HAND)
        assert sorted(by_rank) == sorted(hand)
        assert [high_first(c) for c in by_rank] == sorted(high_first(c) for c in by_rank), by_rank
        await page.reload()
        await page.wait_for_function(MINE_OR_OVER)
        assert await page.evaluate(HAND) == by_rank
        await expect(page.get_by_test_id("hand-order")).to_have_value("rank")

    run(body)


def test_a_lone_playable_card_goes_by_itself_when_asked_for(server: ServerProc, run: Run) -> None:
    """Off at first; on, the last trick's single card (and any other lone card) is played
    without a click, and only then."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Aoife")
        await page.get_by_test_id("settings").click()
        await expect(page.get_by_test_id("auto-play")).not_to_be_checked()  # off at first
        await page.get_by_test_id("settings").click()
        await setting(page, "auto-play", True)
        await twentyfive_duel(page)
        result = page.get_by_test_id("result")
        legal = page.locator("#table [data-testid='hand'] button.hcard[data-legal='true']")
        words = page.locator("[data-testid^='action-']:enabled")
        lone = 0
        for _ in range(60):
            await page.wait_for_function(MINE_OR_OVER)
            if await result.is_visible() or lone >= 2:
                break
            cards = await legal.count()
            if cards == 1 and await words.count() == 0:
                card = await legal.first.get_attribute("data-card")
                # not clicked: it leaves the hand by itself
                await expect(
                    page.locator(f"#table [data-testid='hand'] [data-card='{card}']")
                ).to_have_count(0)
                lone += 1
            elif cards:
                await legal.first.click()
            else:
                await words.first.click()
        assert lone >= 1, "no lone card was played by itself"

    run(body)


def test_a_quick_phrase_reads_in_each_player_s_language(server: ServerProc, run: Run) -> None:
    """A tap says "Good game!" — sent as its code ("gg") and shown to a Persian player in
    Persian; a line typed by hand is shown as written."""

    async def body(browser: Browser) -> None:
        _, ana = await open_page(browser, server.http + "/", name="Ana")
        await ana.get_by_test_id("home-friend-kozyri").click()
        link = ana.get_by_test_id("invite-link")
        await expect(link).to_have_value(re.compile(r"\?table="))
        invite = await link.input_value()
        _, noor = await open_page(browser, invite, locale="fa-IR", name="Noor")
        await expect(noor.get_by_test_id("turn")).to_be_visible()
        for page in (ana, noor):
            await page.locator(".chat-box summary").click()
        await ana.get_by_test_id("phrase-gg").click()
        await expect(ana.locator("ul.chat li").last).to_have_text("Ana: Good game!")
        await expect(noor.locator("ul.chat li .phrase").last).to_have_text("بازی خوبی بود!")
        await noor.locator("#chat-input").fill("gg, Ana jan")
        await noor.locator("#chat-input").press("Enter")
        await expect(ana.locator("ul.chat li").last).to_have_text("Noor: gg, Ana jan")

    run(body)
