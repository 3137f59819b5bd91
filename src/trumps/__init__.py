"""trumps: Svoi Kozyri and Twenty-Five — rules engines, bots and online play.

The public engine API (docs/api.md)::

    import trumps
    g = trumps.new_game("kozyri", seed=7)
    g.legal_actions(); g.play("9H"); g.undo(); g.view(0); g.to_json()
    trumps.from_json(g.to_json())
"""

from __future__ import annotations

from trumps._accel import install_pure_fallback

install_pure_fallback()

from trumps.errors import (  # noqa: E402
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    InvalidRecord,
    InvalidRules,
    TrumpsError,
)
from trumps.games import GAMES, Game, Outcome, from_json, game_class, new_game  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Game",
    "IllegalAction",
    "InvalidAction",
    "InvalidPosition",
    "InvalidRecord",
    "InvalidRules",
    "Outcome",
    "TrumpsError",
    "__version__",
    "from_json",
    "game_class",
    "new_game",
]
