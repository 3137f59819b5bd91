"""Whether the tests may use the Redis server on localhost, and what if it is missing.

Tests that need Redis call ``need_redis()`` first.  On a developer machine without Redis
they are skipped with a one-line reason; CI exports ``TRUMPS_REQUIRE_REDIS=1`` (``.ci/run``),
and there a missing Redis fails them instead, so CI never passes by skipping them.
"""

from __future__ import annotations

import asyncio
import functools
import os

import pytest

REDIS_URL = "redis://127.0.0.1:6379/0"
REQUIRE_ENV = "TRUMPS_REQUIRE_REDIS"


@functools.cache
def redis_problem() -> str | None:
    """None when Redis answers on localhost; otherwise why not, in one line."""
    import redis.asyncio as aioredis

    async def probe() -> None:
        client = aioredis.from_url(REDIS_URL, socket_connect_timeout=5, socket_timeout=5)
        try:
            await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(probe())
    except Exception as e:
        return (f"{type(e).__name__}: {e}".splitlines() or [type(e).__name__])[0]
    return None


def need_redis() -> None:
    """Skip the calling test without Redis (fail it where it is required)."""
    problem = redis_problem()
    if problem is None:
        return
    where = f"Redis is not available at {REDIS_URL} ({problem})"
    if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
        pytest.fail(f"{where}, and {REQUIRE_ENV} is set: start Redis", pytrace=False)
    pytest.skip(f"{where}; set {REQUIRE_ENV}=1 to make this a failure")
