"""The text mode (issue 18 §4): the table as a list of facts and typed commands, in the
page's language or in English. Games against random bots at instant pace are played with
typed commands only (the drawn table is hidden; the test reads what may be played from it,
and types); the answers are read from the mode's live region, the focus checked after each
command. The parser (textcmd.js) is run in the page itself (no Node at test time).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from web.a11y import axe, severe
from web.kit import MINE_OR_OVER, Run, open_page, set_name, setting

SEED = 2026  # each test's first table is dealt from here (conftest.py)

EVENT = "() => document.querySelector(\"[data-testid='table']\").dataset.event"
# Every answer added to the mode's live region (it keeps the last 20 on screen).
LISTEN = """() => {
  window.__answers = [];
  const region = document.querySelector("[data-testid='text-answers']");
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) window.__answers.push(n.textContent);
  }).observe(region, { childList: true });
}"""
ANSWERS = "() => window.__answers"
FACTS = """() => Object.fromEntries([...document.querySelectorAll("[data-testid='text-facts'] li")]
  .map((li) => [li.dataset.fact, li.textContent]))"""
FOCUS = "() => document.activeElement?.dataset.testid ?? document.activeElement?.tagName"
# What may be played now, as the (hidden) drawn table has it: cards, then word actions.
LEGAL = """() => {
  const t = document.querySelector("#table");
  return [...t.querySelectorAll("button.hcard[data-legal='true']")].map((b) => b.dataset.card)
    .concat([...t.querySelectorAll("button.word:not(:disabled)")].map((b) => b.dataset.testid.slice(7).replace("-", " ")));
}"""
# The hand's cards that may not be played now, with the reason the drawn table gives.
BLOCKED = """() => [...document.querySelectorAll("#table button.hcard[data-legal='false']")]
  .map((b) => [b.dataset.card, b.getAttribute("aria-description")])"""

RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine",
         "8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three",
         "2": "two"}  # fmt: skip
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

# The page's own modules, to run the parser in the page (the versioned prefix of app.js).
PARSE = """async ([lines, english]) => {
  const base = document.querySelector("script[type='module']").src.replace(/app\\.js$/, "");
  const { parseCommand, vocabulary } = await import(base + "textcmd.js");
  const { t } = await import(base + "i18n.js");
  const vocabs = english ? [vocabulary((x) => x)] : [vocabulary(t), vocabulary((x) => x)];
  return lines.map((line) => parseCommand(line, vocabs));
}"""

# A card's name in the page's language (i18n.js, as the page says it).
CARD_NAME = """async (card) => {
  const base = document.querySelector("script[type='module']").src.replace(/app\\.js$/, "");
  return (await import(base + "i18n.js")).cardName(card);
}"""


def english(card: str) -> str:
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


async def text_table(page: Page, game: str, players: str = "") -> None:
    """Text mode on (the header's setting, kept), then a table against random bots."""
    await set_name(page, "Olena")
    # No animation: the page asks for fast bots, so that a whole game fits the test's time.
    await page.evaluate("() => localStorage.setItem('trumps.anim', 'off')")
    await setting(page, "text-mode", True)
    assert await page.evaluate("() => localStorage.getItem('trumps.textmode')") == "on"
    await page.get_by_test_id("pc-game").select_option(game)
    if players:
        await page.get_by_test_id("pc-players").select_option(players)
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("text-table")).to_be_visible()
    await expect(page.locator("#table .felt")).to_be_hidden()  # the drawn table is replaced
    await page.wait_for_function(MINE_OR_OVER)
    assert await page.evaluate(FOCUS) == "text-command"
    await page.evaluate(LISTEN)


async def ask(page: Page, line: str) -> str:
    """Type ``line`` and Enter; the one answer it gets (the focus stays in the input)."""
    before = len(await page.evaluate(ANSWERS))
    await page.keyboard.type(line)
    await page.keyboard.press("Enter")
    await page.wait_for_function(f"() => ({ANSWERS})().length > {before}")
    said = await page.evaluate(ANSWERS)
    assert len(said) == before + 1, said[before:]  # one answer per command
    assert await page.evaluate(FOCUS) == "text-command"
    return str(said[-1])


async def move(page: Page, line: str) -> None:
    """Type a move and wait for the table to move on; a legal move gets no answer of its
    own (its event is announced), and the focus stays in the input."""
    before_event = await page.evaluate(EVENT)
    before = len(await page.evaluate(ANSWERS))
    await page.keyboard.type(line)
    await page.keyboard.press("Enter")
    await page.wait_for_function(
        f"() => ({EVENT})() !== {before_event!r}"
        " || !document.querySelector(\"[data-testid='result']\").hidden"
    )
    await page.wait_for_function(MINE_OR_OVER)
    assert len(await page.evaluate(ANSWERS)) == before, (await page.evaluate(ANSWERS))[before:]
    assert await page.evaluate(FOCUS) == "text-command"


def typed(action: str, k: int) -> str:
    """What a player types for ``action``, in turn as words, a bare name, a code."""
    head, _, card = action.partition(" ")
    if head == "take":
        return "take"
    if head == "trump":
        return f"trump {SUITS[card]}"
    if head in ("rob", "discard"):
        return f"{head} {english(card)}"
    return [f"play {english(action)}", english(action), action, "10" + action[1].lower()
            if action[0] == "T" else action.lower()][k % 4]  # fmt: skip


async def hand_over(page: Page) -> bool:
    log = await page.evaluate(
        "() => [...document.querySelectorAll(\"[data-testid='log'] li\")].map((li) => li.textContent)"
    )
    return any("Hand 1 is over" in x for x in log)


@pytest.mark.parametrize("lang", ["en", "fa", "pt", "fr"])
def test_the_parser_reads_cards_and_commands(server: ServerProc, lang: str, run: Run) -> None:
    """textcmd.js in the page: cards as words (the page's language and English) or codes,
    each command, a command word last (as a Persian sentence puts its verb), what is not a
    command."""
    locale = {"en": "en-GB", "fa": "fa-IR", "pt": "pt-BR", "fr": "fr-FR"}[lang]
    local = {
        "en": ["play ten of hearts", "hand", "score", "how many cards has bot 2", "trump clubs"],
        "fa": ["بازی ده دل", "دست", "امتیاز", "ربات ۲ چند کارت دارد", "حکم گشنیز"],
        "pt": ["jogar dez de copas", "mão", "pontos", "quantas cartas tem bot 2", "trunfo paus"],
        "fr": ["jouer dix de cœur", "main", "score", "combien de cartes a bot 2", "atout trèfle"],
    }[lang]
    want_local: list[dict[str, Any]] = [
        {"kind": "play", "card": "TH"},
        {"kind": "hand"},
        {"kind": "score"},
        {"kind": "count", "name": "ربات 2" if lang == "fa" else "bot 2"},
        {"kind": "trump", "suit": "C"},
    ]
    shared = [
        ("play ten of hearts", {"kind": "play", "card": "TH"}),
        ("Ten of Hearts.", {"kind": "play", "card": "TH"}),
        ("the 10 of hearts", {"kind": "play", "card": "TH"}),
        ("TH", {"kind": "play", "card": "TH"}),
        ("10h", {"kind": "play", "card": "TH"}),
        ("10♥", {"kind": "play", "card": "TH"}),
        ("qs", {"kind": "play", "card": "QS"}),
        ("play 6♣", {"kind": "play", "card": "6C"}),
        ("joker", {"kind": "play", "card": "JK"}),
        ("take", {"kind": "take"}),
        ("rob nine of spades", {"kind": "rob", "card": "9S"}),
        ("rob", {"kind": "rob", "card": None}),
        ("discard 9s", {"kind": "discard", "card": "9S"}),
        ("trump S", {"kind": "trump", "suit": "S"}),
        ("trump ♥", {"kind": "trump", "suit": "H"}),
        ("hand", {"kind": "hand"}),
        ("table", {"kind": "table"}),
        ("score", {"kind": "score"}),
        ("last trick", {"kind": "last"}),
        ("How many cards has Bot 2?", {"kind": "count", "name": "bot 2"}),
        ("cards medium bot", {"kind": "count", "name": "medium bot"}),
        ("cards", {"kind": "counts"}),
        ("hint", {"kind": "hint"}),
        ("help", {"kind": "help"}),
        ("?", {"kind": "help"}),
        ("play eleven of hearts", {"kind": "play", "card": None, "bad": "eleven of hearts"}),
        ("dance", {"kind": "unknown", "text": "dance"}),
    ]

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale=locale)
        got = await page.evaluate(PARSE, [local + [line for line, _ in shared], False])
        assert got[: len(local)] == want_local, list(zip(local, got, strict=False))
        assert got[len(local) :] == [want for _, want in shared], [
            (line, g)
            for (line, want), g in zip(shared, got[len(local) :], strict=True)
            if g != want
        ]
        await ctx.close()

    run(body)


def test_a_hand_of_twenty_five_by_typed_commands(server: ServerProc, run: Run) -> None:
    """A whole hand of Twenty-Five against three bots, typed only: each move as words, a
    bare name or a code; the questions answered once each (hand, table, score, last trick,
    a player's cards, help); a card that may not be played answers the game's reason; an
    unknown command says so; the facts follow the table."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await text_table(page, "twentyfive", "4")
        assert "play <card>" in await ask(page, "help")
        assert await ask(page, "dance") == "“dance” is not a command. Type help for the list."
        said = await ask(page, "last trick")
        assert said == "No trick has been finished yet.", said
        moves = 0
        reasons = 0
        lasts = 0
        result = page.get_by_test_id("result")
        # The first hand, and on until a card the rules forbid came up (a few moves more).
        while not (await hand_over(page) and reasons) and not await result.is_visible():
            assert moves < 40
            facts = await page.evaluate(FACTS)
            assert facts["turn"].startswith("Your turn."), facts
            hand = await ask(page, "hand")
            assert hand.startswith("Your hand, ") and "You can play: " in hand, hand
            assert hand.startswith(facts["hand"]), (hand, facts)
            table = await ask(page, "table")
            assert table.startswith(facts["turn"]) and facts["trick"] in table, (table, facts)
            assert re.fullmatch(r"Scores: .*\.", await ask(page, "score"))
            legal = await page.evaluate(LEGAL)
            blocked = await page.evaluate(BLOCKED)
            if blocked and not reasons:  # a card the rules forbid now: the game's reason
                card, why = blocked[0]
                said = await ask(page, f"play {english(card)}")
                assert why and said.startswith(why) and "You can play: " in said, (said, why)
                reasons += 1
            if moves == 1:  # the hint is said when it comes, with its move in words
                said = await ask(page, "hint")
                assert said and "{action}" not in said and not re.search("[♠♥♦♣]", said), said
            if moves == 2:
                said = await ask(page, "how many cards has bot 2")
                assert re.fullmatch(r"random bot 2 has \d cards?\.", said), said
                said = await ask(page, "How many cards has Olena?")
                assert re.fullmatch(r"Olena has \d cards?\.", said), said
                assert (await ask(page, "cards")).startswith("Cards in hand: Olena ")
            if facts.get("trick", "").endswith("won the trick.") or moves:
                said = await ask(page, "last trick")
                if said.startswith("The last trick: "):
                    assert re.search(r"\(Olena\).*won the trick\.$", said), said
                    lasts += 1
            before = facts
            await move(page, typed(legal[0], moves))
            moves += 1
            assert await page.evaluate(FACTS) != before  # the facts were drawn again
        assert moves >= 5 and lasts >= 4 and reasons == 1, (moves, lasts, reasons)
        await ctx.close()

    run(body)


def test_a_game_of_svoi_kozyri_by_typed_commands(server: ServerProc, run: Run) -> None:
    """Svoi Kozyri against a bot, typed only: the trump choice ("trump hearts"), cards by
    name or code, "take" when the top card cannot (or need not) be beaten, to the end of
    the game or a long stretch; the pile and the cards per player answered."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await text_table(page, "kozyri")
        moves = 0
        takes = 0
        games = 1
        result = page.get_by_test_id("result")
        # (a long stretch, longer while no pick-up was offered: the bots' moves vary)
        while moves < 40 or (not takes and moves < 120):
            if await result.is_visible():  # a short game without a pick-up: one more
                if takes or games == 3:
                    break
                await page.get_by_test_id("rematch").click()
                await expect(result).to_be_hidden()
                await page.wait_for_function(MINE_OR_OVER)
                await page.get_by_test_id("text-command").focus()
                games += 1
            legal = await page.evaluate(LEGAL)
            facts = await page.evaluate(FACTS)
            if not facts["turn"].startswith("Your turn."):
                # not my turn after my move: only because that move ended the game
                await expect(result).to_be_visible()
                continue
            if moves % 5 == 1:
                table = await ask(page, "table")
                assert re.search(
                    r"Pile: \d+ cards?\. Top card: \w+ of \w+\.|The pile is empty\.", table
                ), table
                assert "Trumps: Olena " in table, table
                said = await ask(page, "score")
                assert "Cards in hand: Olena " in said or "Out of cards: " in said, said
            # the first chance to pick up is taken, then every third move's
            action = "take" if "take" in legal and (not takes or moves % 3 == 0) else legal[0]
            takes += action == "take"
            await move(page, typed(action, moves))
            moves += 1
        assert takes >= 1 and (moves >= 40 or await result.is_visible()), (takes, moves, games)
        if await result.is_visible():
            facts = await page.evaluate(FACTS)
            assert re.search(r"You won!|You lost\.|lost\.", facts["turn"]), facts
        await ctx.close()

    run(body)


def test_persian_commands_answer_in_persian(server: ServerProc, run: Run) -> None:
    """In Persian: "دست" (hand) and "امتیاز" (score) answered in Persian with Persian
    digits, a card played by its Persian name with the Persian verb after it, English
    words accepted too."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale="fa-IR")
        await text_table(page, "twentyfive", "2")
        hand = await ask(page, "دست")
        assert hand.startswith("دست شما، ۵ کارت:"), hand
        assert not re.search("[0-9]", hand) and not re.search("[a-zA-Z]", hand), hand
        score = await ask(page, "امتیاز")
        assert score.startswith("امتیازها: ") and not re.search("[0-9]", score), score
        assert await ask(page, "hand") == hand  # English words too
        said = await ask(page, "ربات تصادفی چند کارت دارد؟")
        assert re.fullmatch("ربات تصادفی [۰-۹]+ کارت دارد.", said), said
        legal = [a for a in await page.evaluate(LEGAL) if len(a) == 2]
        name = await page.evaluate(CARD_NAME, legal[0])
        await move(page, f"{name} بازی")
        log = await page.evaluate(
            "() => [...document.querySelectorAll(\"[data-testid='log'] li\")].map((li) => li.textContent)"
        )
        assert any("Olena" in x for x in log), log
        assert legal[0] not in await page.evaluate(LEGAL)
        await ctx.close()

    run(body)


async def turn_of(pages: list[Page]) -> Page:
    """The page whose player is to move (or that shows the result)."""
    waits = {asyncio.ensure_future(p.wait_for_function(MINE_OR_OVER)): p for p in pages}
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return waits[next(iter(done))]


def test_two_people_play_in_text_mode(server: ServerProc, run: Run) -> None:
    """A table with two people, both in text mode (one in English, one in Persian, the
    setting already kept): each types their moves in their own language; a move out of
    turn is refused with the page's reason; each asks how many cards the other holds."""

    async def body(browser: Browser) -> None:
        ctx_a, olena = await open_page(browser, server.http + "/#lobby")
        await set_name(olena, "Olena")
        await setting(olena, "text-mode", True)
        form = olena.get_by_test_id("create-form")
        await form.get_by_test_id("create-game").select_option("kozyri")
        await form.get_by_test_id("create-seats").select_option("2")
        await form.get_by_test_id("seat-1").select_option("human")
        await form.get_by_test_id("create-private").check()
        await form.get_by_test_id("create-submit").click()
        link = olena.get_by_test_id("invite-link")
        await expect(link).to_have_value(
            re.compile(r"\?table=")
        )  # the invite box stays in text mode
        url = await link.input_value()

        async def text_on(context: Any) -> None:
            await context.add_init_script("localStorage.setItem('trumps.textmode', 'on')")

        ctx_b, taras = await open_page(browser, url, locale="fa-IR", name="Taras", setup=text_on)
        pages = [olena, taras]
        for page in pages:
            await expect(page.get_by_test_id("text-table")).to_be_visible()
            await page.get_by_test_id("text-command").focus()
            await page.evaluate(LISTEN)
        moves = 0
        refused = False
        page = await turn_of(pages)
        while moves < 16 and not await page.get_by_test_id("result").is_visible():
            other = taras if page is olena else olena
            legal = await page.evaluate(LEGAL)
            held = await other.evaluate(BLOCKED)
            if held and not refused:  # the other types a card of theirs out of turn
                said = await ask(other, held[0][0])
                assert said in ("It is not your turn.", "نوبت شما نیست."), said
                refused = True
            if moves == 3:
                said = await ask(olena, "how many cards has Taras")
                assert re.fullmatch(r"Taras has \d+ cards?\.", said), said
                said = await ask(taras, "Olena چند کارت دارد")
                assert re.fullmatch("Olena [۰-۹]+ کارت دارد.", said), said
            before = await page.evaluate(EVENT)
            line = typed(legal[0], moves)
            if page is taras and len(legal[0]) == 2:  # a card by its Persian name
                line = await taras.evaluate(CARD_NAME, legal[0])
            await page.keyboard.type(line)
            await page.keyboard.press("Enter")
            await page.wait_for_function(f"() => ({EVENT})() !== {before!r}")
            assert await page.evaluate(FOCUS) == "text-command"
            moves += 1
            page = await turn_of(pages)  # the other's turn now (or mine again: a second card)
        assert refused and moves >= 6
        await ctx_a.close()
        await ctx_b.close()

    run(body)


@pytest.mark.parametrize("locale", ["en-GB", "fa-IR"])
def test_the_text_table_has_no_serious_axe_violation(
    server: ServerProc, locale: str, run: Run
) -> None:
    """axe over a Svoi Kozyri table in text mode, with answers said: no serious or critical
    violation (the answers' scrolling log is reachable by keyboard, the input labelled)."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale=locale)
        await text_table(page, "kozyri")
        for line in ("hand", "table", "help"):
            await ask(page, line)
        found = severe(await axe(page))
        assert not found, found
        await ctx.close()

    run(body)
