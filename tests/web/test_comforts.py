"""Comforts players ask for (issue 27, part 4), in Chromium against a real ``trumps serve``:
the hand sorted by suit (your trumps at one end) or by rank, kept; and, when asked for (off
by default), the only card you may play played by itself."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from web.kit import MINE_OR_OVER, Run, hand_at_rest, open_page, setting

RANKS = "AKQJT98765432"
HAND = "() => [...document.querySelectorAll(\"#table [data-testid='hand'] button.hcard\")].map((b) => b.dataset.card)"


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
        # (the turn can be shown a frame before the hand is drawn: seen once under load)
        await expect(page.locator("#table [data-testid='hand'] button.hcard")).to_have_count(5)
        assert await page.evaluate(HAND) == by_rank
        await expect(page.get_by_test_id("hand-order")).to_have_value("rank")

    run(body)


PLAYABLE = """() => ({
  cards: [...document.querySelectorAll("#table [data-testid='hand'] button.hcard[data-legal='true']")]
    .map((b) => b.dataset.card),
  words: document.querySelectorAll("[data-testid^='action-']:enabled").length,
  event: document.querySelector("[data-testid='table']").dataset.event,
})"""


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
        table = page.get_by_test_id("table")
        lone = 0
        for _ in range(60):
            await page.wait_for_function(MINE_OR_OVER)
            if await result.is_visible() or lone >= 2:
                break
            # what may be played, read at one moment (a lone card may leave any time now)
            now = await page.evaluate(PLAYABLE)
            if len(now["cards"]) == 1 and not now["words"]:
                # not clicked: it leaves the hand by itself
                card = now["cards"][0]
                await expect(
                    page.locator(f"#table [data-testid='hand'] [data-card='{card}']")
                ).to_have_count(0)
                lone += 1
                continue
            if now["cards"]:
                card = now["cards"][0]
                await page.locator(f"#table [data-testid='hand'] [data-card='{card}']").click()
            else:
                await page.locator("[data-testid^='action-']:enabled").first.click()
            await expect(table).not_to_have_attribute("data-event", now["event"])
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


async def hand_becomes(page: Page, order: list[str]) -> None:
    await page.wait_for_function(
        f"(want) => JSON.stringify(({HAND})()) === JSON.stringify(want)", arg=order
    )


EVENT = "() => document.querySelector(\"[data-testid='table']\")?.dataset.event"


async def centre(page: Page, card: str) -> tuple[float, float]:
    box = await page.get_by_test_id(f"card-{card}").bounding_box()
    assert box is not None
    # the part of an overlapped card that shows is its leading (left) edge
    return box["x"] + min(box["width"] / 2, 12), box["y"] + box["height"] / 2


def test_a_card_dragged_by_mouse_or_finger_goes_where_it_is_dropped_and_is_not_played(
    server: ServerProc, run: Run
) -> None:
    """Issue 27 §4: the player arranges the hand by dragging a card (a mouse on a desktop, a
    finger on a phone) or by Shift and an arrow; the drop never plays the card, a click
    afterwards still does, and the arrangement stays as the hand shrinks."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Aoife")
        await twentyfive_duel(page)
        await page.wait_for_function(
            "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
        )
        await hand_at_rest(page)  # the dealt cards have landed: measured where they lie
        hand = await page.evaluate(HAND)
        event = await page.evaluate(EVENT)
        x, y = await centre(page, hand[0])
        last = await page.get_by_test_id(f"card-{hand[-1]}").bounding_box()
        assert last is not None
        await page.mouse.move(x, y)
        await page.mouse.down()
        await page.mouse.move(last["x"] + last["width"] - 4, y, steps=8)
        await page.mouse.up()
        arranged = [*hand[1:], hand[0]]
        await hand_becomes(page, arranged)
        assert await page.evaluate(EVENT) == event  # dropped, not played
        # by keyboard: Shift+→ moves the card in focus one place, the focus staying on it
        await page.get_by_test_id(f"card-{arranged[0]}").focus()
        await page.keyboard.press("Shift+ArrowRight")
        arranged = [arranged[1], arranged[0], *arranged[2:]]
        await hand_becomes(page, arranged)
        assert await page.evaluate("document.activeElement.dataset.card") == arranged[1]
        assert await page.evaluate(EVENT) == event
        playable = page.locator("#table [data-testid='hand'] button.hcard[data-legal='true']")
        played = await playable.first.get_attribute("data-card")
        await playable.first.click()
        await expect(page.get_by_test_id(f"card-{played}")).to_have_count(0)
        assert await page.evaluate(HAND) == [c for c in arranged if c != played]

        # a finger on a phone: the last card of a Svoi Kozyri hand dragged to the front
        ctx, phone = await open_page(browser, server.http + "/#lobby", name="Aoife", phone=True)
        await phone.get_by_test_id("pc-game").select_option("kozyri")
        await phone.get_by_test_id("pc-level").select_option("random")
        await phone.get_by_test_id("play-computer").click()
        await phone.locator("[data-testid^='action-']").first.click()  # trumps: then the deal
        await phone.wait_for_function(f"() => ({HAND})().length >= 8")
        await hand_at_rest(phone)  # (a card still flying in is not where it will lie)
        hand = await phone.evaluate(HAND)
        first = await phone.get_by_test_id(f"card-{hand[0]}").bounding_box()
        assert first is not None
        x, y = await centre(phone, hand[-1])
        cdp = await ctx.new_cdp_session(phone)
        to = (first["x"] + 3, first["y"] + first["height"] / 2)
        await cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        for k in range(1, 9):
            px, py = x + (to[0] - x) * k / 8, y + (to[1] - y) * k / 8
            await cdp.send(
                "Input.dispatchTouchEvent",
                {"type": "touchMove", "touchPoints": [{"x": px, "y": py}]},
            )
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        await hand_becomes(phone, [hand[-1], *hand[:-1]])

    run(body)


# Every card put into the hand, as it was put there: its code, whether it arrives, its
# place in the arrival order and the animation its style gives it (recorded from the start).
RECORD = """() => {
  window.__put = [];
  new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes) {
    if (!n.matches?.("button.hcard")) continue;
    window.__put.push({ card: n.dataset.card, arrive: n.classList.contains("arrive"),
      i: n.style.getPropertyValue("--i"), animation: getComputedStyle(n).animationName });
  } }).observe(document.querySelector("#table [data-testid='hand']"), { childList: true });
}"""


def test_dealt_cards_arrive_one_after_another_unless_motion_is_reduced(
    server: ServerProc, run: Run
) -> None:
    """Issue 27 §2: the Svoi Kozyri deal (after the trump choice) brings every card into the
    hand from the table, one after another; drawn again before they are all there, they go
    on; with reduced motion they are simply there."""

    async def body(browser: Browser) -> None:
        for still in (False, True):
            ctx, page = await open_page(browser, server.http + "/#lobby", name="Aoife", still=still)
            await page.get_by_test_id("pc-game").select_option("kozyri")
            await page.get_by_test_id("pc-level").select_option("random")
            await page.get_by_test_id("play-computer").click()
            choose = page.locator("[data-testid^='action-']").first
            await expect(choose).to_be_visible()
            await page.evaluate(RECORD)
            await choose.click()
            await page.wait_for_function(f"() => ({HAND})().length >= 8")
            dealt = await page.evaluate(HAND)
            first = (await page.evaluate("window.__put"))[: len(dealt)]
            assert [c["card"] for c in first] == dealt
            if still:
                assert not any(c["arrive"] for c in first), first
            else:
                assert all(c["arrive"] for c in first), first  # all new: a deal
                assert [c["i"] for c in first] == [str(k) for k in range(len(first))], first
                assert {c["animation"] for c in first} == {"arrive-in"}, first
            await ctx.close()

    run(body)


def test_a_pile_another_player_picks_up_leaves_for_their_seat(server: ServerProc, run: Run) -> None:
    """Issue 27 §2: when the bot picks up from the Svoi Kozyri pile, the cards it took
    (the pile's top, faces shown as they lay) leave the middle toward its seat; a picture
    only (hidden from screen readers: the log says it)."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Aoife")
        await page.evaluate("""() => { window.__taken = [];
          new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes) {
            const t = n.querySelector?.("[data-testid='taken']");
            if (t) window.__taken.push({ cards: [...t.querySelectorAll("img")].length,
              hidden: t.getAttribute("aria-hidden"), to: t.style.getPropertyValue("--wy"),
              animation: getComputedStyle(t.querySelector(".card")).animationName });
          } }).observe(document.body, { childList: true, subtree: true }); }""")
        await page.get_by_test_id("pc-game").select_option("kozyri")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        act = page.locator(
            "#table [data-testid='hand'] button.hcard[data-legal='true'], [data-testid^='action-']"
        )
        for _ in range(120):
            await page.wait_for_function(MINE_OR_OVER)
            if (
                await page.evaluate("window.__taken.length")
                or await page.get_by_test_id("result").is_visible()
            ):
                break
            await act.first.click()
        taken = await page.evaluate("window.__taken")
        assert taken, "the bot never picked up"
        first = taken[0]
        assert first["cards"] >= 1 and first["hidden"] == "true", taken
        assert first["to"] == "-1" and first["animation"] == "pick-up", taken  # the seat across

    run(body)
