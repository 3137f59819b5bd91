"""Bots thinking in worker processes: the same choice as in a thread, and a dead worker is
replaced without losing the move."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from trumps.games import new_game
from trumps.server.bots import BotRequest, BotRunner, decide


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
