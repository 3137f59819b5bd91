"""The Twenty-Five hand summary in the page (issue 11 part 1: "a hand summary (tricks and
points per player, who robbed, the turn-up) and a score history across hands").

Aoife creates a table against three random bots in Chromium with the rules editor (robbing
the turn-up mandatory, so that whoever holds the trump ace robs; a target of 100, so that
two hands are played) at the bots' "at once" pace, and plays two whole hands by clicking.
Each hand's summary must say what the server's events say the hand was (``closed.hand``,
read off the WebSocket): the turn-up and trumps, who robbed, each player's tricks, the
points they made in the hand (``+N``) and their total; after the second hand, the score
history lists both hands.  The server's seed deals hands in which bots rob (seat 2 in the
first hand, seat 3 in the second: the deal does not depend on the play).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Browser, BrowserContext, Locator, Page, expect

from server.e2e import ServerProc
from trumps.cards import SUIT_SYMBOLS
from trumps.games.twentyfive.options import OPTIONS
from web.kit import WS_URL, Run, open_more, open_page, relay, setting

SEED = 1002  # the first table's deal: a bot robs in hand 1 and in hand 2
HANDS = 2
SUITS = "SHDC"  # trumps.cards order, for SUIT_SYMBOLS


def card_text(card: str) -> str:
    """A card as the page writes it in text: ``TC`` is ``10♣``."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[SUITS.index(card[1])]


def hand_closed(received: list[dict[str, Any]], hand: int) -> dict[str, Any]:
    """The server's account of hand ``hand``: the ``closed.hand`` of the event that ended it."""
    for m in received:
        closed = m.get("closed") if m.get("type") == "event" else None
        if closed and (closed.get("hand") or {}).get("hand") == hand:
            info: dict[str, Any] = closed["hand"]
            return info
    raise AssertionError(f"no event closed hand {hand}")


def seat_names(received: list[dict[str, Any]]) -> list[str]:
    snap = next(m for m in received if m.get("type") == "table_state")
    return [str(s["name"]) for s in snap["seats"]]


async def check_summary(
    summary: Locator, hand: dict[str, Any], before: list[int], names: list[str]
) -> None:
    """The summary of ``hand`` says what the server said of it."""
    await expect(summary.locator("h3")).to_have_text(f"Hand {hand['hand']} is over")
    note = summary.locator("p.note").first
    suit = SUIT_SYMBOLS[SUITS.index(hand["trump"])]
    await expect(note).to_contain_text(f"Turn-up {card_text(hand['turnup'])}, trumps {suit}.")
    assert isinstance(hand["robbed"], int), hand  # the seed deals a rob in every hand here
    await expect(note).to_contain_text(f"{names[hand['robbed']]} robbed the turn-up.")
    rows = summary.locator("table.hand-scores tbody tr")
    await expect(rows).to_have_count(len(names))
    for seat, name in enumerate(names):
        cells = [c.strip() for c in await rows.nth(seat).locator("th, td").all_inner_texts()]
        made = hand["scores"][seat] - before[seat]
        expected = [name, str(hand["won"][seat]), f"+{made}", str(hand["scores"][seat])]
        assert cells == expected, (hand["hand"], cells, expected)


async def relayed(sent: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The messages of ``kind`` the page sent, once there is one: the route relays each one
    a moment after the page sends it (a failure after 10 s)."""
    for _ in range(500):
        found = [m for m in sent if m.get("type") == kind]
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"the page sent no {kind!r}")


async def my_turn_or_summary(page: Page) -> None:
    await page.wait_for_function(
        "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
        " || document.querySelector(\"[data-testid='hand-summary']\")"
    )


def test_two_hands_are_summed_up_with_the_robber_the_turn_up_and_a_score_history(
    server: ServerProc,
    run: Run,
) -> None:
    received: list[dict[str, Any]] = []

    async def setup(context: BrowserContext) -> None:
        await context.route_web_socket(WS_URL, relay(received))

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", name="Aoife", setup=setup)
        await open_more(page, "twentyfive")
        await page.get_by_test_id("create-seats").select_option("4")
        for seat in (1, 2, 3):
            await page.get_by_test_id(f"seat-{seat}").select_option("random")
        rob = OPTIONS["rob"].choices.index("mandatory")  # the editor's values are indices
        await page.get_by_test_id("rule-rob").select_option(str(rob))
        await page.get_by_test_id("rule-target").fill("100")
        await page.get_by_test_id("create-pace").select_option(label="at once")
        await page.get_by_test_id("create-submit").click()
        table = page.get_by_test_id("table")
        await expect(table).to_be_visible()
        summary = page.get_by_test_id("hand-summary")
        legal = page.locator(
            "[data-testid='hand'] [data-legal='true'], [data-testid^='action-rob']"
        )
        seen: list[int] = []
        for _ in range(200):  # two hands of five tricks: a dozen turns of mine, and summaries
            await my_turn_or_summary(page)
            if await summary.count():
                heading = await summary.locator("h3").inner_text()
                number = int(re.sub(r"\D", "", heading))
                if number not in seen:
                    names = seat_names(received)
                    hand = hand_closed(received, number)
                    before = [0] * 4 if number == 1 else hand_closed(received, number - 1)["scores"]
                    await check_summary(summary, hand, before, names)
                    seen.append(number)
                if number == HANDS:
                    break
                await summary.get_by_test_id("summary-close").click()
                await expect(summary).to_have_count(0)
                continue
            if await page.get_by_test_id("turn").get_attribute("data-mine") != "true":
                continue
            before_event = await table.get_attribute("data-event")
            await legal.first.click()
            await expect(table).not_to_have_attribute("data-event", before_event or "")
        assert seen == [1, 2], seen
        await expect(page.get_by_test_id("result")).to_be_hidden()  # target 100: it goes on
        # The score history: a row per hand, each with every player's total after it.
        history = summary.get_by_test_id("score-history")
        await expect(history).to_be_visible()
        items = history.locator("li")
        await expect(items).to_have_count(HANDS)
        names = seat_names(received)
        for k in range(HANDS):
            scores = hand_closed(received, k + 1)["scores"]
            line = " · ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
            await expect(items.nth(k)).to_have_text(f"Hand {k + 1}: {line}")
        await ctx.close()

    run(body)


def sending_into(sent: list[dict[str, Any]]) -> Callable[[BrowserContext], Awaitable[None]]:
    """A profile's setup that keeps in ``sent`` every message the page sends its server."""

    async def setup(context: BrowserContext) -> None:
        def keep(m: dict[str, Any]) -> dict[str, Any]:
            sent.append(m)
            return m

        await context.route_web_socket(WS_URL, relay([], keep))

    return setup


async def first_hand_played(page: Page) -> Locator:
    """A Twenty-Five duel against the random bot, its first hand played by first legal
    moves: the hand's summary."""
    await page.get_by_test_id("pc-game").select_option("twentyfive")
    await page.get_by_test_id("pc-players").select_option("2")
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    summary = page.get_by_test_id("hand-summary")
    legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")
    for _ in range(40):
        await my_turn_or_summary(page)
        if await summary.count():
            break
        await legal.first.click()
    return summary


def test_continue_on_the_summary_tells_the_server_the_hand_was_read(
    server: ServerProc, run: Run
) -> None:
    """At a paced table the next hand waits for the summary to be read (the server's side:
    tests/server/test_pacing.py): Continue sends the hand's number, and play goes on."""
    sent: list[dict[str, Any]] = []
    setup = sending_into(sent)

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(
            browser, server.http + "/#lobby", name="Aoife", setup=setup, pace="fast"
        )
        summary = await first_hand_played(page)
        await expect(summary).to_be_visible()
        assert not [m for m in sent if m.get("type") == "continue"]
        await summary.get_by_test_id("summary-close").click()
        await expect(summary).to_have_count(0)
        await relayed(sent, "continue")
        await page.wait_for_function(
            "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
        )  # the second hand is played
        read = [m for m in sent if m.get("type") == "continue"]
        assert [(m["hand"], m["table_id"]) for m in read] == [(1, read[0]["table_id"])]
        await ctx.close()

    run(body)


def test_with_a_pause_set_the_summary_counts_down_and_continues_by_itself(
    server: ServerProc, run: Run
) -> None:
    """Issue 27 §1: the summary holds the next hand until Continue, or the setting's delay
    ("continue after 5 s"): its button counts down, then the page tells the server the hand
    was read, once, and the second hand is played; the setting is kept."""
    sent: list[dict[str, Any]] = []
    relaying = sending_into(sent)

    async def setup(context: BrowserContext) -> None:
        await relaying(context)
        await context.clock.install()  # the page's clock, moved on by the test below

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(
            browser, server.http + "/#lobby", name="Aoife", setup=setup, pace="fast"
        )
        await setting(page, "hand-pause", "5")
        summary = await first_hand_played(page)
        button = summary.get_by_test_id("summary-close")
        await expect(button).to_have_text(re.compile(r"Continue \([1-5]\)"))
        assert not [m for m in sent if m.get("type") == "continue"]  # not before its time
        await page.clock.run_for(5_000)  # the five seconds pass (not waited for)
        await expect(summary).to_have_count(0)  # nobody pressed it
        await relayed(sent, "continue")
        await page.wait_for_function(
            "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
        )  # the second hand is played
        read = [m for m in sent if m.get("type") == "continue"]
        assert [m["hand"] for m in read] == [1]
        assert await page.evaluate("() => localStorage.getItem('trumps.pause')") == "5"
        await ctx.close()

    run(body)
