"""``trumps connect`` says the connection's and the seat's state (issue 11, part 2): with
the server gone the top line says it is offline and when it tries again, and Ctrl+R tries
again at once instead of waiting out the backoff (Textual's pilot; the "server" accepts and
drops every connection); a seat taken by another window is said, and nothing is offered to
play; a game a takeover bot finished is not the player's win in the history."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Static

from trumps.tui.connect import ConnectApp
from trumps.tui.connect.history import HistoryScreen
from trumps.tui.connect.model import Change, ClientState, Msg
from trumps.tui.connect.net import RETRY_MAX


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
         "event": 3, "view": {"hands": [["AS"], {"count": 1, "known": []}]}, "legal": ["AS"],
         "to_move": 0, "log": []}
    )  # fmt: skip
    change = state.apply({"type": "replaced", "table_id": "t-1", "seat": 0})
    table = state.tables["t-1"]
    assert change.table_id == "t-1" and "another window" in change.text
    assert table.legal == [] and any("another window" in str(i.data) for i in table.feed)


def test_history_does_not_count_a_game_a_bot_finished_as_the_players() -> None:
    base: Msg = {"id": 7, "game": "kozyri", "players": ["Ana", "random bot"], "seat": 0,
                 "outcome": {"winners": [0], "losers": [1], "draw": False,
                             "reason": "out_of_cards"}}  # fmt: skip
    assert HistoryScreen._row(base)[3].startswith("won")
    row = HistoryScreen._row({**base, "by_bot": [0]})
    assert row[3].startswith("finished by a bot") and "won" not in row[3]


def test_a_table_the_server_gave_up_is_said_and_leaves_the_lobby_list() -> None:
    state = ClientState()
    state.apply({"type": "table_list", "tables": [{"table_id": "t-1"}, {"table_id": "t-2"}]})
    state.apply(
        {"type": "table_state", "table_id": "t-1", "game": "kozyri", "rules": {},
         "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1}], "seat": 0,
         "event": 1, "view": {"hands": [["AS"], {"count": 1, "known": []}]}, "legal": [],
         "to_move": None, "log": []}
    )  # fmt: skip
    change = state.apply({"type": "table_closed", "table_id": "t-1", "reason": "not_started"})
    assert change.kind == "table_list" and "never started" in change.text
    assert [row["table_id"] for row in state.lobby] == ["t-2"]
    assert state.tables["t-1"].legal == []
    assert any("never started" in str(i.data) for i in state.tables["t-1"].feed)
