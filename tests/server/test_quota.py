"""Budgets and held sets (``trumps.server.quota``): in one process, and shared by the
processes of a service through Redis (two ``Counters`` on one Redis are two processes)."""

from __future__ import annotations

import asyncio

import redis.asyncio as redis

from server.redis_env import REDIS_URL, fresh_prefix, need_redis
from trumps.server.quota import Counters, address_key


def test_a_budget_refuses_past_its_limit_and_starts_again_next_window() -> None:
    now = [1000.0]
    counters = Counters(clock=lambda: now[0])

    async def main() -> None:
        assert [await counters.spend("k", 2, 60) for _ in range(3)] == [True, True, False]
        assert await counters.spend("other", 2, 60)
        now[0] += 60
        assert await counters.spend("k", 2, 60)

    asyncio.run(main())


def test_budgets_and_held_tables_are_shared_across_processes() -> None:
    need_redis()
    prefix = fresh_prefix()

    async def main() -> None:
        clients = [redis.from_url(REDIS_URL), redis.from_url(REDIS_URL)]
        a, b = (Counters(c, prefix, clock=lambda: 5000.0) for c in clients)
        try:
            assert await a.spend("hint:a:x", 3, 3600)
            assert await b.spend("hint:a:x", 3, 3600)
            assert await a.spend("hint:a:x", 3, 3600)
            assert not await b.spend("hint:a:x", 3, 3600)  # the third was spent on a
            await a.hold("tables:x", "t-1")
            await b.hold("tables:x", "t-2")
            assert await a.held("tables:x") == await b.held("tables:x") == 2
            await b.release("tables:x", "t-1")  # a table moved to b ends there
            assert await a.held("tables:x") == 1
        finally:
            await clients[0].delete(*[k async for k in clients[0].scan_iter(f"{prefix}*")])
            for c in clients:
                await c.aclose()

    asyncio.run(main())


def test_an_address_is_counted_by_a_hash() -> None:
    key = address_key("198.51.100.7")
    assert "198" not in key and key == address_key("198.51.100.7") != address_key("::1")
