"""Take-backs in ``trumps connect`` (docs/protocol.md#takeback), against a real server:
``u`` takes back my last move against the computer (the key is offered only when the table
says I may); another player's request asks me, and ``y`` allows it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from textual.widgets import RichLog

from trumps.games.viewtypes import View, own_cards
from trumps.tui.connect import ConnectApp
from trumps.tui.connect.dialogs import Confirm
from trumps.tui.connect.model import TableModel
from trumps.tui.connect.table import TableScreen

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # tests/, for server.e2e
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.e2e import Client, ServerProc
from tui.tuikit import SIZE, until


def kinds(screen: TableScreen) -> list[str]:
    return [str(i.data.get("kind")) for i in screen.model.feed if i.kind == "event"]


def test_u_takes_back_my_move_against_the_computer(server: ServerProc, tmp_path: Path) -> None:
    async def body() -> None:
        app = ConnectApp(server.http, name="Olena", token_file=tmp_path / "a.json")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            app.client.send({"type": "play_computer", "game": "twentyfive", "level": "random"})
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
            screen = app.screen
            assert isinstance(screen, TableScreen)

            def t() -> TableModel:
                return screen.model

            def seen(m: TableModel) -> View:
                assert m.view is not None
                return m.view

            await until(pilot, lambda: t().can_act, "my turn")
            assert not t().can_take_back and screen.check_action("takeback", ()) is False
            hand = sorted(own_cards(seen(t())))
            await pilot.press("enter")  # the card under the cursor
            await until(pilot, lambda: t().can_act and t().can_take_back, "my turn again")
            assert screen.check_action("takeback", ()) is True
            await pilot.press("u")
            await until(pilot, lambda: "takeback" in kinds(screen), "the take-back")
            assert sorted(own_cards(seen(t()))) == hand
            assert not t().can_take_back  # that was my only move
            log = "\n".join(str(line) for line in screen.query_one("#log", RichLog).lines)
            assert "Olena takes back a move: " in log

    asyncio.run(body())


def test_another_player_s_request_is_asked_and_y_allows_it(
    server: ServerProc, tmp_path: Path
) -> None:
    async def body() -> None:
        other = await Client(server.ws).connect()
        await other.hello("Bea")
        await other.send(
            {"type": "create_table", "game": "twentyfive", "seats": ["human", "human"]}
        )
        table_id = (await other.expect("table_state"))["table_id"]
        app = ConnectApp(server.http, name="Olena", token_file=tmp_path / "b.json")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            app.client.join(table_id)
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
            screen = app.screen
            assert isinstance(screen, TableScreen)
            # Play until Bea has played a card; then she asks to take it back.
            while True:
                msg = await other.until(
                    lambda m: m["type"] in ("event", "table_state") and m.get("to_move") is not None
                )
                if msg["to_move"] == 1:
                    await until(pilot, lambda: screen.model.can_act, "my turn")
                    await pilot.press("enter")
                    continue
                if not msg.get("legal"):
                    continue
                card = next((a for a in msg["legal"] if len(a) == 2), None)
                await other.act(table_id, card or msg["legal"][0], other.last[table_id])
                if card is not None:
                    break
            await until(pilot, lambda: screen.model.to_move == 1, "Bea's card")
            await other.send({"type": "takeback", "table_id": table_id})
            await until(pilot, lambda: isinstance(app.screen, Confirm), "the question")
            question = app.screen
            assert isinstance(question, Confirm) and "Bea asks to take back" in question.question
            await pilot.press("y")
            back = await other.until(lambda m: m.get("kind") == "takeback")
            assert back["seat"] == 0 and back["action"] == card
            await until(pilot, lambda: "takeback" in kinds(screen), "the take-back")
        await other.close()

    asyncio.run(body())
