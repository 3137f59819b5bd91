"""What the rated-play tests of ``trumps connect`` share: a real server (its database
filled beforehand when asked), accounts made over its HTTP API, the app signed in as one,
and waits that poll the app under a deadline (nothing sleeps to synchronise)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from server.e2e import Client as WsClient
from server.e2e import ServerProc
from store.ratedgames import resigned_duel
from trumps.ai import Limits, make_bot
from trumps.records import record_of
from trumps.store import RatingPlan, SqlStore, TableWrite
from trumps.tui.connect import ConnectApp
from trumps.tui.connect.table import TableScreen

TIMEOUT = 30.0  # seconds any one wait may take
SIZE = (120, 40)
PASSWORD = "correct horse battery staple"
# Every test client is one address: let it make accounts and sign in as often as it likes.
LOGINS = ("--login-per-minute", "100000", "--login-per-account", "100000")

Msg = dict[str, Any]


def database(work: Path) -> str:
    return f"sqlite+aiosqlite:///{work / 'trumps.db'}"


def start_server(work: Path, bot_ratings: dict[str, dict[str, float]] | None = None) -> ServerProc:
    """A server on ``work``'s database (filled beforehand or not); ``bot_ratings`` (by
    family, level: rating) replaces the shipped calibration of the bots."""
    extra: tuple[str, ...] = LOGINS
    if bot_ratings is not None:
        levels = {
            family: {
                "measured": "a test's own",
                "levels": {
                    level: {"rating": r, "deviation": 70.0, "games": 100}
                    for level, r in found.items()
                },
            }
            for family, found in bot_ratings.items()
        }
        path = work / "bot_ratings.json"
        path.write_text(json.dumps({"version": 1, "families": levels}))
        extra += ("--bot-ratings", str(path))
    return ServerProc(database(work), work, extra=extra).start()


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


def on_table(app: ConnectApp) -> str | None:
    screen = app.screen
    return screen.table_id if isinstance(screen, TableScreen) else None


def notes(app: ConnectApp) -> list[str]:
    """The texts of the notifications the app has shown."""
    return [str(n.message) for n in app._notifications]


def prefill(db: str, games: Sequence[tuple[str, str, int]]) -> dict[str, int]:
    """Accounts and rated duels stored before the server starts (``SqlStore.commit_tables``
    with a ``RatingPlan``, as the server does): each game is (first, second, winner's
    seat), the players by login (their name is the login titled).  The players' ids."""

    async def fill() -> dict[str, int]:
        store = SqlStore(db)
        await store.create()
        try:
            ids: dict[str, int] = {}
            for first, second, _ in games:
                for login in (first, second):
                    if login not in ids:
                        ids[login] = await store.add_player(login.title(), "!", login=login)
            writes = []
            for k, (first, second, winner) in enumerate(games):
                seats = [ids[first], ids[second]]
                plan = RatingPlan("kozyri-duel", dict(enumerate(seats)), [[0], [1]])
                record = record_of(resigned_duel(k, winner), [first.title(), second.title()])
                writes.append(TableWrite(f"t-pre-{k}", record, player_ids=seats, rating=plan))
            await store.commit_tables(writes)
            return ids
        finally:
            await store.close()

    return asyncio.run(fill())


async def raw_player(c: WsClient, table_id: str, rng: random.Random) -> Msg:
    """Play every turn of ``c`` at ``table_id`` (as the easy bot would) until the game
    ends; the game_over message."""
    bot = make_bot("easy", "kozyri")
    while True:
        m = await c.recv()
        if m.get("table_id") != table_id:
            continue
        if m["type"] == "game_over":
            return m
        if m["type"] == "error" and m["code"] == "stale_event":
            await c.send({"type": "resync", "table_id": table_id, "last_event": c.last[table_id]})
        if m["type"] in ("table_state", "event") and m["legal"]:
            action = bot.decide(m["view"], m["legal"], Limits(), rng).action
            await c.act(table_id, action, c.last[table_id])
