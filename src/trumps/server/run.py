"""``trumps serve``: run the server with uvicorn, on one process or several.

Defaults suit playing with friends on one machine: 127.0.0.1:8000 and an SQLite database in
the user's data directory (created and migrated on start).  The secret that signs resume
tokens lives in a file beside it, so players keep their seats across restarts.  Before
serving, the database (and Redis, when given) is opened once: one it cannot reach or create
ends the command with one line naming it (password masked) and what to check, not a startup
traceback.

``workers=N`` runs N processes sharing the port under uvicorn's supervisor (which restarts
a worker that dies, and on SIGHUP replaces them one by one); they form one service through
Redis and PostgreSQL, so ``service_problem`` refuses several processes without both.  The
settings reach the workers as JSON in an environment variable (``app.SETTINGS_ENV``), so
the secret never shows on a command line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import threading
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import redis.asyncio as aioredis
import redis.exceptions
import uvicorn
from platformdirs import user_data_path
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from trumps.server.hub import GUESTS_PER_ADDRESS, HubOptions
from trumps.server.identity.auth import load_secret, make_private_dir
from trumps.server.limits.conngate import connection_guard
from trumps.server.limits.quota import FairUse
from trumps.server.transport.app import (
    SETTINGS_ENV,
    WS_MAX_BYTES,
    ServerSettings,
    create_app,
    default_node_id,
    log_no_frames,
    settings_env,
)
from trumps.server.wire.wiretypes import BotPace
from trumps.store import SqlStore

__all__ = [
    "DatabaseUnavailable",
    "RedisUnavailable",
    "check_database",
    "check_redis",
    "data_dir",
    "default_db",
    "migrate_database",
    "serve",
    "service_problem",
]

CONNECT_TIMEOUT = 10.0  # seconds to wait for a database server before giving up
# The PostgreSQL advisory lock held while migrating, so that processes starting together
# (workers, machines) migrate one after the other: "trum" in ASCII.
MIGRATION_LOCK = 0x7472756D
WS_PING_INTERVAL = 20.0  # seconds between the server's WebSocket pings …
WS_PING_TIMEOUT = 20.0  # … and how long it waits for the pong before closing


def data_dir() -> Path:
    """Where the server keeps its files (``TRUMPS_DATA_DIR`` overrides)."""
    override = os.environ.get("TRUMPS_DATA_DIR")
    return Path(override) if override else user_data_path("trumps", appauthor=False)


def default_db() -> str:
    return f"sqlite+aiosqlite:///{data_dir() / 'trumps.db'}"


def default_bot_workers(workers: int = 1) -> int:
    """Bot processes for each of ``workers`` server processes: the cores beyond the ones
    their event loops use, shared between them (at least one each)."""
    cores = os.cpu_count() or 2
    return max(1, (cores - workers) // workers)


def service_problem(
    *, workers: int, db: str | None, redis_url: str | None, node_id: str | None
) -> str | None:
    """Why these options cannot form a service (one line), or None when they can.

    Several processes share their tables through Redis and one PostgreSQL database: an
    SQLite file belongs to one process."""
    on_sqlite = db is None or db.startswith("sqlite")
    if workers > 1 and (redis_url is None or on_sqlite):
        return (
            "several processes need PostgreSQL (--db postgresql+asyncpg://…) "
            "and Redis (--redis redis://…)"
        )
    if redis_url is not None and on_sqlite:
        return (
            "--redis joins a service of several processes, which needs one shared "
            "database: give --db postgresql+asyncpg://… (SQLite serves one process only)"
        )
    if node_id is not None and workers > 1:
        return "--node-id names one process: leave it out with --workers (each names itself)"
    return None


def _show_db(db: str) -> str:
    """A database or Redis URL without its password, for printing."""
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
            # The running games' rows hold their seeds, i.e. every hidden hand: the file and
            # the folders made for it are the owner's only.
            make_private_dir(Path(sqlite_path).parent)
            with contextlib.suppress(FileExistsError):
                os.close(os.open(sqlite_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
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


async def _migrate(db: str) -> None:
    store = SqlStore(db)
    lock = create_async_engine(db) if db.startswith("postgresql") else None
    try:
        if lock is None:
            await store.create()
            return
        async with lock.connect() as conn:  # the lock ends with this session
            await conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            await store.create()
    finally:
        await store.close()
        if lock is not None:
            await lock.dispose()


def migrate_database(db: str) -> None:
    """Bring ``db`` to the newest schema (Alembic) before any server process starts, one
    process at a time on PostgreSQL; raises ``DatabaseUnavailable`` (one line)."""
    try:
        asyncio.run(_migrate(db))
    except Exception as e:
        raise DatabaseUnavailable(
            f"cannot migrate the database {_show_db(db)}: {_first_line(_root(e))}"
        ) from None


class RedisUnavailable(RuntimeError):
    """Redis cannot be reached; the message is one line for people."""


async def _probe_redis(url: str) -> None:
    client = aioredis.from_url(
        url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=CONNECT_TIMEOUT
    )
    try:
        await client.ping()
    finally:
        await client.aclose()


def check_redis(url: str) -> None:
    """Ping Redis at ``url`` once; raises ``RedisUnavailable`` naming it and what to check."""
    shown = _show_db(url)
    try:
        asyncio.run(_probe_redis(url))
    except redis.exceptions.AuthenticationError as e:
        raise RedisUnavailable(
            f"Redis at {shown} refused the connection ({_first_line(e)}): "
            "check the user name and password in the URL"
        ) from None
    except redis.exceptions.TimeoutError:
        raise RedisUnavailable(
            f"cannot reach Redis at {shown}: no answer within {CONNECT_TIMEOUT:g} s; "
            "check that Redis is running there, the host and the port"
        ) from None
    except (redis.exceptions.RedisError, OSError, ValueError) as e:
        # ValueError: a URL redis-py cannot read (a bad port, scheme or database number).
        root = _root(e)
        where = urlsplit(url)
        if isinstance(root, socket.gaierror):
            problem = f"unknown host {where.hostname!r}"
        elif isinstance(root, ConnectionRefusedError):
            problem = "connection refused"
        elif isinstance(root, OSError) and root.strerror:
            problem = root.strerror
        else:
            problem = _first_line(e)
        raise RedisUnavailable(
            f"cannot reach Redis at {shown}: {problem}; check that Redis is running "
            "there, the host and port, the password and the database number"
        ) from None


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0].rstrip(".")


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
    device: Path | None = None,
    icons: Path | None = None,
    rate: tuple[int, int] = (20, 600),
    bot_workers: int | None = None,
    catalogs: Callable[[str], bytes | None] | None = None,
    catalogs_ref: str | None = None,
    workers: int = 1,
    redis_url: str | None = None,
    node_id: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    sockets_per_address: int = 32,
    hello_timeout: float = 5.0,
    bot_pace: BotPace = "normal",
    fair: FairUse | None = None,
    login_limits: tuple[int, int] = (10, 5),
    forwarded_allow_ips: tuple[str, ...] = (),
    guests_per_address: int = GUESTS_PER_ADDRESS,
    bot_ratings: str | None = None,
    open_page: bool = False,
) -> None:
    """Run the server until interrupted; a database or Redis it cannot reach ends it with
    one line (``SystemExit``, status 1).

    With ``workers`` > 1 the processes find the page's translations by ``catalogs_ref``
    (``"module:function"``) instead of ``catalogs``.  Options that cannot form a service
    (``service_problem``) raise ``ValueError``."""
    problem = service_problem(workers=workers, db=db, redis_url=redis_url, node_id=node_id)
    if problem is not None:
        raise ValueError(problem)
    url_db = db or default_db()
    try:
        check_database(url_db)
        if redis_url is not None:
            check_redis(redis_url)
        migrate_database(url_db)  # once here, not in each worker at the same time
    except (DatabaseUnavailable, RedisUnavailable) as e:
        raise SystemExit(f"error: {e}") from None
    secret = os.environ.get("TRUMPS_SECRET") or load_secret(
        secret_file or data_dir() / "secret.key"
    )
    settings = ServerSettings(
        db=url_db,
        secret=secret,
        hub=HubOptions(
            bot_time=bot_time,
            seed=seed,
            per_second=rate[0],
            per_minute=rate[1],
            bot_workers=default_bot_workers(workers) if bot_workers is None else bot_workers,
            redis_url=redis_url,
            node_id=node_id,
            bot_pace=bot_pace,
            fair=fair or FairUse(),
            guests_per_address=guests_per_address,
        ),
        static=static,
        device=device,
        icons=icons,
        catalogs=catalogs,
        allowed_origins=allowed_origins,
        sockets_per_address=sockets_per_address,
        hello_timeout=hello_timeout,
        login_per_minute=login_limits[0],
        login_per_account=login_limits[1],
        bot_ratings=bot_ratings,
    )
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    log_no_frames()  # resume tokens travel in frames
    shown = f"[{host}]" if ":" in host else host
    where = f"database {_show_db(url_db)}"
    if redis_url is not None:
        where += f", Redis {_show_db(redis_url)}"
    if workers > 1:
        where += f", {workers} processes"
    print(f"trumps server: http://{shown}:{port}/  ({where})", flush=True)
    if open_page:
        _open_when_listening(host, port)
    app: Any
    if workers > 1:
        # Each worker builds its own app (app_from_env) from this, in its environment.
        os.environ[SETTINGS_ENV] = settings_env(
            settings, catalogs=catalogs_ref, log_level=log_level
        )
        app = "trumps.server.transport.app:app_from_env"
    else:
        settings.hub.node_id = settings.hub.node_id or default_node_id()
        app = create_app(settings)
    # Every TCP connection is counted and must send its request in time, not only the game
    # sockets the app sees (conngate); uvicorn calls it as it would its protocol class.
    guard = connection_guard(
        sockets_per_address=sockets_per_address,
        max_sockets=settings.max_sockets,
        header_timeout=hello_timeout,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    uvicorn.run(
        app,
        http=cast("type[asyncio.Protocol]", guard),
        factory=workers > 1,
        workers=workers,
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
        **proxy_options(forwarded_allow_ips),
    )


def _open_when_listening(host: str, port: int) -> None:
    """Open the page in the machine's browser as soon as the port takes connections (from a
    thread, while uvicorn starts); say so, or that no browser was found."""
    local = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    url = f"http://{f'[{local}]' if ':' in local else local}:{port}/"

    def wait_and_open() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((local, port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            return
        opened = webbrowser.open(url)
        print(
            f"opened {url} in your browser" if opened else f"no browser found here: open {url}",
            flush=True,
        )

    threading.Thread(target=wait_and_open, name="open-browser", daemon=True).start()


def proxy_options(forwarded_allow_ips: tuple[str, ...]) -> dict[str, Any]:
    """uvicorn's options for ``X-Forwarded-For``: believed only from the proxies named.

    uvicorn on its own believes it from 127.0.0.1 (or ``FORWARDED_ALLOW_IPS``), so anyone
    on the machine could claim any address and dodge the per-address limits: without
    proxies named, the headers are not read at all."""
    if not forwarded_allow_ips:
        return {"proxy_headers": False, "forwarded_allow_ips": ""}
    return {"proxy_headers": True, "forwarded_allow_ips": ",".join(forwarded_allow_ips)}
