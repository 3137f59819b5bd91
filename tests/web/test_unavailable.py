"""The page when the server cannot reach its database or Redis: ``hello`` is answered
``unavailable``; the page says so and asks again by itself (Chromium, the WebSocket
stood in for by Playwright, the page's timers on Playwright's clock)."""

from __future__ import annotations

import json

from playwright.async_api import Browser, WebSocketRoute, expect

from server.e2e import ServerProc
from web.kit import WAIT, Run

# When the page sends each hello, on its own clock.
HELLO_TIMES_JS = """() => {
  window.__hellos = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === "string" && data.includes('"type":"hello"')) window.__hellos.push(performance.now());
    return send.call(this, data);
  };
}"""


def test_an_unavailable_server_is_said_and_asked_again(server: ServerProc, run: Run) -> None:
    """The first hello is answered ``unavailable``: the page says the server cannot store
    games, and three seconds later by its clock (moved on by the test, not waited for)
    says hello again by itself."""

    async def body(browser: Browser) -> None:
        context = await browser.new_context(locale="en-GB")
        await context.add_init_script("localStorage.setItem('trumps.name', 'Ana')")
        await context.clock.install()
        page = await context.new_page()
        answered: list[int] = []

        def route(ws: WebSocketRoute) -> None:
            def message(raw: str | bytes) -> None:
                if json.loads(raw).get("type") == "hello" and not answered:
                    answered.append(1)
                    ws.send(json.dumps({"type": "error", "code": "unavailable",
                                        "message": "the game store cannot be reached"}))  # fmt: skip

            ws.on_message(message)

        await page.route_web_socket("**/ws", route)
        await page.add_init_script(f"({HELLO_TIMES_JS})()")  # (on the route's WebSocket)
        await page.goto(server.http + "/#lobby")
        await expect(page.get_by_text("The server cannot store games just now")).to_be_visible(
            timeout=WAIT
        )
        await page.clock.run_for(3500)  # the page's timers fired in order, at their times
        await page.wait_for_function("() => window.__hellos.length >= 2")
        first, second = (await page.evaluate("window.__hellos"))[:2]
        assert second - first >= 3000, (first, second)  # asked again by itself, not at once
        await context.close()

    run(body)
