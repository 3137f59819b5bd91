"""Ratings as the terminal client shows them (docs/ratings.md): pure functions from the
HTTP API's answers to text.  A provisional rating carries a ``?``, as on Lichess."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from trumps.errors import InvalidRules
from trumps.games import GAMES, new_game
from trumps.ratings import FAMILIES, family_of

__all__ = [
    "FAMILIES",
    "bots_line",
    "change_text",
    "family_histories",
    "family_title",
    "game_change",
    "profile_ratings",
    "profile_results",
    "rating_text",
    "result_counts",
    "sparkline",
    "table_family",
]

Msg = dict[str, Any]
BARS = "▁▂▃▄▅▆▇█"


def family_title(family: str) -> str:
    return FAMILIES.get(family, family)


def table_family(game: str, players: int, rules: str | Mapping[str, Any] | None) -> str | None:
    """The rating family of a table's game (``trumps.ratings.family_of``; ``rules`` a
    preset's name or options), or None when the game cannot be built from them."""
    try:
        rules = rules if isinstance(rules, str) else dict(rules or {})
        return family_of(new_game(game, players=players, rules=rules))
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


def family_histories(history: Sequence[Mapping[str, Any]]) -> dict[str, list[int]]:
    """A profile's rating history by family: the rating before the first rated game,
    then after each one (the API lists them oldest first)."""
    found: dict[str, list[int]] = {}
    for h in history:
        points = found.setdefault(str(h.get("family")), [])
        if not points:
            points.append(int(h["before"]))
        points.append(int(h["after"]))
    return found


def profile_ratings(profile: Mapping[str, Any]) -> Text:
    """A profile's ratings, a line per family: the rating (``?`` while provisional), its
    deviation, the games rated, and the history as a sparkline from first to now."""
    ratings = profile.get("ratings") or {}
    if not ratings:
        return Text("No rated games yet.", style="dim")
    histories = family_histories(profile.get("history") or [])
    width = max(len(family_title(f)) for f in ratings)
    lines = []
    for family in [f for f in FAMILIES if f in ratings] + [f for f in ratings if f not in FAMILIES]:
        r = ratings[family]
        line = Text(f"{family_title(family):<{width}}  ")
        line.append(f"{rating_text(r):>5}", style="bold")
        games = int(r.get("games") or 0)
        line.append(f"  ±{r.get('deviation', '?'):<3}  {games} game{'s' if games != 1 else ''}")
        points = histories.get(family, [])
        if len(points) > 1:
            line.append(f"  {sparkline(points)}", style="cyan")
            line.append(f"  {points[0]} → {points[-1]}", style="dim")
        if r.get("like"):  # the bot level rated nearest (docs/ratings.md)
            line.append(f"  plays like {r['like']}", style="italic")
        lines.append(line)
    if any(r.get("provisional") for r in ratings.values()):
        lines.append(Text("? provisional: too few games yet to be sure", style="dim"))
    return Text("\n").join(lines)


def profile_results(profile: Mapping[str, Any]) -> str:
    """A profile's results by game, on one line."""
    results = profile.get("results") or {}
    if not results:
        return "Results: no finished games yet."
    return "Results: " + " · ".join(result_counts(g, c) for g, c in sorted(results.items()))


def bots_line(board: Mapping[str, Any]) -> str:
    """The computer's fixed ratings beside a leaderboard."""
    bots = board.get("bots") or []
    if not bots:
        return ""
    shown = " · ".join(f"{b.get('level')} {b.get('rating')}" for b in bots)
    return f"The computer on this ladder: {shown}"
