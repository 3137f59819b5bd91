"""A name the player never chose is worded in each viewer's language (issue 26, "Persian
leftovers"): a guest who came in English was "Guest" for everyone, the Persian lobby read
"Guest، ربات …".  The page now says no name in its ``hello``, and words a person without a
name "Guest" / "مهمان" in the viewer's own language, wherever names show."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.async_api import Browser, Page, ViewportSize, expect

from server.e2e import ServerProc
from web.kit import Run, open_page, setting

GUEST_FA = "مهمان"  # msgid "Guest" in locale/fa/LC_MESSAGES/messages.po
# Screenshots for a person to look at, taken when this names a folder (twelve full pages
# cost the suite five seconds that nobody looked at).
SHOTS = os.environ.get("TRUMPS_GUEST_SHOTS")
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


async def play_the_random_bot(page: Page) -> None:
    await page.get_by_test_id("pc-game").select_option("kozyri")
    await page.get_by_test_id("pc-players").select_option("2")
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("table")).to_be_visible()


async def shoot(page: Page, name: str) -> None:
    """Screenshots of the page as a desktop and a phone see it (for people to look at),
    where ``TRUMPS_GUEST_SHOTS`` names a folder for them."""
    if not SHOTS:
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        await page.set_viewport_size(viewport)
        await page.wait_for_timeout(150)  # (the layout settled for the picture only)
        await page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
    await page.set_viewport_size(DESKTOP)


def test_an_unnamed_guest_is_guest_in_each_viewer_s_language(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        # Lena never chose a name; she came in English and plays the computer.
        _, lena = await open_page(browser, server.http + "/#lobby")
        await expect(lena.get_by_test_id("connection")).to_have_attribute("data-state", "online")
        name = lena.get_by_test_id("name-input")
        await expect(name).to_have_value("")  # no name of hers: the field is empty …
        await expect(name).to_have_attribute("placeholder", "Guest")  # … and says the default
        await shoot(lena, "lobby-en-own")
        await play_the_random_bot(lena)
        me = lena.locator(".me-info")
        await expect(me).to_contain_text("Guest")
        await shoot(lena, "table-en")

        # Sara reads Persian: the lobby row and the table word Lena in Persian, never "Guest".
        _, sara = await open_page(browser, server.http + "/#lobby", locale="fa-IR", name="Sara")
        row = sara.locator(".table-list li").first
        await expect(row).to_contain_text(GUEST_FA)
        await expect(row).not_to_contain_text("Guest")
        await shoot(sara, "lobby-fa")
        await row.locator("button").last.click()  # watch
        table = sara.get_by_test_id("table")
        await expect(table).to_be_visible()
        await expect(table.locator(".seat-name").first).to_be_visible()
        names = await table.locator(".seat-name").all_inner_texts()
        assert GUEST_FA in names, names
        await expect(table).not_to_contain_text("Guest")
        await shoot(sara, "table-fa")

        # A chat line of Lena's reaches Sara with the Persian word as its name.
        await lena.locator("details", has=lena.locator("#chat-input")).locator("summary").click()
        await lena.locator("#chat-input").fill("salam")
        await lena.locator("#chat-input").press("Enter")
        line = sara.locator("ul.chat li", has_text="salam")
        await expect(line).to_contain_text(GUEST_FA)
        await expect(line).not_to_contain_text("Guest")

        # Lena watches the lobby in English: her row says "Guest" …
        _, rui = await open_page(browser, server.http + "/#lobby", name="Rui")
        row_en = rui.locator(".table-list li").first
        await expect(row_en).to_contain_text("Guest")
        await shoot(rui, "lobby-en")

        # … and once she switches her page to Persian, her own seat is "مهمان" too.
        await setting(lena, "lang-select", "fa")
        await expect(lena.locator("html")).to_have_attribute("lang", "fa")
        await expect(lena.locator(".me-info")).to_contain_text(GUEST_FA)
        await expect(lena.get_by_test_id("table")).not_to_contain_text("Guest")
        await lena.get_by_test_id("table").locator(".me-info").scroll_into_view_if_needed()
        await shoot(lena, "table-fa-own")

    run(body)


def test_a_chosen_name_is_kept_and_blank_is_not_sent_as_guest(server: ServerProc, run: Run) -> None:
    """The page never sends its own word for no name: a hello carries a chosen name or null."""

    async def body(browser: Browser) -> None:
        context, page = await open_page(browser, server.http + "/#lobby", locale="fa-IR")
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
        name = page.get_by_test_id("name-input")
        await expect(name).to_have_value("")
        await expect(name).to_have_attribute("placeholder", GUEST_FA)
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
        await name.fill("Sara")
        await page.get_by_test_id("name-save").click()
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
        await expect(name).to_have_value("Sara")
        hellos = [f for f in sent if '"hello"' in f]
        assert hellos and all('"name":"Sara"' in f for f in hellos), hellos
        await context.close()

    run(body)
