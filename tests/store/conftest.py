"""Fixtures of the store's tests: ``db``, one empty database on SQLite and one on
PostgreSQL (a fresh schema, first on ``search_path``, so parallel workers never meet)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from store.postgres import need_postgres
from store.storekit import PG_URL, Db, pg_admin


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Db]:
    if request.param == "sqlite":
        yield Db(f"sqlite+aiosqlite:///{tmp_path / 'trumps.db'}", {})
        return
    need_postgres()
    schema = f"t_{uuid.uuid4().hex}"
    asyncio.run(pg_admin(f'CREATE SCHEMA "{schema}"'))
    try:
        yield Db(PG_URL, {"connect_args": {"server_settings": {"search_path": schema}}})
    finally:
        asyncio.run(pg_admin(f'DROP SCHEMA "{schema}" CASCADE'))
