"""``trumps connect`` details players noticed (issue 11, part 4), against a real server:
the bots at one table have distinct names (the server names them, so the page and the
terminal agree), and the form takes rule options over the preset, the game checking them."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Label, Static

from trumps.tui.connect import ConnectApp
from trumps.tui.connect.form import GameForm
from trumps.tui.connect.table import TableScreen

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # tests/, for server.e2e
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.e2e import ServerProc
from tui.tuikit import SIZE, until


async def open_form(pilot: Pilot[None], app: ConnectApp) -> None:
    """The "play the computer" form, set to Twenty-Five, typed as a person would."""
    await until(pilot, lambda: app.client.state.welcomed, "the welcome")
    await pilot.press("p")
    await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
    await pilot.click("#game")
    await pilot.press(*"twenty", "enter")
    await until(pilot, lambda: getattr(app.screen, "game", "") == "twentyfive", "Twenty-Five")


async def start(pilot: Pilot[None], app: ConnectApp, options: str = "") -> TableScreen:
    """Start the game of the form (with ``options`` typed into it); its table screen."""
    if options:
        await pilot.click("#options")
        await pilot.press(*options)
    await pilot.click("#ok")
    await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
    screen = app.screen
    assert isinstance(screen, TableScreen)
    await until(pilot, lambda: screen.model.started, "the deal")
    return screen


def test_three_bots_have_distinct_names(server: ServerProc, tmp_path: Path) -> None:
    async def body() -> None:
        app = ConnectApp(server.http, name="Olena", token_file=tmp_path / "a.json")
        async with app.run_test(size=SIZE) as pilot:
            await open_form(pilot, app)
            screen = await start(pilot, app)
            t = screen.model
            names = [t.name_of(s) for s in range(t.players)]
            assert names == ["Olena", "medium bot 1", "medium bot 2", "medium bot 3"]
            # The model hears the deal first; the screen draws it when its update arrives.
            drawn = screen.query_one("#seats", Static)
            await until(pilot, lambda: all(n in str(drawn.content) for n in names), "the seats")
            seats = str(drawn.content)
            for name in names[1:]:
                assert seats.count(name) == 1, seats
            assert "(medium bot" not in seats  # the name says it: no second tag

    asyncio.run(body())


def test_rule_options_typed_in_the_form_reach_the_table(server: ServerProc, tmp_path: Path) -> None:
    async def body() -> None:
        app = ConnectApp(server.http, name="Ana", token_file=tmp_path / "c.json")
        async with app.run_test(size=SIZE) as pilot:
            await open_form(pilot, app)
            screen = await start(pilot, app, "target=40, rob=off")
            t = screen.model
            assert (t.rules["target"], t.rules["rob"]) == (40, "off")
            board = screen.query_one("#board", Static)
            await until(pilot, lambda: "first to 40" in str(board.content), "the target shown")

    asyncio.run(body())


def test_a_bad_option_is_refused_in_the_form(server: ServerProc, tmp_path: Path) -> None:
    async def body() -> None:
        app = ConnectApp(server.http, name="Rui", token_file=tmp_path / "b.json")
        async with app.run_test(size=SIZE) as pilot:
            await open_form(pilot, app)
            await pilot.click("#options")
            await pilot.press(*"rob=sometimes")
            await pilot.click("#ok")
            await pilot.pause()
            assert isinstance(app.screen, GameForm), "the form closed on a bad option"
            problem = str(app.screen.query_one("#problem", Label).content)
            assert problem.startswith("rule option 'rob' takes one of optional, mandatory, off")
            assert not app.client.state.tables
            field = app.screen.query_one("#options", Input)
            field.value = ""
            await pilot.click("#options")
            await pilot.press(*"tagret=45", "enter")
            await pilot.pause()
            problem = str(app.screen.query_one("#problem", Label).content)
            assert "no rule option 'tagret'" in problem and "target" in problem

    asyncio.run(body())
