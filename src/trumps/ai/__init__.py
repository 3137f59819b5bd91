"""Computer players.  Every bot implements ``Bot.decide`` from a seat's view alone.

``LEVELS`` (``trumps.ai.levels``) is the one table of which bot plays each level of each
game and its default budget; ``BOTS`` the registry of levels built from it (weakest
first), ``make_bot(level, game_id)`` builds one, and ``level_limits(game_id, level,
players)`` is a level's default budget for one move.
"""

from __future__ import annotations

from trumps.ai.base import Bot, Decision, Explain, Limits
from trumps.ai.levels import LEVEL_BOTS, LEVELS, LevelEntry, level_entry, level_limits
from trumps.games import GAMES

BOTS: dict[str, type[Bot]] = dict(LEVEL_BOTS)


def make_bot(level: str, game_id: str) -> Bot:
    """A bot of ``level`` for ``game_id``; raises ``ValueError`` naming what is known."""
    if level not in BOTS:
        raise ValueError(f"no bot level {level!r} (levels: {', '.join(BOTS)})")
    if game_id not in GAMES:
        raise ValueError(f"no game {game_id!r} (games: {', '.join(GAMES)})")
    return BOTS[level](game_id)


__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "Decision",
    "Explain",
    "LevelEntry",
    "Limits",
    "level_entry",
    "level_limits",
    "make_bot",
]
