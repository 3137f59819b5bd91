"""Budgets and held sets (``trumps.server.limits.quota``): in one process, and shared by the
processes of a service through Redis (two ``Counters`` on one Redis are two processes)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as redis

from server.redis_env import REDIS_URL, fresh_prefix, need_redis
from trumps.server.limits.quota import Counters, Unavailable, address_key


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


def test_a_throttle_allows_a_burst_then_one_each_share_of_its_window() -> None:
    """``allow``: ``limit`` at once, then one each ``window / limit`` seconds (a token bucket,
    as the login limits were in one process), never more than ``limit`` in a row."""
    now = [1000.0]
    counters = Counters(clock=lambda: now[0])

    async def main() -> None:
        assert [await counters.allow("k", 5, 60) for _ in range(6)] == [True] * 5 + [False]
        assert await counters.allow("other", 5, 60)
        now[0] += 11.9
        assert not await counters.allow("k", 5, 60)
        now[0] += 0.1  # 12 s: one more
        assert await counters.allow("k", 5, 60)
        assert not await counters.allow("k", 5, 60)
        now[0] += 3600  # long calm: a full burst again, not more
        assert [await counters.allow("k", 5, 60) for _ in range(6)] == [True] * 5 + [False]

    asyncio.run(main())


def test_throttles_are_shared_across_processes() -> None:
    need_redis()
    prefix = fresh_prefix()
    now = [5000.0]

    async def main() -> None:
        clients = [redis.from_url(REDIS_URL), redis.from_url(REDIS_URL)]
        a, b = (Counters(c, prefix, clock=lambda: now[0]) for c in clients)
        try:
            tries = [await (a if n % 2 else b).allow("login:u:x", 5, 60) for n in range(6)]
            assert tries == [True] * 5 + [False]  # five in all, not five on each
            assert await b.allow("login:u:y", 5, 60)  # another key is not held up
            now[0] += 12
            assert await a.allow("login:u:x", 5, 60)
            assert not await b.allow("login:u:x", 5, 60)
            ttl = await clients[0].pttl(f"{prefix}throttle:login:u:x")
            assert 0 < ttl <= 60_000  # forgotten once it is full again
        finally:
            keys = [k async for k in clients[0].scan_iter(f"{prefix}*")]
            if keys:
                await clients[0].delete(*keys)
            for c in clients:
                await c.aclose()

    asyncio.run(main())


def test_counters_that_cannot_reach_redis_say_so() -> None:
    """Refused, not waved through: the callers answer ``unavailable`` (a ConnectionError,
    as a store that cannot be reached)."""

    async def main() -> None:
        client = redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=2)
        counters = Counters(client, fresh_prefix())
        try:
            with pytest.raises(Unavailable):
                await counters.allow("login:a:x", 5, 60)
            with pytest.raises(Unavailable):
                await counters.spend("hint:a:x", 5, 60)
            with pytest.raises(Unavailable):
                await counters.held("tables:x")
        finally:
            await client.aclose()

    asyncio.run(main())
