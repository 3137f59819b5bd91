"""Finished games as a table host keeps them and shows them again: a game's record with
each position it passed through (the replay), and its line in a listing of games.

The server answers ``GET /api/games/{id}/replay`` with ``replay_json`` of a stored record;
the page's own engine (issue 28) answers the same request with the same function from the
records it keeps in the browser, and lists them with ``summary_of``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from trumps.games import Game
from trumps.records import play_recorded, replay

Msg = dict[str, Any]


def start_of(record: Mapping[str, Any]) -> tuple[Game, list[str]]:
    """The game at the record's start and its actions as the engine writes them (what an
    analysis of it walks: the server's and the page's own)."""
    game = replay({**record, "actions": [], "outcome": None, "finished": None})
    start = game.clone()
    for action in record["actions"]:
        play_recorded(game, action)
    return start, list(game.history)


def replay_json(record: Mapping[str, Any]) -> Msg:
    """``{"record", "positions", "closed"}``: every position of the game from the deal to
    its end, each as ``Game.to_json`` (every hand face up), and what each move closed (a
    trick, a hand: ``Game.closed``; None for the deal) — docs/api.md. Raises
    ``InvalidRecord`` for a record that does not replay."""
    game = replay({**record, "actions": [], "outcome": None, "finished": None})
    positions = [game.to_json()]
    closed: list[Msg | None] = [None]
    for action in record["actions"]:
        play_recorded(game, action)
        positions.append(game.to_json())
        closed.append(game.closed())
    return {"record": dict(record), "positions": positions, "closed": closed}


def summary_of(record_id: int, table_id: str, record: Mapping[str, Any], seat: int) -> Msg:
    """A finished unrated game's line in a listing of ``seat``'s games, in the form of the
    server's ``GET /api/games?mine=1`` (docs/api.md)."""
    return {
        "id": record_id, "table_id": table_id, "game": record["game"],
        "players": list(record["players"]), "outcome": record["outcome"],
        "started": record.get("started"), "finished": record.get("finished"), "by_bot": [],
        "rated": False, "rating_changes": [], "seat": seat,
    }  # fmt: skip


def now_iso() -> str:
    """Now, as a record's ``started`` and ``finished`` say it."""
    return datetime.now(UTC).isoformat(timespec="seconds")
