"""The test-only ``POST /api/test/deals``: a server given ``--seed`` deals its next table
from the seed it is told, so one server serves many tests each with the deals it was
written for; a server that deals fairly has no such endpoint."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx

from trumps.games import new_game
from trumps.server.hubparts import HubOptions
from trumps.server.transport.app import ServerSettings, create_app
from trumps.server.wire.protocol import Event, GameOver, TableState, Welcome

SECRET = "test-deals-secret-0123456789abcdef"


def deals(tmp_path: Path, seed: int | None) -> tuple[list[tuple[int, str]], list[object]]:
    """Against a server of ``seed``: the answers to good and bad requests, then the first
    player's hand at each of three tables (the first made after asking for seed 77)."""

    async def main() -> tuple[list[tuple[int, str]], list[object]]:
        settings = ServerSettings(
            db=f"sqlite+aiosqlite:///{tmp_path / 'deals.db'}",
            secret=SECRET,
            hub=HubOptions(bot_time=0.01, seed=seed),
            freeze_gc=False,
        )
        app = create_app(settings)
        answers: list[tuple[int, str]] = []
        out: list[object] = []
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                for body in ('{"seed": -1}', '{"seed": "7"}', "[]", '{"seed": 77}'):
                    answer = await http.post(
                        "/api/test/deals",
                        content=body,
                        headers={"content-type": "application/json"},
                    )
                    answers.append((answer.status_code, answer.text))
            hub = app.state.server.hub
            conn = hub.connect()
            await hub.handle(conn, json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
            assert isinstance(await conn.outbox.get(), Welcome)
            for _ in range(3):
                msg = {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
                await hub.handle(conn, json.dumps(msg))
                while not isinstance(state := await conn.outbox.get(), TableState):
                    pass
                out.append(state.view["hand"] if seed is not None else None)
        return answers, out

    return asyncio.run(main())


def test_a_seeded_server_deals_from_the_seed_it_is_told(tmp_path: Path) -> None:
    answers, (first, second, third) = deals(tmp_path, seed=5)
    assert [code for code, _ in answers] == [400, 400, 400, 204]
    assert all("whole number" in text for _, text in answers[:3])
    hand = [new_game("kozyri", players=2, seed=s).view(0)["hand"] for s in (77, 78)]
    assert [first, second] == hand  # 77, then 78: as a server just started with --seed 77
    assert third == new_game("kozyri", players=2, seed=79).view(0)["hand"]


def test_a_fair_server_has_no_test_deals(tmp_path: Path) -> None:
    answers, _ = deals(tmp_path, seed=None)
    assert {code for code, _ in answers} == {404}


def bot_moves(tmp_path: Path) -> list[list[tuple[int | None, str | None]]]:
    """At a server of ``--seed``: two Svoi Kozyri duels against the random bot, each dealt
    from seed 77, the person always playing their first legal action; each game's moves."""

    async def main() -> list[list[tuple[int | None, str | None]]]:
        settings = ServerSettings(
            db=f"sqlite+aiosqlite:///{tmp_path / 'bots.db'}",
            secret=SECRET,
            hub=HubOptions(
                bot_time=0.01, bot_pace="instant", per_second=1000, per_minute=100_000, seed=5
            ),
            freeze_gc=False,
        )
        app = create_app(settings)
        games: list[list[tuple[int | None, str | None]]] = []
        async with app.router.lifespan_context(app):
            hub = app.state.server.hub
            conn = hub.connect()
            await hub.handle(conn, json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
            assert isinstance(await conn.outbox.get(), Welcome)
            for _ in range(2):
                hub.requests.deal_from(77)
                msg = {"type": "create_table", "game": "kozyri", "seats": ["human", "random"]}
                await hub.handle(conn, json.dumps(msg))
                moves: list[tuple[int | None, str | None]] = []
                while not isinstance(out := await conn.outbox.get(), GameOver):
                    if isinstance(out, Event) and out.action is not None:
                        moves.append((out.seat, out.action))
                    mine = isinstance(out, (TableState, Event)) and out.to_move == 0
                    if mine and out.legal and conn.outbox.empty():  # the latest only
                        seen = out.number if isinstance(out, Event) else out.event
                        act = {"type": "action", "table_id": out.table_id,
                               "action": out.legal[0], "expected": seen}  # fmt: skip
                        await hub.handle(conn, json.dumps(act))
                games.append(moves)
        return games

    return asyncio.run(main())


def test_a_seeded_server_s_bots_play_the_same_game_from_the_same_seed(tmp_path: Path) -> None:
    """The bots of a table at a ``--seed`` server draw from the table's seed: a test meets
    the same game each time (a keyboard test once met a duel too long for its bound)."""
    first, second = bot_moves(tmp_path)
    assert len(first) > 10
    assert first == second
