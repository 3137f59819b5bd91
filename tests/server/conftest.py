"""Fixtures of the end-to-end server tests: each runs on SQLite and on PostgreSQL (skipped
without PostgreSQL on a developer machine, required in CI: ``store.postgres``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from server.e2e import ServerProc, postgres_database
from store.postgres import need_postgres


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each backend."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'trumps.db'}"
    else:
        need_postgres()  # a skip on a machine without PostgreSQL, a failure in CI
        with postgres_database() as url:
            yield url


@pytest.fixture
def serve(db_url: str, tmp_path: Path) -> Iterator[Callable[..., ServerProc]]:
    """Start ``trumps serve`` processes on the test's database; all stopped at the end."""
    procs: list[ServerProc] = []

    def start(**options: object) -> ServerProc:
        proc = ServerProc(db_url, tmp_path, **options)  # type: ignore[arg-type]
        procs.append(proc)
        return proc.start()

    yield start
    for proc in procs:
        proc.stop()
