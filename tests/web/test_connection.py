"""Connection and tab state is never silent (issue 11, part 2), in Chromium: the server
gone covers the table (nothing playable, "Retry now", retrying at once when the network or
the page comes back, no stale error after recovery); the same game opened in a second tab
tells the first one, which may take the seat back; a reload and a leave are worded as what
happened.  Same harness as ``test_browser.py``: a real ``trumps serve`` and Debian's
Chromium, the WebSocket passed through (or refused) by Playwright."""

from __future__ import annotations

import asyncio
import json
import re

from playwright.async_api import Browser, BrowserContext, Page, WebSocketRoute, expect

from server.e2e import ServerProc
from web.kit import MINE, SHOTS, WAIT, Run, open_page, set_name

WS_URL = re.compile(r"/ws$")
# What may be played now: a raised card, or an enabled word (take, a trump suit, rob …).
PLAYABLE = "[data-testid='hand'] .hcard.legal, [data-testid^='action-']:enabled"


async def against_the_computer(page: Page, *, cards: bool = False) -> None:
    """Start a Svoi Kozyri duel against the random bot and wait for my turn (``cards``:
    choose trumps first, up to a turn with cards to play)."""
    await page.get_by_test_id("pc-game").select_option("kozyri")
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("table")).to_be_visible()
    await page.wait_for_function(MINE, timeout=WAIT)
    if cards:
        await page.locator("[data-testid^='action-trump']:enabled").first.click()
        await expect(page.locator("[data-testid='hand'] .hcard.legal")).not_to_have_count(0)
        await page.wait_for_function(MINE, timeout=WAIT)


async def nothing_playable(page: Page) -> None:
    await expect(page.get_by_test_id("turn")).to_have_attribute("data-mine", "false")
    await expect(page.get_by_test_id("turn")).not_to_have_text("Your turn.")
    await expect(page.locator(PLAYABLE)).to_have_count(0)


def test_the_server_gone_covers_the_table_and_retry_now_reconnects_at_once(
    server: ServerProc,
    run: Run,
) -> None:
    async def body(browser: Browser) -> None:
        up = {"on": True}
        routes: list[WebSocketRoute] = []
        attempts: asyncio.Queue[float] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        async def route(ws: WebSocketRoute) -> None:
            attempts.put_nowait(loop.time())
            if up["on"]:
                ws.connect_to_server()  # frames pass both ways untouched
                routes.append(ws)
            else:
                await ws.close()  # the server is gone: refused

        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, route)
            # The page's timers on a clock the test can move on (it runs as a real one
            # until then): the back-off is checked at each of its steps, not waited out.
            await context.clock.install()

        async def next_attempt(within: float) -> float:
            return await asyncio.wait_for(attempts.get(), within)

        def drain() -> None:
            while not attempts.empty():
                attempts.get_nowait()

        ctx, page = await open_page(browser, server.http + "/#lobby", name="Ana", setup=setup)
        await against_the_computer(page, cards=True)
        overlay = page.get_by_test_id("conn-overlay")
        await expect(overlay).to_be_hidden()
        # The server fails on something, then goes away.
        routes[-1].send(json.dumps({"type": "error", "code": "internal_error", "message": "boom"}))
        await expect(page.locator("#status")).to_be_visible()
        up["on"] = False
        drain()
        await page.clock.pause_at(await page.evaluate("Date.now()") + 10)  # time stands still
        await routes[-1].close()
        await expect(overlay).to_be_visible(timeout=2000)
        await expect(overlay).to_contain_text("No connection to the server")
        await nothing_playable(page)
        # Back off: 1 s, 2 s, then 4 s, each said on the cover before it is tried; "Retry
        # now" does not wait for them.
        when = overlay.locator(".overlay-when")
        for seconds in (1, 2, 4):
            await expect(when).to_have_text(f"Trying again in {seconds} s.")
            await page.clock.run_for(seconds * 1000)
            await next_attempt(2)
        await expect(when).to_have_text("Trying again in 5 s.")  # and then every 5 s at most
        await page.clock.resume()
        await page.screenshot(path=str(SHOTS / "offline-en.png"))
        await page.get_by_test_id("retry-now").click()
        await next_attempt(1.0)
        # The network or the page coming back: at once too.
        await page.evaluate("window.dispatchEvent(new Event('online'))")
        await next_attempt(1.0)
        await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        await next_attempt(1.0)
        # The wait stays capped (never more than 5 s between attempts).
        await expect(overlay).to_contain_text(re.compile(r"Trying again in [1-5] s"))
        text = await overlay.inner_text()
        assert max(int(n) for n in re.findall(r"in (\d+) s", text)) <= 5, text
        # The server is back: the table is playable, nothing stale stays on screen.
        up["on"] = True
        await page.get_by_test_id("retry-now").click()
        await expect(overlay).to_be_hidden()
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
        await expect(page.locator("#status")).to_be_hidden()
        await page.wait_for_function(MINE, timeout=WAIT)
        await expect(page.locator("[data-testid='hand'] .hcard.legal")).not_to_have_count(0)
        await ctx.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_a_second_tab_takes_the_seat_and_the_first_may_take_it_back(
    server: ServerProc,
    run: Run,
) -> None:
    async def body(browser: Browser) -> None:
        context = await browser.new_context(locale="en-GB")
        await context.add_init_script("localStorage.setItem('trumps.name', 'Ana')")
        first = await context.new_page()
        await first.goto(server.http + "/#lobby")
        await expect(first.locator("html[data-ready='1']")).to_have_count(1, timeout=WAIT)
        first.set_default_timeout(WAIT)
        await against_the_computer(first)
        second = await context.new_page()  # the same profile: the same resume token
        second.set_default_timeout(WAIT)
        await second.goto(server.http + "/")  # the first screen: my game comes back there
        await expect(second.get_by_test_id("table")).to_be_visible()
        await second.wait_for_function(MINE, timeout=WAIT)
        overlay = first.get_by_test_id("conn-overlay")
        await expect(overlay).to_be_visible()
        await expect(overlay).to_contain_text("This game is open in another tab.")
        await expect(first.get_by_test_id("turn")).to_have_text("This game is open in another tab.")
        await nothing_playable(first)
        await first.screenshot(path=str(SHOTS / "other-tab-en.png"))
        await first.get_by_test_id("play-here").click()
        await expect(overlay).to_be_hidden()
        await first.wait_for_function(MINE, timeout=WAIT)
        await expect(second.get_by_test_id("conn-overlay")).to_contain_text(
            "This game is open in another tab."
        )
        await nothing_playable(second)
        await context.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_a_reload_and_a_leave_are_worded_as_what_happened(server: ServerProc, run: Run) -> None:
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
        url = await link.input_value()
        ctx_b, taras = await open_page(browser, url, name="Taras")
        await expect(taras.get_by_test_id("table")).to_be_visible()
        log = olena.get_by_test_id("log")
        await expect(log).to_contain_text("The game started.")
        await taras.reload()
        await expect(taras.locator("html[data-ready='1']")).to_have_count(1, timeout=WAIT)
        await expect(log).to_contain_text("Taras reconnected.")
        await expect(log).not_to_contain_text("Taras left")
        await expect(log.locator("li", has_text="Taras sat down")).to_have_count(1)  # at first only
        taras.once("dialog", lambda d: asyncio.ensure_future(d.accept()))
        await taras.get_by_test_id("leave").click()
        await expect(log).to_contain_text("Taras left; a bot plays the seat.")
        await expect(log).not_to_contain_text("until they come back")
        opponents = olena.locator(".opponents")
        await expect(opponents).to_contain_text("left: a bot plays the seat")
        await expect(opponents).not_to_contain_text("for now")
        await ctx_a.close()
        await ctx_b.close()

    run(body)


def test_a_game_left_to_a_bot_is_not_shown_as_a_win_in_the_history(
    server: ServerProc, run: Run
) -> None:
    """Ana starts a duel against the random bot (no grace period) and closes the page while
    Bo watches: the takeover bot finishes it (a table nobody watches would wait for her:
    issue 17); her history says a bot finished it, not "You won!"."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", name="Ana")
        form = page.get_by_test_id("create-form")
        await form.get_by_test_id("create-game").select_option("kozyri")
        await form.get_by_test_id("create-seats").select_option("2")
        await form.get_by_test_id("seat-1").select_option("random")
        await form.locator("details summary").first.click()
        await form.get_by_test_id("create-grace").select_option("0")
        # The form's pace follows the page's animation setting (normal here): a whole duel
        # at a person's pace outlasts the wait below, so this table's bots play at once.
        await form.get_by_test_id("create-pace").select_option("instant")
        await form.get_by_test_id("create-submit").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        invite = await page.get_by_test_id("invite-link").input_value()
        watcher, bo = await open_page(browser, invite, name="Bo")  # the table is full: Bo watches
        await expect(bo.get_by_test_id("table")).to_be_visible()
        await page.goto(server.http + "/healthz")  # the page is gone: a bot plays for Ana
        # Wait (polling, as expect does) until the bot's finished game is stored as hers.
        stored = await page.evaluate(
            """async () => {
              const token = localStorage.getItem('trumps.token');
              for (let i = 0; i < 200; i++) {
                const res = await fetch('/api/games?mine=1', {headers: {Authorization: `Bearer ${token}`}});
                if (((await res.json()).games ?? []).length) return true;
                await new Promise((done) => setTimeout(done, 100));
              }
              return false;
            }"""
        )
        assert stored, "the game was not finished by the bot"
        await page.goto(server.http + "/#lobby")
        await expect(page.locator("html[data-ready='1']")).to_have_count(1, timeout=WAIT)
        await page.locator("nav [data-show='history']").click()
        rows = page.locator("#history li.row")
        await expect(rows).to_have_count(1)
        await expect(rows.first).to_contain_text("You left; a bot finished this game.")
        await expect(rows.first).not_to_contain_text("You won!")
        await expect(rows.first).not_to_contain_text("You lost.")
        await ctx.close()
        await watcher.close()

    run(body)
