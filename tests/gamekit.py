"""Games for the property tests of every game in ``trumps.GAMES`` (STYLE habit 7): games
with drawn players, rule options and seeds (``make_game``), seeded random play
(``play_random``), and ``redeal``, which shuffles the cards hidden from a seat while keeping
every public deduction.  ``CONF`` is the suites' Hypothesis settings."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import trumps
from reference import twentyfive_ref

GAME_IDS = sorted(trumps.GAMES)
# Derandomized: the same examples every run (stable CI); widen max_examples locally to
# explore (400 per property passed at the time of writing).
CONF = settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# Whole-number options: values worth trying (the default is always among them).
INT_CHOICES: dict[str, list[int]] = {
    "repetition_draw": [3, 2, 0],
    "max_plies": [2000, 150, 40],
    "match_losses": [1, 2, 3],
    "points_per_trick": [5, 1, 10],
    "target": [25, 45, 10],
}


# ---------------------------------------------------------------------------------------
# Making games.


def draw_rules(data: st.DataObject, game_id: str) -> dict[str, Any]:
    cls = trumps.GAMES[game_id]
    rules: dict[str, Any] = {}
    for opt in cls.OPTIONS.values():
        if data.draw(st.booleans()):
            continue  # keep the default
        if opt.choices:
            rules[opt.name] = data.draw(st.sampled_from(opt.choices))
        elif isinstance(opt.default, bool):
            rules[opt.name] = data.draw(st.booleans())
        else:
            assert isinstance(opt.default, int)
            rules[opt.name] = data.draw(st.sampled_from(INT_CHOICES.get(opt.name, [opt.default])))
    if "max_plies" in cls.OPTIONS:
        rules.setdefault("max_plies", 2000)  # K17: bound random play
    return rules


def make_game(data: st.DataObject, game_id: str, **fixed: Any) -> trumps.Game:
    """A new game with drawn players, options (``fixed`` overrides) and seed."""
    cls = trumps.GAMES[game_id]
    players = data.draw(st.integers(cls.min_players, cls.max_players), label="players")
    rules = {**draw_rules(data, game_id), **fixed}
    seed = data.draw(st.integers(0, 2**40), label="seed")
    try:
        return trumps.new_game(game_id, players=players, rules=rules, seed=seed)
    except trumps.InvalidRules:
        # e.g. a team size that does not divide this player count (F1)
        rules.pop("teams", None)
        return trumps.new_game(game_id, players=players, rules=rules, seed=seed)


def play_random(game: trumps.Game, rng: random.Random, steps: int) -> Iterator[str]:
    """Play up to ``steps`` random legal actions, yielding each after it is played."""
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            return
        action = rng.choice(legal)
        game.play(action)
        yield action


def finished_game(game_id: str, players: int, seed: int) -> trumps.Game:
    """A game of ``game_id`` dealt from ``seed`` and played to its end at random."""
    game = trumps.new_game(game_id, players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
    return game


def pack_of(pos: dict[str, Any]) -> list[str]:
    if pos["game"] == "kozyri":
        return [r + s for r in "6789TJQKA" for s in "SHDC"]  # K2
    pack = [r + s for r in "23456789TJQKA" for s in "SHDC"]  # F2
    return [*pack, "JK"] if pos["rules"].get("joker") else pack


def void_constraints(pos: dict[str, Any]) -> dict[int, set[str]]:
    """Cards each Twenty-Five seat cannot hold now, by what it showed when not following
    (F13 plain leads, F14 trump leads) — public deductions a consistent re-deal keeps."""
    n = len(pos["hands"])
    forbidden: dict[int, set[str]] = {s: set() for s in range(n)}
    trump = pos.get("trump")
    if not trump:
        return forbidden
    pack = pack_of(pos)
    tricks = [(t["leader"], t["cards"]) for t in pos["tricks"]]
    if pos["trick"]:
        tricks.append((pos["leader"], pos["trick"]))
    for leader, cards in tricks:
        led = cards[0]
        for j, c in enumerate(cards[1:], start=1):
            s = (leader + j) % n
            if twentyfive_ref.is_trump(c, trump):
                continue
            if twentyfive_ref.is_trump(led, trump):
                forbidden[s] |= {
                    x
                    for x in pack
                    if twentyfive_ref.is_trump(x, trump)
                    and not twentyfive_ref.privileged(x, led, pos)
                }
            elif c[1] != led[1]:
                forbidden[s] |= {
                    x for x in pack if x[1] == led[1] and not twentyfive_ref.is_trump(x, trump)
                }
    return forbidden


def redeal(
    pos: dict[str, Any], view: Mapping[str, Any], seat: int, rng: random.Random
) -> dict[str, Any] | None:
    """``pos`` with the cards hidden from ``seat`` shuffled among their places, keeping
    counts, known cards and every public deduction; None if no such shuffle was found."""
    new = copy.deepcopy(pos)
    fixed: set[str] = set()
    if pos["game"] == "twentyfive" and pos["rules"]["rob"] != "off" and pos.get("trump"):
        fixed.add("A" + pos["trump"])  # F9: where the trump ace is may be deducible
    pools: dict[str, list[str]] = {}
    for s, h in enumerate(view["hands"]):
        if s != seat:
            pools[f"h{s}"] = [c for c in pos["hands"][s] if c not in h["known"] and c not in fixed]
    if pos["game"] == "twentyfive":
        pools["stock"] = [c for c in pos["stock"] if c not in fixed]
    cards = [c for p in pools.values() for c in p]
    forbidden = void_constraints(pos) if pos["game"] == "twentyfive" else {}
    for _ in range(60):
        rng.shuffle(cards)
        it = iter(cards)
        assignment = {p: [next(it) for _ in v] for p, v in pools.items()}
        if all(
            not (set(a) & forbidden.get(int(p[1:]), set()))
            for p, a in assignment.items()
            if p.startswith("h")
        ):
            break
    else:
        return None
    for p, assigned in assignment.items():
        if p == "stock":
            kept = [c for c in pos["stock"] if c in fixed]
            new["stock"] = sorted(kept + assigned, key=trumps.cards.parse_card)
        else:
            s = int(p[1:])
            kept = [c for c in pos["hands"][s] if c not in pools[p]]
            new["hands"][s] = sorted(kept + assigned, key=trumps.cards.parse_card)
    return new
