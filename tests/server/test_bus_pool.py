"""The bus's Redis client under a burst (issue 10, found by the capacity run): a thousand
players saying hello at once each spend a budget in Redis; with redis-py's default pool
(100 connections, failing beyond) the burst failed with "Too many connections"."""

from __future__ import annotations

import asyncio

from server.redis_env import REDIS_URL, fresh_prefix, need_redis
from trumps.server.limits.quota import Counters
from trumps.server.service.bus import Bus


def test_a_burst_of_commands_waits_for_a_connection_instead_of_failing() -> None:
    need_redis()

    async def main() -> None:
        prefix = fresh_prefix()
        bus = Bus(REDIS_URL, "n1", lambda _payload: None, prefix=prefix)
        counters = Counters(bus.redis, prefix)
        burst = 400  # four times the old pool's 100 connections
        try:
            # Each spend is a transaction that holds a connection while it waits on Redis.
            spent = await asyncio.gather(
                *(counters.spend(f"guest:{i % 7}", 10_000, 60) for i in range(burst))
            )
            assert all(spent), spent.count(False)
        finally:
            keys = [k async for k in bus.redis.scan_iter(match=f"{prefix}*")]
            if keys:
                await bus.redis.delete(*keys)
            await bus.redis.aclose()

    asyncio.run(main())
