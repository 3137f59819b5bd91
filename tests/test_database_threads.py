"""tests/conftest.py: an SQLite connection's thread that fails after its test's event loop
closed fails that test, not the next one (as it did in CI, on a test of the command line)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

CULPRIT = """
import asyncio
import time

import aiosqlite

SLOW = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) "
        "SELECT count(*) FROM c")


def test_leaves_a_query_running():
    async def main():
        db = await aiosqlite.connect(":memory:")
        asyncio.get_running_loop().create_task(db.execute(SLOW))
        await asyncio.sleep(0.05)

    asyncio.run(main())  # ends with the query still running in the connection's thread


def test_next():
    time.sleep(1.5)
"""


def test_a_query_left_running_fails_the_test_that_left_it(tmp_path: Path) -> None:
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    (tmp_path / "test_culprit.py").write_text(CULPRIT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "error", "-rA"],
        check=False,  # it fails, by design: which test fails is the point
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = done.stdout
    assert "ERROR at teardown of test_leaves_a_query_running" in out, out
    assert "Event loop is closed" in out, out
    assert "PASSED test_culprit.py::test_next" in out, out
