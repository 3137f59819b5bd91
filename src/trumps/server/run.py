"""``trumps serve``: run the server with uvicorn on one process.

Defaults suit playing with friends on one machine: 127.0.0.1:8000 and an SQLite database in
the user's data directory (created and migrated on start).  The secret that signs resume
tokens lives in a file beside it, so players keep their seats across restarts.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

import uvicorn
from platformdirs import user_data_path

from trumps.server.app import WS_MAX_BYTES, ServerSettings, create_app
from trumps.server.auth import load_secret

__all__ = ["data_dir", "default_db", "serve"]


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


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    secret_file: Path | None = None,
    bot_time: float = 0.5,
    seed: int | None = None,
    log_level: str = "info",
    static: Path | None = None,
    rate: tuple[int, int] = (20, 600),
    bot_workers: int | None = None,
    catalogs: Callable[[str], bytes | None] | None = None,
) -> None:
    """Run the server until interrupted."""
    url_db = db or default_db()
    if url_db.startswith("sqlite") and ":///" in url_db:
        path = url_db.split(":///", 1)[1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
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
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        log_level=log_level,
        access_log=False,
        lifespan="on",
    )
