"""Alembic environment: runs on the connection ``SqlStore.create()`` hands over.

Run by hand (``alembic -c …``) it builds an async engine from ``sqlalchemy.url``.
``render_as_batch`` lets later migrations alter SQLite tables (copy-and-move).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from trumps.store._tables import metadata

config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_from_url() -> None:
    engine = create_async_engine(config.get_main_option("sqlalchemy.url") or "")
    async with engine.begin() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


def _main() -> None:
    if context.is_offline_mode():
        context.configure(
            url=config.get_main_option("sqlalchemy.url"),
            target_metadata=metadata,
            render_as_batch=True,
            literal_binds=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is None:
        asyncio.run(_run_from_url())
    else:
        _run(connection)


_main()
