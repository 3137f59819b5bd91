"""Computer players.  Every bot implements ``Bot.decide`` from a seat's view alone.

``BOTS`` is the explicit registry of levels; ``make_bot(level, game_id)`` builds one.
"""

from __future__ import annotations

from trumps.ai.base import Bot, Decision, Limits
from trumps.ai.heuristics_twentyfive import MediumBot
from trumps.ai.levels import ExpertBot, HardBot
from trumps.ai.simple import EasyBot, RandomBot
from trumps.games import GAMES

BOTS: dict[str, type[Bot]] = {
    RandomBot.level: RandomBot,
    EasyBot.level: EasyBot,
    MediumBot.level: MediumBot,
    HardBot.level: HardBot,
    ExpertBot.level: ExpertBot,
}


def make_bot(level: str, game_id: str) -> Bot:
    """A bot of ``level`` for ``game_id``; raises ``ValueError`` naming what is known."""
    if level not in BOTS:
        raise ValueError(f"no bot level {level!r} (levels: {', '.join(BOTS)})")
    if game_id not in GAMES:
        raise ValueError(f"no game {game_id!r} (games: {', '.join(GAMES)})")
    return BOTS[level](game_id)


__all__ = ["BOTS", "Bot", "Decision", "Limits", "make_bot"]
