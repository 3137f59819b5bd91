"""``trumps connect``'s analysed replay (issue 13 §3, docs/analysis.md) against a real
server whose database holds finished games stored as the server stores them.  Pressing
``a`` asks the server (``POST /api/games/ID/analysis``), shows its progress while it polls,
then the marked moves: ``n``/``p`` step to them and the line under the board says what each
cost; a game analysed already shows at once; a refusal (429) is one line.  What the screen
shows is compared with what the API answers."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import trumps
from server.e2e import ServerProc
from trumps.ai.analysis import Budget, analyze_game
from trumps.ai.base import Limits
from trumps.ai.simple import EasyBot
from trumps.games import Game
from trumps.records import record_of
from trumps.store import SqlStore, TableWrite
from trumps.tui.connect import ConnectApp
from trumps.tui.connect.analysistext import graph_text, mark_line, marked_plies, summary_text
from trumps.tui.connect.history import ReplayScreen
from tui.ratedkit import SIZE, database, signed_in_app, start_server
from tui.tuikit import until

NAMES = ["Ann", "Ben", "Cy"]
FAR = 10 * 365 * 86400.0  # a heartbeat this far ahead never goes stale during a test


def easy_game(seed: int) -> Game:
    """A 3-player Twenty-Five game of the easy bots (its analysis has marked moves)."""
    game = trumps.new_game("twentyfive", players=3, seed=seed)
    bot, rng = EasyBot("twentyfive"), random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.play(bot.decide(game.view(seat), game.legal_actions(), Limits(), rng).action)
    return game


def fill(db: str) -> dict[str, int]:
    """Four finished games (``fresh`` nobody analysed, ``done`` analysed already, ``busy``
    whose analysis another of the test's players runs, ``refused`` to be refused): their
    ids."""

    async def go() -> dict[str, int]:
        store = SqlStore(db)
        await store.create()
        try:
            seats = [await store.add_player(name, "!", login=name.lower()) for name in NAMES]
            kinds = ("fresh", "done", "busy", "refused")
            writes = [
                TableWrite(f"t-{kind}", record_of(easy_game(2), NAMES), player_ids=seats)
                for kind in kinds
            ]
            made = await store.commit_tables(writes)
            ids = {kind: i for kind, i in zip(kinds, made, strict=True) if isinstance(i, int)}
            assert len(ids) == len(kinds)
            start = trumps.new_game("twentyfive", players=3, seed=2)
            result = analyze_game(start, easy_game(2).history, Budget(deals=40)).to_json()
            now = time.time()
            owner = await store.claim_analysis(ids["done"], seats[0], now, now)
            assert owner is not None
            assert await store.finish_analysis(ids["done"], owner, result, now)
            return ids
        finally:
            await store.close()

    return asyncio.run(go())


async def running_for(db: str, game_id: int, player: int) -> None:
    """``player``'s analysis of ``game_id`` running (a heartbeat far ahead)."""
    store = SqlStore(db)
    try:
        assert await store.claim_analysis(game_id, player, time.time() + FAR, 0.0)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProc, dict[str, int]]]:
    work = tmp_path_factory.mktemp("connect-analysis")
    ids = fill(database(work))
    proc = start_server(work)
    try:
        yield proc, ids
    finally:
        proc.stop()


def text(app: ConnectApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


def shown(app: ConnectApp, selector: str) -> str:
    """The text of a widget that is shown ("" when hidden)."""
    widget = app.screen.query_one(selector, Static)
    return str(widget.content) if widget.display else ""


async def replay(pilot: Pilot[None], app: ConnectApp, game_id: int) -> ReplayScreen:
    await until(pilot, lambda: app.client.state.welcomed, "the welcome")
    screen = ReplayScreen(app.client, game_id)
    await app.push_screen(screen)
    await until(pilot, lambda: "move 0/" in text(app, "#replay-head"), "the replay")
    return screen


def positions(server: ServerProc, game_id: int) -> list[dict[str, Any]]:
    return list(server.get(f"/api/games/{game_id}/replay").json()["positions"])


def test_a_analyses_with_progress_then_n_and_p_step_to_the_marks(
    served: tuple[ServerProc, dict[str, int]], tmp_path: Path
) -> None:
    server, ids = served
    game_id = ids["fresh"]
    assert server.get(f"/api/games/{game_id}/analysis").status_code == 404

    async def body() -> None:
        app, _ = signed_in_app(server, tmp_path, "eve")  # a guest who never sat has no session
        async with app.run_test(size=SIZE) as pilot:
            screen = await replay(pilot, app, game_id)
            await until(pilot, lambda: "a: analyse" in text(app, "#replay-analysis"), "the hint")
            assert "a analyse" in text(app, "#replay-head")
            assert shown(app, "#replay-graph") == shown(app, "#replay-mark") == ""
            seen: set[str] = set()

            def analysed() -> bool:
                seen.add(text(app, "#replay-analysis"))
                return text(app, "#replay-analysis").startswith("Analysed:")

            await pilot.press("a")
            await until(pilot, analysed, "the analysis")
            assert "Analysing… 0 of 21 decisions" in seen  # the POST's answer: queued
            answer = server.get(f"/api/games/{game_id}/analysis").json()
            assert answer["status"] == "done"
            analysis = answer["analysis"]
            marks = marked_plies(analysis)
            assert len(marks) >= 2 and marks[0] > 0
            assert text(app, "#replay-analysis") == summary_text(analysis)
            steps = positions(server, game_id)
            plies = len(steps) - 1
            assert shown(app, "#replay-graph") == graph_text(analysis, NAMES, plies, 0).plain
            assert shown(app, "#replay-mark") == ""  # at the start: no move made yet

            # n: to the step after the first marked move, its line under the board.
            await pilot.press("n")
            assert screen.index == marks[0] + 1
            move = next(m for m in analysis["moves"] if m["ply"] == marks[0])
            line = mark_line(move, NAMES, steps[marks[0]]).plain
            assert shown(app, "#replay-mark") == line
            assert line.startswith(f"{NAMES[move['seat']]} played ")
            assert f"{move['mark']} " in line and " Better: play " in line
            assert f"move {marks[0] + 1}/{plies}: {NAMES[move['seat']]} played" in text(
                app, "#replay-head"
            )
            graph = shown(app, "#replay-graph").split("\n")
            assert graph[-2][graph[-1].index("^")] != " "  # the caret under the mark
            await pilot.press("n")
            assert screen.index == marks[1] + 1
            await pilot.press("p")
            assert screen.index == marks[0] + 1
            await pilot.press("right")  # a step after an unmarked move: no line
            if marks[0] + 1 not in marks:
                assert shown(app, "#replay-mark") == ""
            await pilot.press("home", "p")  # nothing before the first: said in the status
            assert screen.index == 0
            assert text(app, "#replay-analysis").startswith("No marked move before this one.")

    asyncio.run(body())


def test_a_game_analysed_already_shows_at_once(
    served: tuple[ServerProc, dict[str, int]], tmp_path: Path
) -> None:
    server, ids = served
    analysis = server.get(f"/api/games/{ids['done']}/analysis").json()["analysis"]

    async def body() -> None:
        app = ConnectApp(server.http, name="Guest", token_file=tmp_path / "guest.json")
        async with app.run_test(size=SIZE) as pilot:
            await replay(pilot, app, ids["done"])
            await until(pilot, lambda: shown(app, "#replay-graph") != "", "the graph")
            assert text(app, "#replay-analysis") == summary_text(analysis)
            assert "n/p marks" in text(app, "#replay-head")
            await pilot.press("end")
            plies = len(positions(server, ids["done"])) - 1
            assert shown(app, "#replay-graph") == graph_text(analysis, NAMES, plies, plies).plain

    asyncio.run(body())


def test_a_refusal_is_one_line_and_an_analysis_made_elsewhere_is_waited_for(
    served: tuple[ServerProc, dict[str, int]], tmp_path: Path
) -> None:
    server, ids = served

    async def body() -> None:
        app, player = signed_in_app(server, tmp_path, "dora")
        # Dora's own analysis of another game runs: one at a time, says the server.
        await running_for(server.db, ids["busy"], player)
        async with app.run_test(size=SIZE) as pilot:
            await replay(pilot, app, ids["refused"])
            await until(pilot, lambda: "a: analyse" in text(app, "#replay-analysis"), "the hint")
            await pilot.press("a")
            await until(pilot, lambda: "No analysis now" in text(app, "#replay-analysis"), "429")
            assert text(app, "#replay-analysis") == (
                "No analysis now: your other analysis is still running: one at a time"
            )
            assert shown(app, "#replay-graph") == ""
            await pilot.press("escape")
            # The game Dora's analysis runs for: progress without numbers, polled.
            await replay(pilot, app, ids["busy"])
            await until(pilot, lambda: text(app, "#replay-analysis") == "Analysing…", "202")

    asyncio.run(body())
