"""Details of the table a person follows (issue 11, leftovers), in Debian's Chromium: the
turn-up once robbed, the hand's corners on a phone (badges and raised cards), the card-size
setting, the trick hold that follows the table's pace, and the log after a resync.  Same
harness as ``test_browser.py``: a real ``trumps serve``, Playwright driving the page."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, WebSocketRoute, expect

from server.e2e import ServerProc
from trumps.games import new_game
from trumps.games.viewtypes import twentyfive_view
from web.kit import MINE, SHOTS, Run, hand_at_rest, open_page, set_name, setting

# The server deals table k with seed ROB_SEED + k: at the first table of two players of
# Twenty-Five, the person (seat 0) holds the ace of trumps and may rob.  Checked below.
ROB_SEED = 2004
WS_URL = re.compile(r"/ws$")
Msg = dict[str, Any]


@pytest.fixture
def rob_server(module_server: ServerProc) -> ServerProc:
    """The module's server, its next table dealt from ROB_SEED."""
    module_server.deal_from(ROB_SEED)
    return module_server


async def twentyfive(page: Page, players: int = 2) -> None:
    await page.get_by_test_id("pc-game").select_option("twentyfive")
    await page.get_by_test_id("pc-players").select_option(str(players))
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("table")).to_be_visible()


def test_a_robbed_turn_up_is_no_longer_drawn_on_the_table(rob_server: ServerProc, run: Run) -> None:
    game = new_game("twentyfive", players=2, seed=ROB_SEED)
    turnup = twentyfive_view(game.view(0))["turnup"]
    robs = [a for a in game.legal_actions() if a.startswith("rob ")]
    assert game.current_player == 0 and robs

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, rob_server.http + "/#lobby", still=True)
        await set_name(page, "Aoife")
        await twentyfive(page)
        await page.wait_for_function(MINE)
        centre = page.locator(".centre.twentyfive")
        await expect(centre.locator(f".stock [data-card='{turnup}']")).to_be_visible()
        await page.get_by_test_id("action-" + robs[0].replace(" ", "-")).click()
        await expect(page.get_by_test_id("log")).to_contain_text("Aoife robbed the turn-up")
        # The card is in my hand now, and only there: the table keeps the trump suit and
        # says who robbed, with no turned-up card left by the stock.
        await expect(page.get_by_test_id(f"card-{turnup}")).to_be_visible()
        await expect(centre).to_contain_text("Aoife robbed the turn-up.")
        await expect(centre.locator(f"[data-card='{turnup}']")).to_have_count(0)
        await expect(centre.locator(".stock .turned")).to_have_count(0)
        await expect(centre).to_contain_text("Trumps:")
        await ctx.close()

    run(body)


async def kozyri_cards(page: Page) -> None:
    """A Svoi Kozyri duel against the random bot, up to my first turn with cards to play."""
    await page.get_by_test_id("pc-game").select_option("kozyri")
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    table = page.get_by_test_id("table")
    await expect(table).to_be_visible()
    legal = page.locator("[data-testid='hand'] .hcard.legal")
    for _ in range(10):  # the trump choice, and a "take" when nothing beats the top card
        await page.wait_for_function(MINE, timeout=20_000)
        if await legal.count():
            await hand_at_rest(page)  # the dealt cards have arrived
            return
        before = await table.get_attribute("data-event")
        await page.locator("[data-testid^='action-']:enabled").first.click()
        await expect(table).not_to_have_attribute("data-event", before or "", timeout=20_000)
    raise AssertionError("no turn with a card to play")


# Where the rank and suit are printed on every card picture (cards/*/XX.svg, viewBox
# -120 -168 240 336: the index spans x -114.4…-84, y -156…-92): fractions of the picture.
CORNER = (0.024, 0.036, 0.15, 0.226)

# For each card of the hand: its corner (as drawn), its badge's box, and what is on top at
# the corner's points (the card itself, or something covering it).
CORNERS = """([x0, y0, x1, y1]) => {
  const hand = document.querySelector("[data-testid='hand']");
  const box = hand.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) window.scrollBy(0, box.top - 40);
  return [...hand.querySelectorAll("button.hcard")].map((b) => {
  const img = b.querySelector(".card-img").getBoundingClientRect();
  const c = { x: img.x + x0 * img.width, y: img.y + y0 * img.height, w: (x1 - x0) * img.width, h: (y1 - y0) * img.height };
  const kbd = b.querySelector("kbd")?.getBoundingClientRect() ?? null;
  const points = [[0.1, 0.1], [0.9, 0.1], [0.1, 0.9], [0.9, 0.9], [0.5, 0.5]];
  const covered = points.filter(([fx, fy]) => {
    const top = document.elementFromPoint(c.x + fx * c.w, c.y + fy * c.h);
    return !(top && b.contains(top) && top.tagName !== "KBD");
  }).length;
  return { card: b.dataset.card, corner: c, covered,
    kbd: kbd && { x: kbd.x, y: kbd.y, w: kbd.width, h: kbd.height } };
  });
}"""


def overlaps(a: Msg, b: Msg) -> bool:
    sideways = a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
    return bool(sideways and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


async def corners_clear(page: Page, why: str) -> list[Msg]:
    cards: list[Msg] = await page.evaluate(CORNERS, list(CORNER))
    assert cards, why
    for c in cards:
        assert c["covered"] == 0, (why, c)
        for other in cards:
            if other["kbd"] is not None:
                assert not overlaps(other["kbd"], c["corner"]), (why, other["card"], c)
    return cards


def test_a_card_takes_its_place_before_its_picture_arrives(server: ServerProc, run: Run) -> None:
    """A card's picture that is slow to arrive (a slow phone network) does not leave a card
    with no height that jumps when it loads: every card holds its 240×336 shape from the
    start, so the hand and the trick never move under the player's finger."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", phone=True)
        await page.route(re.compile(r"/cards/.*\.svg$"), lambda route: None)  # never answered
        await set_name(page, "Aoife")
        await kozyri_cards(page)
        sizes = await page.locator("[data-testid='hand'] .card-img").evaluate_all(
            "(imgs) => imgs.map((i) => [i.complete && i.naturalWidth > 0,"
            " i.getBoundingClientRect().width, i.getBoundingClientRect().height])"
        )
        assert sizes
        for loaded, width, height in sizes:
            assert not loaded  # the picture is still on its way
            assert width > 20 and height == pytest.approx(width * 336 / 240, abs=1), sizes
        await ctx.close()

    run(body)


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("fa", "fa-IR")])
def test_every_card_s_corner_shows_on_a_phone(
    server: ServerProc, lang: str, locale: str, run: Run
) -> None:
    """The shortcut badges and a raised card never cover a rank corner of the hand."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", locale=locale, phone=True)
        await expect(page.locator(f"html[lang='{lang}']")).to_have_count(1)
        await set_name(page, "Aoife")
        await kozyri_cards(page)
        hand = page.get_by_test_id("hand")
        await expect(hand.locator("kbd")).not_to_have_count(0)
        cards = await corners_clear(page, "at rest")
        assert sum(c["kbd"] is not None for c in cards) >= 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.locator(".me-area").screenshot(path=str(SHOTS / f"phone-hand-{lang}.png"))
        # A raised card (the pointer on it, or the keyboard's focus) leaves its
        # neighbours' corners in view.
        legal = hand.locator("button.hcard.legal")
        for i in range(min(await legal.count(), 4)):
            await legal.nth(i).hover()
            await corners_clear(page, f"hovering legal card {i}")
        await page.mouse.move(0, 0)
        await legal.first.focus()
        await page.keyboard.press("ArrowRight")
        await corners_clear(page, "keyboard focus")
        for size in ("large", "small"):  # the card-size setting: corners still clear
            await setting(page, "card-size", size)
            await expect(hand).to_have_attribute("data-size", size)
            await corners_clear(page, f"{size} cards")
        await ctx.close()

    run(body)


# The hand's cards (their boxes) and whether anything sticks out sideways: the page, the hand.
HAND_BOXES = """() => {
  const hand = document.querySelector("[data-testid='hand']");
  const cards = [...hand.querySelectorAll("button.hcard")].map((b) => {
    const r = b.getBoundingClientRect();
    return { left: r.left, right: r.right, width: r.width, height: r.height };
  });
  return { cards, page: document.documentElement.scrollWidth, view: innerWidth,
    hand: [hand.scrollWidth, hand.clientWidth] };
}"""


async def hand_fits(page: Page, why: str) -> list[Msg]:
    got: Msg = await page.evaluate(HAND_BOXES)
    assert got["cards"], why
    assert got["page"] <= got["view"], (why, got["page"], got["view"])
    assert got["hand"][0] <= got["hand"][1], (why, got["hand"])
    for c in got["cards"]:
        assert c["left"] >= 0 and c["right"] <= got["view"], (why, c)
    cards: list[Msg] = got["cards"]
    return cards


def test_card_size_setting_is_kept_and_the_hand_fits_a_phone(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", phone=True, still=True)
        await set_name(page, "Aoife")
        await twentyfive(page)
        hand = page.get_by_test_id("hand")
        await expect(hand.locator("button.hcard")).to_have_count(5)
        size = page.get_by_test_id("card-size")
        await expect(size).to_have_value("normal")
        widths: dict[str, float] = {}
        for choice in ("small", "normal", "large"):
            await setting(page, "card-size", choice)
            assert await page.evaluate("localStorage.getItem('trumps.cards')") == choice
            await expect(page.locator(f"[data-testid='hand'][data-size='{choice}']")).to_have_count(
                1
            )
            cards = await hand_fits(page, choice)
            widths[choice] = cards[0]["width"]
        assert widths["small"] < widths["normal"] < widths["large"], widths
        # Kept for the next visit, and applied as the page opens.
        await page.reload()
        await expect(page.locator("html[data-ready='1']")).to_have_count(1)
        await expect(page.get_by_test_id("card-size")).to_have_value("large")
        await expect(hand.locator("button.hcard")).to_have_count(5)
        assert (await hand_fits(page, "after a reload"))[0]["width"] == widths["large"]
        await ctx.close()
        # Eighteen cards of a Svoi Kozyri duel still fit a phone at every size.
        ctx, page = await open_page(browser, server.http + "/#lobby", phone=True, still=True)
        await set_name(page, "Aoife")
        await kozyri_cards(page)
        for choice in ("large", "small", "normal"):
            await setting(page, "card-size", choice)
            await expect(page.locator(f"[data-testid='hand'][data-size='{choice}']")).to_have_count(
                1
            )
            assert len(await hand_fits(page, f"kozyri {choice}")) >= 15
        await ctx.close()

    run(body)


# The widths of the cards on the felt: the turn-up, the stock, cards laid in the trick or
# pile; and whether the page scrolls sideways.
FELT = """() => {
  const w = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().width);
  return { turned: w(".stock .turned"), stock: w(".stock .card:not(.turned)"),
           laid: w(".spread .laid"), page: document.documentElement.scrollWidth,
           view: document.documentElement.clientWidth };
}"""


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_large_cards_are_large_on_the_felt_too(server: ServerProc, phone: bool, run: Run) -> None:
    """Issue 18 §3: the card-size setting is for low-vision players, so it sizes the cards
    on the table as well as the hand — the turn-up, the stock, the trick — where there is
    room (a desktop); on a phone the felt keeps its size and nothing overflows."""

    async def body(browser: Browser) -> None:
        # Once the turn-up is on the table, the server's frames are held back: no bot robs
        # it while the sizes are tried, however slow the machine.
        state: Msg = {"hold": False, "held": [], "seen": [], "routes": []}

        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, dropping(state))

        ctx, page = await open_page(
            browser, server.http + "/#lobby", phone=phone, still=True, pace=None, setup=setup
        )
        await set_name(page, "Aoife")
        await twentyfive(page, players=4)
        await expect(page.locator(".stock .turned")).to_have_count(1)
        state["hold"] = True
        seen: dict[str, Msg] = {}
        for choice in ("normal", "large", "small"):
            await setting(page, "card-size", choice)
            await expect(page.locator(f"html[data-cards='{choice}']")).to_have_count(1)
            seen[choice] = await page.evaluate(FELT)
            assert seen[choice]["page"] <= seen[choice]["view"], (choice, seen[choice])
            if choice == "large":
                where = "phone" if phone else "desktop"
                await page.screenshot(path=str(SHOTS / f"large-cards-{where}.png"))
        turned = {k: v["turned"][0] for k, v in seen.items()}
        if phone:
            assert turned["large"] <= turned["normal"] * 1.2, turned
        else:
            assert turned["small"] < turned["normal"] < turned["large"], turned
            assert turned["large"] >= turned["normal"] * 1.25, turned
            stock = {k: v["stock"][0] for k, v in seen.items() if v["stock"]}
            assert stock and stock["large"] > stock["normal"], stock
        await ctx.close()

    run(body)


def dropping(state: Msg) -> Callable[[WebSocketRoute], None]:
    """A WebSocket route that passes frames both ways, keeping the server's in
    ``state['seen']``; while ``state['hold']`` is set, the server's frames are kept in
    ``state['held']`` instead of reaching the page (the page misses those events)."""

    def handler(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        state["routes"].append(ws)

        def to_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if state["hold"]:
                state["held"].append(msg)
                return
            state["seen"].append(msg)
            ws.send(message)

        def to_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "play_computer" and state.get("rules"):
                msg["rules"] = state["rules"]
            if msg.get("type") == "play_computer" and state.get("pace"):
                msg["bot_pace"] = state["pace"]
            upstream.send(json.dumps(msg))

        ws.on_message(to_server)
        upstream.on_message(to_page)

    return handler


async def drop_after(page: Page, state: Msg, done: Callable[[Msg], object]) -> None:
    """Hold the server's frames until one satisfies ``done``, then drop the connection; the
    page reconnects (frames pass again) and resyncs from a snapshot."""
    for _ in range(400):
        if any(done(m) for m in state["held"]):
            break
        await page.wait_for_timeout(25)  # polling the relay's list, not a sync point
    else:
        raise AssertionError(f"never seen: {state['held']}")
    state["hold"] = False
    await state["routes"][-1].close()
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "offline")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")


def test_after_a_resync_the_log_still_names_trick_winners(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        state: Msg = {"hold": False, "held": [], "seen": [], "routes": []}

        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, dropping(state))

        ctx, page = await open_page(browser, server.http + "/#lobby", setup=setup, still=True)
        await set_name(page, "Aoife")
        await twentyfive(page)  # the first trick's winner is told in a missed event
        await page.wait_for_function(MINE)
        log = page.get_by_test_id("log")
        await expect(log).not_to_contain_text("won the trick")
        state["hold"] = True
        await page.locator("[data-testid='hand'] .hcard.legal").first.click()

        def closing(m: Msg) -> bool:
            return m.get("type") == "event" and bool((m.get("closed") or {}).get("trick"))

        await drop_after(page, state, closing)
        trick = next(m for m in state["held"] if closing(m))["closed"]["trick"]
        assert any(m.get("type") == "table_state" for m in state["seen"][-5:])
        winner = "Aoife" if trick["winner"] == 0 else "random bot"
        await expect(log).to_contain_text(f"{winner} won the trick.")
        await ctx.close()

    run(body)


def test_after_a_resync_the_log_still_counts_a_pick_up(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        state: Msg = {"hold": False, "held": [], "seen": [], "routes": []}

        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, dropping(state))

        ctx, page = await open_page(browser, server.http + "/#lobby", setup=setup, still=True)
        await set_name(page, "Aoife")
        state["rules"] = {"voluntary_pickup": True}  # a pick-up is mine to choose
        await kozyri_cards(page)
        take = page.get_by_test_id("action-take")
        for _ in range(60):
            await page.wait_for_function(MINE)
            if await take.count() and await take.is_enabled():
                break
            before = await page.get_by_test_id("table").get_attribute("data-event")
            await page.locator("[data-testid='hand'] .hcard.legal").first.click()
            await expect(page.get_by_test_id("table")).not_to_have_attribute(
                "data-event", before or ""
            )
        else:
            raise AssertionError("no pick-up in sixty turns")
        views = [m["view"] for m in state["seen"] if m.get("type") in ("event", "table_state")]
        count = views[-1]["take_count"]
        state["hold"] = True
        await take.click()

        def taken(m: Msg) -> bool:
            return m.get("type") == "event" and m.get("action") == "take"

        await drop_after(page, state, taken)
        cards = "card" if count == 1 else "cards"
        await expect(page.get_by_test_id("log")).to_contain_text(
            f"Aoife picked up {count} {cards}."
        )
        await ctx.close()

    run(body)


HELD_DELAY = """() => {
  const laid = document.querySelector("[data-testid='table'] .trick-area .last-trick.held .laid");
  return laid ? getComputedStyle(laid).animationDelay : null;
}"""


@pytest.mark.parametrize(
    ("pace", "delay"), [("instant", "0s"), ("fast", "0.5s"), ("normal", "1.1s")]
)
def test_the_trick_hold_follows_the_table_s_pace(
    server: ServerProc, pace: str, delay: str, run: Run
) -> None:
    """A finished trick stays in place for the table's pace before it is gathered: the page
    adds no hold of its own at an instant table."""

    async def body(browser: Browser) -> None:
        state: Msg = {"hold": False, "held": [], "seen": [], "routes": [], "pace": pace}

        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, dropping(state))

        # The page's own request (its route sets the pace under test).
        ctx, page = await open_page(browser, server.http + "/#lobby", setup=setup, pace=None)
        await set_name(page, "Aoife")
        await twentyfive(page)
        held = page.get_by_test_id("trick-held")
        for _ in range(12):  # up to a trick I won and lead after: it stays on the table
            await page.wait_for_function(MINE)
            if await held.count():
                break
            before = await page.get_by_test_id("table").get_attribute("data-event")
            await page.locator("[data-testid='hand'] .hcard.legal").first.click()
            await expect(page.get_by_test_id("table")).not_to_have_attribute(
                "data-event", before or ""
            )
        await expect(held).to_be_visible()
        assert state["seen"] and any(m.get("bot_pace") == pace for m in state["seen"])
        await expect(page.get_by_test_id("table")).to_have_attribute("data-pace", pace)
        assert await page.evaluate(HELD_DELAY) == delay
        await ctx.close()

    run(body)


def test_the_table_shows_who_watches(server: ServerProc, run: Run) -> None:
    """Everyone at a table sees the spectators' count and names; the list follows people
    coming and going, and a crowd shows its first names and how many more."""

    async def body(browser: Browser) -> None:
        state: Msg = {"hold": False, "held": [], "seen": [], "routes": []}

        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, dropping(state))

        ctx, page = await open_page(browser, server.http + "/#lobby", setup=setup, still=True)
        await set_name(page, "Aoife")
        await kozyri_cards(page)
        watchers = page.get_by_test_id("spectators")
        await expect(watchers).to_be_hidden()
        table_id = next(m["table_id"] for m in state["seen"] if m.get("type") == "table_state")
        other, watcher = await open_page(
            browser, f"{server.http}/?table={table_id}", name="Marta", still=True
        )
        await expect(watcher.get_by_test_id("table")).to_be_visible()
        await expect(watchers).to_be_visible()
        await expect(watchers).to_have_text("1 person watching: Marta")
        await expect(watcher.get_by_test_id("spectators")).to_have_text("1 person watching: Marta")
        # A crowd: the server names the first ten and counts the rest.
        crowd = {"type": "spectators", "table_id": table_id, "count": 14}
        crowd["names"] = ["Marta", *(f"P{i}" for i in range(1, 10))]
        state["routes"][-1].send(json.dumps(crowd))
        await expect(watchers).to_contain_text("14 people watching: Marta, P1, P2")
        await expect(watchers).to_contain_text("P9 +4 more")
        # The spectator goes: the list goes too.
        await watcher.get_by_test_id("leave").click()
        await expect(watchers).to_be_hidden()
        await other.close()
        await ctx.close()

    run(body)
