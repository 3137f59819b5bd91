"""The page's side of sessions (issue 17 §2), in Chromium: a weak password is refused in
the player's language; "Your sessions" lists every signed-in browser with this one marked,
and ending another one signs that browser out; "Log out" ends the session on the server."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from web.kit import WAIT, Run, open_page

PASSWORD = "correct horse battery staple 42"


async def account_form(page: Page, kind: str, login: str, password: str) -> None:
    """Fill and send the register or log-in form of the lobby's "You" box."""
    await expect(page.get_by_test_id("connection")).to_have_attribute(
        "data-state", "online", timeout=WAIT
    )
    await page.locator("section.box details > summary").first.click()
    form = page.locator("form.stack").nth(0 if kind == "register" else 1)
    await form.locator("input[name=login]").fill(login)
    await form.locator("input[name=password]").fill(password)
    await form.locator("button[type=submit]").click()


def test_a_weak_password_is_refused_in_the_player_s_language(server: ServerProc, run: Run) -> None:
    """``12345678`` and ``password`` made accounts."""

    async def body(browser: Browser) -> None:
        for locale, words in (
            ("fr-FR", "trop facile à deviner"),
            ("fa-IR", "حدس زدن این گذرواژه خیلی آسان است"),
            ("en-GB", "too easy to guess"),
        ):
            _, page = await open_page(browser, server.http + "/#lobby", locale=locale, name="Ana")
            await account_form(page, "register", "weak-ana", "12345678")
            # Said in the register form, by the password field (issue 26).
            form = page.locator("form.stack").nth(0)
            await expect(form).to_contain_text(words, timeout=WAIT)
        assert httpx.post(server.http + "/api/login",
                          json={"login": "weak-ana", "password": "12345678"}).status_code == 401  # fmt: skip

    run(body)


def test_sessions_are_listed_and_ending_one_signs_that_browser_out(
    server: ServerProc, run: Run
) -> None:
    async def body(browser: Browser) -> None:
        _, ana = await open_page(browser, server.http + "/#lobby", name="Ana")
        await account_form(ana, "register", "ana", PASSWORD)
        await expect(ana.get_by_test_id("logout")).to_be_visible(timeout=WAIT)
        _, other = await open_page(browser, server.http + "/#lobby", name="Ana")
        await account_form(other, "login", "ana", PASSWORD)
        await expect(other.get_by_test_id("logout")).to_be_visible(timeout=WAIT)

        await ana.get_by_test_id("sessions-box").locator("summary").click()
        rows = ana.get_by_test_id("session")
        await expect(rows).to_have_count(2, timeout=WAIT)
        current = ana.locator("[data-testid=session]:has([data-testid=session-current])")
        await expect(current).to_have_count(1)
        await expect(current).to_contain_text("(this device)")
        await expect(current).to_contain_text("Chrome")
        await ana.get_by_test_id("session-end").click()
        await expect(rows).to_have_count(1, timeout=WAIT)
        # The other browser's socket was closed; its token opens nothing: a guest again.
        await expect(other.get_by_test_id("logout")).to_have_count(0, timeout=WAIT)
        await expect(other.get_by_text("Register or log in")).to_be_visible(timeout=WAIT)

        token = await ana.evaluate("() => localStorage.getItem('trumps.token')")
        mine = httpx.get(
            server.http + "/api/sessions", headers={"authorization": f"Bearer {token}"}
        )
        assert mine.status_code == 200
        await ana.get_by_test_id("logout").click()
        await expect(ana.get_by_text("Register or log in")).to_be_visible(timeout=WAIT)
        gone = httpx.get(
            server.http + "/api/sessions", headers={"authorization": f"Bearer {token}"}
        )
        assert gone.status_code == 401

    run(body)
