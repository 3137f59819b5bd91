"""The page asks the server for what the games are and what a seat may do (issue 9):
the lobby's lists come from ``GET /api/catalog``, the pick-up count from the view's
``take_count``, and the Twenty-Five joker discard (``discard XX``, rule F17a) is its own
prompt.  Same harness as ``test_browser.py``: a real ``trumps serve`` and Debian's Chromium.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, Route, expect

from server.e2e import ServerProc
from trumps.games import new_game
from trumps.games.viewtypes import twentyfive_view
from web.kit import SHOTS, WS_URL, Run, open_page, relay, set_name

# The server deals table k (counting from 0) with seed JOKER_SEED + k.  With the joker in,
# two players: the first table's dealer is seat 0 (the person) and turns up the joker; the
# second table's dealer is seat 1 (the bot) and does too.  Checked in the test.
JOKER_SEED = 1505
SEED = JOKER_SEED  # the module's server (conftest.py)


Msg = dict[str, Any]


async def options_of(page: Page, test_id: str) -> list[str]:
    values: list[str] = (
        await page.get_by_test_id(test_id)
        .locator("option")
        .evaluate_all("(os) => os.map((o) => o.value)")
    )
    return values


# ------------------------------------------------------------------ the lobby's lists


def test_lobby_lists_come_from_the_catalog(server: ServerProc, run: Run) -> None:
    """The game, player-count, level and preset lists are the server's catalog: first as it
    is, then a doctored one served in its place (so no list can be a constant of the page);
    a catalog that fails to load is said so, with a way to try again."""
    catalog = server.get("/api/catalog").json()
    games = {g["id"]: g for g in catalog["games"]}
    assert games["kozyri"]["default_preset"] == "standard"

    async def lists(page: Page, cat: Msg) -> None:
        await expect(page.get_by_test_id("pc-game")).to_be_visible()
        assert await options_of(page, "pc-game") == [g["id"] for g in cat["games"]]
        assert await options_of(page, "pc-level") == [lv["level"] for lv in cat["levels"]]
        for g in cat["games"]:
            await page.get_by_test_id("pc-game").select_option(g["id"])
            counts = [str(n) for n in range(g["min_players"], g["max_players"] + 1)]
            assert await options_of(page, "pc-players") == counts
            await expect(page.get_by_test_id("pc-players")).to_have_value(str(g["default_players"]))
            await page.get_by_test_id("create-game").select_option(g["id"])
            assert await options_of(page, "create-preset") == [p["name"] for p in g["presets"]]
            await expect(page.get_by_test_id("create-preset")).to_have_value(g["default_preset"])
            assert await options_of(page, "create-seats") == counts

    async def body(browser: Browser) -> None:
        # The real catalog; Twenty-Five's list runs to 10 players.
        ctx, page = await open_page(browser, server.http + "/#lobby", still=True)
        await lists(page, catalog)
        assert await options_of(page, "pc-players") == [str(n) for n in range(2, 11)]
        await page.get_by_test_id("create-game").select_option("kozyri")
        preset = page.get_by_test_id("create-preset")
        await expect(preset.locator("option:checked")).to_have_text("Standard")
        await preset.select_option("pagat")  # a preset for four seats four
        await expect(page.get_by_test_id("create-seats")).to_have_value("4")
        await page.screenshot(path=str(SHOTS / "lobby-catalog-en.png"), full_page=True)
        await ctx.close()

        # A doctored catalog: one level fewer, other counts, a preset the page has no
        # name for (its description from the server stands in).
        doctored = copy.deepcopy(catalog)
        doctored["levels"] = [lv for lv in doctored["levels"] if lv["level"] != "hard"]
        tf = next(g for g in doctored["games"] if g["id"] == "twentyfive")
        tf.update(min_players=3, max_players=5, default_players=5)
        tf["presets"].append(
            {"name": "house", "doc": "our house rules", "players": None, "aliases": []}
        )

        async def serve_doctored(route: Route) -> None:
            await route.fulfill(json=doctored)

        async def setup(context: BrowserContext) -> None:
            await context.route("**/api/catalog", serve_doctored)

        ctx, page = await open_page(browser, server.http + "/#lobby", setup=setup)
        await lists(page, doctored)
        await page.get_by_test_id("create-game").select_option("twentyfive")
        await expect(
            page.get_by_test_id("create-preset").locator("option[value='house']")
        ).to_have_text("our house rules")
        await ctx.close()

        # No catalog: a clear message and a button that loads it again.
        failing = {"on": True}

        async def fail_first(route: Route) -> None:
            if failing["on"]:
                await route.fulfill(status=503, json={"error": "down", "message": "down"})
            else:
                await route.continue_()

        async def setup_failing(context: BrowserContext) -> None:
            await context.route("**/api/catalog", fail_first)

        ctx, page = await open_page(browser, server.http + "/#lobby", setup=setup_failing)
        error = page.get_by_test_id("catalog-error")
        await expect(error).to_contain_text("The games could not be loaded")
        await expect(page.locator("#status")).to_contain_text(
            "The list of games could not be loaded from the server."
        )
        await expect(page.get_by_test_id("pc-game")).to_have_count(0)
        await page.screenshot(path=str(SHOTS / "lobby-no-catalog-en.png"), full_page=True)
        failing["on"] = False
        await error.get_by_role("button", name="Try again").click()
        await expect(page.get_by_test_id("pc-game")).to_be_visible()
        await expect(error).to_have_count(0)
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


# ------------------------------------------------------------------ the pick-up count


def test_take_shows_the_views_take_count(server: ServerProc, run: Run) -> None:
    """Svoi Kozyri, pagat rules (picking up is always allowed, K11) against a random bot:
    when a card is to beat, the take button and the prompt say how many cards the view's
    ``take_count`` (K12) says a pick-up takes."""

    async def body(browser: Browser) -> None:
        received: list[Msg] = []

        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, relay(received))

        ctx, page = await open_page(browser, server.http + "/#lobby", setup=setup, still=True)
        await set_name(page, "Olena")
        form = page.get_by_test_id("create-form")
        await form.get_by_test_id("create-game").select_option("kozyri")
        await form.get_by_test_id("create-preset").select_option("pagat")
        await form.get_by_test_id("create-seats").select_option("2")
        await form.get_by_test_id("seat-1").select_option("random")
        await form.get_by_test_id("create-submit").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        take = page.get_by_test_id("action-take")
        shown = page.get_by_test_id("table")

        async def view_now() -> Msg:
            """The view of the event the page shows, as the server sent it."""
            event = int(await shown.get_attribute("data-event") or -1)
            views = [
                m["view"]
                for m in received
                if m.get("view") and m.get("number", m.get("event")) == event
            ]
            assert views, f"no view of event {event} among {len(received)} frames"
            last: Msg = views[-1]
            return last

        # Play on (first legal card, else the first word) until a pick-up would take
        # several cards, so that the plural is checked too.
        result = page.get_by_test_id("result")
        for _ in range(120):
            await page.wait_for_function(
                "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
                " || !document.querySelector(\"[data-testid='result']\")?.hidden"
            )
            if await result.is_visible():
                pytest.fail("the game ended before a pick-up of several cards")
            view = await view_now()
            if await take.count() and (view["take_count"] or 0) >= 2:
                break
            before = await shown.get_attribute("data-event")
            legal = page.locator("[data-testid='hand'] [data-legal='true']")
            words = page.locator("[data-testid^='action-']")
            await (legal.first if await legal.count() else words.first).click()
            await expect(shown).not_to_have_attribute("data-event", before or "")
        else:
            pytest.fail("never had several cards to pick up")
        n = view["take_count"]
        assert isinstance(n, int) and len(view["pile"]) >= n
        await expect(take).to_have_text(re.compile(rf"^Take {n} cards"))
        await expect(page.locator(".prompt")).to_have_text(re.compile(rf"or take {n} cards\.$"))
        await page.screenshot(path=str(SHOTS / "kozyri-take-en.png"), full_page=True)
        hand = page.get_by_test_id("hand").locator("[data-testid^='card-']")
        held = await hand.count()
        before = await shown.get_attribute("data-event")
        await take.click()
        await expect(shown).not_to_have_attribute("data-event", before or "")
        # The log says how many (issue 11: the view before the pick-up said so).
        await expect(page.get_by_test_id("log")).to_contain_text(f"Olena picked up {n} cards.")
        await expect(hand).to_have_count(held + n)  # the count shown is what was taken
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


# ------------------------------------------------------------------ the joker discard


def test_joker_discard_prompt_and_log(server: ServerProc, run: Run) -> None:
    """F17a with the joker in: the dealer who turns it up discards a card face down.  The
    page calls it a discard (never robbing), offers the hand's cards, and its log names
    the card to the dealer only; the others see "discarded a card" and receive the bare
    ``discard`` action."""
    first = new_game("twentyfive", players=2, rules={"joker": True}, seed=JOKER_SEED)
    assert first.view(0)["dealer"] == 0 and twentyfive_view(first.view(0))["turnup"] == "JK"
    discards = first.legal_actions()
    assert discards and all(a.startswith("discard ") for a in discards)
    second = new_game("twentyfive", players=2, rules={"joker": True}, seed=JOKER_SEED + 1)
    assert second.current_player == 1 and second.legal_actions()[0].startswith("discard ")

    def with_joker(msg: Msg) -> Msg:
        if msg.get("type") == "play_computer":
            return {**msg, "rules": {"joker": True}}
        return msg

    async def start(
        browser: Browser, name: str, received: list[Msg]
    ) -> tuple[BrowserContext, Page]:
        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, relay(received, with_joker))

        ctx, page = await open_page(browser, server.http + "/#lobby", setup=setup, still=True)
        await set_name(page, name)
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-players").select_option("2")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        return ctx, page

    async def body(browser: Browser) -> None:
        # The first table: I dealt and turned up the joker.
        mine: list[Msg] = []
        ctx, page = await start(browser, "Aoife", mine)
        offer = page.get_by_test_id("discard-offer")
        await expect(offer).to_have_attribute(
            "aria-label", "Discard a card face down (you took the turned-up joker)"
        )
        await expect(offer).to_contain_text("Discard face down:")
        await expect(page.locator(".prompt")).to_have_text(
            "The turned-up joker is yours: choose a card to discard face down."
        )
        for action in discards:
            button = offer.get_by_test_id("action-" + action.replace(" ", "-"))
            await expect(button).to_have_attribute(
                "aria-label", re.compile(r"^Discard .+ face down( \d)?$")
            )
        await expect(page.get_by_test_id("table")).not_to_contain_text("Rob")
        await expect(page.get_by_test_id("table")).not_to_contain_text("rob")
        await page.screenshot(path=str(SHOTS / "twentyfive-joker-discard-en.png"), full_page=True)
        card = discards[0].split(" ")[1]
        await offer.get_by_test_id("action-" + discards[0].replace(" ", "-")).click()
        log = page.get_by_test_id("log")
        await expect(log).to_contain_text("Aoife took the turned-up joker and discarded")
        await expect(offer).to_have_count(0)
        await expect(page.get_by_test_id(f"card-{card}")).to_have_count(0)
        await page.screenshot(path=str(SHOTS / "twentyfive-joker-discarded-en.png"), full_page=True)
        mine_actions = [m.get("action") for m in mine if m.get("type") == "event"]
        assert discards[0] in mine_actions  # my own discard comes back with its card
        await ctx.close()

        # The second table: the bot dealt and turned up the joker.
        theirs: list[Msg] = []
        ctx, page = await start(browser, "Kim", theirs)
        log = page.get_by_test_id("log")
        await expect(log).to_contain_text("took the turned-up joker and discarded a card.")
        actions = [m.get("action") for m in theirs if m.get("type") == "event"]
        assert "discard" in actions, actions
        assert not any(a and a.startswith("discard ") for a in actions), actions
        await page.screenshot(path=str(SHOTS / "twentyfive-joker-other-en.png"), full_page=True)
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)
