"""What the rated-play tests of ``trumps connect`` share: a real server (its database
filled beforehand when asked), accounts made over its HTTP API, the app signed in as one,
and waits that poll the app under a deadline (nothing sleeps to synchronise)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from trumps.tui.connect import ConnectApp
from trumps.tui.connect.table import TableScreen

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # tests/, for server.e2e
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.e2e import ServerProc

TIMEOUT = 30.0  # seconds any one wait may take
SIZE = (120, 40)
PASSWORD = "correct horse battery staple"
# Every test client is one address: let it make accounts and sign in as often as it likes.
LOGINS = ("--login-per-minute", "100000", "--login-per-account", "100000")

Msg = dict[str, Any]


def start_server(work: Path) -> ServerProc:
    proc = ServerProc(f"sqlite+aiosqlite:///{work / 'trumps.db'}", work, extra=LOGINS)
    return proc.start()


def account(server: ServerProc, login: str, name: str | None = None) -> tuple[int, str]:
    """A new account on ``server``: its player id and resume token."""
    made = server.post(
        "/api/accounts", json={"login": login, "password": PASSWORD, "name": name or login}
    )
    assert made.status_code == 201, made.text
    body = made.json()
    return int(body["player_id"]), str(body["resume_token"])


def signed_in_app(server: ServerProc, tmp_path: Path, login: str) -> tuple[ConnectApp, int]:
    """The app with a fresh account's token in its token file (as after signing in)."""
    player_id, token = account(server, login, login.title())
    path = tmp_path / f"{login}.json"
    path.write_text(json.dumps({"name": login.title(), "resume_token": token}))
    return ConnectApp(server.http, token_file=path), player_id


def recording(app: ConnectApp) -> list[Msg]:
    """Every message the app sends from now on."""
    sent: list[Msg] = []
    send = app.client.send

    def tap(msg: Msg) -> bool:
        sent.append(dict(msg))
        return send(msg)

    app.client.send = tap  # type: ignore[method-assign]
    return sent


async def until(pilot: Pilot[None], pred: Callable[[], bool], what: str) -> None:
    """Let the app run until ``pred()`` holds; fail after ``TIMEOUT`` seconds."""
    deadline = time.monotonic() + TIMEOUT
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.01)


def on_table(app: ConnectApp) -> str | None:
    screen = app.screen
    return screen.table_id if isinstance(screen, TableScreen) else None


def notes(app: ConnectApp) -> list[str]:
    """The texts of the notifications the app has shown."""
    return [str(n.message) for n in app._notifications]
