"""The rules editor of "Create a table" (issue 11, part 4: "the create form offers presets
only"), in Chromium against a real ``trumps serve``: every option of the chosen game, as the
game package defines it (through the server's catalog); a preset fills the editor and a
change makes the rules custom; the server checks them, and a combination it refuses is said
in the page's language and creates nothing; the bots' pace is a choice; the form fits a
phone and a desktop in every language; the lobby and the table say what differs from the
preset."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from trumps.games.kozyri.options import OPTIONS as KOZYRI_OPTIONS
from trumps.games.twentyfive.options import OPTIONS as TWENTYFIVE_OPTIONS
from trumps.games.twentyfive.options import PRESETS as TWENTYFIVE_PRESETS
from web.kit import LATIN_DIGITS_JS, OVERFLOW_JS, Run, open_more, open_page

# Nothing wider than the page, and each rule's label and field inside the editor's box.
EDITOR_JS = """() => {
  const bad = [];
  if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push("page scrolls sideways");
  const box = document.querySelector("[data-testid='rules-editor']").getBoundingClientRect();
  for (const node of document.querySelectorAll("[data-testid='rules-editor'] label, [data-testid='rules-editor'] select, [data-testid='rules-editor'] input")) {
    const r = node.getBoundingClientRect();
    if (r.width && (r.left < box.left - 1 || r.right > box.right + 1)) bad.push("outside the editor: " + (node.id || node.textContent));
    if (node.tagName === "LABEL" && node.scrollWidth > node.clientWidth + 1) bad.push("label cut: " + node.textContent);
  }
  return bad;
}"""


def sent_frames(page: Page) -> list[dict[str, Any]]:
    """The messages the page sends on its WebSocket, as they go."""
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(json.loads(f))))
    return frames


def test_the_editor_offers_every_option_and_a_custom_table_says_what_differs(
    server: ServerProc,
    run: Run,
) -> None:
    """Each option of each game has a field with the preset's value; Forty-Five fills the
    target; a changed option makes the rules custom; the table is created with those rules
    (the server's snapshot), and its header and the lobby show what differs from Classic."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana")
        for game, options in (("kozyri", KOZYRI_OPTIONS), ("twentyfive", TWENTYFIVE_OPTIONS)):
            await open_more(page, game)
            editor = page.get_by_test_id("rules-editor")
            assert await editor.locator("[data-option]").count() == len(options)
            for name, option in options.items():
                field = page.get_by_test_id(f"rule-{name}")
                await expect(field).to_be_visible()
                if isinstance(option.default, bool):
                    assert await field.is_checked() is option.default
                elif isinstance(option.default, int) and not option.choices:
                    await expect(field).to_have_value(str(option.default))
        preset = page.get_by_test_id("create-preset")
        await preset.select_option("forty-five")
        target = TWENTYFIVE_PRESETS["forty-five"].options["target"]
        await expect(page.get_by_test_id("rule-target")).to_have_value(str(target))
        await preset.select_option("classic")
        await expect(page.get_by_test_id("rule-target")).to_have_value("25")
        await page.get_by_test_id("rule-target").fill("30")
        await page.get_by_test_id("rule-joker").check()
        await expect(preset.locator("option:checked")).to_have_text("custom rules")
        await page.get_by_test_id("create-seats").select_option("2")
        await page.get_by_test_id("seat-1").select_option("human")
        await page.get_by_test_id("create-submit").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        header = page.get_by_test_id("table").get_by_test_id("table-rules")
        await expect(header).to_have_text("Classic + Joker: yes, Points that win the game: 30")
        _, rui = await open_page(browser, server.http + "/#lobby", name="Rui")
        row = rui.locator(".table-list li", has_text="Ana")
        await expect(row.get_by_test_id("table-rules")).to_have_text(
            "Classic + Joker: yes, Points that win the game: 30"
        )

    run(body)


def test_a_refused_combination_is_said_in_french_and_creates_nothing(
    server: ServerProc, run: Run
) -> None:
    """Pairs at a three-seat Twenty-Five table: the server refuses; the form says which
    rule and what fits, in French, marks the field, and no table is opened or listed."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", locale="fr-FR", name="Noor")
        await open_more(page, "twentyfive")
        await page.get_by_test_id("create-seats").select_option("3")
        await page.get_by_test_id("rule-teams").select_option(label="par deux")
        await page.get_by_test_id("create-submit").click()
        error = page.get_by_test_id("create-error")
        await expect(error).to_have_text(
            "Équipes : « par deux » ne va pas avec 3 joueurs ; il faut 4, 6, 8 ou 10 joueurs."
        )
        await expect(page.get_by_test_id("rule-teams")).to_have_attribute("aria-invalid", "true")
        await expect(page.get_by_test_id("table")).to_be_hidden()
        # Nothing was opened: the server lists no table of Noor's (the module's other tests
        # share the server, so the list need not be empty), and neither does the page.
        public = server.get("/api/tables").json()["tables"]
        assert not [t for t in public if any(s.get("name") == "Noor" for s in t["seats"])]
        _, rui = await open_page(browser, server.http + "/#lobby", name="Rui")
        await expect(rui.locator(".table-list li", has_text="Noor")).to_have_count(0)
        # Fixed (four seats): the message goes and the table opens.
        await page.get_by_test_id("create-seats").select_option("4")
        await expect(error).to_be_hidden()
        await page.get_by_test_id("create-submit").click()
        rules = page.get_by_test_id("table").get_by_test_id("table-rules")
        await expect(rules).to_have_text("Classique + Équipes : par deux")

    run(body)


def test_the_bots_pace_is_a_choice_of_the_form(server: ServerProc, run: Run) -> None:
    """The form offers the server's paces and sends the one chosen as ``bot_pace``."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana")
        frames = sent_frames(page)
        await page.reload()
        # Welcomed again before the form is used: a create sent while the socket still
        # connects is refused with "Not connected to the server yet." (a CI run met it).
        await expect(page.locator("html[data-ready='1']")).to_have_count(1)
        await open_more(page, "kozyri")
        pace = page.get_by_test_id("create-pace")
        assert await pace.locator("option").all_inner_texts() == [
            "like a person",
            "fast",
            "at once",
        ]
        await pace.select_option(label="at once")
        await page.get_by_test_id("create-submit").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        made = [f for f in frames if f.get("type") == "create_table"]
        assert [f["bot_pace"] for f in made] == ["instant"]

    run(body)


def test_the_editor_fits_a_phone_and_a_desktop_in_every_language(
    server: ServerProc, run: Run
) -> None:
    """Both games' editors open, in four languages, at 360×740 and on a desktop: nothing
    outside its box or cut off, no sideways scroll, Persian figures in Persian digits."""

    async def body(browser: Browser) -> None:
        problems: dict[str, list[str]] = {}
        for locale in ("en-GB", "fa-IR", "pt-PT", "fr-FR"):
            for phone in (False, True):
                context, page = await open_page(browser, server.http + "/#lobby", locale=locale,
                                                phone=phone, name="Ana")  # fmt: skip
                for game in ("kozyri", "twentyfive"):
                    await open_more(page, game)
                    bad = await page.evaluate(EDITOR_JS) + await page.evaluate(OVERFLOW_JS)
                    if locale == "fa-IR":
                        form = page.get_by_test_id("create-form")
                        bad += [f"Latin digits: {x}" for x in await form.evaluate(LATIN_DIGITS_JS)]
                    if bad:
                        where = f"{locale} {game} {'phone' if phone else 'desktop'}"
                        problems[where] = bad
                await context.close()
        assert not problems, problems

    run(body)
