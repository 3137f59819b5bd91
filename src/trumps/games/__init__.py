"""The games and their explicit registry.

``GAMES`` maps each game id (docs/api.md) to its ``Game`` class; nothing registers itself
by import side effect.  ``new_game`` and ``from_json`` are the engine's front door.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from trumps.errors import InvalidPosition, InvalidRules
from trumps.games.base import Core, Game, Outcome
from trumps.games.kozyri import Kozyri
from trumps.games.options import Option, Preset, resolve_rules
from trumps.games.twentyfive import TwentyFive

GAMES: dict[str, type[Game]] = {
    Kozyri.game_id: Kozyri,
    TwentyFive.game_id: TwentyFive,
}


def game_class(game_id: str) -> type[Game]:
    """The class of a game id; raises ``InvalidRules`` for an unknown one."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):  # TypeError: an unhashable id
        raise InvalidRules(f"no game {game_id!r} (games: {', '.join(GAMES)})") from None


def new_game(
    game: str,
    players: int | None = None,
    rules: str | Mapping[str, object] | None = None,
    seed: int | None = None,
    **kwargs: Any,
) -> Game:
    """A new game of ``game`` (``kozyri`` or ``twentyfive``).

    ``rules`` is a preset name or a dict of docs/rules/ options over the default preset;
    ``players`` defaults to the preset's count or the game's default; ``seed`` to a fresh
    random one (kept in the game, so it can still be replayed).  Game-specific keywords:
    ``trumps=[suit per seat]`` for Svoi Kozyri answers the first trump choice (K3).
    """
    cls = game_class(game)
    resolved, preset_players = resolve_rules(
        cls.game_id, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, rules
    )
    if players is None:
        players = preset_players or cls.default_players
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or not (cls.min_players <= players <= cls.max_players)
    ):
        raise InvalidRules(
            f"{cls.game_id} is for {cls.min_players}–{cls.max_players} players, not {players!r}"
        )
    if seed is None:
        seed = secrets.randbelow(2**53)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidRules(f"seed must be a whole number ≥ 0, not {seed!r}")
    return cls.new(players=players, rules=resolved, seed=seed, **kwargs)


def from_json(data: Mapping[str, Any]) -> Game:
    """A game from a position dict (docs/positions.md); raises ``InvalidPosition``."""
    if not isinstance(data, Mapping):
        raise InvalidPosition(f"a position must be an object, not {data!r:.80}")
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise InvalidPosition(f"position 'game' must be one of {', '.join(GAMES)}, not {game!r}")
    try:
        return GAMES[str(game)].from_json(data)
    except InvalidRules as e:
        raise InvalidPosition(f"{game} position: {e}") from None


__all__ = [
    "GAMES",
    "Core",
    "Game",
    "Kozyri",
    "Option",
    "Outcome",
    "Preset",
    "TwentyFive",
    "from_json",
    "game_class",
    "new_game",
]
