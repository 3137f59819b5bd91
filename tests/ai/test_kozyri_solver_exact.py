"""The duel solver's proofs (issue 12): its value against a plain reference minimax.

The solver prunes (null-window probes, cutoffs whose bounds rest on one move, a table
of proven entries); the reference below prunes nothing but "a win is a win" and keeps
no table.  Both score a position repeated on the search path as a draw (K17, see
``trumps.ai._kozyri_search``) and a finished hand by K16.  The endgames are seeded
positions with 3–5 cards a hand and a pile of up to 8 cards, with the rule options,
some a few random moves on (a history for K17).
"""

from __future__ import annotations

import random

import pytest

import trumps
from trumps.ai.kozyri_search import duel_core, solve
from trumps.cards import parse_action
from trumps.games.kozyri._core import RUNNING, KozyriCore

VALUE = {"win": 1, "draw": 0, "loss": -1}


class TooBig(Exception):
    pass


class Reference:
    """Win/draw/loss for the side to move by plain minimax over the fast core."""

    def __init__(self, core: KozyriCore, cap: int) -> None:
        self.core = core
        self.cap = cap
        self.nodes = 0
        self.losses = list(core.losses)

    def value(self, path: set[tuple[int, ...]]) -> int:
        core = self.core
        self.nodes += 1
        if self.nodes > self.cap or len(path) > 150:
            raise TooBig
        p = core.tm
        best = -2
        for m in core.legal_moves():
            best = max(best, self.after(m, p, path))
            if best == 1:
                break
        return best

    def after(self, m: int, p: int, path: set[tuple[int, ...]]) -> int:
        core = self.core
        core.apply(m)
        try:
            if core.result != RUNNING or core.choosing:
                if core.losses[p] > self.losses[p]:
                    return -1
                return 1 if core.losses[1 - p] > self.losses[1 - p] else 0
            key = core.key()
            if key in path:
                return 0
            path.add(key)
            v = self.value(path)
            path.discard(key)
            return v if core.tm == p else -v
        finally:
            core.undo()

    def root(self) -> int:
        return self.value({self.core.key()})


PACK = [r + s for r in "6789TJQKA" for s in "SHDC"]


def _cases(first: int, count: int) -> list[tuple[int, trumps.Game]]:
    """Seeded positions: 3–5 cards a hand, a pile of up to 8 (owned trump aces on it
    make K12 take everything), random trumps and rule options."""
    out: list[tuple[int, trumps.Game]] = []
    seed = first
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        n0, n1, npile = rng.randint(3, 5), rng.randint(3, 5), rng.randint(0, 8)
        cards = rng.sample(PACK, n0 + n1 + npile)
        rules: dict[str, object] = {}
        if rng.random() < 0.25:
            rules["voluntary_pickup"] = True
        if rng.random() < 0.25:
            rules["repetition_draw"] = rng.choice([0, 2])
        d = {
            "game": "kozyri",
            "trumps": rng.sample("SHDC", 2),
            "hands": [cards[:n0], cards[n0 : n0 + n1]],
            "pile": cards[n0 + n1 :],
            "to_move": rng.randrange(2),
            "known": [[], []],
            "rules": rules,
        }
        try:
            game = trumps.from_json(d)
        except trumps.InvalidPosition:
            continue
        # A few moves first: positions before the root count for K17 (at 2, one more
        # occurrence of any of them draws).
        for _ in range(rng.choice([0, 0, 2, 4, 6])):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_actions()))
        if not game.is_over:
            out.append((seed, game))
    return out


@pytest.mark.parametrize("first", [0, 1000])
def test_proofs_agree_with_plain_minimax(first: int) -> None:
    checked = 0
    values: set[int] = set()
    for seed, game in _cases(first, 150):
        try:
            want = Reference(duel_core(game), 100_000).root()
        except TooBig:
            continue
        r = solve(game, None, 2_000_000)
        assert r.exact and r.value is not None, seed
        assert VALUE[r.value] == want, (seed, r)
        # The proof's move keeps the value.
        core = duel_core(game)
        p = core.tm
        ref = Reference(core, 50_000)
        try:
            got = ref.after(parse_action(r.best), p, {core.key()})
        except TooBig:
            got = want
        assert got == want, (seed, r)
        checked += 1
        values.add(want)
    assert checked >= 35 and values == {-1, 0, 1}


def test_positions_before_the_root_count_for_k17() -> None:
    """At ``repetition_draw`` 2 one more occurrence of a position seen before the root
    draws: the solver agrees with the reference, including where that history decides
    the value (the reference without it says otherwise)."""
    decided_by_history = 0
    for seed in range(400):
        rng = random.Random(seed)
        n0, n1 = rng.randint(2, 4), rng.randint(2, 4)
        cards = rng.sample(PACK, n0 + n1)
        d = {
            "game": "kozyri",
            "trumps": rng.sample("SHDC", 2),
            "hands": [cards[:n0], cards[n0:]],
            "pile": [],
            "to_move": rng.randrange(2),
            "known": [[], []],
            "rules": {"repetition_draw": 2},
        }
        try:
            game = trumps.from_json(d)
        except trumps.InvalidPosition:
            continue
        for _ in range(rng.randint(2, 10)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_actions()))
        if game.is_over or len(duel_core(game).rep) < 3:
            continue
        try:
            want = Reference(duel_core(game), 20_000).root()
            fresh = duel_core(game)
            fresh.rep = {fresh.key(): 1}
            without = Reference(fresh, 20_000).root()
        except TooBig:
            continue
        r = solve(game, None, 200_000)
        assert r.value is not None and VALUE[r.value] == want, (seed, r)
        decided_by_history += want != without
    assert decided_by_history >= 3
