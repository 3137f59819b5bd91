"""What a client may offer: the games, their player counts, presets and rule options and
their rules in brief (``Game.BRIEF``, English: the page translates them), and the bot levels, built from the registries (``trumps.games.GAMES``, ``trumps.ai.BOTS``).

Served as the server's ``GET /api/catalog`` (``trumps.server.api.catalog``) and written beside
a static site (``trumps site``), so that no client keeps its own copy of these lists::

    {"games": [{"id": "kozyri", "title": "Svoi Kozyri",
                "min_players": 2, "max_players": 4, "default_players": 2,
                "default_preset": "standard",
                "presets": [{"name": "standard", "doc": "…", "players": null,
                             "aliases": ["seed"], "options": {}}, …],
                "options": [{"name": "sixes_to_owner", "default": true, "doc": "…",
                             "choices": [], "minimum": null, "maximum": null}, …],
                "brief": [["K3", "Before the deal everyone chooses …"], …]}, …],
     "levels": [{"level": "random", "name": "Random"}, …],
     "paces": {"normal": {"least": 0.7, "most": 1.1, "trick": 1.4, "hand": 2.5}, …}}

Games, presets, options and levels keep their registry order.  The catalog is the same for
the life of the process, so it is built once.
"""

from __future__ import annotations

from typing import Any

from trumps.ai import BOTS
from trumps.games import GAMES, Game
from trumps.games.options import Option, Preset
from trumps.host.pacing import PACES

__all__ = ["catalog"]


def _option(option: Option) -> dict[str, Any]:
    return {
        "name": option.name,
        "default": option.default,
        "doc": option.doc,
        "choices": list(option.choices),
        "minimum": option.minimum,
        "maximum": option.maximum,
    }


def _preset(preset: Preset) -> dict[str, Any]:
    return {
        "name": preset.name,
        "doc": preset.doc,
        "players": preset.players,
        "aliases": list(preset.aliases),
        "options": dict(preset.options),
    }


def _game(cls: type[Game]) -> dict[str, Any]:
    return {
        "id": cls.game_id,
        "title": cls.title,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "default_players": cls.default_players,
        "default_preset": cls.DEFAULT_PRESET,
        "presets": [_preset(p) for p in cls.PRESETS.values()],
        "options": [_option(o) for o in cls.OPTIONS.values()],
        "brief": [list(line) for line in cls.BRIEF],  # the rules in brief: [ids, English]
    }


def catalog() -> dict[str, Any]:
    """The catalog as plain JSON-ready data (a fresh copy each call)."""
    return {
        "games": [_game(cls) for cls in GAMES.values()],
        "levels": [{"level": level, "name": bot.name} for level, bot in BOTS.items()],
        # docs/protocol.md#pacing: a create_table `bot_pace`, and how a replay is played.
        "paces": {name: pace._asdict() for name, pace in PACES.items()},
    }
