"""What the browser tests share: Debian's Chromium driven by Playwright (never a downloaded
browser), one of it for a whole test session, and the steps a player takes on the page.

``BrowserHost`` runs one Chromium on an event loop of its own thread for the whole session
(of one xdist worker); each test's body runs on that loop and opens its own browser
contexts (fresh profiles), which are closed after it whatever happened.  The fixtures that
hand it to tests are in ``conftest.py``; ``chromium()`` is for tools that run alone.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from playwright.async_api import Browser, BrowserContext, Page, Playwright, async_playwright, expect

CHROMIUM = "/usr/bin/chromium"
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
                executable_path=CHROMIUM, args=ARGS
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


async def open_page(
    browser: Browser,
    url: str,
    *,
    locale: str = "en-GB",
    phone: bool = False,
    name: str | None = None,
    still: bool = False,
    setup: Callable[[BrowserContext], Awaitable[None]] | None = None,
) -> tuple[BrowserContext, Page]:
    """A new browser profile at ``url``; ``name`` as if the player had saved it before;
    ``still`` asks for reduced motion (steady screenshots, and that path tested too);
    ``setup`` runs on the profile before the page opens (routes that watch or stand in)."""
    options: dict[str, object] = {"locale": locale}
    if still:
        options["reduced_motion"] = "reduce"
    if phone:
        options.update(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    context = await browser.new_context(**options)  # type: ignore[arg-type]
    if name is not None:
        await context.add_init_script(f"localStorage.setItem('trumps.name', {name!r})")
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


async def set_name(page: Page, name: str) -> None:
    await page.get_by_test_id("name-input").fill(name)
    await page.get_by_test_id("name-save").click()
    await expect(page.get_by_test_id("connection")).to_have_attribute(
        "data-state", "online", timeout=WAIT
    )


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
