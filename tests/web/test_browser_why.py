"""A dimmed card says why it cannot be played now (issue 11, part 3): the reason is the
game's (``why_not`` in the seat's snapshot and events, docs/protocol.md), worded in the
player's language when the card is clicked or focused, and as its tooltip.  Same harness as
``test_browser.py``: a real ``trumps serve`` and Debian's Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, expect

from server.e2e import ServerProc
from web.kit import MINE_OR_OVER, SHOTS, Run, open_page, set_name, to_a_dimmed_card


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("fa", "fa-IR")])
def test_a_dimmed_card_says_why_in_the_players_language(
    server: ServerProc, lang: str, locale: str, run: Run
) -> None:
    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale=locale, still=True)
        await set_name(page, "Olena")
        await page.get_by_test_id("pc-game").select_option("kozyri")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        why = page.get_by_test_id("why-not")
        card_id = await to_a_dimmed_card(page)
        card = page.get_by_test_id(card_id)
        await expect(why).to_be_empty()
        event = await page.get_by_test_id("table").get_attribute("data-event")
        # A real mouse click: Playwright would wait for a card marked aria-disabled to be
        # enabled, but a person can click (or tap) it.
        await card.click(force=True)
        # K9: the card does not beat the top card; the sentence names both, and says what does.
        if lang == "en":
            await expect(why).to_contain_text("does not beat")
        else:
            await expect(why).to_contain_text("نمی‌زند")
        text = await why.inner_text()
        assert "not allowed" not in text and "K9" not in text
        title = await card.get_attribute("title") or ""
        assert text in title, (text, title)
        assert await card.get_attribute("aria-description") == text
        # Nothing was sent: still my turn, the same event.
        await expect(page.get_by_test_id("table")).to_have_attribute("data-event", event or "")
        await expect(page.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
        if lang == "fa":
            await page.screenshot(path=str(SHOTS / "why-not-fa.png"))
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


@pytest.mark.parametrize("key", ["Enter", "Space"])
def test_enter_or_space_on_a_dimmed_card_says_why(server: ServerProc, key: str, run: Run) -> None:
    """Issue 18 §1: a keyboard player pressing Enter or Space on a dimmed card hears why it
    cannot be played (the live region under the hand), and nothing is sent."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", still=True)
        await set_name(page, "Olena")
        await page.get_by_test_id("pc-game").select_option("kozyri")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        why = page.get_by_test_id("why-not")
        card = page.get_by_test_id(await to_a_dimmed_card(page))
        # (a click of the walk above may have landed on a card a re-render had just dimmed:
        # then its reason is still shown; focusing must add nothing to what is there)
        said = await why.text_content()
        # Focus put on the card from nowhere, as a re-render puts it back, says nothing.  (The
        # blur matters: focus moved from another card, as by the arrow keys, does explain, and
        # a re-render of the walk may have left the focus on another card of the hand.)
        await card.evaluate("(c) => { document.activeElement?.blur(); c.focus(); }")
        await expect(why).to_have_text(said or "")
        event = await page.get_by_test_id("table").get_attribute("data-event")
        await page.keyboard.press(key)
        # The game's reason for that card: it does not beat the top card (K9), or nothing
        # beats an ace of the mover's trumps (K11): the walk's card may be either.
        await expect(why).to_contain_text(re.compile(r"does not beat|you must take"))
        assert await why.get_attribute("aria-live") in ("polite", "assertive")
        assert await page.evaluate(
            "document.activeElement.dataset.testid"
        ) == await card.get_attribute("data-testid")
        await expect(page.get_by_test_id("table")).to_have_attribute("data-event", event or "")
        await expect(page.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
        await ctx.close()

    run(body)


def test_a_hint_in_persian_is_a_sentence_with_persian_digits(server: ServerProc, run: Run) -> None:
    """The hint is the bot's structured reason worded in the page's language (here the duel's
    solver: a forced win or loss in so many moves, or a search so many moves deep), with
    Persian digits, and none of the engine's log words."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale="fa-IR", still=True)
        await set_name(page, "Olena")
        await page.get_by_test_id("pc-game").select_option("kozyri")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        table = page.get_by_test_id("table")
        await expect(table).to_be_visible()
        legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")
        for _ in range(100):  # to a turn of mine with a real choice of cards
            await page.wait_for_function(MINE_OR_OVER)
            if await page.get_by_test_id("turn").get_attribute("data-mine") != "true":
                continue
            cards = page.locator("[data-testid='hand'] [data-legal='true']")
            if await cards.count() >= 2:
                break
            before = await table.get_attribute("data-event")
            await legal.first.click()
            await expect(table).not_to_have_attribute("data-event", before or "")
        else:
            raise AssertionError("no turn with a choice")
        await page.get_by_test_id("hint").click()
        hint = page.get_by_test_id("hint-text")
        await expect(hint).to_be_visible()
        text = await hint.inner_text()
        assert any("\u0600" <= ch <= "\u06ff" for ch in text), text
        assert not any(w in text for w in ("PIMC", "nodes", "depth", "solved", "Hint")), text
        assert not any("0" <= ch <= "9" for ch in text), f"Latin digits: {text}"
        await page.screenshot(path=str(SHOTS / "hint-fa.png"))
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)
