"""``trumps connect``'s leaderboard and profiles (issue 13, part 1) against a real server
whose database was filled before it started: rated duels stored as the server stores them
(``SqlStore.commit_tables`` with a ``RatingPlan``).  The screens show what the HTTP API
says (each cell compared with the API's answer), provisional ratings with a ``?``; a guest's
own profile, an unknown player and an unreachable server are each one line."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from server.e2e import ServerProc, free_port
from trumps.tui.connect import ConnectApp
from trumps.tui.connect.ladder import LeaderboardScreen, ProfileScreen
from trumps.tui.connect.lobby import LobbyScreen
from trumps.tui.connect.ratingtext import BARS, sparkline
from tui.ratedkit import SIZE, database, prefill, signed_in_app, start_server
from tui.tuikit import until

# Ann beats Ben two games in three over 24 games: both settle on the leaderboard (10 rated
# games and a deviation under 110).  Cy has played Ann twice: still provisional.
GAMES = [("ann", "ben", 0 if k % 3 else 1) for k in range(24)] + [("cy", "ann", 1)] * 2


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProc, dict[str, int]]]:
    work = tmp_path_factory.mktemp("connect-ladder")
    ids = prefill(database(work), GAMES)
    proc = start_server(work)
    try:
        yield proc, ids
    finally:
        proc.stop()


def cells(table: DataTable[Any]) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def text(app: ConnectApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


async def on_screen(pilot: Pilot[None], app: ConnectApp, kind: type, what: str) -> Any:
    await until(pilot, lambda: isinstance(app.screen, kind), what)
    return app.screen


def test_the_leaderboard_and_profiles_show_the_apis_data(
    filled: tuple[ServerProc, dict[str, int]], tmp_path: Path
) -> None:
    server, ids = filled
    board = server.get("/api/leaderboard/kozyri-duel").json()
    ann = server.get(f"/api/players/{ids['ann']}").json()
    cy = server.get(f"/api/players/{ids['cy']}").json()
    assert [p["name"] for p in board["players"]] == ["Ann", "Ben"]  # Cy is provisional

    async def body() -> None:
        app = ConnectApp(server.http, name="Guest", token_file=tmp_path / "guest.json")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            footer = {k: b.binding.description for k, b in app.active_bindings.items()
                      if b.binding.show}  # fmt: skip
            assert (footer["l"], footer["y"], footer["s"]) == ("Leaderboard", "Profile", "Sign in")
            await pilot.press("l")
            screen = await on_screen(pilot, app, LeaderboardScreen, "the leaderboard")
            leaders = screen.query_one("#leaders", DataTable)
            await until(pilot, lambda: leaders.row_count == 2, "the leaders")
            assert cells(leaders) == [
                [str(p["rank"]), p["name"], str(p["rating"]), str(p["deviation"]),
                 str(p["games"])]
                for p in board["players"]
            ]  # fmt: skip
            bots = " · ".join(f"{b['level']} {b['rating']}" for b in board["bots"])
            assert text(app, "#bots") == (f"The computer on this ladder: {bots}" if bots else "")
            assert text(app, "#board-status") == "Svoi Kozyri, two players: 1–2."

            # Another family, by its number key: nobody there yet, and why.
            await pilot.press("2")
            await until(pilot, lambda: "nobody here yet" in text(app, "#board-status"), "empty")
            assert leaders.row_count == 0
            assert f"at least {board['min_games']} rated games" in text(app, "#board-status")
            await pilot.press("1")
            await until(pilot, lambda: leaders.row_count == 2, "the duel's leaders again")

            # Enter on the first row: Ann's profile, as the API has it.
            await pilot.press("enter")
            profile = await on_screen(pilot, app, ProfileScreen, "Ann's profile")
            h2h = profile.query_one("#h2h", DataTable)
            await until(pilot, lambda: h2h.row_count == 2, "the head-to-head")
            assert text(app, "#profile-head").startswith(f"Ann — player {ids['ann']}")
            duel = ann["ratings"]["kozyri-duel"]
            points = [ann["history"][0]["before"]] + [h["after"] for h in ann["history"]]
            assert len(points) == 27 and not duel["provisional"]
            ratings = text(app, "#profile-ratings")
            assert ratings.startswith("Svoi Kozyri, two players")
            assert (
                f" {duel['rating']}  ±{duel['deviation']:<3}  26 games  {sparkline(points)}"
                f"  1500 → {duel['rating']}"
            ) in ratings
            assert "?" not in ratings
            assert duel["like"] and ratings.endswith(f"  plays like {duel['like']}")
            k = ann["results"]["kozyri"]
            assert text(app, "#profile-results") == (
                f"Results: Svoi Kozyri: {k['won']} won, {k['drawn']} drawn, {k['lost']} lost"
            )
            assert cells(h2h) == [
                [h["name"], str(h["won"]), str(h["drawn"]), str(h["lost"])]
                for h in ann["head_to_head"]
            ]
            games = profile.query_one("#profile-games", DataTable)
            assert games.row_count == len(ann["games"]) == 20
            latest = ann["games"][0]
            [change] = [c for c in latest["rating_changes"] if c["seat"] == latest["seat"]]
            delta = change["after"] - change["before"]
            assert cells(games)[0][0] == str(latest["id"])
            assert cells(games)[0][4] == f"{change['before']} → {change['after']} ({delta:+d})"

            # Enter on Cy in the head-to-head: a provisional rating, marked with a "?".
            row = [c[0] for c in cells(h2h)].index("Cy")
            h2h.focus()
            h2h.move_cursor(row=row)
            await pilot.press("enter")
            await until(pilot, lambda: text(app, "#profile-head").startswith("Cy —"), "Cy")
            await until(pilot, lambda: "?" in text(app, "#profile-ratings"), "Cy's ratings")
            mark = cy["ratings"]["kozyri-duel"]
            assert mark["provisional"]
            assert f" {mark['rating']}?  ±{mark['deviation']}" in text(app, "#profile-ratings")
            assert "? provisional" in text(app, "#profile-ratings")
            await pilot.press("b", "b", "b")
            await on_screen(pilot, app, LobbyScreen, "the lobby")

    asyncio.run(body())


def test_ones_own_profile_and_a_missing_one(
    filled: tuple[ServerProc, dict[str, int]], tmp_path: Path
) -> None:
    server, _ = filled

    async def body() -> None:
        app = ConnectApp(server.http, name="Guest", token_file=tmp_path / "guest.json")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            await pilot.press("y")
            await on_screen(pilot, app, ProfileScreen, "the profile")
            await until(pilot, lambda: "guest" in text(app, "#profile-head"), "the refusal")
            assert text(app, "#profile-head") == (
                "You play as a guest, and guests have no profile: sign in with s in the lobby."
            )
            await pilot.press("b")
            await app.push_screen(ProfileScreen(app.client, 2**31 - 1))
            await until(pilot, lambda: "404" in text(app, "#profile-head"), "the 404")
            head = text(app, "#profile-head")
            assert head.startswith("Could not load the profile: 404: ") and "\n" not in head

        fresh, player_id = signed_in_app(server, tmp_path, "dora")
        async with fresh.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: fresh.client.state.welcomed, "the welcome")
            await pilot.press("y")
            await until(pilot, lambda: "Dora" in text(fresh, "#profile-head"), "Dora's profile")
            assert text(fresh, "#profile-head").startswith(f"Dora (you) — player {player_id}")
            assert text(fresh, "#profile-ratings") == "No rated games yet."
            assert text(fresh, "#profile-results") == "Results: no finished games yet."

    asyncio.run(body())


def test_an_unreachable_server_is_one_line_on_each_screen(tmp_path: Path) -> None:
    async def body() -> None:
        app = ConnectApp(f"http://127.0.0.1:{free_port()}", "Ana", tmp_path / "token.json")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("l")
            await on_screen(pilot, app, LeaderboardScreen, "the leaderboard")
            await until(pilot, lambda: "Could not" in text(app, "#board-status"), "the problem")
            assert text(app, "#board-status") == (
                "Could not load the leaderboard: the server cannot be reached: connection "
                "refused (is the server running, on that port?)"
            )
            await pilot.press("b")
            await app.push_screen(ProfileScreen(app.client, 7))
            await until(pilot, lambda: "Could not" in text(app, "#profile-head"), "the problem")
            assert text(app, "#profile-head").startswith(
                "Could not load the profile: the server cannot be reached: connection refused"
            )
            await pilot.press("b", "y")  # our own: not even welcomed
            await until(pilot, lambda: "Not connected" in text(app, "#profile-head"), "offline")

    asyncio.run(body())


def test_a_sparkline_spans_the_bars() -> None:
    assert sparkline([1500, 1500]) == BARS[3] * 2
    assert sparkline([1400, 1450, 1500]) == BARS[0] + BARS[4] + BARS[-1]
    assert sparkline([]) == ""
