"""``trumps connect`` says the connection's and the seat's state (issue 11, part 2): with
the server gone the top line says it is offline and when it tries again, and Ctrl+R tries
again at once instead of waiting out the backoff (Textual's pilot; the "server" accepts and
drops every connection); a seat taken by another window is said, nothing is offered to
play, and Ctrl+R takes the table back here (the pilot against a real server); a game a
takeover bot finished is not the player's win in the history."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from textual.widgets import Static

from trumps.games import new_game
from trumps.tui.connect import ConnectApp
from trumps.tui.connect.form import GameForm
from trumps.tui.connect.history import HistoryScreen
from trumps.tui.connect.model import Change, ClientState, Msg
from trumps.tui.connect.net import RETRY_MAX
from trumps.tui.connect.table import TableScreen

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # tests/, for server.e2e
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.e2e import ServerProc, connected
from tui.tuikit import TIMEOUT, until

# A seat's whole view, as the server sends one (docs/views.md).
A_VIEW = dict(new_game("kozyri", seed=1).view(0))


def test_offline_says_so_and_ctrl_r_retries_at_once(tmp_path: Path) -> None:
    async def main() -> None:
        attempts: asyncio.Queue[float] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        async def drop(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            attempts.put_nowait(loop.time())
            writer.close()  # no WebSocket handshake: the client is offline

        server = await asyncio.start_server(drop, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        app = ConnectApp(f"http://127.0.0.1:{port}", "Ana", tmp_path / "token.json")
        app.client._retry = RETRY_MAX  # the longest wait of the backoff, from the start
        statuses: asyncio.Queue[str] = asyncio.Queue()
        heard = app.client.listener
        assert heard is not None

        def tap(change: Change, msg: Msg) -> None:
            if change.kind == "status":
                statuses.put_nowait(change.text)
            heard(change, msg)

        app.client.listener = tap
        async with server, app.run_test() as pilot:
            await asyncio.wait_for(attempts.get(), 10)
            status = ""
            while "offline, retrying in" not in status:
                status = await asyncio.wait_for(statuses.get(), 10)
            await pilot.pause()  # the screen has heard it too
            line = str(app.screen.query_one("#conn", Static).render())
            assert "offline, retrying in" in line and "Ctrl+R" in line, line
            await pilot.press("ctrl+r")
            await asyncio.wait_for(attempts.get(), 1.0)  # not after the ~5 s backoff
        assert RETRY_MAX <= 5.0

    asyncio.run(main())


def test_a_seat_taken_by_another_window_is_said_and_nothing_is_offered() -> None:
    state = ClientState()
    state.apply(
        {"type": "table_state", "table_id": "t-1", "game": "kozyri", "rules": {},
         "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1, "bot": "random"}], "seat": 0,
         "event": 3, "view": A_VIEW, "legal": ["AS"],
         "to_move": 0, "log": []}
    )  # fmt: skip
    change = state.apply({"type": "replaced", "table_id": "t-1", "seat": 0})
    table = state.tables["t-1"]
    assert change.table_id == "t-1" and "another window" in change.text
    assert table.legal == [] and any("another window" in str(i.data) for i in table.feed)


def test_a_table_open_in_another_window_is_taken_back_with_ctrl_r(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ana plays the computer in the app; a second window of hers (a raw WebSocket with her
    resume token) takes the seat: the app says the game is open in another window and that
    Ctrl+R plays it here; Ctrl+R sends ``join_table`` for that table, the seat comes back
    here and the other window is told (``replaced``)."""
    server = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'trumps.db'}", tmp_path)

    async def main() -> None:
        app = ConnectApp(server.http, "Ana", tmp_path / "token.json")
        sent: list[Msg] = []
        send = app.client.send

        def keep(msg: Msg) -> bool:
            sent.append(msg)
            return send(msg)

        monkeypatch.setattr(app.client, "send", keep)
        async with app.run_test(size=(120, 40)) as pilot:
            state = app.client.state
            await until(pilot, lambda: state.welcomed, "the welcome")
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
            await pilot.click("#ok")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
            screen = app.screen
            assert isinstance(screen, TableScreen)
            table_id = screen.table_id
            other = await connected(server.ws, "Ana", state.token)
            try:
                snap = await other.expect("table_state")
                assert (snap["table_id"], snap["seat"]) == (table_id, 0)
                t = state.tables[table_id]
                await until(pilot, lambda: t.replaced, "the replaced message")
                await pilot.pause()  # the screen has heard it too
                status = str(screen.query_one("#status", Static).content)
                assert "another window" in status and "Ctrl+R" in status, status
                assert t.legal == [] and not t.can_act
                await pilot.press("ctrl+r")
                asked = {"type": "join_table", "table_id": table_id}
                await until(pilot, lambda: asked in sent, "join_table sent")
                await until(pilot, lambda: not t.replaced, "the seat back here")
                assert t.seat == 0 and isinstance(app.screen, TableScreen)
                told = await asyncio.wait_for(
                    other.until(lambda m: m["type"] == "replaced"), TIMEOUT
                )
                assert told["table_id"] == table_id
                status = str(screen.query_one("#status", Static).content)
                assert "another window" not in status, status
            finally:
                await other.close()

    server.start()
    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_history_does_not_count_a_game_a_bot_finished_as_the_players() -> None:
    base: Msg = {"id": 7, "game": "kozyri", "players": ["Ana", "random bot"], "seat": 0,
                 "outcome": {"winners": [0], "losers": [1], "draw": False,
                             "reason": "out_of_cards"}}  # fmt: skip
    assert HistoryScreen.row(base)[3].startswith("won")
    row = HistoryScreen.row({**base, "by_bot": [0]})
    assert row[3].startswith("finished by a bot") and "won" not in row[3]


def test_a_table_the_server_gave_up_is_said_and_leaves_the_lobby_list() -> None:
    state = ClientState()
    state.apply({"type": "table_list", "tables": [{"table_id": "t-1"}, {"table_id": "t-2"}]})
    state.apply(
        {"type": "table_state", "table_id": "t-1", "game": "kozyri", "rules": {},
         "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1}], "seat": 0,
         "event": 1, "view": A_VIEW, "legal": [],
         "to_move": None, "log": []}
    )  # fmt: skip
    change = state.apply({"type": "table_closed", "table_id": "t-1", "reason": "not_started"})
    assert change.kind == "table_list" and "never started" in change.text
    assert [row["table_id"] for row in state.lobby] == ["t-2"]
    assert state.tables["t-1"].legal == []
    assert any("never started" in str(i.data) for i in state.tables["t-1"].feed)


def test_joining_a_table_that_ended_and_is_gone_says_where_its_game_is() -> None:
    """An invite to a table whose game ended since (the server answers game_over, not
    no such table): said once, with the game's number in the history; nothing to open."""
    state = ClientState()
    state.pending_join = "t-gone"
    outcome = {"winners": [1], "losers": [0], "draw": False, "reason": "out_of_cards"}
    change = state.apply(
        {"type": "game_over", "table_id": "t-gone", "outcome": outcome, "record_id": 12}
    )
    assert change.kind == "error" and "ended" in change.text and "game 12" in change.text
    assert state.pending_join is None and "t-gone" not in state.tables
    # One the client did not ask about is not news.
    assert state.apply({"type": "game_over", "table_id": "t-other", "outcome": outcome}).text == ""


def test_the_client_contributes_once_per_commitment_and_checks_the_record() -> None:
    """docs/fairness.md: a seat's value is given after the commitment, before the deal, the
    same value again after a reconnection; the record is checked against both."""
    import random as _random

    import trumps
    from trumps.fairdeal import Fairness, commitment, new_secret
    from trumps.records import record_of
    from trumps.tui.connect.model import ClientState

    secret = new_secret()
    shown = commitment(secret)
    state = ClientState()
    base = {"type": "table_state", "table_id": "t-1", "seat": 0, "commitment": shown}
    first = state.contribution({**base, "contributed": False, "dealt": False})
    assert first is not None and first["type"] == "contribute" and len(first["value"]) == 64
    again = state.contribution({**base, "contributed": False, "dealt": False})
    assert again == first  # a reconnection before the start: the same value
    for done in ({"contributed": True}, {"dealt": True}, {"seat": None}, {"commitment": None}):
        assert state.contribution({**base, **done}) is None
    fair = Fairness(secret, (first["value"], None))
    game = trumps.new_game("kozyri", players=2, seed=fair.seed)
    rng = _random.Random(2)
    while game.outcome is None:
        game.play(rng.choice(game.legal_actions()))
    record = record_of(game, fair=fair)
    text, passed = state.fair_check("t-1", record)
    assert passed and "your own contribution" in text
    other = record_of(game, fair=fair) | {"fair": {**fair.to_json(), "contributions": [None, None]}}
    text, passed = state.fair_check("t-1", other)
    assert not passed and "FAILED" in text
    text, passed = state.fair_check("t-1", {k: v for k, v in record.items() if k != "fair"})
    assert not passed and "cannot be verified" in text


def test_a_view_the_client_cannot_read_is_said_in_one_line_and_changes_nothing() -> None:
    """A ``table_state`` or ``event`` whose view lacks a key of its game's view (a server of
    another version, a broken proxy) is refused with the key named, and the table stays as
    it was: no new table, no event applied (docs/views.md#types)."""
    state = ClientState()
    broken = {k: v for k, v in A_VIEW.items() if k != "pile"}
    snapshot = {
        "type": "table_state", "table_id": "t-1", "game": "kozyri", "rules": {},
        "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1, "bot": "random"}], "seat": 0,
        "event": 3, "legal": [], "to_move": 1, "log": [],
    }  # fmt: skip
    change = state.apply({**snapshot, "view": broken})
    assert change.kind == "error" and "no pile" in change.text and "\n" not in change.text
    assert "t-1" not in state.tables
    state.apply({**snapshot, "view": A_VIEW})
    table = state.tables["t-1"]
    event = {"type": "event", "table_id": "t-1", "number": 4, "kind": "action", "seat": 1,
             "action": "6S", "view": broken, "legal": ["take"], "to_move": 0}  # fmt: skip
    change = state.apply(event)
    assert change.kind == "error" and "no pile" in change.text
    assert table.event == 3 and table.view == A_VIEW and table.legal == [] and table.to_move == 1
