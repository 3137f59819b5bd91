"""Issue 27 §1: the table fills the window and never scrolls, at every size a player brings
(desktop, laptop, full HD, tablet, phone upright and lying down), from the deal to the
game's end; the others sit around the round in the order they play (mirrored in Persian);
each trick card lies nearer its player's seat than any other's; a finished trick is swept
toward its winner; seats, trick and hand never overlap and stay inside the window."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, expect

from server.e2e import ServerProc
from web.kit import MINE_OR_OVER, SHOTS, Run, my_move, open_page

# The sizes of issue 27 §1: width, height, and whether it is a touch device.
VIEWPORTS = {
    "1280x800": (1280, 800, False),
    "1366x768": (1366, 768, False),
    "1920x1080": (1920, 1080, False),
    "tablet-768x1024": (768, 1024, True),
    "phone-390x844": (390, 844, True),
    "phone-844x390": (844, 390, True),
}

# Everything a player must see, measured at rest: the document's scroll, the seats' plates, the
# cards in the middle, my hand and my plate, the layers shown; and for each card of a trick
# laid in front of its player, the seat whose plate is nearest.
GEOMETRY = """() => {
  // The table at rest: a card flying in has landed, a trick being swept has gone.
  for (const a of document.getAnimations()) a.finish();
  const box = (e) => { const r = e.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom}; };
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden"
    && Number(getComputedStyle(e).opacity) > 0.1;
  const doc = document.documentElement;
  const seats = [...document.querySelectorAll("#table .round .seat")].filter(shown)
    .map((e) => ({seat: Number(e.dataset.seat), ...box(e)}));
  const me = document.querySelector("#table .me-info");
  const mine = me && shown(me) ? box(me) : null;
  const hand = document.querySelector("#table [data-testid='hand']");
  const handBox = hand && shown(hand) && hand.childElementCount ? box(hand) : null;
  const cards = [...document.querySelectorAll("#table .centre .laid")].filter(shown).map((e) => {
    const r = box(e.querySelector(".card") ?? e);
    return {seat: e.dataset.seat === undefined ? null : Number(e.dataset.seat), placed: !!e.closest(".placed"), ...r};
  });
  const layers = [...document.querySelectorAll("#table .layers > *, #table .bubbles > *")]
    .filter((e) => shown(e) && e.childElementCount).map((e) => ({name: e.className, ...box(e)}));
  return {
    scroll: [doc.scrollWidth, doc.scrollHeight, innerWidth, innerHeight, scrollX, scrollY],
    seats, me: mine, hand: handBox, cards, layers,
    mySeat: me ? Number(me.dataset.seat) : null,
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float], slack: float = 1.0) -> bool:
    return (
        min(a["r"], b["r"]) - max(a["l"], b["l"]) > slack
        and min(a["b"], b["b"]) - max(a["t"], b["t"]) > slack
    )


def inside(a: dict[str, float], width: int, height: int) -> bool:
    return a["l"] >= -1 and a["t"] >= -1 and a["r"] <= width + 1 and a["b"] <= height + 1


def centre(a: dict[str, float]) -> tuple[float, float]:
    return ((a["l"] + a["r"]) / 2, (a["t"] + a["b"]) / 2)


def problems(g: dict[str, Any]) -> list[str]:
    """What is wrong with one moment of the table, in words (empty: nothing)."""
    bad: list[str] = []
    sw, sh, w, h, sx, sy = g["scroll"]
    if sw > w or sh > h or sx or sy:
        bad.append(f"the page scrolls: {g['scroll']}")
    seats = g["seats"]
    for item in [*seats, *g["cards"], *g["layers"]] + ([g["hand"]] if g["hand"] else []):
        if not inside(item, w, h):
            bad.append(f"outside the window: {item}")
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            if overlap(a, b):
                bad.append(f"seats overlap: {a} {b}")
        for c in g["cards"]:
            if overlap(a, c, 4):
                bad.append(f"a seat and a card overlap: {a} {c}")
        if g["hand"] and overlap(a, g["hand"]):
            bad.append(f"a seat and the hand overlap: {a}")
    for c in g["cards"]:
        if g["hand"] and overlap(c, g["hand"]):
            bad.append(f"a card in the middle and the hand overlap: {c}")
    # Each trick card is nearer its player's seat (mine: my plate) than any other's.
    places = {s["seat"]: centre(s) for s in seats}
    if g["mySeat"] is not None and g["me"]:
        places[g["mySeat"]] = centre(g["me"])
    for c in g["cards"]:
        if not c["placed"] or c["seat"] not in places:
            continue
        x, y = centre(c)
        nearest = min(places, key=lambda s: (places[s][0] - x) ** 2 + (places[s][1] - y) ** 2)
        if nearest != c["seat"]:
            bad.append(f"the card of seat {c['seat']} lies nearest seat {nearest}")
    return bad


async def start(page: Page, game: str, players: int) -> None:
    await page.get_by_test_id("pc-game").select_option(game)
    await page.get_by_test_id("pc-players").select_option(str(players))
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("round")).to_be_visible()


async def play_on(page: Page, moves: int) -> list[str]:
    """Play the first legal card or action at each of my turns (up to ``moves``, or to the
    game's end), checking the table at each of them; what was wrong, in words."""
    result = page.get_by_test_id("result")
    legal = page.locator(
        "[data-testid='hand'] [data-legal='true'], [data-testid^='action-']:enabled"
    )
    bad: list[str] = []
    for _ in range(moves):
        await page.wait_for_function(MINE_OR_OVER)
        bad += problems(await page.evaluate(GEOMETRY))
        if await result.is_visible():
            break
        await legal.first.click()
    return bad


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize(("game", "players"), [("kozyri", 2), ("twentyfive", 4)])
def test_the_table_fills_the_window_without_scrolling_or_overlapping(
    server: ServerProc, run: Run, size: str, game: str, players: int
) -> None:
    async def body(browser: Browser) -> None:
        async def tips_seen(context: BrowserContext) -> None:
            await context.add_init_script("localStorage.setItem('trumps.walkthrough', 'done')")

        _, page = await open_page(
            browser, server.http + "/#lobby", size=VIEWPORTS[size], name="Aoife", setup=tips_seen
        )
        await start(page, game, players)
        bad = await play_on(page, 8)
        if bad:
            await page.screenshot(path=str(SHOTS / f"round-{game}-{size}.png"))
        assert not bad, bad[:5]

    run(body)


def test_a_whole_game_on_a_phone_never_scrolls(server: ServerProc, run: Run) -> None:
    """From the deal to the result, at every one of my turns, upright and lying down."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", phone=True, name="Nessa")
        await start(page, "twentyfive", 4)
        bad = await play_on(page, 200)
        await expect(page.get_by_test_id("result")).to_be_visible()
        bad += problems(await page.evaluate(GEOMETRY))
        await page.set_viewport_size({"width": 740, "height": 360})
        await expect(page.get_by_test_id("result")).to_be_visible()
        bad += problems(await page.evaluate(GEOMETRY))
        assert not bad, bad[:5]

    run(body)


# The plates' centres across the window, by seat.
SEAT_X = """() => Object.fromEntries([...document.querySelectorAll("#table .round .seat")]
  .map((e) => { const r = e.getBoundingClientRect(); return [e.dataset.seat, [r.left + r.width / 2, r.top + r.height / 2]]; }))"""


# My hand's cards in their order: where each begins across the window, and whether its rank
# corner (top left) shows, not covered by a neighbour.
HAND_CARDS = """() => [...document.querySelectorAll("#table [data-testid='hand'] button.hcard")]
  .map((b) => { const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + 0.1 * r.width, r.top + 0.08 * r.height);
    return [r.left, b.contains(hit)]; })"""
FOCUSED_LEFT = "() => document.activeElement.getBoundingClientRect().left"


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("fa-IR", "fa")])
def test_the_others_sit_around_in_the_order_they_play(
    server: ServerProc, run: Run, locale: str, lang: str
) -> None:
    """Four players, me at seat 0: seat 1 plays next and sits on my left, seat 2 across,
    seat 3 on my right — mirrored in a right-to-left language, and my hand with them: laid
    right to left in Persian, every card's rank corner in view, the arrow keys moving the
    way they point."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", locale=locale, name="Aoife")
        await expect(page.locator(f"html[lang='{lang}']")).to_have_count(1)
        await start(page, "twentyfive", 4)
        places = await page.evaluate(SEAT_X)
        assert set(places) == {"1", "2", "3"}, places
        xs = [places[s][0] for s in ("1", "2", "3")]
        ys = [places[s][1] for s in ("1", "2", "3")]
        if lang == "fa":
            assert xs[0] > xs[1] > xs[2], places
        else:
            assert xs[0] < xs[1] < xs[2], places
        assert ys[1] < ys[0] and ys[1] < ys[2], places  # across the table: at the top

        cards = await page.evaluate(HAND_CARDS)
        assert len(cards) == 5 and all(shown for _, shown in cards), cards
        lefts = [left for left, _ in cards]
        assert lefts == sorted(lefts, reverse=lang == "fa"), lefts
        second = page.locator("#table [data-testid='hand'] button.hcard").nth(1)
        await second.focus()
        before = await page.evaluate(FOCUSED_LEFT)
        await page.keyboard.press("ArrowLeft")
        assert await page.evaluate(FOCUSED_LEFT) < before

    run(body)


# A held trick's cards moved to the end of their sweep: each card's centre before and after,
# and the winner's plate (or my plate when I won).
SWEEP = """() => {
  const held = document.querySelector("#table [data-testid='trick-held']");
  if (!held) return null;
  const winner = held.dataset.winner;
  const plate = document.querySelector(`#table .round .seat[data-seat='${winner}']`) ?? document.querySelector("#table .me-info");
  const c = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const cards = [...held.querySelectorAll(".laid")];
  const before = cards.map(c);
  for (const card of cards) for (const a of card.getAnimations()) {
    a.pause();
    const timing = a.effect.getComputedTiming();
    a.currentTime = timing.delay + timing.duration * 0.99;
  }
  return {winner, plate: c(plate), before, after: cards.map(c)};
}"""


def test_a_finished_trick_is_swept_toward_its_winner(server: ServerProc, run: Run) -> None:
    """A duel at the page's own pace: a trick my card completes is held, then swept."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Aoife", pace=None)
        await start(page, "twentyfive", 2)
        legal = page.locator(
            "[data-testid='hand'] [data-legal='true'], [data-testid^='action-']:enabled"
        )
        swept = None
        for _ in range(30):
            if not await my_move(page, legal):
                break
            swept = await page.evaluate(SWEEP)
            if swept:
                break
        assert swept, "no trick my card completed was held on the table"
        px, py = swept["plate"]
        for (bx, by), (ax, ay) in zip(swept["before"], swept["after"], strict=True):
            assert (ax - px) ** 2 + (ay - py) ** 2 < (bx - px) ** 2 + (by - py) ** 2, swept

    run(body)


SOUNDS = """() => [(document.documentElement.dataset.soundLog ?? "").split(" ").filter(Boolean),
  Number(document.documentElement.dataset.sounds ?? 0)]"""
HEARD = "(kind) => (document.documentElement.dataset.soundLog ?? '').split(' ').includes(kind)"
FORGET = "() => { delete document.documentElement.dataset.soundLog; }"


def test_the_table_sounds_after_a_first_touch_and_one_switch_mutes_it(
    server: ServerProc, run: Run
) -> None:
    """Your turn, a card, a trick won and the end each have a sound; none is made before the
    player first touches the page (as browsers require), and the header's speaker button
    silences them all and is kept."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Aoife")
        await start(page, "twentyfive", 2)
        await page.wait_for_function(MINE_OR_OVER)
        await page.wait_for_function(HEARD, arg="turn")
        kinds, played = await page.evaluate(SOUNDS)
        assert played >= 1, kinds
        await page.evaluate(FORGET)
        await page.locator("[data-testid='hand'] [data-legal='true']").first.click()
        await page.wait_for_function(HEARD, arg="trick")
        kinds, now = await page.evaluate(SOUNDS)
        assert "card" in kinds and now > played, (kinds, now)

        # Muted: the page still knows which sound each moment has, and makes none.
        sound = page.get_by_test_id("sound")
        await sound.click()
        await expect(sound).to_have_attribute("aria-pressed", "false")
        await page.evaluate(FORGET)
        _, played = await page.evaluate(SOUNDS)
        await page.wait_for_function(MINE_OR_OVER)
        await page.locator("[data-testid='hand'] [data-legal='true']").first.click()
        await page.wait_for_function(HEARD, arg="trick")
        assert (await page.evaluate(SOUNDS))[1] == played

        # Kept across a reload; back on, a reload makes no sound before a touch.
        await page.reload()
        await expect(page.get_by_test_id("sound")).to_have_attribute("aria-pressed", "false")
        await page.get_by_test_id("sound").click()
        await page.reload()
        await page.wait_for_function(MINE_OR_OVER)
        await page.wait_for_function(HEARD, arg="turn")
        assert (await page.evaluate(SOUNDS))[1] == 0
        page.once("dialog", lambda d: asyncio.ensure_future(d.accept()))  # "Resign this game?"
        await page.get_by_test_id("resign").click()
        await page.wait_for_function(HEARD, arg="end")
        assert (await page.evaluate(SOUNDS))[1] == 1  # the click on Resign was the first touch

    run(body)
