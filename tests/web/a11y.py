"""Accessibility checks shared by the browser tests and ``tests/tools/axe_counts.py``: axe-core
(shipped inside ``axe-playwright-python``; no Node at run time) over a page, and the
journeys that bring a page to each screen a player meets — the lobby, the create form, a
table of each game at the player's turn, the end of a game, the history, a replay and a
leaderboard."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Page, expect

from web.kit import MINE_OR_OVER, set_name

SEVERE = ("serious", "critical")
AXE = Axe()

LOCALES = {"en": "en-GB", "fa": "fa-IR", "pt": "pt-BR", "fr": "fr-FR"}  # the page's languages
STATIC = Path(__file__).parents[2] / "src" / "trumps" / "web" / "static"
EVENT = "() => document.querySelector(\"[data-testid='table']\").dataset.event"


@dataclass(frozen=True)
class Violation:
    """One axe rule broken on a screen, with how many elements break it."""

    rule: str
    impact: str
    nodes: int
    help: str
    targets: tuple[str, ...]


OPTIONS: dict[str, Any] = {
    "resultTypes": ["violations"],
    # WCAG 2.0-2.2 A and AA, best practices, and the rules axe still calls experimental
    # (label-content-name-mismatch, WCAG 2.5.3, is one of them).
    "runOnly": {
        "type": "tag",
        "values": [
            "wcag2a",
            "wcag2aa",
            "wcag21a",
            "wcag21aa",
            "wcag22aa",
            "best-practice",
            "experimental",
        ],
    },
}


async def axe(page: Page) -> list[Violation]:
    """Every axe violation on ``page`` as it is now (WCAG 2.x A/AA, best practices and
    the experimental rules)."""
    results = await AXE.run(page, options=OPTIONS)
    found: list[dict[str, Any]] = results.response["violations"]
    return [
        Violation(
            v["id"],
            v.get("impact") or "minor",
            len(v["nodes"]),
            v["help"],
            tuple(str(n["target"]) for n in v["nodes"][:5]),
        )
        for v in found
    ]


def severe(found: list[Violation]) -> list[Violation]:
    return [v for v in found if v.impact in SEVERE]


async def home(page: Page) -> None:
    """The first screen: the two games and the levels."""
    await page.locator("nav [data-show='home']").click()
    await expect(page.get_by_test_id("home-screen")).to_be_visible()


async def lobby(page: Page) -> None:
    await set_name(page, "Olena")


async def create_form(page: Page) -> None:
    await set_name(page, "Olena")
    form = page.get_by_test_id("create-form")
    await form.locator("summary").first.click()
    await expect(form.locator("details[open]").first).to_be_visible()


async def _vs_computer(page: Page, game: str, players: str) -> None:
    await set_name(page, "Olena")
    await page.get_by_test_id("pc-game").select_option(game)
    if players:
        await page.get_by_test_id("pc-players").select_option(players)
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("table")).to_be_visible()
    await page.wait_for_function(MINE_OR_OVER)


async def kozyri_table(page: Page) -> None:
    """Its settings panel open too (issue 27: appearance, hand order, the pause after a
    hand), over the table."""
    await _vs_computer(page, "kozyri", "")
    await page.get_by_test_id("settings").click()
    await expect(page.get_by_test_id("settings-panel")).to_be_visible()


async def twentyfive_table(page: Page) -> None:
    await _vs_computer(page, "twentyfive", "4")


async def game_over(page: Page) -> None:
    await _vs_computer(page, "kozyri", "")
    page.on("dialog", lambda d: d.accept())
    await page.get_by_test_id("resign").click()
    await expect(page.get_by_test_id("result")).to_be_visible()


async def history(page: Page) -> None:
    await game_over(page)
    await page.locator("nav button[data-show='history']").click()
    await expect(page.locator("#history .rows .row").first).to_be_visible()


async def replay(page: Page) -> None:
    await history(page)
    await page.locator("#history .rows .row button.primary").first.click()
    await expect(page.get_by_test_id("replay-move")).to_have_attribute("data-move", "0")


async def leaderboard(page: Page) -> None:
    await set_name(page, "Olena")
    await page.get_by_test_id("nav-ratings").click()
    await expect(page.get_by_test_id("board-empty")).to_be_visible()  # nobody rated yet


SCREENS: dict[str, Callable[[Page], Awaitable[None]]] = {
    "first screen": home,
    "lobby": lobby,
    "create form": create_form,
    "Svoi Kozyri table, your turn, the settings open": kozyri_table,
    "Twenty-Five table, your turn": twentyfive_table,
    "end of a game": game_over,
    "history": history,
    "replay": replay,
    "leaderboard": leaderboard,
}


async def vs_bots(page: Page, game: str, players: str = "", *, keyboard: bool = False) -> None:
    """Olena plays the computer (the random level) at ``game``, by mouse or keyboard, until
    it is her turn."""
    await set_name(page, "Olena")
    await page.get_by_test_id("pc-game").select_option(game)
    if players:
        await page.get_by_test_id("pc-players").select_option(players)
    await page.get_by_test_id("pc-level").select_option("random")
    if keyboard:
        await page.get_by_test_id("play-computer").focus()
        await page.keyboard.press("Enter")
    else:
        await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("table")).to_be_visible()
    await page.wait_for_function(MINE_OR_OVER)
