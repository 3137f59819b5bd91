"""Whether the tests may use the Redis server on localhost (like ``store.postgres``).

Tests that need Redis call ``need_redis()``: skipped on a developer machine without it,
failed where ``TRUMPS_REQUIRE_REDIS`` is set (``.ci/run``), so CI never passes by skipping.
Each test gets its own key prefix, so parallel tests never hear each other.
"""

from __future__ import annotations

import asyncio
import functools
import os
import uuid

import pytest

REDIS_URL = "redis://127.0.0.1:6379/0"
REQUIRE_ENV = "TRUMPS_REQUIRE_REDIS"


@functools.cache
def redis_problem() -> str | None:
    import redis.asyncio as redis

    async def probe() -> None:
        client = redis.from_url(REDIS_URL, socket_connect_timeout=3)
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
    problem = redis_problem()
    if problem is None:
        return
    reason = f"Redis is not available at {REDIS_URL} ({problem})"
    if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
        pytest.fail(f"{reason}, and {REQUIRE_ENV} is set: start Redis", pytrace=False)
    pytest.skip(f"{reason}; set {REQUIRE_ENV}=1 to make this a failure")


def fresh_prefix() -> str:
    return f"trumps-test-{uuid.uuid4().hex[:10]}:"


def need_redis_server() -> None:
    """Skip without the ``redis-server`` program (tests that start their own Redis)."""
    import shutil

    if shutil.which("redis-server") is not None:
        return
    reason = "the redis-server program is not installed"
    if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
        pytest.fail(f"{reason}, and {REQUIRE_ENV} is set: install redis-server", pytrace=False)
    pytest.skip(f"{reason}; set {REQUIRE_ENV}=1 to make this a failure")
