"""``trumps connect`` plays rated games (issue 13, part 1), against a real server: the
forms' Rated toggle reaches the server (quick match rated for accounts unless asked for
casual), a guest sees why it is off and is refused a rated table with the reason, the
lobby and the table say "rated", a finished rated game shows the rating change, which the
history lists too, and the change that cannot be fetched is one line."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, Label, Select, Static

from server.e2e import ServerProc, connected
from trumps.tui.connect import ConnectApp
from trumps.tui.connect.dialogs import SignIn
from trumps.tui.connect.form import GUEST_CASUAL, RATED_CLOCK_NOTE, GameForm
from trumps.tui.connect.lobby import LobbyScreen
from trumps.tui.connect.model import NO_HINTS_RATED, TableModel
from tui.ratedkit import (
    PASSWORD,
    SIZE,
    account,
    notes,
    on_table,
    raw_player,
    recording,
    signed_in_app,
    start_server,
)
from tui.tuikit import until

# The bots' fixed ratings on this server: in the duel, hard and expert only.
BOT_RATINGS = {"kozyri-duel": {"hard": 1700.0, "expert": 1800.0}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = start_server(tmp_path_factory.mktemp("connect-rated"), BOT_RATINGS)
    try:
        yield proc
    finally:
        proc.stop()


async def open_form(pilot: Pilot[None], app: ConnectApp, key: str) -> GameForm:
    await until(pilot, lambda: app.client.state.welcomed, "the welcome")
    await pilot.press(key)
    await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
    form = app.screen
    assert isinstance(form, GameForm)
    return form


async def rated_duel(pilot: Pilot[None], app: ConnectApp, server: ServerProc) -> TableModel:
    """A rated duel made with the create form, against a second account over a raw
    WebSocket (it plays as the easy bot would); once the app has made a move (a game
    without one is not rated for both) it resigns."""
    sent = recording(app)
    form = await open_form(pilot, app, "c")
    rated = form.query_one("#rated", Checkbox)
    assert not rated.disabled and not rated.value  # a table is casual unless asked for
    await pilot.click("#rated")
    assert rated.value
    # A rated game has a clock and a timeout loses it: the form says so and asks for that.
    why = form.query_one("#rated-why", Label)
    await until(pilot, lambda: str(why.content) == RATED_CLOCK_NOTE, "the clock's note")
    assert form.query_one("#on_timeout", Select).value == "forfeit"
    await pilot.click("#ok")
    await until(pilot, lambda: on_table(app) is not None, "the table screen")
    [request] = [m for m in sent if m["type"] == "create_table"]
    assert request["rated"] is True and request["on_timeout"] == "forfeit"
    table_id = str(on_table(app))
    t = app.client.state.tables[table_id]
    assert t.rated and t.time_control  # the server's clock for rated games
    head = app.screen.query_one("#head", Static)
    await until(pilot, lambda: " · rated" in str(head.content), "rated in the header")

    _, token = account(server, f"rival{len(app.client.state.tables)}{table_id[-6:]}".lower())
    rival = await connected(server.ws, "Rival", token)
    try:
        await rival.send({"type": "join_table", "table_id": table_id})
        other = asyncio.create_task(raw_player(rival, table_id, random.Random(5)))
        await until(pilot, lambda: t.can_act, "my first turn")
        before = t.event
        await pilot.press("1", "enter")
        await until(pilot, lambda: t.event > before and not t.sent, "my move to land")
        await pilot.press("r", "y")
        await until(pilot, lambda: t.outcome is not None, "the resignation")
        await asyncio.wait_for(other, 30)
    finally:
        await rival.close()
    return t


def test_a_rated_game_shows_the_rating_change(server: ServerProc, tmp_path: Path) -> None:
    async def body() -> None:
        app, _ = signed_in_app(server, tmp_path, "olena")
        async with app.run_test(size=SIZE) as pilot:
            t = await rated_duel(pilot, app, server)
            await until(pilot, lambda: bool(t.rating_note), "the rating change")
            # The change is the server's: the finished game's row in the player's history.
            token = app.client.state.token
            rows = server.get("/api/games?mine=1", headers={"authorization": f"Bearer {token}"})
            [row] = [g for g in rows.json()["games"] if g["id"] == t.record_id]
            [mine] = [c for c in row["rating_changes"] if c["seat"] == row["seat"]]
            assert mine["before"] == 1500 and mine["after"] < 1500  # we resigned
            change = f"{mine['before']} → {mine['after']} ({mine['after'] - mine['before']:+d})"
            expected = f"Your rating (Svoi Kozyri, two players): {change}."
            assert t.rating_note == expected
            await until(
                pilot,
                lambda: expected in str(app.screen.query_one("#status", Static).content),
                "the change in the status line",
            )
            assert expected in notes(app)
            # The history lists the game with its change.
            await pilot.press("b", "h")
            games = app.screen.query_one("#games", DataTable)
            await until(pilot, lambda: games.row_count == 1, "the history")
            cells = [str(c) for c in games.get_row_at(0)]
            assert change in cells, cells

    asyncio.run(body())


def test_a_rating_change_that_cannot_be_fetched_is_one_line(
    server: ServerProc, tmp_path: Path
) -> None:
    async def body() -> None:
        app, _ = signed_in_app(server, tmp_path, "rui")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            # The HTTP API no longer takes the client's token (the WebSocket stays up).
            app.client.state.token = "no-such-token"
            t = await rated_duel(pilot, app, server)
            await until(pilot, lambda: bool(t.rating_note), "the note")
            assert t.rating_note.startswith("Your rating change could not be fetched (401: ")
            assert "\n" not in t.rating_note
            assert t.rating_note in notes(app)

    asyncio.run(body())


def test_playing_the_computer_rated_needs_a_bot_with_a_rating(
    server: ServerProc, tmp_path: Path
) -> None:
    """The form asks the server which bots have a fixed rating in the game's family (the
    leaderboard's ``bots``): against one without, Rated is off and says why; against one
    with, the game is rated and its end shows the change."""

    async def body() -> None:
        app, _ = signed_in_app(server, tmp_path, "ines")
        async with app.run_test(size=SIZE) as pilot:
            form = await open_form(pilot, app, "p")
            box, why = form.query_one("#rated", Checkbox), form.query_one("#rated-why", Label)
            await pilot.click("#level")
            await pilot.press(*"random", "enter")
            reason = (
                "The random bot has no rating for Svoi Kozyri, two players on this server: "
                "games against it are casual."
            )
            await until(pilot, lambda: str(why.content) == reason, "why it is off")
            assert box.disabled and not box.value
            await pilot.click("#level")
            await pilot.press(*"hard", "enter")
            await until(pilot, lambda: not box.disabled, "the box on for hard")
            await pilot.click("#rated")
            shown = f"The hard bot's rating here: 1700. {RATED_CLOCK_NOTE}"
            await until(pilot, lambda: str(why.content) == shown, "its rating")
            sent = recording(app)
            await pilot.click("#ok")
            await until(pilot, lambda: on_table(app) is not None, "the table")
            [request] = [m for m in sent if m["type"] == "play_computer"]
            assert request["rated"] is True and request["level"] == "hard"
            t = app.client.state.tables[str(on_table(app))]
            assert t.rated and t.time_control  # the server's clock for rated games
            head = app.screen.query_one("#head", Static)
            await until(pilot, lambda: " · rated" in str(head.content), "rated in the header")
            await until(pilot, lambda: t.can_act, "my first turn")
            # No hints at a rated table: no Hint key, the reason said once in the log, and
            # pressing h asks the server nothing.
            assert "h" not in app.screen.active_bindings
            said_why = [f for f in t.feed if f.data.get("text") == NO_HINTS_RATED]
            assert len(said_why) == 1
            await pilot.press("h")
            assert not [m for m in sent if m["type"] == "hint"]
            before = t.event
            await pilot.press("1", "enter")
            await until(pilot, lambda: t.event > before and not t.sent, "my move to land")
            await pilot.press("r", "y")
            await until(pilot, lambda: bool(t.rating_note), "the rating change")
            found = re.fullmatch(
                r"Your rating \(Svoi Kozyri, two players\): 1500 → (\d+) \((-\d+)\)\.",
                t.rating_note,
            )
            assert found, t.rating_note
            assert int(found[1]) - 1500 == int(found[2]) < 0  # resigned: a loss

    asyncio.run(body())


def test_quick_match_is_rated_for_an_account_unless_asked_for_casual(
    server: ServerProc, tmp_path: Path
) -> None:
    async def body() -> None:
        app, _ = signed_in_app(server, tmp_path, "marta")
        async with app.run_test(size=SIZE) as pilot:
            sent = recording(app)
            form = await open_form(pilot, app, "m")
            assert form.query_one("#rated", Checkbox).value  # rated by default
            await pilot.click("#rated")  # casual, please
            await pilot.click("#ok")
            state = app.client.state
            await until(pilot, lambda: state.waiting is not None, "the wait")
            assert state.waiting is not None and state.waiting["rated"] is False
            waiting = app.screen.query_one("#waiting", Static)
            await until(
                pilot, lambda: "Quick match (casual)" in str(waiting.content), "the wait shown"
            )
            await pilot.press("m")  # cancel
            assert state.waiting is None
            await open_form(pilot, app, "m")
            await pilot.click("#ok")
            await until(pilot, lambda: state.waiting is not None, "the rated wait")
            assert state.waiting is not None and state.waiting["rated"] is True
            await until(
                pilot, lambda: "Quick match (rated)" in str(waiting.content), "the rated wait shown"
            )
            await pilot.press("m")
            quick = [m["rated"] for m in sent if m["type"] == "quick_match"]
            assert quick == [False, True]

    asyncio.run(body())


def test_a_guest_sees_why_rated_is_off_and_is_refused_a_rated_table(
    server: ServerProc, tmp_path: Path
) -> None:
    async def body() -> None:
        # An account's public rated table in the lobby.
        _, token = account(server, "taras", "Taras")
        taras = await connected(server.ws, "Taras", token)
        try:
            await taras.send(
                {"type": "create_table", "game": "kozyri", "seats": ["human", "human"],
                 "rated": True}
            )  # fmt: skip
            made = await taras.expect("table_state")
            assert made["rated"] is True
            app = ConnectApp(server.http, name="Guest Ana", token_file=tmp_path / "ana.json")
            async with app.run_test(size=SIZE) as pilot:
                sent = recording(app)
                form = await open_form(pilot, app, "c")
                rated = form.query_one("#rated", Checkbox)
                assert rated.disabled and not rated.value
                assert str(form.query_one("#rated-why", Label).content) == GUEST_CASUAL
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")

                # The lobby says which tables are rated; joining one is refused with why.
                tables = app.screen.query_one("#tables", DataTable)
                state = app.client.state
                await until(
                    pilot,
                    lambda: any(r["table_id"] == made["table_id"] for r in state.lobby),
                    "the rated table listed",
                )
                await until(pilot, lambda: tables.row_count > 0, "the lobby's rows")
                rows = [[str(c) for c in tables.get_row_at(i)] for i in range(tables.row_count)]
                [row] = [r for r in rows if r[0] == made["table_id"]]
                assert row[-1] == "rated"
                tables.move_cursor(row=rows.index(row))
                await pilot.press("j")
                await until(pilot, lambda: any("That table is rated" in n for n in notes(app)),
                            "the reason")  # fmt: skip
                assert not any(m["type"] == "join_table" for m in sent)
                assert made["table_id"] not in state.tables

                # Asked anyway (an old client, a hand-made message): the server's reason.
                app.client.send(
                    {"type": "play_computer", "game": "kozyri", "players": 2, "level": "easy",
                     "rated": True}
                )  # fmt: skip
                await until(
                    pilot,
                    lambda: (
                        "rated games are for accounts"
                        in str(app.screen.query_one("#lobby-status", Static).content)
                    ),
                    "the server's refusal",
                )
                assert not state.tables
        finally:
            await taras.close()

    asyncio.run(body())


def test_a_guest_signs_in_and_may_then_play_rated(server: ServerProc, tmp_path: Path) -> None:
    async def body() -> None:
        account(server, "vera", "Vera")
        app = ConnectApp(server.http, name="Guest Vera", token_file=tmp_path / "vera.json")
        async with app.run_test(size=SIZE) as pilot:
            state = app.client.state
            await until(pilot, lambda: state.welcomed, "the welcome")
            guest_id = state.player_id
            assert not state.signed_in
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, SignIn), "the sign-in dialog")
            await pilot.press(*"vera", "enter", *"wrong password", "enter")
            problem = app.screen.query_one("#problem", Label)
            await until(pilot, lambda: "401" in str(problem.content), "the refusal")
            assert str(problem.content) == "401: wrong login or password"
            password = app.screen.query_one("#password", Input)
            password.value = ""
            await pilot.click("#password")
            await pilot.press(*PASSWORD, "enter")
            await until(pilot, lambda: state.signed_in and state.welcomed, "the account")
            assert state.account == "vera" and state.player_id != guest_id
            assert isinstance(app.screen, LobbyScreen)
            conn = app.screen.query_one("#conn", Static)
            await until(pilot, lambda: "(account vera)" in str(conn.content), "who we are")
            form = await open_form(pilot, app, "c")
            assert not form.query_one("#rated", Checkbox).disabled
            assert str(form.query_one("#rated-why", Label).content) == ""
            # The token file keeps the account's session for the next start.
            assert app.client.store.load()["resume_token"] == state.token

    asyncio.run(body())


def test_a_guest_makes_itself_an_account_keeping_its_player(
    server: ServerProc, tmp_path: Path
) -> None:
    async def body() -> None:
        app = ConnectApp(server.http, name="Jin", token_file=tmp_path / "jin.json")
        async with app.run_test(size=SIZE) as pilot:
            state = app.client.state
            await until(pilot, lambda: state.welcomed, "the welcome")
            # A guest the server keeps (one that made a table): its games stay its own.
            app.client.send({"type": "create_table", "game": "kozyri",
                             "seats": ["human", "human"]})  # fmt: skip
            await until(pilot, lambda: on_table(app) is not None, "the table")
            guest_id = state.player_id
            await pilot.press("b", "s")
            await until(pilot, lambda: isinstance(app.screen, SignIn), "the sign-in dialog")
            leaving = app.screen.query_one("#leaving", Static)
            assert "creating an account keeps them" in str(leaving.content)
            await pilot.press(*"jin", "enter", *PASSWORD)
            await pilot.click("#create")
            await until(pilot, lambda: state.signed_in and state.welcomed, "the account")
            assert state.account == "jin" and state.player_id == guest_id and state.name == "Jin"

    asyncio.run(body())
