"""A table whose game ended while nobody held it (its last move stored as its process was
killed, or the finished table let go since): whoever asks for it hears how the game ended,
its outcome and record, instead of "no such table" (seen in the kill -9 test: both players
came back to a table that was over and were never told)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from server.hubkit import hello, next_of, next_or_error, run_hub, said
from trumps.games import new_game
from trumps.records import record_of
from trumps.server.hub import Hub
from trumps.server.wire.protocol import Error, GameOver
from trumps.store import SqlStore


def finished_duel(seed: int) -> dict[str, Any]:
    """A finished Svoi Kozyri duel of random moves."""
    game, rng = new_game("kozyri", players=2, seed=seed), random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
    return record_of(game)


def test_a_table_that_ended_unheld_answers_with_its_end(tmp_path: Path) -> None:
    record = finished_duel(7)

    async def body(hub: Hub, store: SqlStore) -> None:
        game_id = await store.save_game(record, table_id="t-ended")
        ana, _ = await hello(hub, "Ana")
        for request in (
            {"type": "spectate", "table_id": "t-ended"},
            {"type": "join_table", "table_id": "t-ended"},
            {"type": "resync", "table_id": "t-ended", "last_event": 3},
        ):
            await said(hub, ana, request)
            over = await next_of(ana, GameOver)
            assert over.table_id == "t-ended" and over.record_id == game_id
            assert over.outcome.winners == record["outcome"]["winners"]
            assert over.outcome.reason == record["outcome"]["reason"]
        assert "t-ended" not in ana.tables and "t-ended" not in ana.watching
        # Leaving it, or a table that never was, is still no such table.
        for request in (
            {"type": "leave_table", "table_id": "t-ended"},
            {"type": "spectate", "table_id": "t-never"},
        ):
            await said(hub, ana, request)
            error = await next_or_error(ana, GameOver)
            assert isinstance(error, Error) and error.code == "no_such_table", error

    run_hub(tmp_path / "ended.db", body)


def test_the_newest_finished_game_of_a_table_is_the_one_told(tmp_path: Path) -> None:
    """A table that played a rematch in place has several finished games: the newest."""

    async def body(hub: Hub, store: SqlStore) -> None:
        await store.save_game(finished_duel(1), table_id="t-twice")
        newest = await store.save_game(finished_duel(2), table_id="t-twice")
        assert (await store.finished_at("t-twice") or (0, {}))[0] == newest
        assert await store.finished_at("t-none") is None
        ana, _ = await hello(hub, "Ana")
        await said(hub, ana, {"type": "spectate", "table_id": "t-twice"})
        assert (await next_of(ana, GameOver)).record_id == newest

    run_hub(tmp_path / "twice.db", body)
