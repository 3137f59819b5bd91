"""The page when the server cannot reach its database or Redis: ``hello`` is answered
``unavailable``; the page says so and asks again by itself (Chromium, the WebSocket
stood in for by Playwright)."""

from __future__ import annotations

import asyncio
import json

from playwright.async_api import Browser, WebSocketRoute, expect

from server.e2e import ServerProc
from web.kit import WAIT, chromium


def test_an_unavailable_server_is_said_and_asked_again(server: ServerProc) -> None:
    async def main() -> None:
        async with chromium() as browser:
            await body(browser)

    async def body(browser: Browser) -> None:
        context = await browser.new_context(locale="en-GB")
        await context.add_init_script("localStorage.setItem('trumps.name', 'Ana')")
        page = await context.new_page()
        hellos: list[float] = []
        second = asyncio.Event()

        def route(ws: WebSocketRoute) -> None:
            def message(raw: str | bytes) -> None:
                msg = json.loads(raw)
                if msg.get("type") != "hello":
                    return
                hellos.append(asyncio.get_running_loop().time())
                if len(hellos) == 1:
                    ws.send(json.dumps({"type": "error", "code": "unavailable",
                                        "message": "the game store cannot be reached"}))  # fmt: skip
                else:
                    second.set()

            ws.on_message(message)

        await page.route_web_socket("**/ws", route)
        await page.goto(server.http + "/#lobby")
        await expect(page.get_by_text("The server cannot store games just now")).to_be_visible(
            timeout=WAIT
        )
        await asyncio.wait_for(second.wait(), 15)
        assert len(hellos) >= 2 and hellos[1] - hellos[0] >= 1.0  # asked again, not at once
        await context.close()

    asyncio.run(main())
