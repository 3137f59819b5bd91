"""The table for keyboard, screen-reader and low-vision players (issue 18): what the live
region says through a game, where the focus is after every key, the headings, the colours
as computed in every language and theme, the compact table at 200 % zoom, the list of keys.
"""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from web.a11y import EVENT, LOCALES, vs_bots
from web.kit import MINE_OR_OVER, Run, open_page, set_name, setting

SEED = 2026  # each test's first table is dealt from here (conftest.py)

# The announcements as they arrive: each <p> added to the live region, with its event.
LISTEN = """() => {
  window.__said = [];
  const region = document.querySelector("[data-testid='announce']");
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType === 1) window.__said.push({ event: n.dataset.event, text: n.textContent });
    }
  }).observe(region, { childList: true });
}"""

FOCUS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "body";
  return (a.closest("#table") ? "table " : "elsewhere ") + (a.dataset.testid || a.tagName);
}"""
LOGGED = """() => [...document.querySelectorAll("[data-testid='log'] li[data-event]")].map((li) =>
  ({ event: li.dataset.event, closed: li.classList.contains("closed"), text: li.textContent }))"""


async def hand_over(page: Page) -> bool:
    logged = await page.evaluate(LOGGED)
    return any("Hand 1 is over" in x["text"] for x in logged)


async def press_and_wait(page: Page, key: str) -> None:
    """Press ``key`` (a number key plays the n-th action) and wait for the table to move on."""
    before = await page.evaluate(EVENT)
    if key.isascii():
        await page.keyboard.press(key)
    else:  # a Persian keyboard's digit (Playwright's keyboard has only the US layout)
        await page.evaluate(
            """(key) => (document.activeElement ?? document.body).dispatchEvent(
                 new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }))""",
            key,
        )
    await page.wait_for_function(
        f"() => ({EVENT})() !== {before!r}"
        " || !document.querySelector(\"[data-testid='result']\").hidden"
    )
    await page.wait_for_function(MINE_OR_OVER)


def test_one_announcement_per_event_with_trick_winners(server: ServerProc, run: Run) -> None:
    """A hand of Twenty-Five against three bots, read from the live region: every event
    after the table opened is announced exactly once, cards as words, each trick's winner
    and the end of the hand included, and "Your turn" once per turn of mine; the brief
    setting (remembered) says only "Your turn." for it."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await page.evaluate(LISTEN)
        await vs_bots(page, "twentyfive", "4")
        seen = {int(x["event"]) for x in await page.evaluate(LOGGED)}
        opened = max(seen, default=0)
        moves = 0
        while not await hand_over(page):
            assert moves < 40
            await press_and_wait(page, "1")
            moves += 1
        said: list[dict[str, str]] = await page.evaluate("() => window.__said")
        logged = await page.evaluate(LOGGED)
        events = [x["event"] for x in said]
        assert len(events) == len(set(events)), said  # one announcement per event
        fresh = sorted({int(x["event"]) for x in logged if int(x["event"]) > opened})
        numbered = sorted(int(e) for e in events if e.isdigit() and int(e) > opened)
        assert numbered == fresh, (said, logged)
        texts = [x["text"] for x in said]
        won = [x for x in logged if x["closed"] and "won the trick" in x["text"]]
        assert len(won) >= 5  # a whole hand: five tricks
        assert sum("won the trick" in s for s in texts) == len(won), texts
        assert any("Hand 1 is over" in s for s in texts), texts
        assert any("Scores:" in s for s in texts), texts  # full: the scores after a trick
        assert not any(re.search("[♠♥♦♣]", s) for s in texts), texts  # cards as words
        assert any(re.search(r"(played|discarding) (the )?\w+ of \w+", s) for s in texts), texts
        mine = await page.get_by_test_id("turn").get_attribute("data-mine") == "true"
        turns = sum(s.count("Your turn") for s in texts)
        assert turns == moves + (1 if mine else 0), (turns, moves, texts)
        assert all(s.count("Your turn") <= 1 for s in texts)

        await setting(page, "verbosity", "brief")
        assert await page.evaluate("() => localStorage.getItem('trumps.verbosity')") == "brief"
        count = len(said)
        while True:
            await press_and_wait(page, "1")
            said = await page.evaluate("() => window.__said")
            if any("Your turn" in x["text"] for x in said[count:]):
                break
        last = [x["text"] for x in said[count:] if "Your turn" in x["text"]][-1]
        assert last.endswith("Your turn.") and "You can play" not in last, last
        await ctx.close()

    run(body)


@pytest.mark.parametrize(("game", "players"), [("kozyri", ""), ("twentyfive", "4")])
def test_keyboard_only_a_whole_hand_keeps_the_focus_in_the_table(
    server: ServerProc, game: str, players: str, run: Run
) -> None:
    """A whole hand by keyboard alone (the number keys, Latin and Persian in turn, against
    random bots at instant pace): on entering the table, after the trump choice, after each move and at the next
    deal the focus is in the table, never on the page's body."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await vs_bots(page, game, players, keyboard=True)
        where = await page.evaluate(FOCUS)
        assert where.startswith("table card-") or where.startswith("table action-"), where
        keys = 0
        result = page.get_by_test_id("result")
        while not await result.is_visible():
            if game == "twentyfive" and await hand_over(page):
                break
            assert keys < 200
            await press_and_wait(page, "1" if keys % 2 else "۱")  # Persian digits too
            keys += 1
            where = await page.evaluate(FOCUS)
            assert where.startswith("table "), (keys, where)
        assert keys >= 5
        if game == "twentyfive":  # the next deal: the focus is on a card of the new hand
            await page.wait_for_function(MINE_OR_OVER)
            assert (await page.evaluate(FOCUS)).startswith("table card-")
        await ctx.close()

    run(body)


def test_the_log_is_reachable_and_the_table_opens_at_its_top(server: ServerProc, run: Run) -> None:
    """On a phone the game log is a panel over the table, opened by "Log and chat" (which
    says whether it is open); there it scrolls: it is in the tab order, with a name. The
    table opens at its top even when the lobby was scrolled down."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", phone=True)
        await set_name(page, "Olena")
        await page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        await page.wait_for_function("() => window.scrollY > 100")
        await vs_bots(page, "kozyri")
        top = await page.evaluate(
            "() => document.querySelector('#table h2').getBoundingClientRect().top"
        )
        assert 0 <= top < 740 / 2, top  # the table's title in the upper half of the window
        log = page.get_by_test_id("log")
        toggle = page.get_by_test_id("side-toggle")
        await expect(log).to_be_hidden()  # the table has the phone's whole window
        await expect(toggle).to_have_attribute("aria-expanded", "false")
        await toggle.click()
        await expect(toggle).to_have_attribute("aria-expanded", "true")
        await expect(log).to_be_visible()
        assert await log.get_attribute("tabindex") == "0"
        await expect(log).to_have_accessible_name("Game log")
        await log.focus()
        assert (await page.evaluate(FOCUS)) == "table log"
        await ctx.close()

    run(body)


@pytest.mark.parametrize(
    ("game", "players", "centre"), [("kozyri", "", "The pile"), ("twentyfive", "4", "The trick")]
)
def test_headings_name_the_table_s_parts(
    server: ServerProc, game: str, players: str, centre: str, run: Run
) -> None:
    """A screen reader can jump between the table's parts by their headings."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await vs_bots(page, game, players)
        table = page.get_by_test_id("table")
        names = ["Other players", centre, "Your hand", "Game log"]
        if game == "twentyfive":
            names.append("Scores")
        for name in names:
            await expect(table.get_by_role("heading", name=name, exact=True)).to_have_count(1)
        await ctx.close()

    run(body)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_question_mark_lists_every_key_of_the_table(
    server: ServerProc, lang: str, run: Run
) -> None:
    """``?`` at the table opens the list of keys, in the page's language, with the number
    keys (Persian digits too), the hand's keys, Enter, Space, Tab, ``?`` and Escape;
    Escape closes it and the focus is back in the hand."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale=LOCALES[lang])
        await vs_bots(page, "twentyfive", "4")
        before = await page.evaluate(FOCUS)
        await page.keyboard.press("?")
        box = page.get_by_test_id("key-help")
        await expect(box).to_be_visible()
        keys = await box.locator("kbd").all_inner_texts()
        for key in ["1–9", "۱–۹", "←", "→", "Home", "End", "Shift+→", "Enter", "Space", "Tab",
                    "?", "Escape"]:  # fmt: skip
            assert key in keys, (key, keys)
        rows = box.locator("tbody tr")
        await expect(rows).to_have_count(8)
        text = await box.inner_text()
        if lang == "fa":
            assert "کلید" in text and "Move between" not in text, text
        else:
            assert "Move between the cards of your hand." in text
        assert (await page.evaluate(FOCUS)).startswith("elsewhere key-help-close")
        await page.keyboard.press("Escape")
        await expect(box).to_be_hidden()
        assert await page.evaluate(FOCUS) == before
        await ctx.close()

    run(body)


# Each playable card and action button as a reader and a speech user meet it: its number key
# first in its name, as its badge shows it, and the keys that press it.
BUTTONS = """() => {
  SPOKEN_HERE
  return [...document.querySelectorAll(
    "[data-testid='hand'] button, [data-testid='table'] button.word")].map((b) => ({
  id: b.dataset.testid, legal: b.classList.contains("legal") || b.classList.contains("word"),
  name: b.getAttribute("aria-label") ?? spoken(b), keys: b.getAttribute("aria-keyshortcuts"),
  badge: b.querySelector("kbd")?.textContent.trim() ?? null }));
}"""
# A button's name from its content, as a screen reader builds it: hidden parts left out,
# a picture (role img) by its label.
SPOKEN = """const spoken = (n) => n.nodeType === 3 ? n.textContent
  : n.getAttribute("aria-hidden") === "true" ? ""
  : n.getAttribute("role") === "img" ? " " + n.getAttribute("aria-label") + " "
  : [...n.childNodes].map(spoken).join("");"""


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_cards_and_actions_name_their_number_and_keys(
    server: ServerProc, lang: str, run: Run
) -> None:
    """Issue 18 §1: a card's visible badge ('1', Persian '۱') starts its accessible name
    (WCAG 2.5.3; an action button's name is its label then its badge), and aria-keyshortcuts gives the keys that play it (the Latin digit, and
    the Persian one in Persian); a card without a badge has neither."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale=LOCALES[lang])
        await vs_bots(page, "kozyri")  # the trump choice first: word buttons with badges
        seen_words = seen_cards = 0
        for _ in range(6):
            buttons = await page.evaluate(BUTTONS.replace("SPOKEN_HERE", SPOKEN))
            for b in buttons:
                if b["badge"] is None:
                    assert b["keys"] is None, b
                    continue
                latin = str("۰۱۲۳۴۵۶۷۸۹".find(b["badge"])) if lang == "fa" else b["badge"]
                assert latin.isdigit(), b
                if b["id"].startswith("action-"):  # its label, then its badge
                    b["name"] = " ".join(b["name"].split())
                    assert b["name"].endswith(" " + b["badge"]), b
                else:  # a card shows only its badge: first in its name
                    assert b["name"].startswith(b["badge"] + " "), b
                want = latin if lang == "en" else f"{latin} {b['badge']}"
                assert b["keys"] == want, b
                assert len(b["name"]) > len(b["badge"]) + 2, b  # the card or action too
                if b["id"].startswith("action-"):
                    seen_words += 1
                else:
                    seen_cards += 1
            if seen_words and seen_cards:
                break
            await press_and_wait(page, "1")
        assert seen_words and seen_cards, (seen_words, seen_cards)
        await ctx.close()

    run(body)


def test_announcements_in_persian_at_svoi_kozyri(server: ServerProc, run: Run) -> None:
    """Issue 18 §1 in Persian and the other game: a Svoi Kozyri duel against a bot, read
    from the live region: one announcement per event, in Persian (cards as Persian words,
    Persian digits, no suit symbols, no English), "Your turn" once per turn, and a pick-up
    said with how many cards it took."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale=LOCALES["fa"])
        await page.evaluate(LISTEN)
        await vs_bots(page, "kozyri")
        opened = max((int(x["event"]) for x in await page.evaluate(LOGGED)), default=0)
        moves = 0
        said: list[dict[str, str]] = []
        while moves < 60:
            said = await page.evaluate("() => window.__said")
            if any("برداشت" in x["text"] for x in said) and moves >= 10:
                break
            if not await page.get_by_test_id("result").is_hidden():
                break
            await press_and_wait(page, "1")
            moves += 1
        texts = [x["text"] for x in said]
        events = [x["event"] for x in said]
        assert len(events) == len(set(events)), said  # one announcement per event
        logged = await page.evaluate(LOGGED)
        fresh = sorted({int(x["event"]) for x in logged if int(x["event"]) > opened})
        numbered = sorted(int(e) for e in events if e.isdigit() and int(e) > opened)
        assert numbered == fresh, (said, logged)
        assert any("برداشت" in s for s in texts), texts  # a pick-up, with its count
        assert any("نوبت شماست" in s for s in texts), texts
        assert all(s.count("نوبت شماست") <= 1 for s in texts), texts
        for s in texts:
            assert not re.search("[♠♥♦♣]", s), s  # cards as words
            assert not re.search("[0-9]", s), s  # Persian digits
            assert not re.search(r"\b(played|took|Your turn|hearts|spades)\b", s), s
        await ctx.close()

    run(body)


def test_the_twenty_five_prompt_says_the_suit_to_follow(server: ServerProc, run: Run) -> None:
    """Issue 18 §1 ("Your turn: you must follow hearts"): when the game holds cards back
    because a suit must be followed (F13), the prompt — and so the turn's announcement —
    says which suit, from the server's reasons; a free choice says only to play a card."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await page.evaluate(LISTEN)
        await vs_bots(page, "twentyfive", "4")
        checked = followed = 0
        for _ in range(60):
            if not await page.get_by_test_id("result").is_hidden():
                break
            prompt = (await page.locator(".prompt").inner_text()).strip()
            reasons = await page.locator(
                "[data-testid='hand'] button[aria-disabled='true']"
            ).evaluate_all("(cs) => cs.map((c) => c.getAttribute('aria-description') || '')")
            follow = [r for r in reasons if r.startswith("You must follow")]
            if follow and not prompt.startswith("You may rob"):  # (robbing comes first)
                suit = re.match(r"You must follow (\w+)", follow[0])
                assert suit is not None
                assert prompt == f"Follow {suit.group(1)} or play a trump.", (prompt, follow)
                said = await page.evaluate("() => window.__said")
                last = [x["text"] for x in said if "Your turn" in x["text"]][-1]
                assert f"Follow {suit.group(1)} or play a trump." in last, last
                followed += 1
            else:  # no suit held back: the prompt names none
                assert not prompt.startswith("Follow"), (prompt, reasons)
            checked += 1
            if followed >= 2:
                break
            await press_and_wait(page, "1")
        assert followed, f"no turn with a suit to follow in {checked} turns"
        await ctx.close()

    run(body)
