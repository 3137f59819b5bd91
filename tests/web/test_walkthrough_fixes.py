"""What a walkthrough of the page as a new player found (English and Persian, desktop and
phone), in Chromium: Persian rule ids and cards written in one script, the focus ring of a
dimmed card, three-digit log numbers, a weak password said by its field, no stale "no such
table" on the next table, the last trick whole at the end of a game, "provisional" said
where a provisional rating is shown, and no Hint button at a rated table."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Browser, BrowserContext, Page, WebSocketRoute, expect

from server.e2e import ServerProc
from trumps.games import new_game
from trumps.records import record_of
from trumps.store import SqlStore
from web.kit import MINE_OR_OVER, WAIT, Run, open_page, setting

PASSWORD = "correct horse battery staple 42"
WS_URL = re.compile(r"/ws$")
EVENT = "() => document.querySelector(\"[data-testid='table']\").dataset.event"
LEGAL = "[data-testid='hand'] [data-legal='true'], [data-testid^='action-']"
_LOGINS = itertools.count(1)


# ---------------------------------------------------------------- steps


async def bots_table(page: Page, game: str, players: int, *, preset: str | None = None) -> None:
    """A table of mine against ``random`` bots that move at once (the create form's pace
    "at once"), opened."""
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    form = page.get_by_test_id("create-form")
    await form.get_by_test_id("create-game").select_option(game)
    if preset is not None:
        await form.get_by_test_id("create-preset").select_option(preset)
    await form.get_by_test_id("create-seats").select_option(str(players))
    for seat in range(1, players):
        await form.get_by_test_id(f"seat-{seat}").select_option("random")
    await form.get_by_test_id("create-more").locator("summary").click()
    await form.get_by_test_id("create-pace").select_option("instant")
    await form.get_by_test_id("create-submit").click()
    await expect(page.get_by_test_id("table")).to_be_visible()


async def vs_computer(page: Page, game: str, players: int, *, rated: bool = False) -> None:
    """The lobby's "Play the computer" against the ``random`` level."""
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    await page.get_by_test_id("pc-game").select_option(game)
    await page.get_by_test_id("pc-players").select_option(str(players))
    await page.get_by_test_id("pc-level").select_option("random")
    box = page.get_by_test_id("pc-rated")
    if rated:
        await box.check()
    elif await box.is_enabled():
        await box.uncheck()
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("table")).to_be_visible()


async def move(page: Page) -> None:
    """Play the first legal action and wait for the table to move on."""
    before = await page.evaluate(EVENT)
    await page.locator(LEGAL).first.click()
    await page.wait_for_function(f"() => ({EVENT})() !== {json.dumps(before)}")


async def play_to_the_end(page: Page, most: int = 80) -> None:
    result = page.get_by_test_id("result")
    for _ in range(most):
        await page.wait_for_function(MINE_OR_OVER)
        if await result.is_visible():
            return
        await move(page)
    raise AssertionError("the game did not end")


def new_account(server: ServerProc, name: str) -> str:
    """A new account (its login unique on the module's server): its resume token."""
    login = f"{name.lower()}-walk-{next(_LOGINS)}"
    made = server.post("/api/accounts", json={"login": login, "password": PASSWORD, "name": name})
    assert made.status_code == 201, made.text
    return str(made.json()["resume_token"])


def signed_in(token: str) -> Callable[[BrowserContext], Awaitable[None]]:
    """A browser profile that holds ``token``, as after logging in."""

    async def setup(context: BrowserContext) -> None:
        await context.add_init_script(
            f"localStorage.setItem('trumps.token', {token!r});"
            " localStorage.setItem('trumps.named', '1')"
        )

    return setup


def accept_dialogs(page: Page) -> None:
    page.on("dialog", lambda d: asyncio.ensure_future(d.accept()))


async def rated_vs_computer(
    browser: Browser, server: ServerProc, locale: str, name: str, token: str
) -> Page:
    """The account of ``token`` signed in, at a rated Svoi Kozyri duel against the computer,
    its turn: the page."""
    _, page = await open_page(
        browser,
        server.http + "/#lobby",
        locale=locale,
        name=name,
        still=True,
        setup=signed_in(token),
    )
    accept_dialogs(page)
    await vs_computer(page, "kozyri", 2, rated=True)
    await page.wait_for_function(MINE_OR_OVER)
    return page


# ---------------------------------------------------------------- 1. Persian: one script

MIXED = re.compile(r"[A-Za-z][۰-۹]|[۰-۹][A-Za-z]")  # "F۴"
LATIN_CARD = re.compile(r"(?:[AKQJ]|10|[2-9])\s?[♠♥♦♣]")  # "Q♠", "10♥" (Latin digits)


def test_persian_rules_help_and_log_write_rule_ids_and_cards_in_one_script(
    server: ServerProc, run: Run
) -> None:
    """In Persian the rule ids of "How to play" stay Latin identifiers ("F4", never "F۴"),
    isolated left to right; cards in the log and the hand summary are written with Persian
    rank words and digits ("بی‌بی♠", "۱۰♥"), never "Q♠"."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(
            browser, server.http + "/#lobby", locale="fa-IR", name="Ana", still=True
        )
        await bots_table(page, "twentyfive", 4)
        log = page.get_by_test_id("log")
        # until the log has shown an ace or a picture card (a card written without digits)
        for _ in range(30):
            await page.wait_for_function(MINE_OR_OVER)
            words = [
                t
                for t in await log.locator(".card-text").all_inner_texts()
                if not re.search("[0-9۰-۹]", t)
            ]
            if words or await page.get_by_test_id("result").is_visible():
                break
            await move(page)
        assert words, await log.inner_text()
        shown = await log.inner_text() + await page.locator(".felt").inner_text()
        assert not MIXED.search(shown), MIXED.findall(shown)
        assert not LATIN_CARD.search(shown), LATIN_CARD.findall(shown)
        assert all(re.search("[\u0600-\u06ff]", w) for w in words), words

        await page.get_by_test_id("help-open").click()
        help_box = page.get_by_test_id("help")
        for game in ("kozyri", "twentyfive"):
            await page.get_by_test_id(f"help-tab-{game}").click()
            rules = help_box.get_by_test_id(f"rules-{game}")
            await expect(rules).to_be_visible()
            text = await rules.inner_text()
            assert not MIXED.search(text), MIXED.findall(text)
            assert not LATIN_CARD.search(text), LATIN_CARD.findall(text)
            ids = await rules.locator(".rule-id bdi").all_inner_texts()
            assert ids and all(re.fullmatch(r"[KF]\d+[a-z]?", x) for x in ids), ids
            dirs = await rules.locator(".rule-id bdi").evaluate_all(
                "(xs) => xs.map((x) => getComputedStyle(x).direction)"
            )
            assert set(dirs) == {"ltr"}, dirs

    run(body)


# ---------------------------------------------------------------- 2. the focus ring

# The ring of the focused card as painted: its colours (outline, box-shadow) through the
# filters of the card and its ancestors, the colour just outside the card (inner) and at the
# ring's outer edge, against the card's face (white through the same filters) and the
# table (both ends of the felt's gradient).
RING = """() => {
  const probe = document.createElement("span");
  document.body.append(probe);
  const rgb = (c) => { probe.style.color = ""; probe.style.color = c.trim();
    const p = getComputedStyle(probe).color.match(/[\\d.]+/g).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const clamp = (v) => Math.max(0, Math.min(255, v));
  const apply = (c, filter) => {
    let [r, g, b, a] = c;
    for (const [, fn, arg] of filter.matchAll(/([a-z-]+)\\(([^)]*)\\)/g)) {
      const x = arg.trim().endsWith("%") ? parseFloat(arg) / 100 : parseFloat(arg);
      if (fn === "brightness") [r, g, b] = [r * x, g * x, b * x].map(clamp);
      else if (fn === "saturate") [r, g, b] = [
        (0.213 + 0.787 * x) * r + (0.715 - 0.715 * x) * g + (0.072 - 0.072 * x) * b,
        (0.213 - 0.213 * x) * r + (0.715 + 0.285 * x) * g + (0.072 - 0.072 * x) * b,
        (0.213 - 0.213 * x) * r + (0.715 - 0.715 * x) * g + (0.072 + 0.928 * x) * b].map(clamp);
      else if (fn === "opacity") a *= x;
      else throw new Error("filter not modelled: " + fn);
    }
    return [r, g, b, a];
  };
  const painted = (c, node) => {
    for (let n = node; n; n = n.parentElement) {
      const f = getComputedStyle(n).filter;
      if (f && f !== "none") c = apply(c, f);
    }
    return c;
  };
  const card = document.activeElement;
  const s = getComputedStyle(card);
  const root = getComputedStyle(document.documentElement);
  const felt = [rgb(root.getPropertyValue("--felt")), rgb(root.getPropertyValue("--felt-dark"))];
  const img = card.querySelector("img");
  const face = painted([255, 255, 255, 1], img);
  const width = s.outlineStyle === "none" ? 0 : parseFloat(s.outlineWidth);
  const offset = parseFloat(s.outlineOffset);
  const outline = painted(rgb(s.outlineColor), card);
  // box-shadows without blur or offset: rings of `spread` px around the card
  const rings = [...s.boxShadow.matchAll(/(rgba?\\([^)]*\\)) (-?[\\d.]+)px (-?[\\d.]+)px (-?[\\d.]+)px (-?[\\d.]+)px/g)]
    .filter((m) => !s.boxShadow.includes("inset") && +m[2] === 0 && +m[3] === 0 && +m[4] === 0)
    .map((m) => ({ colour: painted(rgb(m[1]), card), spread: +m[5] }));
  const at = (d) => {  // the colour painted at distance d outside the card's box
    if (width && d >= offset && d < offset + width) return outline;
    const ring = rings.filter((r) => d < r.spread).sort((p, q) => p.spread - q.spread)[0];
    return ring ? ring.colour : null;
  };
  const reach = Math.max(width ? offset + width : 0, ...rings.map((r) => r.spread), 0);
  const inner = at(0.01);
  const outer = at(reach - 0.01);
  probe.remove();
  const out = { width: reach, dimmed: card.getAttribute("aria-disabled") === "true", inner: null, outer: [] };
  out.inner = inner ? ratio(inner, face) : 0;
  out.outer = felt.map((f) => (outer ? ratio(outer, f) : 0));
  return out;
}"""


def test_the_focus_ring_of_a_dimmed_card_contrasts_with_the_table_and_the_card(
    server: ServerProc, run: Run
) -> None:
    """A dimmed (not playable) card focused from the keyboard: its ring is at least 3:1
    against the card's face inside it and against the table outside it (WCAG 1.4.11), in the
    light and dark colour schemes and the standard and high-contrast themes."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana", still=True)
        await bots_table(page, "twentyfive", 2)
        dimmed = page.locator(".hand.my-turn button.hcard[aria-disabled='true']")
        for _ in range(30):
            await page.wait_for_function(MINE_OR_OVER)
            if await dimmed.count():
                break
            if await page.get_by_test_id("result").is_visible():
                await page.get_by_test_id("rematch").click()
                continue
            await move(page)
        await expect(dimmed.first).to_be_visible()
        # The keyboard's way into the hand, then along it to a dimmed card.
        await page.locator("[data-testid='hand'] button.hcard[tabindex='0']").focus()
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowLeft")
        for _ in range(12):
            if await page.evaluate("() => document.activeElement.ariaDisabled === 'true'"):
                break
            await page.keyboard.press("ArrowRight")
        bad: dict[str, object] = {}
        for scheme in ("light", "dark"):
            await page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            for theme in ("standard", "contrast"):
                # The theme's control set in place (the settings panel left closed), so that
                # the keyboard's focus stays on the card.
                await page.get_by_test_id("theme").select_option(theme, force=True)
                await expect(page.locator("html")).to_have_attribute("data-theme", theme)
                ring = await page.evaluate(RING)
                assert ring["dimmed"], ring
                if ring["width"] < 2 or ring["inner"] < 3 or min(ring["outer"]) < 3:
                    bad[f"{scheme} {theme}"] = ring
        assert not bad, bad

    run(body)


# ---------------------------------------------------------------- 3. log numbers

# Room for the list marker of the n-th line of the log ("100. ", "۱۰۰. "): its width in the
# marker's font against the space before the line, inside the scrolling list.
MARKER_ROOM = """(n) => {
  const ol = document.querySelector("[data-testid='log']");
  const li = ol.children[n - 1];
  const marker = getComputedStyle(li, "::marker");
  const type = getComputedStyle(li).listStyleType;
  const digits = type === "persian" ? String(n).replace(/[0-9]/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[+d]) : String(n);
  const probe = document.createElement("span");
  probe.textContent = digits + ". ";
  for (const p of ["font-family", "font-size", "font-weight", "font-style", "font-variant-numeric", "letter-spacing"]) {
    probe.style.setProperty(p, marker.getPropertyValue(p));
  }
  probe.style.whiteSpace = "pre";
  probe.style.position = "absolute";
  document.body.append(probe);
  const need = probe.getBoundingClientRect().width;
  probe.remove();
  const box = ol.getBoundingClientRect();
  const line = li.getBoundingClientRect();
  const s = getComputedStyle(ol);
  const room = s.direction === "rtl" ? box.right - parseFloat(s.borderRightWidth) - line.right
    : line.left - box.left - parseFloat(s.borderLeftWidth);
  return { type, digits, need, room, lines: ol.children.length };
}"""


# [top, bottom] of the log's box, the list, its newest line and the chat's box below it
LOG_AT_END = """() => {
  const log = document.querySelector("#table [data-testid='log']");
  return log.lastElementChild.getBoundingClientRect().bottom <= log.getBoundingClientRect().bottom + 1;
}"""

LOG_BOX = """() => {
  const log = document.querySelector("#table [data-testid='log']");
  const y = (n) => { const r = n.getBoundingClientRect(); return [r.top, r.bottom]; };
  return { box: y(log.closest("details")), log: y(log), last: y(log.lastElementChild),
           chat: y(document.querySelector("#table .chat-box")) };
}"""


def test_log_numbers_past_99_are_shown_whole_in_english_and_persian(
    server: ServerProc, run: Run
) -> None:
    """A long game of six (first to 45): the log's 100th line is numbered "100." (and
    "۱۰۰." in Persian) with room for every digit; it was cut to "00.". The long log scrolls
    inside its box, its newest line in view (it grew over the chat, its end out of sight)."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana", still=True)
        await bots_table(page, "twentyfive", 6, preset="forty-five")
        lines = page.get_by_test_id("log").locator("li")
        for _ in range(60):
            await page.wait_for_function(MINE_OR_OVER)
            if await lines.count() > 100:
                break
            await move(page)
        assert await lines.count() > 100
        # the log scrolls inside its box, its newest line in view, clear of the chat below
        # (the page scrolls the log at the next frame after drawing a line: wait for it)
        await page.wait_for_function(LOG_AT_END)
        box = await page.evaluate(LOG_BOX)
        assert box["log"][1] <= box["box"][1] <= box["chat"][0], box
        assert box["log"][0] <= box["last"][0] and box["last"][1] <= box["log"][1] + 1, box
        found = {}
        for lang in ("en", "fa"):
            await setting(page, "lang-select", lang)
            await expect(page.locator("html")).to_have_attribute("lang", lang)
            await expect(lines.nth(100)).to_be_attached()
            found[lang] = await page.evaluate(MARKER_ROOM, 100)
        assert found["fa"]["type"] == "persian" and found["fa"]["digits"] == "۱۰۰", found
        assert all(f["need"] <= f["room"] for f in found.values()), found

    run(body)


# ---------------------------------------------------------------- 4. a weak password


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en-GB", "too easy to guess"), ("fa-IR", "حدس زدن این گذرواژه خیلی آسان است")],
)
def test_a_weak_password_is_said_once_by_the_password_field(
    server: ServerProc, locale: str, words: str, run: Run
) -> None:
    """Registering with "12345678": the reason is said once, under the password field (in
    view, tied to it by aria-describedby), not in the banner at the top of the page; the
    login, the password and the name typed stay for the player to fix."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", locale=locale, name="Ana")
        await page.set_viewport_size({"width": 390, "height": 844})
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
        await page.get_by_test_id("name-input").fill("Ana Maria")
        await page.locator("section.box details > summary").first.click()
        form = page.locator("form.stack").nth(0)
        login, password = form.locator("input[name=login]"), form.locator("input[name=password]")
        await login.fill("ana-weak")
        await password.fill("12345678")
        await form.locator("button[type=submit]").click()
        said = form.get_by_text(words)
        await expect(said).to_be_visible(timeout=WAIT)
        await expect(said).to_be_in_viewport()
        await expect(page.locator("#status")).to_be_hidden()
        text = await page.locator("body").inner_text()
        assert text.count(words) == 1, text
        assert "too easy" not in text.replace(words, "", 1), text  # not the server's words too
        described = await password.get_attribute("aria-describedby") or ""
        assert described, "the password field is not tied to its error"
        said_id = await said.evaluate("(n) => n.closest('[id]')?.id")
        assert said_id in described.split(), (said_id, described)
        await expect(password).to_have_attribute("aria-invalid", "true")
        await expect(login).to_have_value("ana-weak")
        await expect(password).to_have_value("12345678")
        await expect(page.get_by_test_id("name-input")).to_have_value("Ana Maria")
        # the form below and above it did not move away: the field is in view too
        await expect(password).to_be_in_viewport()

    run(body)


# ---------------------------------------------------------------- 5. a stale error


def test_no_stale_no_such_table_error_on_the_next_table(server: ServerProc, run: Run) -> None:
    """Resign a game against the computer, stay on its result, go back to the lobby, play
    again. A finished table is dropped by the server a minute after its end, and the page's
    leave_table is then answered "no_such_table" (here passed on to the page as the server
    sends it, without the minute's wait, after the next table opened): it is about a table
    the player left, so it shows on no other table."""

    async def body(browser: Browser) -> None:
        routes: list[WebSocketRoute] = []
        left: list[str] = []

        def handler(ws: WebSocketRoute) -> None:
            upstream = ws.connect_to_server()
            routes.append(ws)

            def to_server(message: str | bytes) -> None:
                msg = json.loads(message)
                if msg.get("type") == "leave_table":
                    left.append(msg["table_id"])
                upstream.send(message)

            ws.on_message(to_server)

        async def setup(context: BrowserContext) -> None:
            await context.route_web_socket(WS_URL, handler)

        _, page = await open_page(
            browser, server.http + "/#lobby", name="Ana", still=True, setup=setup
        )
        accept_dialogs(page)
        await vs_computer(page, "kozyri", 2)
        await page.wait_for_function(MINE_OR_OVER)
        await page.get_by_test_id("resign").click()
        await expect(page.get_by_test_id("result")).to_be_visible()
        await page.get_by_test_id("leave").click()
        await expect(page.get_by_test_id("lobby")).to_be_visible()
        assert left, "the page did not leave the finished table"
        await vs_computer(page, "kozyri", 2)
        await page.wait_for_function(MINE_OR_OVER)
        table_id = await page.evaluate(
            "() => document.querySelector(\"[data-testid='invite-link']\").value.split('table=')[1]"
        )
        old = left[-1]
        assert old != table_id
        late = {"type": "error", "code": "no_such_table", "message": f"no table {old!r}"}
        routes[-1].send(json.dumps({**late, "table_id": old, "why": None, "rule": None}))
        # A message after it, so that the page has handled it: someone watches this table.
        routes[-1].send(
            json.dumps({"type": "spectators", "table_id": table_id, "count": 1, "names": ["Zed"]})
        )
        await expect(page.get_by_test_id("spectators")).to_contain_text("Zed")
        await expect(page.locator("#status")).to_be_hidden()
        await expect(page.get_by_text("There is no such table.")).to_have_count(0)

    run(body)


# ---------------------------------------------------------------- 6. the last trick

LAID = """() => {
  const busy = document.getAnimations().filter((a) => a.playState === "running" || a.playState === "pending");
  if (busy.length) return null;  // still moving: ask again
  return [...document.querySelectorAll("#table .felt .laid")].map((laid) => {
    let opacity = 1;
    for (let n = laid; n && n.id !== "table"; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    return { card: laid.querySelector("[data-card]")?.dataset.card, opacity, transform: getComputedStyle(laid).transform };
  });
}"""


@pytest.mark.parametrize("still", [False, True], ids=["animated", "reduced-motion"])
def test_at_the_end_of_a_game_the_last_trick_is_shown_whole(
    server: ServerProc, still: bool, run: Run
) -> None:
    """A Twenty-Five game to its end: the last trick stays on the table whole, neither
    gathered half-way (shrunk, faded over the seats) nor dimmed, with or without motion."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana", still=still)
        await bots_table(page, "twentyfive", 2)
        await play_to_the_end(page)
        laid = await page.wait_for_function(LAID)
        cards = await laid.json_value()
        assert len(cards) >= 2, cards
        wrong = [c for c in cards if c["opacity"] < 0.999 or c["transform"] != "none"]
        assert not wrong, wrong

    run(body)


# ---------------------------------------------------------------- 7. provisional

VISIBLE_TEXT = """(node) => {
  const out = [];
  const walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    if (!t.parentElement.closest(".sr-only")) out.push(t.textContent);
  }
  return out.join("");
}"""


@pytest.mark.parametrize(("locale", "word"), [("en-GB", "provisional"), ("fa-IR", "موقت")])
def test_a_provisional_rating_says_provisional_where_it_is_shown(
    server: ServerProc, locale: str, word: str, run: Run
) -> None:
    """After a first rated game the result says the new rating is provisional beside its
    "?" — in words anyone sees, not only to a screen reader — and so does the profile."""
    token = new_account(server, "Pari")

    async def body(browser: Browser) -> None:
        page = await rated_vs_computer(browser, server, locale, "Pari", token)
        await page.get_by_test_id("resign").click()
        line = page.get_by_test_id("rating-change")
        await expect(line).to_have_attribute("data-state", "done", timeout=WAIT)
        shown = await line.evaluate(VISIBLE_TEXT)
        assert re.search(rf"[?؟]\s*\(?{word}", shown), shown

        await page.get_by_test_id("leave").click()
        await page.get_by_test_id("my-profile").click()
        cell = page.locator("[data-testid='profile-rating'] [data-provisional='true']").first
        await expect(cell).to_be_visible()
        shown = await cell.evaluate(VISIBLE_TEXT)
        assert word in shown, shown

    run(body)


# ---------------------------------------------------------------- 8. hints at rated tables


@pytest.mark.parametrize(
    ("locale", "reason"),
    [("en-GB", "No hints in rated games"), ("fa-IR", "در بازی‌های ریتینگی راهنمایی نیست")],
)
def test_a_rated_game_against_the_computer_has_no_hint_button_and_says_why(
    server: ServerProc, locale: str, reason: str, run: Run
) -> None:
    """Rated against the computer: no Hint button, and one short line saying why where it
    would be; a casual game against the computer still offers the Hint."""
    token = new_account(server, "Hana")

    async def body(browser: Browser) -> None:
        page = await rated_vs_computer(browser, server, locale, "Hana", token)
        await expect(page.locator("#table [data-testid='rated']").first).to_be_visible()
        await expect(page.get_by_test_id("hint")).to_be_hidden()
        note = page.get_by_test_id("no-hints")
        await expect(note).to_be_visible()
        await expect(note).to_contain_text(reason)
        text = await page.locator("body").inner_text()
        assert text.count(reason) == 1, text
        tools = await page.locator("#table .t-tools").bounding_box()
        where = await note.bounding_box()
        assert tools and where and tools["y"] <= where["y"] < tools["y"] + tools["height"]
        # no take-back either (docs/protocol.md#takeback): after a move of mine, none offered
        await page.wait_for_function(MINE_OR_OVER)
        before = await page.evaluate(EVENT)
        await page.locator(LEGAL).first.click()
        await page.wait_for_function(f"() => ({EVENT})() !== {before!r}")
        await page.wait_for_function(MINE_OR_OVER)
        await expect(page.get_by_test_id("takeback")).to_be_hidden()

        await page.get_by_test_id("resign").click()
        await expect(page.get_by_test_id("result")).to_be_visible()
        await page.get_by_test_id("leave").click()
        await vs_computer(page, "kozyri", 2, rated=False)
        await page.wait_for_function(MINE_OR_OVER)
        await expect(page.locator("#table .t-title [data-testid='rated']")).to_have_count(0)
        await expect(page.get_by_test_id("hint")).to_be_visible()
        await expect(page.get_by_test_id("no-hints")).to_be_hidden()

    run(body)


def test_an_address_naming_a_table_whose_game_ended_and_is_gone_says_so(
    server: ServerProc, run: Run
) -> None:
    """A link to a table whose game ended while no server held it (stored finished, gone
    from memory: its last move stored as the server died): the server answers how it
    ended, and the page says the game is in the history, on the first screen, for a link
    to watch and a link to sit alike."""
    game, rng = new_game("kozyri", players=2, seed=3), random.Random(3)
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))

    async def body(browser: Browser) -> None:
        store = SqlStore(server.db)
        try:
            await store.save_game(record_of(game), table_id="t-ended-gone")
        finally:
            await store.close()
        for address in ("?watch=t-ended-gone", "?table=t-ended-gone"):
            _, page = await open_page(browser, f"{server.http}/{address}", name="Ana", still=True)
            status = page.locator("#status")
            await expect(status).to_contain_text("has ended; it is in the history")
            await expect(page.get_by_test_id("table")).to_be_hidden()
            assert await page.get_by_text("There is no such table.").count() == 0

    run(body)
