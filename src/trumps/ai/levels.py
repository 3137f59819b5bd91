"""The bot levels: one table of which bot plays each level of each game, with its budget.

``LEVELS`` is that table.  Each ``LevelEntry`` says, for one level of one game and a
range of player counts, the bot class that plays it and its default ``Limits``:

* ``random`` and ``easy``: the simple bots, no budget (they do not search);
* ``medium``: each game's rules of thumb, no budget;
* ``hard`` and ``expert``: a search — the exact alpha-beta for the 2-player Svoi Kozyri
  duel (perfect information after the deal, K19), and determinized search (ISMCTS for
  ``hard``, PIMC for ``expert``) for Twenty-Five and Svoi Kozyri with 3–4 players.

``level_limits(game_id, level, players)`` is a level's default budget (what a server
gives each bot move or hint of that level), ``level_entry`` its whole row.  The bots of
``BOTS`` (``trumps.ai``) are ``LevelBot``s: each decides a position with the table's bot
for the view's player count, within the table's budget when the caller gives none.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from trumps.ai.base import Bot, Decision, Limits
from trumps.ai.heuristics_kozyri import KozyriMediumBot
from trumps.ai.heuristics_twentyfive import TwentyFiveMediumBot
from trumps.ai.ismcts import ISMCTSExpertBot, ISMCTSHardBot
from trumps.ai.kozyri_search import KozyriExpertBot, KozyriHardBot, KozyriSearchBot
from trumps.ai.simple import EasyBot, RandomBot
from trumps.games import GAMES
from trumps.games.viewtypes import View


@dataclass(frozen=True)
class LevelEntry:
    """One row of ``LEVELS``: ``bot`` plays ``level`` of ``game_id`` with ``players`` in
    ``min_players..max_players``, by default within ``limits``."""

    level: str
    game_id: str
    min_players: int
    max_players: int
    bot: type[Bot]
    limits: Limits


_NO_BUDGET = Limits()


def _rows(level: str, game_id: str, bot: type[Bot], limits: Limits = _NO_BUDGET) -> LevelEntry:
    """``bot`` plays ``level`` of ``game_id`` at every player count the game allows."""
    cls = GAMES[game_id]
    return LevelEntry(level, game_id, cls.min_players, cls.max_players, bot, limits)


def _timed(bot: Any) -> Limits:
    """A search class's own default time per move (``default_time``) as a budget."""
    return Limits(time=float(bot.default_time))


LEVELS: tuple[LevelEntry, ...] = (
    _rows("random", "kozyri", RandomBot),
    _rows("random", "twentyfive", RandomBot),
    _rows("easy", "kozyri", EasyBot),
    _rows("easy", "twentyfive", EasyBot),
    _rows("medium", "kozyri", KozyriMediumBot),
    _rows("medium", "twentyfive", TwentyFiveMediumBot),
    LevelEntry("hard", "kozyri", 2, 2, KozyriHardBot, _timed(KozyriHardBot)),
    LevelEntry("hard", "kozyri", 3, 4, ISMCTSHardBot, _timed(ISMCTSHardBot)),
    _rows("hard", "twentyfive", ISMCTSHardBot, _timed(ISMCTSHardBot)),
    LevelEntry("expert", "kozyri", 2, 2, KozyriExpertBot, _timed(KozyriExpertBot)),
    LevelEntry("expert", "kozyri", 3, 4, ISMCTSExpertBot, _timed(ISMCTSExpertBot)),
    _rows("expert", "twentyfive", ISMCTSExpertBot, _timed(ISMCTSExpertBot)),
)
#: The level names, weakest first.
LEVEL_NAMES: tuple[str, ...] = tuple(dict.fromkeys(e.level for e in LEVELS))


def level_entry(game_id: str, level: str, players: int) -> LevelEntry:
    """The row of ``LEVELS`` for ``level`` of ``game_id`` with ``players`` seats; raises
    ``ValueError`` naming what is known."""
    if game_id not in GAMES:
        raise ValueError(f"no game {game_id!r} (games: {', '.join(GAMES)})")
    if level not in LEVEL_NAMES:
        raise ValueError(f"no bot level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
    for e in LEVELS:
        if e.game_id == game_id and e.level == level and e.min_players <= players <= e.max_players:
            return e
    raise ValueError(f"{game_id} has no {players}-player games")


def level_limits(game_id: str, level: str, players: int) -> Limits:
    """The default budget of one move (or hint) by ``level`` at ``game_id`` with
    ``players`` seats: ``Limits()`` (no budget) for the levels that do not search."""
    return level_entry(game_id, level, players).limits


def _is_empty(limits: Limits) -> bool:
    return all(getattr(limits, f.name) is None for f in dataclasses.fields(limits))


class LevelBot(Bot):
    """A level of one game: each decision goes to the table's bot for the view's player
    count, with the table's budget when ``limits`` sets none."""

    def __init__(self, game_id: str) -> None:
        if game_id not in GAMES:
            raise ValueError(f"no game {game_id!r} (games: {', '.join(GAMES)})")
        super().__init__(game_id)
        self._bots: dict[type[Bot], Bot] = {}

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        entry = level_entry(self.game_id, self.level, len(view["hands"]))
        bot = self._bots.get(entry.bot)
        if bot is None:
            bot = self._bots[entry.bot] = entry.bot(self.game_id)
        if _is_empty(limits):
            limits = entry.limits
        if isinstance(bot, KozyriSearchBot):
            # The duel search still reads its depth from ``iterations`` (it counts no
            # iterations): pass the depth there; a budget of iterations alone becomes
            # the search's fixed node cap, so that it stays deterministic.
            given = limits
            limits = dataclasses.replace(limits, iterations=limits.depth, depth=None)
            if _is_empty(limits) and given.iterations is not None:
                limits = Limits(nodes=bot.depth_only_nodes)
        return bot.decide(view, legal, limits, rng)


class RandomLevel(LevelBot):
    name: ClassVar[str] = "Random"
    level: ClassVar[str] = "random"


class EasyLevel(LevelBot):
    name: ClassVar[str] = "Easy"
    level: ClassVar[str] = "easy"


class MediumBot(LevelBot):
    """``medium``: each game's rules of thumb."""

    name: ClassVar[str] = "Medium"
    level: ClassVar[str] = "medium"


class HardBot(LevelBot):
    """``hard``: a shallow search, 0.2 s a move by default."""

    name: ClassVar[str] = "Hard"
    level: ClassVar[str] = "hard"


class ExpertBot(LevelBot):
    """``expert``: the strongest search, 1 s a move by default."""

    name: ClassVar[str] = "Expert"
    level: ClassVar[str] = "expert"


#: The registry of levels, weakest first (``trumps.ai.BOTS``).
LEVEL_BOTS: dict[str, type[Bot]] = {
    b.level: b for b in (RandomLevel, EasyLevel, MediumBot, HardBot, ExpertBot)
}
assert tuple(LEVEL_BOTS) == LEVEL_NAMES


__all__ = [
    "LEVELS",
    "LEVEL_BOTS",
    "LEVEL_NAMES",
    "ExpertBot",
    "HardBot",
    "LevelBot",
    "LevelEntry",
    "MediumBot",
    "level_entry",
    "level_limits",
]
