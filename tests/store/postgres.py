"""Whether the tests may use the PostgreSQL server on localhost, and what if it is missing.

Tests that need PostgreSQL call ``need_postgres()`` first.  On a developer machine without
PostgreSQL they are skipped with a one-line reason; CI exports ``TRUMPS_REQUIRE_POSTGRES=1``
(``.ci/run``), and there a missing PostgreSQL fails them instead, so CI never passes by
skipping its database tests.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Mapping
from typing import Literal

import pytest

ADMIN_DSN = "postgresql://postgres@localhost/test"  # trust auth, database `test`
REQUIRE_ENV = "TRUMPS_REQUIRE_POSTGRES"


@functools.cache
def postgres_problem() -> str | None:
    """None when PostgreSQL answers on localhost; otherwise why not, in one line."""
    import asyncpg

    async def probe() -> None:
        conn = await asyncpg.connect(ADMIN_DSN, timeout=5)
        await conn.close()

    try:
        asyncio.run(probe())
    except Exception as e:  # refused, timed out, no such user or database …
        return (f"{type(e).__name__}: {e}".splitlines() or [type(e).__name__])[0]
    return None


def postgres_available() -> bool:
    return postgres_problem() is None


def verdict(
    problem: str | None, env: Mapping[str, str]
) -> tuple[Literal["skip", "fail"], str] | None:
    """What a test needing PostgreSQL does: run (None), skip or fail, with the reason."""
    if problem is None:
        return None
    where = f"PostgreSQL is not available at {ADMIN_DSN} ({problem})"
    if env.get(REQUIRE_ENV, "") not in ("", "0"):
        return "fail", f"{where}, and {REQUIRE_ENV} is set: start PostgreSQL"
    return "skip", f"{where}; set {REQUIRE_ENV}=1 to make this a failure"


def need_postgres() -> None:
    """Skip the calling test without PostgreSQL (fail it where it is required)."""
    found = verdict(postgres_problem(), os.environ)
    if found is None:
        return
    action, reason = found
    if action == "fail":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)
