"""``trumps serve``: run the server with uvicorn on one process.

Defaults suit playing with friends on one machine: 127.0.0.1:8000 and an SQLite database in
the user's data directory (created and migrated on start).  The secret that signs resume
tokens lives in a file beside it, so players keep their seats across restarts.  Before
serving, the database is opened once: one it cannot reach or create ends the command with
one line naming it (password masked) and what to check, not a startup traceback.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path

import uvicorn
from platformdirs import user_data_path
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from trumps.server.app import WS_MAX_BYTES, ServerSettings, create_app
from trumps.server.auth import load_secret

__all__ = ["DatabaseUnavailable", "check_database", "data_dir", "default_db", "serve"]

CONNECT_TIMEOUT = 10.0  # seconds to wait for a database server before giving up
WS_PING_INTERVAL = 20.0  # seconds between the server's WebSocket pings …
WS_PING_TIMEOUT = 20.0  # … and how long it waits for the pong before closing


def data_dir() -> Path:
    """Where the server keeps its files (``TRUMPS_DATA_DIR`` overrides)."""
    override = os.environ.get("TRUMPS_DATA_DIR")
    return Path(override) if override else user_data_path("trumps", appauthor=False)


def default_db() -> str:
    return f"sqlite+aiosqlite:///{data_dir() / 'trumps.db'}"


def default_bot_workers() -> int:
    """One bot process per core beyond the one the event loop uses (at least one)."""
    return max(1, (os.cpu_count() or 2) - 1)


def _show_db(db: str) -> str:
    """The database URL without its password, for printing."""
    head, sep, tail = db.partition("://")
    if "@" in tail:
        cred, _, host = tail.rpartition("@")
        user = cred.split(":", 1)[0]
        tail = f"{user}:***@{host}" if ":" in cred else f"{user}@{host}"
    return head + sep + tail


class DatabaseUnavailable(RuntimeError):
    """The server's database cannot be opened; the message is one line for people."""


def _root(exc: BaseException) -> BaseException:
    """The innermost cause of an exception (the driver's error under SQLAlchemy's)."""
    seen = {id(exc)}
    while (inner := exc.__cause__ or exc.__context__) is not None and id(inner) not in seen:
        seen.add(id(inner))
        exc = inner
    return exc


def _postgres_problem(db: str, exc: BaseException) -> str:
    url = make_url(db)
    where = f"{url.host or 'localhost'}:{url.port or 5432}"
    name = type(exc).__name__
    if name == "InvalidCatalogNameError":
        return f"the database {url.database!r} does not exist on {where}; create it first"
    if name in ("InvalidPasswordError", "InvalidAuthorizationSpecificationError"):
        return f"{where} refused user {url.username!r}: check the user name and password"
    if isinstance(exc, TimeoutError):
        problem = f"no answer from {where} within {CONNECT_TIMEOUT:g} s"
    elif isinstance(exc, socket.gaierror):
        problem = f"unknown host {url.host!r}"
    elif isinstance(exc, OSError):
        problem = f"cannot connect to {where} ({exc.strerror or exc})"
    else:
        problem = (str(exc).strip().splitlines() or [name])[0]
    return (
        f"{problem}; check that PostgreSQL is running there, the host and port, "
        "the user and password, and that the database exists"
    )


async def _probe(db: str) -> None:
    options = {"connect_args": {"timeout": CONNECT_TIMEOUT}} if "+asyncpg" in db else {}
    engine = create_async_engine(db, **options)
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    finally:
        await engine.dispose()


def check_database(db: str) -> None:
    """Open ``db`` once (an SQLite file is created, with its directory); raises
    ``DatabaseUnavailable`` naming the database and what to check."""
    shown = _show_db(db)
    sqlite_path = ""
    if db.startswith("sqlite") and ":///" in db:
        sqlite_path = db.split(":///", 1)[1]
    if sqlite_path and sqlite_path != ":memory:":
        try:
            Path(sqlite_path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            reason = e.strerror or str(e)
            if isinstance(e, FileExistsError | NotADirectoryError):  # a file in the way
                blocker = next(p for p in Path(sqlite_path).parents if p.exists())
                reason = f"{blocker} is not a directory"
            raise DatabaseUnavailable(
                f"cannot create the SQLite database {sqlite_path}: {reason}; "
                "check the path and that its directory is writable"
            ) from None
    try:
        asyncio.run(_probe(db))
    except Exception as e:
        root = _root(e)
        if sqlite_path:
            reason = (str(root).strip().splitlines() or [type(root).__name__])[0]
            raise DatabaseUnavailable(
                f"cannot create or open the SQLite database {sqlite_path}: {reason}; "
                "check the path and that its directory is writable"
            ) from None
        if db.startswith("postgresql"):
            raise DatabaseUnavailable(
                f"cannot open the database {shown}: {_postgres_problem(db, root)}"
            ) from None
        raise DatabaseUnavailable(f"cannot open the database {shown}: {root}") from None


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    secret_file: Path | None = None,
    bot_time: float | None = None,
    seed: int | None = None,
    log_level: str = "info",
    static: Path | None = None,
    rate: tuple[int, int] = (20, 600),
    bot_workers: int | None = None,
    catalogs: Callable[[str], bytes | None] | None = None,
) -> None:
    """Run the server until interrupted; a database it cannot open ends it with one line
    (``SystemExit``, status 1)."""
    url_db = db or default_db()
    try:
        check_database(url_db)
    except DatabaseUnavailable as e:
        raise SystemExit(f"error: {e}") from None
    secret = os.environ.get("TRUMPS_SECRET") or load_secret(
        secret_file or data_dir() / "secret.key"
    )
    settings = ServerSettings(
        db=url_db,
        secret=secret,
        bot_time=bot_time,
        seed=seed,
        static=static,
        per_second=rate[0],
        per_minute=rate[1],
        bot_workers=default_bot_workers() if bot_workers is None else bot_workers,
        catalogs=catalogs,
    )
    app = create_app(settings)
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    shown = f"[{host}]" if ":" in host else host
    print(f"trumps server: http://{shown}:{port}/  (database {_show_db(url_db)})", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_BYTES,
        # Messages are small JSON; compressing each costs more CPU than it saves (measured).
        ws_per_message_deflate=False,
        ws_ping_interval=WS_PING_INTERVAL,
        ws_ping_timeout=WS_PING_TIMEOUT,
        log_level=log_level,
        access_log=False,
        lifespan="on",
    )
