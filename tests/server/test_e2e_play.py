"""Users' paths through a real server (issue 4 item 8): whole games, hidden cards, records.

Each test plays over real WebSockets against ``trumps serve`` on SQLite and on PostgreSQL
(the module's servers: ``served``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from server.e2e import Client, Msg, ServerProc, connected, hidden_cards_sent, run
from server.playkit import play_out
from trumps.records import replay, verify

Serve = Callable[..., ServerProc]


def seated(state: Msg) -> int:
    seat = state["seat"]
    assert isinstance(seat, int)
    return seat


@pytest.mark.parametrize(("game", "rules"), [("kozyri", None), ("twentyfive", {"target": 15})])
def test_two_people_play_a_whole_game_with_a_spectator(
    served: Serve, game: str, rules: dict[str, Any] | None
) -> None:
    server = served(seed=4242)

    async def main() -> None:
        olena = await connected(server.ws, "Olena")
        taras = await connected(server.ws, "Taras")
        watcher = await connected(server.ws, "Watcher")
        create: Msg = {"type": "create_table", "game": game, "seats": ["human", "human"]}
        if rules is not None:
            create["rules"] = rules
        await olena.send(create)
        state = await olena.expect("table_state")
        table_id = state["table_id"]
        assert seated(state) == 0 and state["event"] == 0 and state["to_move"] is None

        await watcher.send({"type": "list_tables", "game": game})
        listed = await watcher.expect("table_list")
        row = next(t for t in listed["tables"] if t["table_id"] == table_id)
        assert row["open_seats"] == 1 and not row["started"]
        await watcher.send({"type": "spectate", "table_id": table_id})
        watched = await watcher.until(lambda m: m["type"] == "table_state")
        assert watched["seat"] is None and watched["legal"] == []

        await taras.send({"type": "join_table", "table_id": table_id})
        joined = await taras.expect("table_state")
        assert seated(joined) == 1
        # (Random(2): short games of both; random play makes some duels very long)
        over = await play_out({0: olena, 1: taras}, table_id, random.Random(2))
        seen = await watcher.until(lambda m: m["type"] == "game_over")
        assert seen == over

        record = server.get(f"/api/games/{over['record_id']}").json()
        assert record["players"] == ["Olena", "Taras"] and record["game"] == game
        replayed = replay(record)
        assert replayed.outcome is not None and replayed.outcome.to_json() == over["outcome"]
        # Every message of the whole game, to each player and the spectator, is clean.
        for client, seat in ((olena, 0), (taras, 1), (watcher, None)):
            assert hidden_cards_sent(client.received, table_id, seat, record) == []
        # The numbered events each client saw are the same sequence 1, 2, 3, …
        numbers = [
            [m["number"] for m in c.received if m["type"] == "event"]
            for c in (olena, taras, watcher)
        ]
        assert numbers[0][-1] == numbers[1][-1] == numbers[2][-1]
        # The history lists it for both players, and the download is the same record.
        for client in (olena, taras):
            mine = server.get(
                "/api/games?mine=1", headers={"authorization": f"Bearer {client.token}"}
            ).json()["games"]
            assert [g["id"] for g in mine] == [over["record_id"]]
        download = server.get(f"/api/games/{over['record_id']}?download=1")
        assert "attachment" in download.headers["content-disposition"]
        assert download.json() == record
        steps = server.get(f"/api/games/{over['record_id']}/replay").json()
        assert len(steps["positions"]) == len(record["actions"]) + 1
        assert steps["positions"][-1] == replayed.to_json()
        assert len(steps["closed"]) == len(steps["positions"]) and steps["closed"][0] is None
        for client in (olena, taras, watcher):
            await client.close()

    run(main)


@pytest.mark.parametrize("game", ["kozyri", "twentyfive"])
def test_a_committed_game_leaks_nothing_before_or_after_its_deal(served: Serve, game: str) -> None:
    """docs/fairness.md, end to end: a server without --seed commits, both players
    contribute, the game is dealt from them as it starts, and no message to a player or a
    spectator — before the deal, at it or after — shows a card it may not know."""
    server = served(seed=None)

    async def main() -> None:
        players: dict[int, Client] = {}
        for seat, name in enumerate(("Olena", "Taras")):
            client = await Client(server.ws).connect()
            await client.send({"type": "hello", "protocol": 1, "name": name, "contributes": True})
            await client.expect("welcome")
            players[seat] = client
        watcher = await connected(server.ws, "Watcher")
        await players[0].send({"type": "create_table", "game": game, "seats": ["human", "human"]})
        state = await players[0].expect("table_state")
        table_id, shown = state["table_id"], state["commitment"]
        await watcher.send({"type": "spectate", "table_id": table_id})
        await watcher.until(lambda m: m["type"] == "table_state")
        await players[1].send({"type": "join_table", "table_id": table_id})
        assert (await players[1].expect("table_state"))["commitment"] == shown
        values = {0: "0a" * 32, 1: "1b" * 16}
        for seat, client in players.items():
            await client.send({"type": "contribute", "table_id": table_id, "value": values[seat]})
        # (a deal nobody chose: the player to move resigns at event 120 if it lasts that long)
        over = await play_out(players, table_id, random.Random(5), resign_at=120)
        await watcher.until(lambda m: m["type"] == "game_over")
        record = server.get(f"/api/games/{over['record_id']}").json()
        verify(record, contribution=values[1], committed=shown)
        assert record["fair"]["contributions"] == [values[0], values[1]]
        seen: list[tuple[Client, int | None]] = [(players[0], 0), (players[1], 1), (watcher, None)]
        for client, who in seen:
            assert hidden_cards_sent(client.received, table_id, who, record) == []
        for client in (*players.values(), watcher):
            await client.close()

    run(main)
