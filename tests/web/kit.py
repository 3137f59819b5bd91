"""What the browser tests share: Debian's Chromium driven by Playwright (never a downloaded
browser), one of it for a whole test session, and the steps a player takes on the page.

``BrowserHost`` runs one Chromium on an event loop of its own thread for the whole session
(of one xdist worker); each test's body runs on that loop and opens its own browser
contexts (fresh profiles), which are closed after it whatever happened.  The fixtures that
hand it to tests are in ``conftest.py``; ``chromium()`` is for tools that run alone.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from click.testing import CliRunner
from playwright.async_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    WebSocketRoute,
    async_playwright,
    expect,
)

from trumps.cli import cli

CHROMIUM = "/usr/bin/chromium"
# The tests' browser: Debian's headless-only build of the same Chromium (package
# ``chromium-headless-shell``: the same version and the same Blink) where it is installed.
# The full browser run headless still builds its window's omnibox popup, a WebUI page in a
# renderer of its own, for every browser context: measured, a third of the renderer's work in
# a test and a third of the browser tests' time (``python -m pytest -n 2 tests/web/...``:
# 150 s with ``chromium``, 102 s with the shell, the same 40 tests).
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"


def browser_path() -> str | None:
    """The Chromium the tests drive: the headless shell, else the full browser, else None."""
    for path in (HEADLESS_SHELL, CHROMIUM):
        if os.access(path, os.X_OK):
            return path
    return None


ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(os.environ.get("TRUMPS_ARTIFACTS", Path(__file__).parents[2] / "artifacts"))
SHOTS = ARTIFACTS / "screenshots"
KOZYRI_SEED = 1040  # a short duel when both players play their lowest legal card
WAIT = 20_000  # ms any single expectation may take
BODY_SECONDS = 240  # a whole test body

# Page states the tests wait for: it is my turn; or my turn or the game's end.
MINE = "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
MINE_OR_OVER = (
    "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
    " || !document.querySelector(\"[data-testid='result']\")?.hidden"
)

Msg = dict[str, Any]
Body = Callable[[Browser], Awaitable[None]]
Run = Callable[[Body], None]
T = TypeVar("T")


class BrowserHost:
    """One Chromium on its own thread's event loop; ``run`` gives a test's body to it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="chromium", daemon=True)
        self.thread.start()
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # a test stopped from outside (its timeout) stops its body too
            raise

    async def _browser_up(self) -> Browser:
        """The session's Chromium, started at first use (and again if it went away)."""
        if self._browser is None or not self._browser.is_connected():
            if self._playwright is None:
                self._playwright = await async_playwright().start()
            self._browser = await self._playwright.chromium.launch(
                executable_path=browser_path(), args=ARGS
            )
        return self._browser

    async def _run(self, body: Body) -> None:
        browser = await self._browser_up()
        before = set(browser.contexts)
        try:
            await asyncio.wait_for(body(browser), BODY_SECONDS)
        finally:
            for context in browser.contexts:
                if context not in before:
                    await context.close()

    def run(self, body: Body) -> None:
        """Run ``body`` with the browser; the contexts it opened are closed after it."""
        self._call(self._run(body))

    async def _close(self) -> None:
        if self._browser is not None:
            await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()

    def close(self) -> None:
        try:
            self._call(self._close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=30)
            self.loop.close()


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """A Chromium of its own, for a tool run outside the test session."""
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


# The bots' pace a test page asks for: the page asks for the pace its animation setting
# implies (``normal``: about a second a bot move), which the tests of pacing check; the
# rest ask for ``instant``, the pace the test servers default to, and need no wait.
PACE_JS = """(pace) => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === "string" && data.includes('"bot_pace"')) {
      const msg = JSON.parse(data);
      if (msg.type === "play_computer" || msg.type === "create_table") {
        data = JSON.stringify({ ...msg, bot_pace: pace });
      }
    }
    return send.call(this, data);
  };
}"""


async def open_page(
    browser: Browser,
    url: str,
    *,
    locale: str = "en-GB",
    phone: bool = False,
    name: str | None = None,
    still: bool = False,
    pace: str | None = "instant",
    setup: Callable[[BrowserContext], Awaitable[None]] | None = None,
    size: tuple[int, int, bool] | None = None,
) -> tuple[BrowserContext, Page]:
    """A new browser profile at ``url``; ``name`` as if the player had saved it before;
    ``still`` asks for reduced motion (steady screenshots, and that path tested too);
    ``pace`` is the bots' pace its new tables ask for (None: the page's own choice, for the
    tests of pacing); ``setup`` runs on the profile before the page opens (routes that
    watch or stand in); ``size`` is a window of (width, height, touch) other than the
    desktop's or ``phone``'s."""
    options: dict[str, object] = {"locale": locale}
    if still:
        options["reduced_motion"] = "reduce"
    if phone:
        options.update(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    if size is not None:
        width, height, touch = size
        options.update(
            viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch
        )
    context = await browser.new_context(**options)  # type: ignore[arg-type]
    if name is not None:
        await context.add_init_script(f"localStorage.setItem('trumps.name', {name!r})")
    if pace is not None:
        await context.add_init_script(f"({PACE_JS})({pace!r})")
    if setup is not None:
        await setup(context)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(url)
    await expect(page.locator("html[data-ready='1']")).to_have_count(1, timeout=WAIT)
    page.set_default_timeout(WAIT)
    assert not errors, errors
    return context, page


# The hand at rest: no card of it still moving (arriving from a deal or a pick-up, raised).
HAND_AT_REST = """() => [...document.querySelectorAll("#table [data-testid='hand'] button.hcard")]
  .every((b) => b.getAnimations({ subtree: true }).every((a) => a.playState !== "running"))"""


async def hand_at_rest(page: Page) -> None:
    """Wait until the hand's cards have stopped moving (for tests that measure it)."""
    await page.wait_for_function(HAND_AT_REST)


async def set_name(page: Page, name: str) -> None:
    await page.get_by_test_id("name-input").fill(name)
    await page.get_by_test_id("name-save").click()
    await expect(page.get_by_test_id("connection")).to_have_attribute(
        "data-state", "online", timeout=WAIT
    )


async def setting(page: Page, testid: str, value: str | bool) -> None:
    """Choose a display, sound, language or accessibility setting as a player does: open
    the settings panel from the header, set the control, close the panel again."""
    panel = page.get_by_test_id("settings-panel")
    if not await panel.is_visible():
        await page.get_by_test_id("settings").click()
    await expect(panel).to_be_visible()
    control = page.get_by_test_id(testid)
    if isinstance(value, bool):
        await control.set_checked(value)
    else:
        await control.select_option(value)
    if await panel.is_visible():  # a language change rebuilds the header, closing it
        await page.get_by_test_id("settings").click()
    await expect(panel).to_be_hidden()


def control_id(action: str) -> str:
    """The test id of the control for ``action``: a card or a word action."""
    if len(action) == 2:
        return f"card-{action}"
    return "action-" + action.replace(" ", "-")


async def play(page: Page, action: str) -> None:
    control = page.get_by_test_id(control_id(action))
    if len(action) == 2:  # a card; word actions are shown only when legal
        await expect(control).to_have_attribute("data-legal", "true")
    await control.click()


# The page's WebSocket, for routes that watch or change its frames.
WS_URL = re.compile(r"/ws$")


def relay(
    received: list[Msg], outgoing: Callable[[Msg], Msg] = lambda m: m
) -> Callable[[WebSocketRoute], None]:
    """A WebSocket route that passes every frame through, keeping those the server sent in
    ``received`` and letting ``outgoing`` change what the page sends."""

    def handler(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            upstream.send(json.dumps(outgoing(json.loads(message))))

        def to_page(message: str | bytes) -> None:
            received.append(json.loads(message))
            ws.send(message)

        ws.on_message(to_server)
        upstream.on_message(to_page)

    return handler


async def open_more(page: Page, game: str) -> None:
    await page.get_by_test_id("create-game").select_option(game)
    more = page.get_by_test_id("create-more")
    if await more.get_attribute("open") is None:
        await more.locator("summary").click()
    await expect(page.get_by_test_id("rules-editor")).to_be_visible()


# The create form's fields all inside its box (the phone and desktop layouts).
OVERFLOW_JS = """() => {
  const form = document.querySelector("[data-testid='create-form']");
  form.querySelector("details").open = true;
  const box = form.getBoundingClientRect();
  const bad = [];
  for (const node of form.querySelectorAll("label, select, input, summary, legend, button")) {
    const r = node.getBoundingClientRect();
    if (r.width && (r.left < box.left - 1 || r.right > box.right + 1)) bad.push("outside: " + (node.id || node.textContent));
  }
  const pen = document.createElement("canvas").getContext("2d");
  for (const s of form.querySelectorAll("select")) {  // the chosen option must fit its box
    const cs = getComputedStyle(s);
    pen.font = cs.font;
    const text = s.options[s.selectedIndex]?.text ?? "";
    const room = s.clientWidth - parseFloat(cs.paddingInlineStart) - parseFloat(cs.paddingInlineEnd) - 16;
    if (pen.measureText(text).width > room) bad.push("cut off: " + s.id + " " + text);
  }
  return bad;
}"""

# Figures a Persian form shows in Latin digits.
LATIN_DIGITS_JS = """(form) => [form.innerText,
  ...[...form.querySelectorAll("select")].map((s) => s.options[s.selectedIndex]?.text ?? ""),
  ...[...form.querySelectorAll("input:not([type=checkbox])")].map((i) => i.value)]
  .filter((text) => /[0-9]/.test(text))"""


async def to_a_dimmed_card(page: Page) -> str:
    """Play the first legal card or action at each turn until, at my turn, a card of my
    hand is not legal (a top card to beat); that card's test id."""
    table, result = page.get_by_test_id("table"), page.get_by_test_id("result")
    hand = page.get_by_test_id("hand")
    legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")
    for _ in range(100):
        await page.wait_for_function(MINE_OR_OVER)
        assert not await result.is_visible(), "the game ended before a card was dimmed"
        if await page.get_by_test_id("turn").get_attribute("data-mine") != "true":
            continue
        dimmed = hand.locator("[data-legal='false']")
        if (
            await dimmed.count()
            and await page.locator("[data-testid^='action-trump-']").count() == 0
        ):
            return str(await dimmed.first.get_attribute("data-testid"))
        before = await table.get_attribute("data-event")
        await legal.first.click()
        await expect(table).not_to_have_attribute("data-event", before or "")
    raise AssertionError("no dimmed card in 100 turns")


# The bots' pace a test page asks for, on the way into the page's own engine.
DEVICE_PACE_JS = """() => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.kind === "send" && msg.text.includes('"play_computer"')) {
      msg = { ...msg, text: JSON.stringify({ ...JSON.parse(msg.text), bot_pace: "instant" }) };
    }
    return post.call(this, msg, ...rest);
  };
}"""


async def device_instant(context: BrowserContext) -> None:
    """Bots at once in a page that plays on its own engine (its Web Worker)."""
    await context.add_init_script(f"({DEVICE_PACE_JS})()")


async def play_out(page: Page) -> int:
    """Play the person's first legal move until the game ends; the moves made."""
    result, turn = page.get_by_test_id("result"), page.get_by_test_id("turn")
    legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")
    moves = 0
    while True:
        await page.wait_for_function(MINE_OR_OVER)
        if await result.is_visible():
            return moves
        if await turn.get_attribute("data-mine") != "true":
            continue
        before = await page.get_by_test_id("table").get_attribute("data-event")
        await legal.first.click()
        await expect(page.get_by_test_id("table")).not_to_have_attribute(
            "data-event", before or "", timeout=WAIT
        )
        moves += 1


def check_record(record: dict[str, Any], folder: Path) -> str:
    """What ``trumps record check`` says of ``record``."""
    path = folder / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["record", "check", str(path)])
    assert result.exit_code == 0, result.output
    return result.output


async def my_move(page: Page, legal: Locator) -> bool:
    """At my next turn, the first of ``legal``, and wait for the table to take it; False
    (nothing played) when the game is over first."""
    table = page.get_by_test_id("table")
    await page.wait_for_function(MINE_OR_OVER)
    if await page.get_by_test_id("result").is_visible():
        return False
    before = await table.get_attribute("data-event")
    await legal.first.click()
    await expect(table).not_to_have_attribute("data-event", before or "")
    return True
