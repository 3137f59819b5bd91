"""Ratings as the terminal client shows them (docs/ratings.md): pure functions from the
HTTP API's answers to text.  A provisional rating carries a ``?``, as on Lichess."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trumps.errors import InvalidRules
from trumps.games import GAMES, new_game
from trumps.ratings import FAMILIES, family_of

__all__ = [
    "FAMILIES",
    "change_text",
    "family_title",
    "game_change",
    "rating_text",
    "result_counts",
    "sparkline",
    "table_family",
]

Msg = dict[str, Any]
BARS = "▁▂▃▄▅▆▇█"


def family_title(family: str) -> str:
    return FAMILIES.get(family, family)


def table_family(game: str, players: int, rules: Mapping[str, Any] | None) -> str | None:
    """The rating family of a table's game (``trumps.ratings.family_of``), or None when
    the game cannot be built from what the client knows."""
    try:
        return family_of(new_game(game, players=players, rules=dict(rules or {})))
    except (InvalidRules, KeyError, ValueError, TypeError):
        return None


def rating_text(r: Mapping[str, Any]) -> str:
    """``1564``, or ``1500?`` while provisional."""
    return f"{r.get('rating', '?')}{'?' if r.get('provisional') else ''}"


def change_text(before: int, after: int) -> str:
    """``1500 → 1523 (+23)``."""
    return f"{before} → {after} ({after - before:+d})"


def game_change(row: Mapping[str, Any]) -> tuple[int, int] | None:
    """What a listed game (``GET /api/games?mine=1``) did to this player's rating: (before,
    after), or None for a casual game or one where the player's seat is not known."""
    seat = row.get("seat")
    for c in row.get("rating_changes") or []:
        if c.get("seat") == seat:
            return int(c["before"]), int(c["after"])
    return None


def sparkline(values: Sequence[float]) -> str:
    """A rating history as one line of bars, low to high (the last 60 points)."""
    values = list(values)[-60:]
    if not values:
        return ""
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return BARS[3] * len(values)
    top = len(BARS) - 1
    return "".join(BARS[round((v - low) / (high - low) * top)] for v in values)


def result_counts(game: str, counts: Mapping[str, Any]) -> str:
    """``Svoi Kozyri: 3 won, 1 drawn, 2 lost``."""
    cls = GAMES.get(game)
    title = cls.title if cls is not None else game
    parts = [f"{int(counts.get(k) or 0)} {k}" for k in ("won", "drawn", "lost")]
    return f"{title}: {', '.join(parts)}"
