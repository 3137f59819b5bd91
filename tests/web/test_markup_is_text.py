"""Markup in names and chat is shown as text, never made into elements (issue 17, a
behaviour that must keep holding: audit gap 6), in Chromium.

Ana is named ``<img src=x onerror=window.__x=1>`` (32 characters, the longest name the
server takes) and chats ``<b>bold</b><script>window.__y=1</script>``.  Wherever her name
or her line is shown — the lobby row of her table, her seat, the spectator list, the chat,
the game log, the list of her games and its replay — the characters are there as text and
no ``img``, ``b`` or ``script`` came of them; ``window.__x`` and ``window.__y`` stay unset.
(The page's Content-Security-Policy would stop the inline handler from running anyway, so
the elements are what the test looks for: a page that parsed the markup would show them.)
"""

from __future__ import annotations

from playwright.async_api import Browser, Locator, Page, expect

from server.e2e import ServerProc
from web.kit import Run, open_page

NAME = "<img src=x onerror=window.__x=1>"
CHAT = "<b>bold</b><script>window.__y=1</script>"

# Elements that the markup above would make if it were parsed (the page's own scripts
# have a src; its cards are images with a real src; it writes no <b>).
MADE_JS = """(root) => [...root.querySelectorAll(
  "[onerror], img[src='x'], b, script:not([src]), script[src='x']")].map((e) => e.outerHTML)"""
RAN_JS = "() => [typeof window.__x, typeof window.__y]"


async def shown_as_text(problems: list[str], where: str, place: Locator, *texts: str) -> None:
    """``place`` shows each of ``texts`` as characters, and holds no element made of them."""
    for text in texts:
        try:
            # (15 s: under the full suite's load a lobby update has taken longer than 5 s)
            await expect(place).to_contain_text(text, timeout=15_000)
        except AssertionError:
            problems.append(f"{where}: {text!r} is not shown: {await place.inner_html()!r}")
    made = await place.evaluate(MADE_JS)
    if made:
        problems.append(f"{where}: elements made from the markup: {made}")


async def nothing_ran(problems: list[str], who: str, page: Page) -> None:
    made = await page.locator("html").evaluate(MADE_JS)
    if made:
        problems.append(f"{who}'s page: elements made from the markup: {made}")
    ran = await page.evaluate(RAN_JS)
    if ran != ["undefined", "undefined"]:
        problems.append(f"{who}'s page: window.__x, window.__y are {ran}")


async def play_computer(page: Page) -> None:
    await page.locator("nav button[data-show='lobby']").click()
    await page.get_by_test_id("pc-game").select_option("kozyri")
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("resign")).to_be_visible()


def test_names_and_chat_with_markup_are_shown_as_text(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        problems: list[str] = []
        _, rui = await open_page(browser, server.http + "/#lobby", name="Rui")
        _, ana = await open_page(browser, server.http + "/#lobby", name=NAME)
        await expect(ana.get_by_test_id("name-input")).to_have_value(NAME)

        # Ana watches Rui's game and chats there: his spectator list and chat.
        await play_computer(rui)
        ruis = ana.locator("#lobby li.row", has_text="Rui")
        await ruis.get_by_role("button", name="Watch").click()
        await expect(ana.get_by_test_id("table")).to_be_visible()
        await shown_as_text(problems, "spectator list", rui.get_by_test_id("spectators"), NAME)
        await ana.locator("#table summary", has_text="Chat").click()
        await ana.locator("#chat-input").fill(CHAT)
        await ana.locator("#chat-input").press("Enter")
        await rui.locator("#table summary", has_text="Chat").click()
        await shown_as_text(problems, "chat", rui.locator("#table ul.chat"), NAME, CHAT)
        await shown_as_text(problems, "her own chat", ana.locator("#table ul.chat"), NAME, CHAT)

        # Ana plays the computer: her row in Rui's lobby, her seat when he watches.
        await play_computer(ana)
        await rui.locator("nav button[data-show='lobby']").click()
        # Her row is found by her name as text (markup made into an element would not
        # match); Rui's own table is listed too, and not always with his name.
        row = rui.locator("#lobby li.row", has_text="playing").filter(has_text=NAME)
        await expect(row).to_have_count(1)
        await shown_as_text(problems, "lobby row", row, NAME)
        await row.get_by_role("button", name="Watch").click()
        await expect(rui.get_by_test_id("table")).to_be_visible()
        await shown_as_text(problems, "seat", rui.locator("#table .opponents"), NAME)

        # She resigns: the game log, then her games and the replay.
        ana.on("dialog", lambda d: d.accept())
        await ana.get_by_test_id("resign").click()
        await expect(ana.get_by_test_id("result")).to_be_visible()
        await shown_as_text(problems, "game log", rui.get_by_test_id("log"), NAME)
        await ana.locator("nav button[data-show='history']").click()
        games = ana.locator("#history .rows .row")
        await expect(games).to_have_count(1)
        await shown_as_text(problems, "her games", games, NAME)
        await games.get_by_role("button", name="Replay").click()
        await shown_as_text(problems, "replay", ana.locator("#history .replay .opponents"), NAME)

        await nothing_ran(problems, "Ana", ana)
        await nothing_ran(problems, "Rui", rui)
        assert not problems, "\n".join(problems)

    assert len(NAME) == 32  # (protocol.MAX_NAME_CHARS: a longer name would be refused)
    run(body)
