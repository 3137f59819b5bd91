"""Game positions for the bots' tests: random rule options (``rule_options``) and
positions reached by random play under them (``reach``, ``positions``), and ``redeal``,
which moves the hidden cards around while a seat's view stays the same."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st

import trumps
from trumps.games import GAMES
from trumps.games.options import Option

# Whole-number options drawn up to this much (the defaults can be large: 10,000 plies).
INT_CAP = {"max_plies": 300, "target": 60, "points_per_trick": 10, "match_losses": 3}


def _values(option: Option) -> st.SearchStrategy[object]:
    if option.choices:
        return st.sampled_from(option.choices)
    if isinstance(option.default, bool):
        return st.booleans()
    low = option.minimum if option.minimum is not None else 0
    high = option.maximum if option.maximum is not None else INT_CAP.get(option.name, 5)
    return st.integers(min_value=low, max_value=max(low, high))


def rule_options(game_id: str) -> st.SearchStrategy[dict[str, object]]:
    cls = GAMES[game_id]
    options = {name: _values(o) for name, o in cls.OPTIONS.items()}
    presets: list[str] = []
    for name, preset in cls.PRESETS.items():
        presets += [name, *preset.aliases]
    options["preset"] = st.sampled_from(presets)
    return st.fixed_dictionaries({}, optional=options)


def reach(game_id: str, players: int, rules: dict[str, object], seed: int, plies: int) -> Any:
    try:
        game = trumps.new_game(game_id, players=players, rules=rules, seed=seed)
    except trumps.InvalidRules:
        assume(False)  # e.g. teams of three for five players, a preset's own player count
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
    assume(not game.is_over)
    return game


SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


def _places(full: dict[str, Any], view: Mapping[str, Any]) -> list[tuple[str, int, int]]:
    """Every hidden card's place: (kind, index, position in that list)."""
    places: list[tuple[str, int, int]] = []
    for s, h in enumerate(view["hands"]):
        if isinstance(h, dict):
            for i, c in enumerate(full["hands"][s]):
                if c not in h["known"]:
                    places.append(("hand", s, i))
    if full["game"] == "twentyfive":
        places += [("stock", 0, i) for i in range(len(full["stock"]))]
        if full["robbed"] is not None and "discard" not in (view["robbed"] or {}):
            places.append(("robbed", 0, 0))
        if full.get("joker_discard") and view.get("joker_discard") is None:
            places.append(("joker", 0, 0))
    return places


def _get(pos: dict[str, Any], place: tuple[str, int, int]) -> str:
    kind, s, i = place
    if kind == "hand":
        return str(pos["hands"][s][i])
    if kind == "stock":
        return str(pos["stock"][i])
    if kind == "robbed":
        return str(pos["robbed"]["discard"])
    return str(pos["joker_discard"])


def _set(pos: dict[str, Any], place: tuple[str, int, int], card: str) -> None:
    kind, s, i = place
    if kind == "hand":
        pos["hands"][s][i] = card
    elif kind == "stock":
        pos["stock"][i] = card
    elif kind == "robbed":
        pos["robbed"]["discard"] = card
    else:
        pos["joker_discard"] = card


def redeal(game: trumps.Game, seat: int, rng: random.Random, swaps: int = 40) -> trumps.Game:
    """A game whose hidden cards are shuffled around, with the same ``view(seat)``."""
    view = game.view(seat)
    pos = game.to_json()
    places = _places(pos, view)
    for _ in range(swaps):
        if len(places) < 2:
            break
        a, b = rng.sample(places, 2)
        if a[:2] == b[:2]:
            continue
        trial = {k: (list(map(list, v)) if k == "hands" else v) for k, v in pos.items()}
        if "stock" in pos:
            trial["stock"] = list(pos["stock"])
        if pos.get("robbed"):
            trial["robbed"] = dict(pos["robbed"])
        ca, cb = _get(trial, a), _get(trial, b)
        _set(trial, a, cb)
        _set(trial, b, ca)
        try:
            moved = trumps.from_json(trial)
        except ValueError:
            continue
        if moved.view(seat) == view:
            pos = trial
    if pos["game"] == "twentyfive":
        pos.pop("seed", None)
    return trumps.from_json(pos)


def positions(game_id: str, players: int, rules: dict[str, object]) -> list[trumps.Game]:
    rng = random.Random(f"{game_id}/{players}/{sorted(rules.items())}")
    out: list[trumps.Game] = []
    seed = 0
    while len(out) < 3:
        extra: dict[str, Any] = {"trumps": list("SHDC"[:players])} if game_id == "kozyri" else {}
        game = trumps.new_game(game_id, players=players, rules=rules, seed=seed, **extra)
        seed += 1
        for _ in range(rng.randrange(1, 25)):
            if game.is_over:
                break
            legal = game.legal_actions()
            robs = [a for a in legal if a.startswith("rob ")]
            game.play(rng.choice(robs) if robs and rng.random() < 0.7 else rng.choice(legal))
        if not game.is_over and len(game.legal_actions()) > 1:
            out.append(game)
    return out
