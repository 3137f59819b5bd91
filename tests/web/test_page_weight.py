"""What a returning player downloads: a reload of an unchanged page fetches no static file
from the server (issue "a table people can follow", item 5), in Debian's Chromium.

Chromium's own record of each request (the DevTools protocol) says whether the answer came
from the network or from the browser's cache; Playwright's request events fire for both."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Browser

from server.e2e import ServerProc
from web.kit import Run, open_page, set_name


def test_a_reload_fetches_the_page_alone(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        context, page = await open_page(browser, server.http + "/#lobby")
        await set_name(page, "Ana")
        await page.get_by_test_id("play-computer").click()  # a table: its cards are loaded
        await page.locator("[data-testid^='action-trump']").first.click()  # then the deal
        await page.wait_for_selector("#table img.card-img")
        await page.wait_for_load_state("networkidle")
        before = set(
            await page.evaluate(
                "performance.getEntriesByType('resource').map(e => e.name)"
                ".filter(n => n.includes('/static/'))"
            )
        )
        cdp = await context.new_cdp_session(page)
        await cdp.send("Network.enable")
        urls: dict[str, str] = {}
        cached: set[str] = set()
        network: list[str] = []

        def sent(e: dict[str, Any]) -> None:
            urls[e["requestId"]] = e["request"]["url"]

        def from_cache(e: dict[str, Any]) -> None:
            cached.add(e["requestId"])

        def answered(e: dict[str, Any]) -> None:
            response = e["response"]
            if not (response.get("fromDiskCache") or response.get("fromPrefetchCache")):
                network.append(e["requestId"])

        cdp.on("Network.requestWillBeSent", sent)
        cdp.on("Network.requestServedFromCache", from_cache)
        cdp.on("Network.responseReceived", answered)
        await page.reload()
        await page.wait_for_selector("html[data-ready='1']")
        await page.wait_for_selector("#table img.card-img")  # back at the table, cards drawn
        await page.wait_for_load_state("networkidle")
        # Files it had before (a card first drawn now, as the game moved on, is new).
        statics = [i for i, url in urls.items() if url in before]
        assert len(statics) >= 10, "the reload asked for few known files: nothing was measured"
        fetched = [urls[i] for i in statics if i in network and i not in cached]
        assert fetched == [], f"a reload fetched {len(fetched)} static files again: {fetched[:5]}"
        # (the address names the table: /?table=ID)
        page_loads = [u for i, u in urls.items() if i in network and urlsplit(u).path == "/"]
        assert page_loads, "the page itself is revalidated on a reload"
        await context.close()

    run(body)
