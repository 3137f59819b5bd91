"""Svoi Kozyri (docs/rules/kozyri.md): the fast core, the rule options, the position loader and
the public ``Game``."""

from trumps.games.kozyri.game import Kozyri
from trumps.games.kozyri.options import OPTIONS, PRESETS

__all__ = ["OPTIONS", "PRESETS", "Kozyri"]
