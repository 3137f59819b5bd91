"""Rows of ``SqlStore`` (``trumps.store.sql``) as plain values: a record checked and turned
into a ``games`` row and back, a table write's events and chat as rows, and a take-back's
cut of a running game's stored actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Row, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from trumps.records import FORMAT, InvalidRecord, replay
from trumps.store._tables import FINISHED, games, table_events
from trumps.store.base import Player, TableWrite
from trumps.store.ratingrows import check_plan

__all__ = [
    "chat_rows",
    "check_shape",
    "check_write",
    "event_rows",
    "player_of",
    "record_of_row",
    "seats_of",
    "take_back",
    "values_of",
]

_KEYS = {"format", "game", "rules", "seed", "players", "actions", "outcome", "started", "finished"}


def check_shape(record: Mapping[str, Any]) -> None:
    if not isinstance(record, Mapping) or not _KEYS <= set(record) <= _KEYS | {"fair"}:
        raise InvalidRecord(f"a record needs exactly the keys {sorted(_KEYS)} (and maybe fair)")
    if record["format"] != FORMAT:
        raise InvalidRecord(f"record format must be {FORMAT!r}, not {record['format']!r}")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidRecord(f"record seed must be a whole number ≥ 0, not {seed!r}")
    if not isinstance(record["players"], list) or not isinstance(record["actions"], list):
        raise InvalidRecord("record players and actions must be lists")


def seats_of(
    record: Mapping[str, Any], player_ids: Sequence[int | None] | None
) -> list[int | None]:
    n = len(record["players"])
    if player_ids is None:
        return [None] * n
    ids = list(player_ids)
    if len(ids) != n:
        raise ValueError(f"a game of {n} seats needs {n} player ids, got {len(ids)}")
    return ids


def values_of(record: Mapping[str, Any], status: str, table_id: str | None) -> dict[str, Any]:
    return {
        "status": status,
        "table_id": table_id,
        "game": record["game"],
        "rules": dict(record["rules"]),
        "seed": str(record["seed"]),
        "players": list(record["players"]),
        "actions": list(record["actions"]),
        "outcome": None if record["outcome"] is None else dict(record["outcome"]),
        "started": record["started"],
        "finished": record["finished"],
        # The fair deal's secret: stored once the game is over (a running table keeps it in
        # its meta), served with the record.
        "fair": record.get("fair") if status == FINISHED else None,
    }


def event_rows(game_id: int, w: TableWrite) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game_id,
            "number": e.number,
            "kind": e.kind,
            "seat": e.seat,
            "action": e.action,
            "by_bot": e.by_bot,
            "ply": e.ply,
        }
        for e in w.events
    ]


def chat_rows(game_id: int, w: TableWrite) -> list[dict[str, Any]]:
    return [
        {"game_id": game_id, "number": c.number, "seat": c.seat, "name": c.name, "text": c.text}
        for c in w.chat
    ]


def check_write(w: TableWrite) -> tuple[bool, int]:
    """Check one table write before anything is stored: (finishes the game, first new ply)."""
    check_shape(w.record)
    actions = w.record["actions"]
    finished = w.record["outcome"] is not None
    if finished and replay(w.record).outcome is None:
        raise InvalidRecord(f"table {w.table_id}: the record's outcome is not its game's")
    numbers = [e.number for e in w.events]
    if numbers != sorted(set(numbers)) or any(n < 1 for n in numbers):
        raise ValueError(f"table {w.table_id}: event numbers must rise from 1, not {numbers}")
    plied = [e for e in w.events if e.ply is not None]
    first = len(actions) - len(plied)
    if first < 0 or [e.ply for e in plied] != list(range(first, len(actions))):
        raise ValueError(f"table {w.table_id}: the events' plies are not the record's last actions")
    if any(actions[e.ply] != e.action for e in plied if e.ply is not None):
        raise ValueError(f"table {w.table_id}: an event's action is not the record's")
    if w.rating is not None:
        if not finished:
            raise ValueError(f"table {w.table_id}: a rating plan comes only with a finished game")
        check_plan(w.rating, len(w.record["players"]), w.record["outcome"])
    return finished, first


def player_of(row: Row[Any]) -> Player:
    return Player(id=row.id, name=row.name, password_hash=row.password_hash, login=row.login)


def record_of_row(row: Row[Any]) -> dict[str, Any]:
    m = row._mapping
    fair = m["fair"] if m["status"] == FINISHED else None
    return {
        **({} if fair is None else {"fair": fair}),
        "format": FORMAT,
        "game": m["game"],
        "rules": m["rules"],
        "seed": int(m["seed"]),
        "players": m["players"],
        "actions": m["actions"],
        "outcome": m["outcome"],
        "started": m["started"],
        "finished": m["finished"],
    }


async def take_back(conn: AsyncConnection, game_id: int, actions: Sequence[str], kept: int) -> None:
    """The running game ``game_id`` keeps only its first ``kept`` actions (a take-back):
    the events that added later ones no longer add them, and if the row's own actions
    (those stored before its events) reach past ``kept``, they are cut there."""
    await conn.execute(
        update(table_events)
        .where(table_events.c.game_id == game_id, table_events.c.ply >= kept)
        .values(ply=None)
    )
    stored = (await conn.execute(select(games.c.actions).where(games.c.id == game_id))).scalar_one()
    if len(stored) > kept:
        await conn.execute(
            update(games).where(games.c.id == game_id).values(actions=list(actions[:kept]))
        )
