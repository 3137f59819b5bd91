"""Svoi Kozyri's rule options and presets (docs/rules/options.md) and how they configure the core."""

from __future__ import annotations

from collections.abc import Mapping

from trumps.games.kozyri._core import KozyriCore
from trumps.games.options import Option, Preset

GAME_ID = "kozyri"
MIN_PLAYERS = 2
MAX_PLAYERS = 4

OPTIONS: dict[str, Option] = {
    "sixes_to_owner": Option(
        "sixes_to_owner", True, "K6: after the deal each trump six goes to its suit's owner"
    ),
    "voluntary_pickup": Option(
        "voluntary_pickup", False, "K11: a player may pick up even when able to beat"
    ),
    "repetition_draw": Option(
        "repetition_draw",
        3,
        "K17: this occurrence of a position draws the hand (0 = off)",
        minimum=0,
    ),
    "max_plies": Option(
        "max_plies",
        10000,
        "K17: a hand reaching this many plays and pick-ups is drawn",
        minimum=1,
    ),
    "match_losses": Option(
        "match_losses",
        1,
        "K18: hands are dealt until a player has lost this many",
        minimum=1,
    ),
}
PRESETS: dict[str, Preset] = {
    "standard": Preset(
        "standard", "every rule with its default (the seed texts)", aliases=("seed",)
    ),
    "pagat": Preset(
        "pagat",
        "pagat.com: picking up is always allowed; four players",
        {"voluntary_pickup": True},
        players=4,
    ),
}
DEFAULT_PRESET = "standard"


def make_core(players: int, rules: Mapping[str, object], seed: int) -> KozyriCore:
    """A fresh core for ``players`` seats under the resolved ``rules``."""
    return KozyriCore(
        players,
        seed,
        sixes_to_owner=bool(rules["sixes_to_owner"]),
        voluntary_pickup=bool(rules["voluntary_pickup"]),
        repetition_draw=int(str(rules["repetition_draw"])),
        max_plies=int(str(rules["max_plies"])),
        match_losses=int(str(rules["match_losses"])),
    )
