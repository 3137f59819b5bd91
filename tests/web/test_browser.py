"""The browser client in Debian's Chromium, driven by Playwright (issue 5 item 4).

A real ``trumps serve`` process (SQLite) serves the page; Playwright's async API drives
``/usr/bin/chromium`` (never a downloaded browser).  Screenshots of the lobby and of a table
in each language are saved under ``artifacts/screenshots/`` as test artifacts.
"""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from server.e2e import ServerProc
from trumps.games import new_game
from web.kit import KOZYRI_SEED, SHOTS, Run, open_page, play, set_name


def test_two_browsers_play_a_whole_duel_through_the_invite_link(
    server: ServerProc, run: Run
) -> None:
    """Two browser contexts create and join a table through the invite link and play a
    whole seeded 2-player Svoi Kozyri game by clicking cards, ending on the result screen."""

    async def body(browser: Browser) -> None:
        ctx_a, olena = await open_page(browser, server.http + "/#lobby")
        await set_name(olena, "Olena")
        form = olena.get_by_test_id("create-form")
        await form.get_by_test_id("create-game").select_option("kozyri")
        await form.get_by_test_id("create-seats").select_option("2")
        await form.get_by_test_id("seat-1").select_option("human")
        await form.get_by_test_id("create-private").check()
        await form.get_by_test_id("create-submit").click()
        link = olena.get_by_test_id("invite-link")
        await expect(link).to_be_visible()
        url = await link.get_attribute("href") or await link.input_value()
        assert url.startswith(server.http) and "?table=" in url

        ctx_b, taras = await open_page(browser, url, phone=True, name="Taras")
        pages = {0: olena, 1: taras}
        for page in pages.values():
            await expect(page.get_by_test_id("table")).to_be_visible()

        # The test plays the engine alongside: each move is the lowest legal card (or the
        # first other action), clicked in the browser of the seat to move.
        game = new_game("kozyri", players=2, seed=KOZYRI_SEED)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            legal = game.legal_actions()
            cards = [a for a in legal if len(a) == 2]
            action = cards[0] if cards else legal[0]
            page = pages[seat]
            await expect(page.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
            for card in cards:  # exactly the legal cards are playable
                await expect(page.get_by_test_id(f"card-{card}")).to_have_attribute(
                    "data-legal", "true"
                )
            shown = page.get_by_test_id("table")
            before = await shown.get_attribute("data-event")
            await play(page, action)
            game.play(action)
            await expect(shown).not_to_have_attribute("data-event", before or "")
        for page in pages.values():
            result = page.get_by_test_id("result")
            await expect(result).to_be_visible()
        await olena.screenshot(path=str(SHOTS / "duel-result-en.png"))
        await ctx_a.close()
        await ctx_b.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_one_player_against_three_bots_with_a_reload(server: ServerProc, run: Run) -> None:
    """One player plays a Twenty-Five game against three bots to the end; a reload
    mid-game restores the seat."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await set_name(page, "Aoife")
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-players").select_option("4")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        moves, reloaded = 0, False
        result, turn = page.get_by_test_id("result"), page.get_by_test_id("turn")
        legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")
        while True:
            await page.wait_for_function(
                "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
                " || !document.querySelector(\"[data-testid='result']\")?.hidden"
            )
            if await result.is_visible():
                break
            if await turn.get_attribute("data-mine") != "true":
                continue
            cards = page.get_by_test_id("hand").locator("[data-testid^='card-']")
            in_hand = await cards.count()
            before = await page.get_by_test_id("table").get_attribute("data-event")
            await legal.first.click()
            await expect(page.get_by_test_id("table")).not_to_have_attribute(
                "data-event", before or ""
            )
            moves += 1
            if moves == 3 and not reloaded:
                await page.reload()
                await expect(page.locator("html[data-ready='1']")).to_have_count(1)
                await expect(page.get_by_test_id("table")).to_be_visible()
                await expect(cards).not_to_have_count(0)  # the seat and its hand came back
                assert await cards.count() <= in_hand
                reloaded = True
        assert reloaded and moves >= 3
        await expect(result).not_to_be_empty()
        await page.screenshot(path=str(SHOTS / "twentyfive-result-en.png"))
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


@pytest.mark.parametrize(
    ("lang", "locale"), [("en", "en-GB"), ("fa", "fa-IR"), ("pt", "pt-BR"), ("fr", "fr-FR")]
)
def test_each_language_lobby_and_table(
    server: ServerProc, lang: str, locale: str, run: Run
) -> None:
    """Every language is chosen from the browser; Persian is right-to-left with translated
    strings and Persian digits; screenshots of the lobby and a table in each language."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale=locale, still=True)
        html = page.locator("html")
        await expect(html).to_have_attribute("lang", lang)
        await expect(html).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
        lobby = page.get_by_test_id("lobby")
        await expect(lobby).to_be_visible()
        text = await lobby.inner_text()
        if lang == "fa":
            assert any("\u0600" <= ch <= "\u06ff" for ch in text), text[:200]
        elif lang != "en":
            english = await english_lobby_text(browser, server)
            assert text != english
        await page.screenshot(path=str(SHOTS / f"lobby-{lang}.png"), full_page=True)
        await page.get_by_test_id("pc-game").select_option("kozyri")
        await page.get_by_test_id("play-computer").click()
        table = page.get_by_test_id("table")
        await expect(table).to_be_visible()
        trump = page.locator("[data-testid^='action-trump-']")
        await expect(trump.first).to_be_visible()  # Svoi Kozyri starts with the trump choice
        await trump.first.click()
        cards = page.get_by_test_id("hand").locator("[data-testid^='card-']")
        await expect(cards).not_to_have_count(0)
        if lang == "fa":
            shown = await table.inner_text()
            assert any("\u06f0" <= ch <= "\u06f9" for ch in shown), "Persian digits"
        await page.screenshot(path=str(SHOTS / f"table-{lang}.png"), full_page=True)
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


async def english_lobby_text(browser: Browser, server: ServerProc) -> str:
    ctx, page = await open_page(browser, server.http + "/#lobby", locale="en-GB")
    text = await page.get_by_test_id("lobby").inner_text()
    await ctx.close()
    return text


def test_keyboard_only_play_with_card_names_for_screen_readers(
    server: ServerProc, run: Run
) -> None:
    """Accessibility: every card has a spoken name, and a whole turn is played with the
    keyboard alone (Tab into the hand, arrows along it, Enter on a legal card)."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", still=True, name="Kim")
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-players").select_option("2")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").press("Enter")
        await expect(page.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
        cards = page.get_by_test_id("hand").locator("[data-testid^='card-']")
        for i in range(await cards.count()):
            code = (await cards.nth(i).get_attribute("data-testid") or "")[5:]
            label = await cards.nth(i).get_attribute("aria-label") or ""
            ranks = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}
            suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
            assert suits[code[1]] in label.lower(), (code, label)
            if code[0] in ranks:
                assert ranks[code[0]] in label.lower(), (code, label)
        first_legal = page.locator("[data-testid='hand'] [data-legal='true']").first
        await first_legal.focus()
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowLeft")  # back on the first legal card
        focused = await page.evaluate("document.activeElement.dataset.testid")
        assert focused == await first_legal.get_attribute("data-testid")
        before = await page.get_by_test_id("table").get_attribute("data-event")
        await page.keyboard.press("Enter")
        await expect(page.get_by_test_id("table")).not_to_have_attribute("data-event", before or "")
        log = page.get_by_test_id("log")
        await expect(log).to_contain_text("Kim")
        await ctx.close()

    run(body)
