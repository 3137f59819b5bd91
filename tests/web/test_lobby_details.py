"""Lobby details players noticed (issue "A table people can follow", part 4), in Chromium."""

from __future__ import annotations

from playwright.async_api import Browser, BrowserContext, expect

from server.e2e import ServerProc
from web.kit import LATIN_DIGITS_JS, OVERFLOW_JS, Run, open_page, set_name, setting


def test_a_game_against_the_computer_is_offered_to_watch_not_to_join(
    server: ServerProc, run: Run
) -> None:
    """Ana plays the computer; in Rui's lobby her table has a Watch button and no Join
    button that could never work (it had a dead Join)."""

    async def body(browser: Browser) -> None:
        _, ana = await open_page(browser, server.http + "/#lobby", name="Ana")
        await ana.get_by_test_id("play-computer").click()
        await expect(ana.get_by_test_id("table")).to_be_visible()
        _, rui = await open_page(browser, server.http + "/#lobby", name="Rui")
        row = rui.locator(".table-list li", has_text="Ana")
        await expect(row).to_have_count(1)
        await expect(row.get_by_role("button", name="Watch")).to_be_visible()
        await expect(row.get_by_role("button", name="Join")).to_have_count(0)

    run(body)


def test_a_first_visit_in_persian_gets_a_persian_guest_name(server: ServerProc, run: Run) -> None:
    """Without a saved name the page says who you are in your language ("Guest" stayed
    English in Persian): no name of yours in the field, the default as its placeholder."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", locale="fa-IR")
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
        await expect(page.get_by_test_id("name-input")).to_have_value("")
        await expect(page.get_by_test_id("name-input")).to_have_attribute("placeholder", "مهمان")
        await set_name(page, "Sara")
        await expect(page.get_by_test_id("name-input")).to_have_value("Sara")

    run(body)


def test_the_create_form_fits_its_box_in_every_language_on_a_phone_and_a_desktop(
    server: ServerProc,
    run: Run,
) -> None:
    """ "More options" overflowed its box on a phone (English) and on a desktop in
    Portuguese and French; in Persian the timeout choice was cut off and the grace period
    was written in Latin digits."""

    async def body(browser: Browser) -> None:
        problems: dict[str, list[str]] = {}
        for locale in ("en-GB", "fa-IR", "pt-PT", "fr-FR"):
            for phone in (False, True):
                context, page = await open_page(browser, server.http + "/#lobby", locale=locale,
                                                phone=phone, name="Ana")  # fmt: skip
                bad = await page.evaluate(OVERFLOW_JS)
                if locale == "fa-IR":  # figures in Persian digits (the grace was a number field)
                    shown = await page.get_by_test_id("create-form").evaluate(LATIN_DIGITS_JS)
                    bad += [f"Latin digits: {text}" for text in shown]
                if bad:
                    problems[f"{locale} {'phone' if phone else 'desktop'}"] = bad
                await context.close()
        assert not problems, problems

    run(body)


def test_the_page_works_under_its_content_security_policy(server: ServerProc, run: Run) -> None:
    """The server forbids inline script and style (issue "Hardening the service"): the
    lobby and a Twenty-Five game against bots run with no refusal in the console, and the
    policy is the one the page was served with."""

    async def body(browser: Browser) -> None:
        refusals: list[str] = []

        async def watch(context: BrowserContext) -> None:
            context.on("console", lambda m: refusals.append(m.text)
                       if "Content Security Policy" in m.text else None)  # fmt: skip

        _, page = await open_page(browser, server.http + "/#lobby", name="Ana", setup=watch)
        answer = await page.request.get(server.http + "/#lobby")
        assert "style-src 'self';" in answer.headers["content-security-policy"]
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-players").select_option("4")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        legal = page.locator("[data-testid='hand'] [data-legal='true']")
        for _ in range(3):  # a few of our moves, the bots' cards arriving between them
            await expect(legal.first).to_be_visible()
            await legal.first.click()
        await expect(page.locator("figure.laid").first).to_be_visible()
        assert not refusals, refusals

    run(body)


def test_bots_are_named_in_the_page_language_and_told_apart(server: ServerProc, run: Run) -> None:
    """Three medium bots at one table: each has its own number, in Persian words and
    digits (the page showed the server's English "medium bot 1")."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", locale="fa-IR", name="Sara")
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-players").select_option("4")
        await page.get_by_test_id("pc-level").select_option("medium")
        await page.get_by_test_id("play-computer").click()
        table = page.get_by_test_id("table")
        for n in "۱۲۳":
            await expect(table.get_by_text(f"ربات متوسط {n}", exact=True).first).to_be_visible()
        assert "medium bot" not in await table.inner_text()

    run(body)


def test_lists_of_players_are_written_with_the_languages_comma(
    server: ServerProc, run: Run
) -> None:
    """Persian lists use "،": the history list wrote a Latin comma between the players."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", locale="fa-IR", name="Sara")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("resign")).to_be_visible()
        page.on("dialog", lambda d: d.accept())
        await page.get_by_test_id("resign").click()
        await expect(page.get_by_test_id("resign")).to_be_hidden()
        await page.locator("nav button[data-show='history']").click()
        row = page.locator("#history .rows .row").first
        await expect(row).to_contain_text("Sara")
        text = await row.inner_text()
        assert "،" in text and "," not in text, text

    run(body)


def test_a_first_visit_asks_for_a_name_once(server: ServerProc, run: Run) -> None:
    """A new player was "Guest" without being asked: the lobby now asks (focused), and
    once a name is chosen it asks no more, after a reload too."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby")
        welcome = page.get_by_test_id("welcome")
        await expect(welcome).to_be_visible()
        await expect(page.get_by_test_id("welcome-name")).to_be_focused()
        await page.keyboard.type("Lena")
        await page.keyboard.press("Enter")
        await expect(welcome).to_have_count(0)
        await expect(page.get_by_test_id("name-input")).to_have_value("Lena")
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
        await page.reload()
        await expect(page.get_by_test_id("name-input")).to_have_value("Lena")
        await expect(page.get_by_test_id("welcome")).to_have_count(0)

    run(body)


HIDDEN_TAB_JS = """
window.__notes = [];
window.__tab = "visible";
Object.defineProperty(document, "visibilityState", { get: () => window.__tab });
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push([title, options?.body ?? ""]); }
  close() {}
};
"""


def test_turn_alerts_tell_a_player_in_another_tab_once_per_turn(
    server: ServerProc, run: Run
) -> None:
    """With "Turn alerts" on, the turn coming back while the tab is hidden gives one
    notification; off (the default) or in view, none."""

    async def body(browser: Browser) -> None:
        async def stubs(context: BrowserContext) -> None:
            await context.add_init_script(HIDDEN_TAB_JS)

        _, page = await open_page(browser, server.http + "/#lobby", name="Ana", setup=stubs)
        alerts = page.get_by_test_id("turn-alerts")
        await expect(alerts).not_to_be_checked()  # off by default
        await page.get_by_test_id("play-computer").click()
        table = page.get_by_test_id("table")
        legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")

        async def move_and_wait_for_my_turn() -> None:
            await expect(page.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
            before = int(await table.get_attribute("data-event") or 0)
            await legal.first.click()
            await page.wait_for_function(
                "(n) => Number(document.querySelector(\"[data-testid='table']\").dataset.event) > n"
                " && document.querySelector(\"[data-testid='turn']\").dataset.mine === 'true'",
                arg=before,
            )

        async def notes() -> list[list[str]]:
            return list(await page.evaluate("window.__notes"))

        await page.evaluate("window.__tab = 'hidden'")
        for _ in range(3):  # off: nothing when the turn comes back
            await move_and_wait_for_my_turn()
        assert await notes() == []
        await setting(page, "turn-alerts", True)
        for _ in range(4):  # the bot moves in between at least once in these
            await move_and_wait_for_my_turn()
        told = await notes()
        assert told and all(title == "Your turn" for title, _ in told), told
        assert len(told) <= 4  # at most one a turn
        await page.evaluate("window.__tab = 'visible'")  # in view: no alert
        for _ in range(3):
            await move_and_wait_for_my_turn()
        assert len(await notes()) == len(told)

    run(body)


def test_number_keys_go_left_to_right_along_the_hand(server: ServerProc, run: Run) -> None:
    """The shortcut badges were in the server's order (2, 4, 6, 8 on one suit and 1, 3, 5,
    7 on another): they now count along the hand as it is drawn, and each key plays the
    card that shows its number."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana")
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-players").select_option("2")
        await page.get_by_test_id("play-computer").click()
        hand = page.get_by_test_id("hand")
        legal = hand.locator("[data-legal='true']")
        await expect(page.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
        while await legal.count() < 2:  # a turn with a choice (robbing first, if offered)
            await page.locator(
                "[data-testid^='action-'], [data-testid='hand'] [data-legal='true']"
            ).first.click()
            await expect(page.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
        badges = await hand.locator("button kbd").all_inner_texts()
        assert badges == [str(n) for n in range(1, len(badges) + 1)], badges
        second = await hand.locator("button:has(kbd)").nth(1).get_attribute("data-card")
        await page.keyboard.press("2")
        await expect(hand.locator(f"[data-card='{second}']")).to_have_count(0)

    run(body)


def test_the_invite_box_is_for_a_player_waiting_for_others(server: ServerProc, run: Run) -> None:
    """The invite link of a private table showed to spectators and on the full table."""

    async def body(browser: Browser) -> None:
        _, ana = await open_page(browser, server.http + "/#lobby", name="Ana")
        form = ana.get_by_test_id("create-form")
        await form.get_by_test_id("create-game").select_option("kozyri")
        await form.get_by_test_id("create-seats").select_option("2")
        await form.get_by_test_id("seat-1").select_option("human")
        await form.get_by_test_id("create-private").check()
        await form.get_by_test_id("create-submit").click()
        invite = ana.get_by_test_id("invite-link")
        await expect(invite).to_be_visible()  # a seat to fill: Ana may invite
        url = await invite.get_attribute("href") or await invite.input_value()
        _, rui = await open_page(browser, url, name="Rui")  # Rui takes the seat: full
        await expect(rui.get_by_test_id("table")).to_be_visible()
        await expect(invite).to_be_hidden()
        await expect(rui.get_by_test_id("invite-link")).to_be_hidden()
        _, eve = await open_page(browser, url, name="Eve")  # the link, on a full table: watch
        await expect(eve.get_by_test_id("table")).to_be_visible()
        await expect(eve.get_by_test_id("invite-link")).to_be_hidden()

    run(body)
