"""The search levels, one per name, whatever the game and player count.

``hard`` and ``expert`` pick the right search for the position they are given: the
exact alpha-beta search for the 2-player Svoi Kozyri duel (perfect information after
the deal, K19), and determinized search (ISMCTS / PIMC) for Twenty-Five and Svoi
Kozyri with 3–4 players.  The choice is made from the view alone.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from trumps.ai.base import Bot, Decision, Limits
from trumps.ai.ismcts import ISMCTSExpertBot, ISMCTSHardBot
from trumps.ai.kozyri_search import KozyriExpertBot, KozyriHardBot


class _Dispatch(Bot):
    duel: ClassVar[type[Bot]]
    imperfect: ClassVar[type[Bot]]

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self._duel = self.duel(game_id) if game_id == "kozyri" else None
        self._imperfect = self.imperfect(game_id)

    def decide(
        self, view: dict[str, Any], legal: list[str], limits: Limits, rng: random.Random
    ) -> Decision:
        if self._duel is not None and len(view["hands"]) == 2:
            return self._duel.decide(view, legal, limits, rng)
        return self._imperfect.decide(view, legal, limits, rng)


class HardBot(_Dispatch):
    """``hard``: shallow search, 0.2 s a move by default."""

    name: ClassVar[str] = "Hard"
    level: ClassVar[str] = "hard"
    duel = KozyriHardBot
    imperfect = ISMCTSHardBot


class ExpertBot(_Dispatch):
    """``expert``: the strongest search, 1 s a move by default."""

    name: ClassVar[str] = "Expert"
    level: ClassVar[str] = "expert"
    duel = KozyriExpertBot
    imperfect = ISMCTSExpertBot
