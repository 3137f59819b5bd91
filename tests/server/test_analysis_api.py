"""The server's post-game analysis (issue 13 §3, docs/analysis.md): ``GET/POST
/api/games/{id}/analysis``, made in the bot workers, stored with the game, limited per
player.

The app runs in this process (HTTP through httpx's ASGI transport, the store a SQLite
file).  The jobs run in the runner's threads; tests that need one held use a gate that
the test opens.  No sleeps: waits are on the analysis's own task or on an event.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

import trumps
from server.appkit import SECRET, auth, http_client, register, running
from trumps.ai.analysis import Budget, MoveAnalysis, analyze_game, analyze_ply, judged_plies
from trumps.ai.base import Limits
from trumps.ai.simple import EasyBot
from trumps.host.archive import start_of
from trumps.records import record_of
from trumps.server.api import analysisapi
from trumps.server.api.analysisapi import AnalysisApi, AnalysisLimits
from trumps.server.hubparts import HubOptions
from trumps.server.tables.bots import BotRunner
from trumps.server.transport.app import ServerSettings, create_app
from trumps.store import SqlStore

LIMITS = AnalysisLimits(deals=12, seconds=0.05)
Body = Callable[[Starlette, httpx.AsyncClient, SqlStore], Awaitable[None]]


def finished(game_id: str, players: int, seed: int) -> dict[str, Any]:
    game = trumps.new_game(game_id, players=players, seed=seed)
    bot, rng = EasyBot(game_id), random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.play(bot.decide(game.view(seat), game.legal_actions(), Limits(), rng).action)
    return record_of(game)


def run(tmp_path: Path, body: Body, limits: AnalysisLimits = LIMITS) -> None:
    async def main() -> None:
        db = f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"
        settings = ServerSettings(
            db=db, secret=SECRET, hub=HubOptions(bot_time=0.01), freeze_gc=False, analysis=limits
        )
        app = create_app(settings)
        async with running(app), http_client(app) as http:
            await asyncio.wait_for(body(app, http, app.state.server.store), 120)

    asyncio.run(main())


def api(app: Starlette) -> AnalysisApi:
    found: AnalysisApi = app.state.server.analysis
    return found


async def made(app: Starlette) -> None:
    """Wait for every analysis this process is making to end."""
    await asyncio.gather(*list(api(app)._tasks))


class Gate:
    """Holds every analysis job until opened (stands in for ``analyse_decision``)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.real = analysisapi.analyse_decision

    def __call__(self, job: tuple[dict[str, Any], int, Budget]) -> MoveAnalysis:
        assert self.open.wait(30), "never opened"
        return self.real(job)


def test_analyse_a_finished_game_then_answer_from_the_store(tmp_path: Path) -> None:
    record = finished("twentyfive", 4, seed=3)

    async def body(app: Starlette, http: httpx.AsyncClient, store: SqlStore) -> None:
        game_id = await store.save_game(record)
        path = f"/api/games/{game_id}/analysis"
        answer = await http.get(path)
        assert answer.status_code == 404 and answer.json()["error"] == "not_analysed"
        assert (await http.post(path)).status_code == 401  # who asks is needed
        bad = await http.post(path, headers=auth("not-a-token"))
        assert bad.status_code == 401 and bad.json()["error"] == "bad_token"
        token = await register(http, "ana")
        answer = await http.post(path, headers=auth(token))
        assert answer.status_code == 202, answer.text
        first = answer.json()
        assert first["status"] == "queued" and first["done"] == 0
        await made(app)
        answer = await http.get(path)
        assert answer.status_code == 200 and answer.json()["status"] == "done"
        analysis = answer.json()["analysis"]
        start = trumps.new_game("twentyfive", players=4, seed=record["seed"])
        expected = analyze_game(start, record["actions"], LIMITS.budget).to_json()
        assert analysis == expected  # the same as trumps analyze with the server's budget
        assert analysis["summary"]["analysed"] > 0
        # A second request, by anyone: answered from the store, nothing made again.
        other = await register(http, "bob")
        again = await http.post(path, headers=auth(other))
        assert again.status_code == 200 and again.json()["analysis"] == expected
        assert not api(app)._making
        for bad_id in ("0", "abc", "99999999999", "4242"):
            for method in ("GET", "POST"):
                answer = await http.request(
                    method, f"/api/games/{bad_id}/analysis", headers=auth(token)
                )
                assert answer.status_code == 404 and answer.json()["error"] == "no_such_game"

    run(tmp_path, body)

    async def after_restart(app: Starlette, http: httpx.AsyncClient, store: SqlStore) -> None:
        answer = await http.get("/api/games/1/analysis")
        assert answer.status_code == 200 and answer.json()["status"] == "done"

    run(tmp_path, after_restart)


def test_progress_while_running_and_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate()
    monkeypatch.setattr(analysisapi, "analyse_decision", gate)
    duel, other = finished("kozyri", 2, seed=1), finished("kozyri", 3, seed=2)

    async def body(app: Starlette, http: httpx.AsyncClient, store: SqlStore) -> None:
        first, second = await store.save_game(duel), await store.save_game(other)
        token = await register(http, "ana")
        answer = await http.post(f"/api/games/{first}/analysis", headers=auth(token))
        assert answer.status_code == 202
        progress = (await http.get(f"/api/games/{first}/analysis")).json()
        assert progress["status"] == "queued" and progress["done"] == 0
        assert progress["total"] > 0
        # The same player, another game: one at a time.
        refused = await http.post(f"/api/games/{second}/analysis", headers=auth(token))
        assert refused.status_code == 429 and refused.json()["error"] == "analysis_limit"
        assert "one at a time" in refused.json()["message"]
        assert refused.headers["retry-after"] == "10"
        # Another player asking for the same game joins it.
        bo = await register(http, "bob")
        joined = await http.post(f"/api/games/{first}/analysis", headers=auth(bo))
        assert joined.status_code == 202 and joined.json()["total"] == progress["total"]
        gate.open.set()
        await made(app)
        done = await http.get(f"/api/games/{first}/analysis")
        assert done.status_code == 200
        moves = done.json()["analysis"]["moves"]
        assert done.json()["analysis"]["method"] == "solver"
        assert len(moves) == progress["total"]
        assert (
            await http.post(f"/api/games/{second}/analysis", headers=auth(token))
        ).status_code == 202
        await made(app)

    run(tmp_path, body)


def test_hourly_limit_and_a_full_queue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    monkeypatch.setattr(analysisapi, "analyse_decision", gate)
    records = [finished("kozyri", 3, seed=s) for s in (1, 2, 3)]

    async def body(app: Starlette, http: httpx.AsyncClient, store: SqlStore) -> None:
        ids = [await store.save_game(r) for r in records]
        ana, bo = await register(http, "ana"), await register(http, "bob")
        assert (
            await http.post(f"/api/games/{ids[0]}/analysis", headers=auth(ana))
        ).status_code == 202
        busy = await http.post(f"/api/games/{ids[1]}/analysis", headers=auth(bo))
        assert busy.status_code == 503 and busy.json()["error"] == "analysis_busy"
        assert busy.headers["retry-after"] == "30"
        gate.open.set()
        await made(app)
        # ana used the hour's one analysis; a done game is still served to her.
        late = await http.post(f"/api/games/{ids[2]}/analysis", headers=auth(ana))
        assert late.status_code == 429 and "at most 1 analyses an hour" in late.json()["message"]
        assert (
            await http.post(f"/api/games/{ids[0]}/analysis", headers=auth(ana))
        ).status_code == 200
        assert (
            await http.post(f"/api/games/{ids[1]}/analysis", headers=auth(bo))
        ).status_code == 202
        await made(app)

    run(tmp_path, body, AnalysisLimits(deals=8, seconds=0.05, per_hour=1, queue=1))


def test_a_failed_analysis_is_forgotten_and_can_be_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = analysisapi.analyse_decision
    broken = {"on": True}

    def flaky(job: tuple[dict[str, Any], int, Budget]) -> MoveAnalysis:
        if broken["on"]:
            raise RuntimeError("a worker fell over")
        return real(job)

    monkeypatch.setattr(analysisapi, "analyse_decision", flaky)
    record = finished("kozyri", 3, seed=5)

    async def body(app: Starlette, http: httpx.AsyncClient, store: SqlStore) -> None:
        game_id = await store.save_game(record)
        token = await register(http, "ana")
        path = f"/api/games/{game_id}/analysis"
        assert (await http.post(path, headers=auth(token))).status_code == 202
        await made(app)
        gone = await http.get(path)
        assert gone.status_code == 404 and gone.json()["error"] == "not_analysed"
        assert await store.get_analysis(game_id) is None
        broken["on"] = False
        assert (await http.post(path, headers=auth(token))).status_code == 202
        await made(app)
        assert (await http.get(path)).status_code == 200

    run(tmp_path, body)


def test_claims_one_maker_and_takes_over_a_dead_one(tmp_path: Path) -> None:
    record = finished("kozyri", 3, seed=6)

    async def main() -> None:
        store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
        await store.create()
        try:
            game_id = await store.save_game(record)
            first = await store.claim_analysis(game_id, 7, now=100.0, stale_before=40.0)
            assert first is not None
            assert await store.claim_analysis(game_id, 8, now=110.0, stale_before=50.0) is None
            assert await store.touch_analysis(game_id, first, 120.0)
            assert await store.claim_analysis(game_id, 8, now=170.0, stale_before=110.0) is None
            # Its maker's heart stopped at 120: another may take it over, under a new claim.
            second = await store.claim_analysis(game_id, 8, now=200.0, stale_before=140.0)
            assert second is not None and second != first
            row = await store.get_analysis(game_id)
            assert row is not None and (row.status, row.requested_by) == ("running", 8)
            assert await store.analyses_of(8, since=150.0, stale_before=140.0) == (1, 1)
            assert await store.analyses_of(7, since=0.0, stale_before=0.0) == (0, 0)
            # The old maker, still alive after all, can no longer touch, drop or finish it.
            assert not await store.touch_analysis(game_id, first, 205.0)
            await store.drop_analysis(game_id, first)
            assert not await store.finish_analysis(game_id, first, {"moves": ["old"]}, 206.0)
            assert await store.finish_analysis(game_id, second, {"moves": []}, 210.0)
            assert await store.analyses_of(8, since=150.0, stale_before=140.0) == (1, 0)
            assert await store.claim_analysis(game_id, 9, now=9e9, stale_before=9e9) is None
            await store.drop_analysis(game_id, second)  # a done analysis stays
            row = await store.get_analysis(game_id)
            assert row is not None and row.status == "done" and row.result == {"moves": []}
        finally:
            await store.close()

    asyncio.run(main())


def test_requests_sent_together_cannot_pass_the_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One player's four requests at once, for four games: one analysis, three refusals
    (the reservation is made before the first wait)."""
    gate = Gate()
    monkeypatch.setattr(analysisapi, "analyse_decision", gate)
    records = [finished("kozyri", 3, seed=s) for s in (1, 2, 3, 4)]

    async def body(app: Starlette, http: httpx.AsyncClient, store: SqlStore) -> None:
        ids = [await store.save_game(r) for r in records]
        token = await register(http, "ana")
        answers = await asyncio.gather(
            *(http.post(f"/api/games/{i}/analysis", headers=auth(token)) for i in ids)
        )
        assert sorted(a.status_code for a in answers) == [202, 429, 429, 429]
        assert len(api(app)._making) == 1
        gate.open.set()
        await made(app)

    run(tmp_path, body, AnalysisLimits(deals=8, seconds=0.05, per_hour=2, queue=2))


def test_the_heart_beats_while_no_job_gets_a_slot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy runner gives the analysis no slot for a while: its row stays alive (the
    heartbeat does not wait for a job to finish), so no other process takes it over."""
    gate = Gate()
    monkeypatch.setattr(analysisapi, "analyse_decision", gate)
    record = finished("kozyri", 3, seed=1)
    limits = AnalysisLimits(deals=8, seconds=0.05, stale=0.4)

    async def body(app: Starlette, http: httpx.AsyncClient, store: SqlStore) -> None:
        game_id = await store.save_game(record)
        token = await register(http, "ana")
        assert (
            await http.post(f"/api/games/{game_id}/analysis", headers=auth(token))
        ).status_code == 202
        row = await store.get_analysis(game_id)
        assert row is not None
        first = row.updated
        while row is not None and row.updated == first:  # wait for a beat (no job ends)
            await asyncio.sleep(0.02)
            row = await store.get_analysis(game_id)
        assert row is not None and row.status == "running" and row.updated > first
        gate.open.set()
        await made(app)

    run(tmp_path, body, limits)


def test_a_decision_is_analysed_in_a_worker_process() -> None:
    """What the server sends a worker (the record, the ply, the budget) crosses to a
    process and comes back as the same judgement as in this one."""
    record = finished("kozyri", 3, seed=2)
    start, actions = start_of(record)
    ply = judged_plies(start, actions)[3]

    async def main() -> None:
        runner = BotRunner(1)
        try:
            job = (record, ply, LIMITS.budget)
            got = await runner.submit_call(analysisapi.analyse_decision, job, table="analysis:1")
            assert runner.worker_pids()
            assert got == analyze_ply(start, actions, ply, LIMITS.budget)
        finally:
            runner.close()

    asyncio.run(asyncio.wait_for(main(), 60))
