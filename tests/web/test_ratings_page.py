"""Ratings in the page (issue 13, part 1), in Debian's Chromium: the Rated choices (on for
accounts, off with the reason for guests), a rated game between two accounts whose result
panels and history show each one's rating change, and the leaderboards and profiles of a
database of rated games prepared through the store (tests/web/ratingseed.py): what they
show is what the API says, reached by keyboard, right to left in Persian, with no serious
accessibility violation."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, Route, expect

from server.e2e import ServerProc
from trumps.games import new_game
from trumps.ratings import Rating, calibration_json
from web.a11y import axe, severe
from web.kit import KOZYRI_SEED, Run, open_page
from web.ratingseed import PASSWORD, Seeded, seed

DOCS_SHOTS = Path(__file__).parents[2] / "docs" / "screenshots"
# The bots' fixed ratings of the seeded server (trumps serve --bot-ratings), so that what
# the tests expect does not follow the calibration shipped with trumps.
BOTS = {
    "kozyri-duel": {"expert": 1905, "hard": 1720, "medium": 1390, "easy": 1010},
    "twentyfive": {"hard": 1640, "medium": 1480},
}
Setup = Callable[[BrowserContext], Awaitable[None]]


_ACCOUNTS = itertools.count(1)


def new_account(server: ServerProc, login: str, name: str) -> tuple[int, str]:
    """A new account made over HTTP: its player id and resume token.  The login gets a
    suffix of its own: the module's tests share one server."""
    login = f"{login}-{next(_ACCOUNTS)}"
    made = server.post("/api/accounts", json={"login": login, "password": PASSWORD, "name": name})
    assert made.status_code == 201, made.text
    return int(made.json()["player_id"]), str(made.json()["resume_token"])


def signed_in(token: str, *more: Setup) -> Setup:
    """A browser profile that holds ``token`` (as after logging in), then ``more``."""

    async def setup(context: BrowserContext) -> None:
        await context.add_init_script(
            f"localStorage.setItem('trumps.token', {token!r});"
            " localStorage.setItem('trumps.named', '1')"
        )
        for step in more:
            await step(context)

    return setup


# ---------------------------------------------------------------- a rated game, live


def test_a_rated_game_between_two_accounts_shows_each_rating_change(
    server: ServerProc, run: Run
) -> None:
    """Olena creates a rated table, Taras (an account too) joins it from the lobby, where it
    is marked Rated; after one move he resigns. Both result panels say what the game did to
    their rating, as GET /api/games does, provisional marked; the line arrives without
    taking the focus off Rematch; Olena's history shows the change."""
    olena_id, olena_token = new_account(server, "olena", "Olena")
    _, taras_token = new_account(server, "taras", "Taras")
    release = asyncio.Event()  # holds Olena's GET /api/games?mine=1 until the test lets go

    async def hold_my_games(context: BrowserContext) -> None:
        async def held(route: Route) -> None:
            await release.wait()
            await route.continue_()

        await context.route(re.compile(r"/api/games\?mine=1"), held)

    async def body(browser: Browser) -> None:
        _, olena = await open_page(
            browser,
            server.http + "/#lobby",
            name="Olena",
            setup=signed_in(olena_token, hold_my_games),
        )
        _, taras = await open_page(
            browser, server.http + "/#lobby", name="Taras", setup=signed_in(taras_token)
        )
        form = olena.get_by_test_id("create-form")
        await expect(form.get_by_test_id("create-rated")).to_be_enabled()
        await form.get_by_test_id("create-game").select_option("kozyri")
        await form.get_by_test_id("create-seats").select_option("2")
        await form.get_by_test_id("seat-1").select_option("human")
        await form.get_by_test_id("create-rated").check()
        # A rated game always has a clock, and running out of time loses it: said, and chosen.
        await expect(form.get_by_test_id("create-rated-note")).to_contain_text("always has a clock")
        await expect(form.locator("#create-timeout")).to_have_value("forfeit")
        await expect(form.locator("#create-timeout")).to_be_disabled()
        await form.get_by_test_id("create-submit").click()
        await expect(olena.locator("#table .t-title [data-testid='rated']")).to_have_text("Rated")
        await expect(olena.locator("#table .clock").first).to_be_visible()  # the server's clock

        row = taras.locator("#lobby li.row", has_text="Olena")
        await expect(row.get_by_test_id("rated")).to_have_text("Rated")
        await row.get_by_role("button", name="Join").click()
        await expect(taras.locator("#table .t-title [data-testid='rated']")).to_have_text("Rated")

        # One move (the deal is the server's first: seed KOZYRI_SEED), then Taras resigns.
        game = new_game("kozyri", players=2, seed=KOZYRI_SEED)
        mover = {0: olena, 1: taras}[game.current_player or 0]
        await expect(mover.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
        shown = mover.get_by_test_id("table")
        before = await shown.get_attribute("data-event") or ""
        await mover.locator(
            "[data-testid='hand'] [data-legal='true'], [data-testid^='action-']"
        ).first.click()
        await expect(shown).not_to_have_attribute("data-event", before)
        taras.on("dialog", lambda d: asyncio.ensure_future(d.accept()))
        await taras.get_by_test_id("resign").click()

        for page in (olena, taras):
            await expect(page.get_by_test_id("result")).to_be_visible()
        rematch = olena.get_by_test_id("rematch")
        await expect(olena.get_by_test_id("rating-change")).to_have_attribute(
            "data-state", "loading"
        )
        await rematch.focus()
        release.set()

        [row_api] = server.get("/api/games").json()["games"]
        assert row_api["rated"] is True
        changes = {c["seat"]: c for c in row_api["rating_changes"]}
        assert changes[0]["before"] == changes[1]["before"] == 1500
        assert changes[0]["after"] > 1500 > changes[1]["after"]  # Olena won: Taras resigned
        for seat, page, sign in ((0, olena, "+"), (1, taras, "−")):
            line = page.get_by_test_id("rating-change")
            after, delta = changes[seat]["after"], abs(changes[seat]["after"] - 1500)
            await expect(line).to_have_attribute("data-state", "done")
            await expect(line).to_have_attribute("data-after", str(after))
            await expect(line).to_contain_text(f"Rating 1500 → {after}?")
            await expect(line.locator("bdi")).to_have_text(f"{sign}{delta}")
            # one game: provisional, marked and said
            await expect(line.locator(".sr-only")).to_have_text(f"{after}, provisional")
        assert await olena.evaluate("document.activeElement.dataset.testid") == "rematch"
        await expect(rematch).to_be_focused()

        await olena.locator("nav button[data-show='history']").click()
        first = olena.locator("#history .rows .row").first
        change = changes[0]
        await expect(first.get_by_test_id("history-change")).to_contain_text(
            f"Rating 1500 → {change['after']} (+{change['after'] - 1500})"
        )
        await expect(olena.get_by_test_id("history-profile")).to_have_attribute(
            "href", f"#player/{olena_id}"
        )

    run(body)


def test_quick_match_is_rated_for_an_account_and_casual_when_asked(
    server: ServerProc, run: Run
) -> None:
    _, token = new_account(server, "ana", "Ana")

    async def body(browser: Browser) -> None:
        _, ana = await open_page(
            browser, server.http + "/#lobby", name="Ana", setup=signed_in(token)
        )
        rated = ana.get_by_test_id("qm-rated")
        await expect(rated).to_be_checked()
        await expect(ana.get_by_test_id("qm-rated-note")).to_have_text(
            "Quick match is rated, with a clock: untick Rated for a casual game."
        )
        await ana.get_by_test_id("quick-match").click()
        waiting = ana.get_by_test_id("qm-waiting")
        await expect(waiting).to_have_text("Waiting for an opponent for a rated game…")
        await expect(rated).to_be_disabled()  # not changed while waiting
        await ana.locator(".quick button", has_text="Cancel").click()
        await rated.uncheck()
        await ana.get_by_test_id("quick-match").click()
        await expect(waiting).to_have_text("Waiting for an opponent for a casual game…")

    run(body)


def test_a_guest_sees_rated_off_with_the_reason_and_cannot_join_a_rated_table(
    server: ServerProc,
    run: Run,
) -> None:
    _, token = new_account(server, "ana", "Ana")

    async def body(browser: Browser) -> None:
        _, ana = await open_page(
            browser, server.http + "/#lobby", name="Ana", setup=signed_in(token)
        )
        form = ana.get_by_test_id("create-form")
        await form.get_by_test_id("seat-1").select_option("human")
        await form.get_by_test_id("create-rated").check()
        await form.get_by_test_id("create-submit").click()
        await expect(ana.locator("#table [data-testid='rated']")).to_be_visible()

        _, guest = await open_page(browser, server.http + "/#lobby", name="Gus")
        reason = "Rated games need an account: create one or log in under “You”."
        for box in ("pc-rated", "create-rated", "qm-rated"):
            control = guest.get_by_test_id(box)
            await expect(control).to_be_disabled()
            await expect(control).not_to_be_checked()
            note = guest.get_by_test_id(f"{box}-note")
            await expect(note).to_be_visible()
            await expect(note).to_have_text(reason)
            assert await control.get_attribute("aria-describedby") == f"{box}-note"
            await expect(control).to_have_accessible_description(reason)
        row = guest.locator("#lobby li.row", has_text="Ana")
        await expect(row.get_by_test_id("rated")).to_be_visible()
        await expect(row.get_by_role("button", name="Join")).to_have_count(0)
        await row.get_by_role("button", name="Watch").click()  # watching is for everyone
        await expect(guest.locator("#table .t-title [data-testid='rated']")).to_be_visible()

    run(body)


# ---------------------------------------------------------------- leaderboards and profiles


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProc, Seeded, str]]:
    """A server on a database of rated games, and a resume token of Ana's (logged in once:
    logins are limited per account)."""
    tmp = tmp_path_factory.mktemp("ratings")
    url = f"sqlite+aiosqlite:///{tmp / 'ratings.db'}"
    data = seed(url)
    bots = tmp / "bots.json"
    calibration = {
        f: {lv: Rating(float(r), 50.0) for lv, r in levels.items()} for f, levels in BOTS.items()
    }
    bots.write_text(calibration_json(calibration), encoding="utf-8")
    proc = ServerProc(url, tmp, extra=("--bot-ratings", str(bots)))
    proc.start()
    try:
        login = proc.post("/api/login", json={"login": "ana", "password": PASSWORD})
        assert login.status_code == 200, login.text
        yield proc, data, str(login.json()["resume_token"])
    finally:
        proc.stop()


async def as_ana(browser: Browser, seeded: tuple[ServerProc, Seeded, str], path: str,
                 **options: Any) -> Page:  # fmt: skip
    proc, _, token = seeded
    _, page = await open_page(
        browser, proc.http + path, name="Ana", setup=signed_in(token), **options
    )
    return page


def board_api(proc: ServerProc, family: str) -> dict[str, Any]:
    board: dict[str, Any] = proc.get(f"/api/leaderboard/{family}").json()
    assert {b["level"]: b["rating"] for b in board["bots"]} == BOTS[family]
    return board


def test_the_leaderboard_lists_settled_accounts_with_the_bots_among_them(
    seeded: tuple[ServerProc, Seeded, str],
    run: Run,
) -> None:
    proc, data, _ = seeded
    board = board_api(proc, "kozyri-duel")
    players = board["players"]
    assert [p["name"] for p in players] == ["Ana", "Chen", "Bruno", "Dara", "Emil"]

    async def body(browser: Browser) -> None:
        page = await as_ana(browser, seeded, "/#lobby", still=True)
        await page.get_by_test_id("nav-ratings").click()
        await expect(page).to_have_url(re.compile("#leaderboard/kozyri-duel$"))
        await expect(page.locator("nav button[data-show='leaderboard']")).to_have_attribute(
            "aria-current", "page"
        )
        await expect(page.get_by_test_id("board-title")).to_have_text("Svoi Kozyri, two players")
        rows = page.locator("[data-testid='board-table'] tbody tr")
        # Every player and every bot, in rating order, the bots unranked.
        expected = sorted(
            [("player", p["name"], p["rating"]) for p in players]
            + [("bot", f"{b['level']} bot", b["rating"]) for b in board["bots"]],
            key=lambda r: -r[2],
        )
        await expect(rows).to_have_count(len(expected))
        for i, (kind, name, rating) in enumerate(expected):
            row = rows.nth(i)
            await expect(row).to_have_attribute("data-testid", f"board-{kind}")
            await expect(row.locator("th")).to_contain_text(name)
            await expect(row.locator("[data-rating]")).to_have_attribute("data-rating", str(rating))
        ranked = page.get_by_test_id("board-player")
        for i, p in enumerate(players):
            cells = ranked.nth(i).locator("td")
            await expect(cells.nth(0)).to_have_text(str(p["rank"]))
            await expect(cells.nth(2)).to_have_text(str(p["games"]))
        await expect(page.get_by_test_id("board-bot").filter(has_text="hard bot")).to_contain_text(
            str(BOTS["kozyri-duel"]["hard"])
        )
        assert "Fay" not in await page.get_by_test_id("board").inner_text()  # provisional
        await page.screenshot(path=str(DOCS_SHOTS / "leaderboard-en.png"))

        # Another family: everyone is still provisional there.
        await page.get_by_test_id("board-tab-twentyfive").click()
        await expect(page).to_have_url(re.compile("#leaderboard/twentyfive$"))
        await expect(page.get_by_test_id("board-empty")).to_be_visible()
        await expect(page.get_by_test_id("board-bot")).to_have_count(2)
        await expect(page.get_by_test_id("board-tab-twentyfive")).to_have_attribute(
            "aria-current", "page"
        )

        # A name opens the profile; Back returns to the leaderboard.
        await page.go_back()
        await (
            page.get_by_test_id("board-player").filter(has_text="Chen").get_by_role("link").click()
        )
        await expect(page).to_have_url(re.compile(f"#player/{data.ids['chen']}$"))
        await expect(page.get_by_test_id("profile-name")).to_have_text("Chen")
        await page.go_back()
        await expect(page.get_by_test_id("board-title")).to_have_text("Svoi Kozyri, two players")
        await page.locator("nav button[data-show='lobby']").click()
        await expect(page.get_by_test_id("lobby")).to_be_visible()
        await page.go_back()  # the lobby left the route: Back goes back to it
        await expect(page.get_by_test_id("leaderboard")).to_be_visible()

    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_a_profile_shows_ratings_plots_results_opponents_and_games(
    seeded: tuple[ServerProc, Seeded, str],
    run: Run,
) -> None:
    proc, data, _ = seeded
    ana = data.ids["ana"]
    api = proc.get(f"/api/players/{ana}").json()

    async def body(browser: Browser) -> None:
        page = await as_ana(browser, seeded, "/#lobby", still=True)
        await page.get_by_test_id("my-profile").click()  # from the account box
        await expect(page).to_have_url(re.compile(f"#player/{ana}$"))
        view = page.get_by_test_id("profile-view")
        await expect(page.get_by_test_id("profile-name")).to_contain_text("Ana")
        await expect(page.get_by_test_id("profile-name")).to_contain_text("(you)")

        for family, rating in api["ratings"].items():
            row = view.locator(f"[data-testid='profile-rating'][data-family='{family}']")
            cell = row.locator("[data-rating]")
            await expect(cell).to_have_attribute("data-rating", str(rating["rating"]))
            mark = f"{rating['rating']}?" if rating["provisional"] else str(rating["rating"])
            await expect(cell).to_contain_text(mark)
            await expect(row.locator("td").nth(1)).to_have_text(str(rating["games"]))
            await expect(row.locator("td").last).to_have_text(f"{rating['like']} bot")
        assert api["ratings"]["twentyfive"]["provisional"]
        assert not api["ratings"]["kozyri-duel"]["provisional"]

        for family in ("kozyri-duel", "twentyfive"):
            points = [h for h in api["history"] if h["family"] == family]
            figure = page.get_by_test_id(f"plot-{family}")
            plot = figure.locator("svg")
            await expect(plot).to_have_attribute("data-points", str(len(points)))
            await expect(plot.locator("circle")).to_have_count(len(points))
            await expect(plot).to_have_attribute("role", "img")
            values = [points[0]["before"], *(p["after"] for p in points)]
            await expect(figure.get_by_test_id("plot-summary")).to_have_text(
                f"{len(points)} rated games, from {values[0]} to {values[-1]}; "
                f"highest {max(values)}, lowest {min(values)}."
            )
            assert (
                await plot.evaluate(
                    "(svg) => svg.getAttribute('aria-labelledby').split(' ')"
                    ".map((id) => document.getElementById(id).textContent).join(' ')"
                )
                == await figure.locator("figcaption").inner_text()
            )
            table = figure.locator("details table tbody tr")
            await expect(table).to_have_count(len(points))
        # The bots' fixed ratings inside the plotted range are reference lines, named.
        duel = page.get_by_test_id("plot-kozyri-duel")
        axis = [int(x) for x in await duel.locator("text.axis").all_text_contents()]
        inside = {f"{lv} bot" for lv, r in BOTS["kozyri-duel"].items() if min(axis) < r < max(axis)}
        assert "hard bot" in inside and "easy bot" not in inside, axis
        assert set(await duel.locator(".bot-name").all_text_contents()) == inside

        results = page.get_by_test_id("profile-results").locator("tbody tr")
        await expect(results).to_have_count(len(api["results"]))
        duel = api["results"]["kozyri"]
        await expect(results.filter(has_text="Svoi Kozyri").locator("td")).to_have_text(
            [str(duel["won"]), str(duel["drawn"]), str(duel["lost"])]
        )
        h2h = page.get_by_test_id("profile-h2h").locator("tbody tr")
        await expect(h2h).to_have_count(len(api["head_to_head"]))
        await expect(h2h.first.locator("th")).to_have_text(api["head_to_head"][0]["name"])

        games = page.get_by_test_id("profile-game")
        await expect(games).to_have_count(len(api["games"]))
        latest = api["games"][0]
        mine = next(c for c in latest["rating_changes"] if c["seat"] == latest["seat"])
        await expect(games.first.get_by_test_id("game-change")).to_contain_text(
            f"Rating {mine['before']} → {mine['after']}"
        )
        await page.screenshot(path=str(DOCS_SHOTS / "profile-en.png"), full_page=True)

        # From the history, and a name that is no account.
        await page.locator("nav button[data-show='history']").click()
        await page.get_by_test_id("history-profile").click()
        await expect(page.get_by_test_id("profile-view")).to_have_attribute("data-player", str(ana))
        await page.goto(proc.http + "/#player/999999")
        await expect(page.get_by_test_id("profile-missing")).to_contain_text("no such account")

    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_the_keyboard_reaches_the_rated_choice_the_leaderboard_and_a_profile(
    seeded: tuple[ServerProc, Seeded, str],
    run: Run,
) -> None:
    async def body(browser: Browser) -> None:
        page = await as_ana(browser, seeded, "/#lobby")

        async def tab_to(testid: str, limit: int = 60, back: bool = False) -> None:
            for _ in range(limit):
                await page.keyboard.press("Shift+Tab" if back else "Tab")
                if await page.evaluate("document.activeElement?.dataset?.testid") == testid:
                    return
            raise AssertionError(f"Tab never reached {testid}")

        await page.locator("body").focus()
        await tab_to("pc-rated")
        await page.keyboard.press("Space")
        await expect(page.get_by_test_id("pc-rated")).to_be_checked()
        await page.locator("h1").click()  # back to the top of the page
        await tab_to("nav-ratings")
        await page.keyboard.press("Enter")
        await expect(page.get_by_test_id("board-table")).to_be_visible()
        await tab_to("board-tab-twentyfive")
        await page.keyboard.press("Enter")
        await expect(page).to_have_url(re.compile("#leaderboard/twentyfive$"))
        await tab_to("board-tab-kozyri-duel", back=True)  # the focus stayed on the tabs
        await page.keyboard.press("Enter")
        await expect(page.get_by_test_id("board-player")).not_to_have_count(0)
        await tab_to("profile-link")
        name = await page.evaluate("document.activeElement.textContent")
        await page.keyboard.press("Enter")
        await expect(page.get_by_test_id("profile-name")).to_contain_text(name)
        await tab_to("profile-link")  # the opponents' names lead on
        await page.keyboard.press("Enter")
        await expect(page.get_by_test_id("profile-name")).not_to_contain_text(name)

    run(body)


def test_rating_views_in_persian_read_right_to_left(
    seeded: tuple[ServerProc, Seeded, str], run: Run
) -> None:
    proc, data, _ = seeded
    ana = data.ids["ana"]

    async def body(browser: Browser) -> None:
        page = await as_ana(
            browser, seeded, "/#leaderboard/kozyri-duel", locale="fa-IR", still=True
        )
        await expect(page.locator("html")).to_have_attribute("dir", "rtl")
        table = page.get_by_test_id("board-table")
        await expect(table).to_be_visible()
        assert await table.evaluate("(t) => getComputedStyle(t).direction") == "rtl"
        first = page.get_by_test_id("board-player").first
        rank, name = first.locator("td").first, first.locator("th")
        rank_box, name_box = await rank.bounding_box(), await name.bounding_box()
        assert rank_box and name_box and rank_box["x"] > name_box["x"]  # the rank on the right
        text = await page.get_by_test_id("leaderboard").inner_text()
        assert re.search("[۰-۹]{4}", text) and not re.search("[0-9]", text), text
        assert any(
            "\u0600" <= ch <= "\u06ff"
            for ch in await page.get_by_test_id("board-title").inner_text()
        )

        await page.goto(proc.http + f"/#player/{ana}")
        plot = page.get_by_test_id("plot-kozyri-duel").locator("svg")
        await expect(plot).to_be_visible()
        xs = [
            float(x)
            for x in await plot.locator("circle").evaluate_all(
                "(cs) => cs.map((c) => c.getAttribute('cx'))"
            )
        ]
        assert xs[0] > xs[-1]  # oldest first, from the right
        change = page.get_by_test_id("game-change").first
        assert "←" in await change.inner_text()  # the arrow points the way the line reads
        shown = await page.get_by_test_id("profile").inner_text()
        assert not re.search("[0-9]", shown), shown[:300]
        await page.screenshot(path=str(DOCS_SHOTS / "profile-fa.png"), full_page=True)

    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("fa", "fa-IR")])
def test_no_serious_accessibility_violation_on_the_rating_views(
    seeded: tuple[ServerProc, Seeded, str], lang: str, locale: str, run: Run
) -> None:
    _, data, _ = seeded

    async def body(browser: Browser) -> None:
        page = await as_ana(browser, seeded, "/#leaderboard/kozyri-duel", locale=locale, still=True)
        await expect(page.get_by_test_id("board-table")).to_be_visible()
        found = severe(await axe(page))
        await page.goto(page.url.split("#")[0] + f"#player/{data.ids['ana']}")
        await expect(page.get_by_test_id("profile-view")).to_be_visible()
        await page.locator("details.plot-table summary").first.click()  # the table, open
        found += severe(await axe(page))
        assert not found, [(v.rule, v.impact, v.nodes, v.help, v.targets) for v in found]

    run(body)
