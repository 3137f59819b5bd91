"""Who watches a table (issue 11): everyone at the table is told the spectators' count and
names (the first ``MAX_SPECTATOR_NAMES``), in ``table_state`` and in a ``spectators``
message whenever someone starts or stops watching.  Names only: nothing of a game."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec

from server.hubkit import hello, next_of, run_hub, said
from server.tablekit import Watched, run
from trumps.games import new_game
from trumps.server.hub import Hub
from trumps.server.tables.table import Chat, Disconnect, Join, Leave, Table
from trumps.server.wire.protocol import ChatPosted, Spectators, TableState
from trumps.server.wire.wiretypes import MAX_SPECTATOR_NAMES
from trumps.store import SqlStore


def drained(q: asyncio.Queue[Any]) -> list[Any]:
    return [q.get_nowait() for _ in range(q.qsize())]


def lists(q: asyncio.Queue[Any]) -> list[tuple[int, list[str | None]]]:
    return [(m.count, m.names) for m in drained(q) if isinstance(m, Spectators)]


def test_the_table_is_told_who_watches() -> None:
    async def main() -> None:
        game = new_game("kozyri", players=2, seed=3)
        table = Table("t-w", game, [None, "random"])
        player, ana, bo = (Watched(table, s, watchers=True) for s in (0, None, None))
        table.submit(Join(player, seat=0, name="Olena", player=1))
        table.launch()
        snap = await player.get()
        assert isinstance(snap, TableState) and snap.spectators.count == 0
        table.submit(Join(ana, spectate=True, name="Ana", player=2))
        first = await ana.get()  # the newcomer's snapshot lists it too
        assert isinstance(first, TableState)
        assert (first.spectators.count, first.spectators.names) == (1, ["Ana"])
        table.submit(Join(bo, spectate=True, name="Bo", player=3))
        await bo.get()
        await asyncio.sleep(0)  # (the table handles the commands in order)
        table.submit(Leave(ana))
        table.submit(Disconnect(bo))
        await table.stop()
        assert lists(player) == [(1, ["Ana"]), (2, ["Ana", "Bo"]), (1, ["Bo"]), (0, [])]
        assert lists(ana) == [(2, ["Ana", "Bo"])]  # not after it left
        assert lists(bo) == [(1, ["Bo"])]
        assert player.leaks == ana.leaks == bo.leaks == []
        # Nothing but names and a count: no view, no cards.
        assert set(msgspec.to_builtins(Spectators(table_id="t", count=0, names=[]))) == {
            "type",
            "table_id",
            "count",
            "names",
        }

    run(main)


def test_a_spectator_cannot_pass_for_a_player_by_name() -> None:
    """Issue 17 §3: a seated player's name is not taken by a spectator at that table —
    not in the spectator list, not in the chat — however it is cased, spaced or widened."""

    async def main() -> None:
        game = new_game("kozyri", players=3, seed=3)
        table = Table("t-names", game, [None, None, "medium"])
        olena = Watched(table, 0, watchers=True)
        fakes = [Watched(table, None, watchers=True) for _ in range(3)]
        table.submit(Join(olena, seat=0, name="Olena", player=1))
        for i, (q, name) in enumerate(
            zip(fakes, ["olena", "ＯＬＥＮＡ", "medium bot"], strict=True)
        ):
            table.submit(Join(q, spectate=True, name=name, player=10 + i))
        table.submit(Chat(fakes[0], "olena", "I resign, sorry"))
        table.submit(Chat(olena, "Olena", "no I don't"))
        table.launch()
        await table.settled()
        snap = [m for m in drained(fakes[2]) if isinstance(m, TableState)][-1]
        # Each watcher reads unlike every seat (a bot's seat too) and unlike each other.
        assert snap.spectators.names == ["olena (2)", "ＯＬＥＮＡ (3)", "medium bot (2)"]
        chat = [(m.seat, m.name, m.text) for m in drained(olena) if isinstance(m, ChatPosted)]
        assert chat == [(None, "olena (2)", "I resign, sorry"), (0, "Olena", "no I don't")]
        # Olena gives her seat up before the start: her name is free again.
        table.submit(Leave(olena))
        await table.settled()
        assert lists(fakes[1])[-1] == (3, ["olena", "ＯＬＥＮＡ (2)", "medium bot (2)"])
        await table.stop()

    run(main)


def test_a_crowd_is_counted_and_its_first_names_are_shown() -> None:
    async def main() -> None:
        game = new_game("kozyri", players=2, seed=3)
        table = Table("t-crowd", game, ["random", "random"])
        crowd = [Watched(table, None, watchers=True) for _ in range(MAX_SPECTATOR_NAMES + 3)]
        for i, q in enumerate(crowd):
            table.submit(Join(q, spectate=True, name=f"P{i}", player=100 + i))
        # The same person in a second tab is one spectator.
        again = Watched(table, None, watchers=True)
        table.submit(Join(again, spectate=True, name="P0", player=100))
        table.launch()
        last = await again.get()
        await table.stop()
        assert isinstance(last, TableState)
        assert last.spectators.count == MAX_SPECTATOR_NAMES + 3
        assert last.spectators.names == [f"P{i}" for i in range(MAX_SPECTATOR_NAMES)]

    run(main)


def test_a_spectator_is_named_as_it_said_hello(tmp_path: Path) -> None:
    async def body(hub: Hub, _store: SqlStore) -> None:
        owner, _ = await hello(hub, "Olena")
        await said(
            hub, owner, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
        )
        state = await next_of(owner, TableState)
        watcher, _ = await hello(hub, "Watcher")
        await said(hub, watcher, {"type": "spectate", "table_id": state.table_id})
        seen = await next_of(watcher, TableState)
        assert seen.spectators.names == ["Watcher"]
        told = await next_of(owner, Spectators)
        assert (told.table_id, told.count, told.names) == (state.table_id, 1, ["Watcher"])

    run_hub(tmp_path / "hub.db", body)
