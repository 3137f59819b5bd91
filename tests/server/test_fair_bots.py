"""Fair bot scheduling (issue 17 §1): one table's queue of bot work cannot delay another
table's move; bot moves where people play come before hints, and hints before bot-only
tables.  A fake slow bot holds the only slot until the test lets it go."""

from __future__ import annotations

import asyncio
import threading

import pytest

from trumps.ai.base import Decision
from trumps.games import new_game
from trumps.server.tables.bots import BotRequest, BotRunner


class SlowBot:
    """Thinks until released; says which request (by its seed) started, in order."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.started: list[int] = []
        self.release: dict[int, threading.Event] = {}
        self.changed = asyncio.Event()

    def __call__(self, request: BotRequest) -> Decision:
        gate = self.release.setdefault(request.seed, threading.Event())
        self.loop.call_soon_threadsafe(self._started, request.seed)
        assert gate.wait(30), "never released"
        return Decision(request.legal[0], "slow")

    def _started(self, seed: int) -> None:
        self.started.append(seed)
        self.changed.set()

    async def wait_started(self, count: int) -> None:
        while len(self.started) < count:
            self.changed.clear()
            await self.changed.wait()

    def let_go(self, seed: int) -> None:
        self.release.setdefault(seed, threading.Event()).set()


def request(seed: int) -> BotRequest:
    return BotRequest("expert", "kozyri", A_VIEW, ["a"], 0.01, seed)


A_VIEW = new_game("kozyri", seed=0).view(0)  # what a request carries; these bots never read it


def test_another_table_s_bot_move_starts_before_thirty_queued_hints() -> None:
    async def main() -> None:
        bot = SlowBot(asyncio.get_running_loop())
        runner = BotRunner(0, slots=1, think=bot)
        try:
            first = runner.submit(request(0), table="t-a", kind="people")
            await bot.wait_started(1)  # the only slot is busy
            hints = [runner.submit(request(1 + i), table="t-a", kind="hint") for i in range(30)]
            lone = runner.submit(request(200), table="t-d", kind="hint")
            idle = runner.submit(request(300), table="t-c", kind="bots")
            move = runner.submit(request(100), table="t-b", kind="people")
            assert runner.queued == 33
            bot.let_go(0)
            await bot.wait_started(2)
            assert bot.started[1] == 100, "the other table's move waited behind the hints"
            bot.let_go(100)
            await bot.wait_started(3)
            bot.let_go(1)
            await bot.wait_started(4)
            # Hints take turns between tables: t-d's one hint is not behind t-a's thirty.
            assert bot.started[2:4] == [1, 200]
            for seed in [200, *range(2, 31)]:
                bot.let_go(seed)
            await bot.wait_started(34)
            assert bot.started[-1] == 300, "a bot-only table went before a hint"
            bot.let_go(300)
            decisions = await asyncio.gather(first, move, lone, idle, *hints)
            assert {d.action for d in decisions} == {"a"}
        finally:
            for gate in bot.release.values():
                gate.set()
            runner.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_cancelled_request_gives_its_place_up() -> None:
    async def main() -> None:
        bot = SlowBot(asyncio.get_running_loop())
        runner = BotRunner(0, slots=1, think=bot)
        try:
            runner.submit(request(0), table="t-a", kind="people")
            await bot.wait_started(1)
            gone = runner.submit(request(1), table="t-a", kind="people")
            kept = runner.submit(request(2), table="t-b", kind="people")
            gone.cancel()
            bot.let_go(0)
            await bot.wait_started(2)
            assert bot.started == [0, 2]
            bot.let_go(2)
            assert (await kept).action == "a"
        finally:
            for gate in bot.release.values():
                gate.set()
            runner.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_analysis_comes_last_and_leaves_half_the_slots_to_bot_moves() -> None:
    """Post-game analysis (docs/analysis.md): its jobs wait behind every bot move, hint and
    bot-only table, and never hold more than half the slots, so a bot move that arrives
    while a whole game is being analysed starts at once."""

    async def main() -> None:
        bot = SlowBot(asyncio.get_running_loop())
        runner = BotRunner(0, slots=2, think=bot)
        try:
            jobs = [runner.submit_call(bot, request(10 + i), table="analysis:1") for i in range(5)]
            await bot.wait_started(1)
            assert bot.started == [10] and runner.running == 1 and runner.queued == 4
            move = runner.submit(request(100), table="t-b", kind="bots")
            await bot.wait_started(2)
            assert bot.started == [10, 100], "a bot move waited behind the analysis"
            bot.let_go(100)
            assert (await move).action == "a"
            assert runner.running == 1, "analysis took the slot kept for bot moves"
            hint = runner.submit(request(200), table="t-c", kind="hint")
            bot.let_go(10)
            await bot.wait_started(3)
            assert bot.started[2] == 200, "analysis went before a hint"
            with pytest.raises(ValueError, match="submit_call"):
                runner.submit(request(1), table="t", kind="analysis")
            with pytest.raises(ValueError, match="not hints or analyses"):
                runner.requeue("t", "analysis")
            for seed in [200, *range(11, 15)]:
                bot.let_go(seed)
            await asyncio.gather(hint, *jobs)
            assert bot.started[3:] == [11, 12, 13, 14]
        finally:
            for gate in bot.release.values():
                gate.set()
            runner.close()

    asyncio.run(asyncio.wait_for(main(), 30))
