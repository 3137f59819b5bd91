"""Many running tables' rows updated in one statement (PostgreSQL).

A group commit carries one write per table that moved; most only append events and refresh
the row's small header (players, start time, the server's table state, the lease).  One
``UPDATE games … FROM unnest(arrays)`` for all of them costs the server one round trip and
one statement instead of one per table, and PostgreSQL one executor run; as its arguments
are arrays, its text is the same for any number of tables (prepared once, never compiled
again).  The fencing check is the same as for a single write: a row is changed only
where its fence is the write's and its game still runs; the ids that come back are the
rows changed, so a write missing from them was fenced.  SQLite (one writer, in-process)
keeps the one-statement-per-write path: it has no arrays.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import Float, Integer, Text, TextClause, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncConnection

from trumps.store._tables import RUNNING
from trumps.store.base import TableWrite

__all__ = ["update_running"]

_TYPES = {"players": Text, "started": Text, "seed": Text, "meta": Text, "lease_until": Float}
_CASTS = {
    "players": "JSON",
    "started": "TEXT",
    "seed": "TEXT",
    "meta": "JSON",
    "lease_until": "DOUBLE PRECISION",
}


@cache
def _statement(has_meta: bool, renews: bool) -> TextClause:
    """One statement per shape of write; its arguments are arrays (one element per table),
    so the text, and PostgreSQL's prepared plan of it, are the same for any batch."""
    names = [
        "players",
        "started",
        "seed",  # dealt again when the game starts (docs/fairness.md)
        *(["meta"] if has_meta else []),
        *(["lease_until"] if renews else []),
    ]
    arrays = ", ".join(
        ["CAST(:row_id AS INTEGER[])", "CAST(:row_fence AS INTEGER[])"]
        + [f"CAST(:{n} AS {'TEXT' if _CASTS[n] == 'JSON' else _CASTS[n]}[])" for n in names]
    )
    sets = ", ".join(
        f"{n} = CAST(new.{n} AS JSON)" if _CASTS[n] == "JSON" else f"{n} = new.{n}" for n in names
    )
    sql = (
        f"UPDATE games SET {sets} FROM unnest({arrays}) AS new(row_id, row_fence, "
        f"{', '.join(names)}) WHERE games.id = new.row_id AND games.fence = new.row_fence "
        f"AND games.status = '{RUNNING}' RETURNING games.id"
    )
    params = [
        bindparam("row_id", type_=ARRAY(Integer)),
        bindparam("row_fence", type_=ARRAY(Integer)),
    ]
    params += [bindparam(n, type_=ARRAY(_TYPES[n])) for n in names]
    return text(sql).bindparams(*params)


async def update_running(
    conn: AsyncConnection, items: Sequence[tuple[TableWrite, int]], now: float
) -> set[int]:
    """Refresh each ``(write, row id)``'s header in one statement per shape of write (with or
    without table state and lease); the ids of the rows changed (the others were fenced)."""
    shapes: dict[tuple[bool, bool], list[tuple[TableWrite, int]]] = {}
    for w, game_id in items:
        renews = w.owner is not None and w.lease > 0
        shapes.setdefault((w.meta is not None, renews), []).append((w, game_id))
    changed: set[int] = set()
    for (has_meta, renews), group in shapes.items():
        args: dict[str, list[Any]] = {
            "row_id": [game_id for _, game_id in group],
            "row_fence": [w.fence for w, _ in group],
            "players": [json.dumps(list(w.record["players"])) for w, _ in group],
            "started": [w.record["started"] for w, _ in group],
            "seed": [str(w.record["seed"]) for w, _ in group],
        }
        if has_meta:
            args["meta"] = [json.dumps(dict(w.meta or {})) for w, _ in group]
        if renews:
            args["lease_until"] = [now + w.lease for w, _ in group]
        result = await conn.execute(_statement(has_meta, renews), args)
        changed.update(int(r[0]) for r in result)
    return changed
