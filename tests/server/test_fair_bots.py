"""Fair bot scheduling (issue 17 §1): one table's queue of bot work cannot delay another
table's move; bot moves where people play come before hints, and hints before bot-only
tables.  A fake slow bot holds the only slot until the test lets it go."""

from __future__ import annotations

import asyncio
import threading

from trumps.ai.base import Decision
from trumps.server.bots import BotRequest, BotRunner


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
    return BotRequest("expert", "kozyri", {"hands": [[], []]}, ["a"], 0.01, seed)


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
