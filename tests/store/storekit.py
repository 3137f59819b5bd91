"""What the store's tests share: ``Db``, one empty database (an SQLite file or a
PostgreSQL schema) that opens stores on it (the ``db`` fixture of ``conftest.py`` gives one
of each), and the admin connection that makes and drops PostgreSQL schemas (``pg_admin``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from trumps.store import SqlStore

PG_URL = "postgresql+asyncpg://postgres@localhost/test"


class Db:
    """One empty database (SQLite file or PostgreSQL schema); opens stores on it."""

    def __init__(self, url: str, options: dict[str, Any]) -> None:
        self.url = url
        self.options = options
        self.stores: list[SqlStore] = []

    @property
    def backend(self) -> str:
        return self.url.split(":")[0].split("+")[0]

    async def opened(self) -> SqlStore:
        store = SqlStore(self.url, **self.options)
        self.stores.append(store)
        await store.create()
        return store

    def run(self, body: Callable[[], Awaitable[None]]) -> None:
        """Run ``body`` in a fresh event loop, closing every store it opened."""

        async def main() -> None:
            try:
                await body()
            finally:
                for store in self.stores:
                    await store.close()
                self.stores.clear()

        asyncio.run(main())

    def on_store(self, body: Callable[[SqlStore], Awaitable[None]]) -> None:
        """Run ``body`` with a freshly created store."""

        async def main() -> None:
            await body(await self.opened())

        self.run(main)


async def pg_admin(sql: str) -> None:
    admin = create_async_engine(PG_URL)
    try:
        async with admin.begin() as conn:
            await conn.execute(text(sql))
    finally:
        await admin.dispose()
