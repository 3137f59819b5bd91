"""``trumps connect``'s log tells what each move closed (issue 11 part 1): who won each
trick, when a hand ends and the next is dealt, how many cards a Svoi Kozyri pick-up
took, and which move was made for a player whose time ran out.  Events are made as the server makes them, from a real game (``game.closed()`` and
the views), and fed to the client's model; the log is read as the screen shows it."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import msgspec

from trumps import Game, new_game
from trumps.games.viewtypes import kozyri_view
from trumps.server.tables.table import Join, ResyncCmd, Table, TableConfig
from trumps.server.tables.timing import ManualTime
from trumps.server.wire.protocol import TimeControl
from trumps.server.wire.wiretypes import OnTimeout
from trumps.tui.connect.model import ClientState, TableModel
from trumps.tui.connect.text import choice_label, feed_text

NAMES = ["Olena", "Taras", "Iryna", "Bohdan"]


def model_of(game: Game) -> TableModel:
    return TableModel(
        "t-1",
        game=game.game_id,
        rules=dict(game.rules),
        seats=[{"name": n, "connected": True} for n in NAMES[: game.players]],
        seat=None,
        view=game.view(None),
        to_move=game.current_player,
    )


def play(game: Game, model: TableModel, action: str) -> str:
    """Play ``action`` and give the client the event a spectator would get; its log line."""
    seat = game.current_player
    game.play(action)
    event: dict[str, Any] = {
        "type": "event", "table_id": "t-1", "number": model.event + 1, "kind": "action",
        "seat": seat, "action": action, "by_bot": False, "view": game.view(None),
        "legal": [], "to_move": game.current_player, "closed": game.closed(),
    }  # fmt: skip
    assert model.apply_event(event)
    return feed_text(model, model.feed[-1]).plain


def test_the_log_names_trick_winners_and_the_hands() -> None:
    game = new_game("twentyfive", players=4, seed=3, rules={"rob": "off"})
    model = model_of(game)
    lines: list[str] = []
    while game.view(None)["hand"] == 1:
        lines.append(play(game, model, game.legal_actions()[0]))
    wins = [line for line in lines if "wins the trick." in line]
    assert len(wins) == 5 and all(len(line.splitlines()) >= 2 for line in wins)
    last = game.closed()
    assert last is not None and "hand" in last
    winner = NAMES[last["trick"]["winner"]]
    assert f"{winner} wins the trick." in lines[-1]
    assert "Hand 1 is over. Hand 2 is dealt." in lines[-1]
    assert sum("Hand 1 is over" in line for line in lines) == 1


def test_the_log_says_how_many_cards_a_pick_up_took() -> None:
    game = new_game("kozyri", players=2, seed=1040)
    model = model_of(game)
    while "take" not in game.legal_actions() or not game.view(None).get("take_count"):
        play(game, model, game.legal_actions()[0])
    count = kozyri_view(game.view(None))["take_count"]
    line = play(game, model, "take")
    assert f"picks up {count} card" in line, line


def test_a_snapshot_s_log_tells_the_same_as_the_events() -> None:
    """After a reconnect the client fills its log from a snapshot (``table_state``): it
    still names each trick's winner, the hands' ends and a pick-up's size."""

    async def snapshot(game: Game) -> dict[str, Any]:
        table = Table("t-1", game, ["random"] * game.players, bot_seed=1)
        q: asyncio.Queue[Any] = asyncio.Queue()
        table.submit(Join(q))
        table.start()
        table.launch()
        while type(await q.get()).__name__ != "GameOver":
            pass
        table.submit(ResyncCmd(q))
        snap = await q.get()
        await table.stop()
        data: dict[str, Any] = msgspec.to_builtins(snap)
        return data

    for game_id, players, seed in (("twentyfive", 3, 7), ("kozyri", 2, 3)):
        data = asyncio.run(snapshot(new_game(game_id, players=players, seed=seed)))
        model = model_of(new_game(game_id, players=players, seed=seed))
        model.apply_state(data)
        text = "\n".join(feed_text(model, item).plain for item in model.feed)
        if game_id == "twentyfive":
            assert text.count("wins the trick.") >= 5, text
            assert "Hand 1 is over. Hand 2 is dealt." in text, text
        else:
            assert re.search(r"picks up \d+ cards?", text), text


def test_the_log_names_the_move_made_for_a_player_whose_time_ran_out() -> None:
    """A seat's clock runs out at a real table (manual time): the log line names the move
    the server made for the player, and says that it was made for them; with forfeits on
    timeout it says the player forfeited."""

    async def timed_out(on_timeout: OnTimeout) -> tuple[list[dict[str, Any]], Game]:
        time = ManualTime()
        game = new_game("kozyri", players=2, seed=5)
        config = TableConfig(time_control=TimeControl(base=30), on_timeout=on_timeout)
        table = Table("t-1", game, [None, None], config=config, time=time, bot_seed=1)
        ana: asyncio.Queue[Any] = asyncio.Queue()
        table.submit(Join(ana, seat=0, name="Olena", player=1))
        table.submit(Join(asyncio.Queue(), seat=1, name="Taras", player=2))
        table.launch()
        await table.settled()
        assert table.started
        time.advance(30)
        await table.settled()
        heard = []
        while not ana.empty():
            heard.append(json.loads(msgspec.json.encode(ana.get_nowait())))
        await table.stop()
        return heard, game

    modes: tuple[OnTimeout, ...] = ("move", "forfeit")
    for on_timeout in modes:
        heard, game = asyncio.run(asyncio.wait_for(timed_out(on_timeout), 30))
        state = ClientState()
        for m in heard:
            state.apply(m)
        t = state.tables["t-1"]
        (item,) = [i for i in t.feed if i.kind == "event" and i.data.get("kind") == "timeout"]
        who = t.name_of(item.data["seat"])
        line = feed_text(t, item).plain
        if on_timeout == "move":
            move = game.history[-1]
            assert item.data["action"] == move
            label = choice_label(move).plain
            assert f"{who}: {label} (time ran out; played for them)" in line, line
        else:
            assert f"{who}: forfeits (time ran out)" in line, line
