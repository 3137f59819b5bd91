"""Bots thinking in worker processes: the same choice as in a thread, and a dead worker is
replaced without losing the move."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from trumps.games import new_game
from trumps.server.tables.bots import BotRequest, BotRunner, decide


def request(seed: int = 7) -> BotRequest:
    game = new_game("twentyfive", players=3, seed=seed)
    seat = game.current_player
    assert seat is not None
    return BotRequest("medium", "twentyfive", game.view(seat), game.legal_actions(), 0.05, 1)


def test_a_worker_decides_like_a_thread_and_survives_a_killed_worker(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        runner = BotRunner(1)
        try:
            await runner.start()
            here = decide(request())  # the same pure function, in this process
            there = await runner.decide(request())
            assert there.action == here.action and there.action in request().legal
            [pid] = runner.worker_pids()
            os.kill(pid, signal.SIGKILL)
            again = await runner.decide(request(8))  # the pool is rebuilt, the move made
            assert again.action in request(8).legal
            assert pid not in runner.worker_pids()
            assert "bot worker process died" in caplog.text
        finally:
            runner.close()

    asyncio.run(asyncio.wait_for(main(), 120))


def test_each_level_thinks_with_its_own_budget_online(monkeypatch: pytest.MonkeyPatch) -> None:
    """Online bots and hints get their level's budget (trumps.ai.level_limits), and the
    server's --bot-time only caps it: hard and expert are not the same online."""
    from trumps.ai import level_limits
    from trumps.ai.base import Bot, Decision, Limits
    from trumps.server.tables import bots as bots_module

    seen: list[Limits] = []

    class Spy(Bot):
        name = "Spy"
        level = "spy"

        def decide(self, view: object, legal: list[str], limits: Limits, rng: object) -> Decision:
            seen.append(limits)
            return Decision(legal[0], "spy")

    monkeypatch.setattr(bots_module, "make_bot", lambda level, game: Spy(game))
    game = new_game("twentyfive", players=4, seed=3)
    seat = game.current_player
    assert seat is not None
    view, legal = game.view(seat), game.legal_actions()
    for level in ("hard", "expert"):
        bots_module._local.__dict__.pop("bots", None)
        decide(BotRequest(level, "twentyfive", view, legal, None, 1))
        decide(BotRequest(level, "twentyfive", view, legal, 0.05, 1))
    hard, hard_capped, expert, expert_capped = seen
    assert hard == level_limits("twentyfive", "hard", 4)
    assert expert == level_limits("twentyfive", "expert", 4)
    assert hard.time is not None and expert.time is not None and hard.time < expert.time
    assert hard_capped.time == expert_capped.time == 0.05
