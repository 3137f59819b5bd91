"""Twenty-Five (docs/rules/twentyfive.md): the fast core, the rule options, the position loader and
the public ``Game``."""

from trumps.games.twentyfive.game import TwentyFive
from trumps.games.twentyfive.options import OPTIONS, PRESETS, seat_teams

__all__ = ["OPTIONS", "PRESETS", "TwentyFive", "seat_teams"]
