"""The duel solver and search bots (issue 3 §4): exact values, budgets, legal play."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import trumps
from trumps.ai.base import Limits
from trumps.ai.kozyri_search import (
    KozyriExpertBot,
    KozyriHardBot,
    SolveError,
    solve,
)

VALUE = {"win": 1, "draw": 0, "loss": -1}
PACK = [r + s for r in "6789TJQKA" for s in "SHDC"]


def position(trumps_: list[str], hands: list[list[str]], pile: list[str], to_move: int = 0,
             **rules: object) -> dict[str, Any]:  # fmt: skip
    d: dict[str, Any] = {
        "game": "kozyri",
        "trumps": trumps_,
        "hands": hands,
        "pile": pile,
        "to_move": to_move,
        "known": [[], []],
    }
    if rules:
        d["rules"] = rules
    return d


# ---------------------------------------------------------------------------------------
# A brute-force reference: plain minimax on Game objects, no table, no pruning beyond
# "a win is a win"; a position repeated on the path is a draw (K17, see the solver).


class TooBig(Exception):
    pass


def _key(g: trumps.Game) -> tuple[object, ...]:
    d = g.to_json()
    return (tuple(map(tuple, d["hands"])), tuple(d["pile"]), d["to_move"], d["owes_second"])


class Brute:
    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.nodes = 0

    def value(self, g: trumps.Game, path: set[tuple[object, ...]]) -> int:
        """+1 / 0 / -1 for the side to move."""
        self.nodes += 1
        if self.nodes > self.cap or len(path) > 120:
            raise TooBig
        p = g.current_player
        best = -2
        for a in g.legal_actions():
            best = max(best, self.after(g, a, p, path))
            if best == 1:
                break
        return best

    def after(self, g: trumps.Game, a: str, p: int | None, path: set[tuple[object, ...]]) -> int:
        g.play(a)
        o = g.outcome
        if o is not None:
            v = 0 if o.draw else (1 if p in o.winners else -1)
        else:
            k = _key(g)
            if k in path:
                v = 0
            else:
                path.add(k)
                v = self.value(g, path)
                path.discard(k)
                if g.current_player != p:
                    v = -v
        g.undo()
        return v

    def moves(self, g: trumps.Game) -> dict[str, int]:
        p = g.current_player
        return {a: self.after(g, a, p, {_key(g)}) for a in g.legal_actions()}


def _brute_moves(d: dict[str, Any]) -> dict[str, int]:
    return Brute(200_000).moves(trumps.from_json(d))


# ---------------------------------------------------------------------------------------
# Composed positions (docs/rules/kozyri.md), each checked against the brute force too.

# Seat 0 (trump S) faces JH holding TD 7C JS QH; seat 1 (trump H) holds QS TC.  Beating
# with the higher heart QH loses; beating with the own trump JS (K9) keeps QH, which
# seat 1 can beat only with a higher heart (its own trump suit): after TD and QH force
# pick-ups (K11), 7C goes out.
OWN_TRUMP_THEN_UNBEATABLE = position(["S", "H"], [["TD", "7C", "JS", "QH"], ["QS", "TC"]], ["JH"])

# Seat 0 (trump S) leads from AC 7D against 8D 6S (trump H).  AC cannot be beaten: seat 1
# picks it up and 7D goes out.  Leading 7D loses: 8D beats it, 6S (seat 1's last card)
# follows and seat 0's AC does not beat 6S (K16).
LEAD_THE_UNBEATABLE = position(["S", "H"], [["AC", "7D"], ["8D", "6S"]], [])

# Seat 0 (trump S) must beat 6C with a spade (its only beaters) and lose whatever it does.
LOST_WHATEVER = position(["S", "D"], [["KD", "JS", "TS", "8C"], ["AD", "KC"]], ["6C"])

# Seat 0 (trump S) facing 8C: every line ends in the K16 draw rule.
DRAWN_BY_K16 = position(["S", "C"], [["7S", "9S", "KH"], ["AH", "AC"]], ["8C"])


def test_finds_the_own_trump_beat_that_wins() -> None:
    moves = _brute_moves(OWN_TRUMP_THEN_UNBEATABLE)
    assert moves == {"JS": 1, "QH": -1}
    r = solve(OWN_TRUMP_THEN_UNBEATABLE, None, 100_000)
    assert (r.value, r.best, r.exact) == ("win", "JS", True)
    assert r.pv[:1] == ["JS"] and r.plies is not None and r.plies >= len(r.pv)


def test_finds_the_unbeatable_lead() -> None:
    assert _brute_moves(LEAD_THE_UNBEATABLE) == {"AC": 1, "7D": -1}
    r = solve(LEAD_THE_UNBEATABLE, None, 100_000)
    assert (r.value, r.best) == ("win", "AC")
    assert r.plies == 3  # AC, take, 7D


def test_a_loss_whatever_you_do() -> None:
    assert set(_brute_moves(LOST_WHATEVER).values()) == {-1}
    r = solve(LOST_WHATEVER, None, 100_000)
    assert r.value == "loss" and r.exact
    assert r.best in trumps.from_json(LOST_WHATEVER).legal_actions()


def test_a_forced_draw_by_the_k16_draw_rule() -> None:
    assert set(_brute_moves(DRAWN_BY_K16).values()) == {0}
    r = solve(DRAWN_BY_K16, None, 100_000)
    assert r.value == "draw" and r.exact
    # Both sides playing the solver's moves reach the draw rule, not a repetition.
    g = trumps.from_json(DRAWN_BY_K16)
    while not g.is_over:
        g.play(solve(g, None, 100_000).best)
    assert g.outcome is not None and g.outcome.draw and g.outcome.reason == "draw_rule"


def test_prefers_the_faster_win() -> None:
    # Leading the last card wins at once; the solver does not dawdle.
    d = position(["S", "H"], [["AC"], ["8D", "6S"]], [])
    r = solve(d, None, 1000)
    assert (r.value, r.best, r.plies) == ("win", "AC", 1)


# ---------------------------------------------------------------------------------------
# Agreement with the brute force on many small random endgames.


def _random_endgames(seed: int, count: int, cap: int) -> list[tuple[dict[str, Any], int]]:
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], int]] = []
    while len(out) < count:
        cards = rng.sample(PACK, 12)
        n0, n1, npile = rng.randint(1, 4), rng.randint(1, 4), rng.randint(0, 3)
        rules: dict[str, object] = {}
        if rng.random() < 0.3:
            rules["voluntary_pickup"] = True
        if rng.random() < 0.3:
            rules["repetition_draw"] = rng.choice([0, 2])
        d = position(
            rng.sample("SHDC", 2),
            [cards[:n0], cards[n0 : n0 + n1]],
            cards[n0 + n1 : n0 + n1 + npile],
            rng.randrange(2),
            **rules,
        )
        try:
            g = trumps.from_json(d)
        except trumps.InvalidPosition:
            continue  # e.g. an owes/pile combination the engine rejects
        if g.is_over:
            continue
        try:
            v = Brute(cap).value(g, {_key(g)})
        except TooBig:
            continue
        out.append((d, v))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_agrees_with_brute_force(seed: int) -> None:
    for d, v in _random_endgames(seed, 120, 2500):
        r = solve(d, None, 500_000)
        assert r.exact and r.value is not None, d
        assert VALUE[r.value] == v, (d, r)
        # The best move keeps the value.
        g = trumps.from_json(d)
        p = g.current_player
        g.play(r.best)
        if g.outcome is not None:
            got = 0 if g.outcome.draw else (1 if p in g.outcome.winners else -1)
        else:
            try:
                got = Brute(50_000).value(g, {_key(g)})
            except TooBig:
                continue
            got = got if g.current_player == p else -got
        assert got == v, (d, r)


# ---------------------------------------------------------------------------------------
# Budgets and determinism.


def _deal(seed: int) -> trumps.Game:
    return trumps.new_game("kozyri", seed=seed, trumps=["S", "H"])


def test_node_limit_is_deterministic_and_respected() -> None:
    g = _deal(5)
    a = solve(g, None, 3000)
    b = solve(g.to_json(), None, 3000)
    assert (a.best, a.nodes, a.score, a.depth, a.pv) == (b.best, b.nodes, b.score, b.depth, b.pv)
    assert a.nodes <= 3000
    assert a.value is None and not a.exact  # a full deal is far beyond 3000 nodes
    assert a.best in g.legal_actions()
    assert g.to_json() == _deal(5).to_json()  # the game is untouched


def test_time_limit_is_respected() -> None:
    g = _deal(6)
    start = time.perf_counter()
    r = solve(g, 0.1, None)
    elapsed = time.perf_counter() - start
    # Slack for a loaded CI machine; a full deal is far beyond what 0.1 s can search.
    assert r.seconds < 0.1 + 0.3 and elapsed < 0.1 + 0.6
    assert r.nodes > 0 and r.best in g.legal_actions()


def test_solve_rejects_what_it_cannot_search() -> None:
    with pytest.raises(SolveError, match="2-player"):
        solve(trumps.new_game("kozyri", players=3, seed=1, trumps=["S", "H", "D"]), 1.0, None)
    with pytest.raises(SolveError, match="trump choice"):
        solve(trumps.new_game("kozyri", seed=1), 1.0, None)
    with pytest.raises(SolveError, match="kozyri"):
        solve(trumps.new_game("twentyfive", seed=1), 1.0, None)
    over = trumps.from_json(LEAD_THE_UNBEATABLE)
    for a in ["AC", "take", "7D"]:
        over.play(a)
    with pytest.raises(SolveError, match="over"):
        solve(over, 1.0, None)
    with pytest.raises(trumps.InvalidPosition):
        solve(position(["S", "H"], [["AC", "AC"], ["7D"]], []), 1.0, None)
    with pytest.raises(ValueError, match="positive"):
        solve(LEAD_THE_UNBEATABLE, 0.0, None)


# ---------------------------------------------------------------------------------------
# Bots.


def test_bots_play_legal_moves_within_node_limits() -> None:
    bots = [KozyriHardBot("kozyri"), KozyriExpertBot("kozyri")]
    for seed in range(2):
        g = trumps.new_game("kozyri", seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not g.is_over and moves < 60:
            seat = g.current_player
            assert seat is not None
            legal = g.legal_actions()
            d = bots[(seat + seed) % 2].decide(g.view(seat), legal, Limits(nodes=400), rng)
            assert d.action in legal and d.reasoning
            g.play(d.action)
            moves += 1


def test_bot_is_deterministic_with_a_node_limit() -> None:
    g = _deal(8)
    seat = g.current_player
    assert seat is not None
    view, legal = g.view(seat), g.legal_actions()
    bot = KozyriExpertBot("kozyri")
    a = bot.decide(view, legal, Limits(nodes=2000), random.Random(1))
    b = bot.decide(view, legal, Limits(nodes=2000), random.Random(2))
    assert a == b


def test_bot_honours_its_time_limit() -> None:
    g = _deal(9)
    seat = g.current_player
    assert seat is not None
    for limit in (0.05, 0.15):
        start = time.perf_counter()
        d = KozyriHardBot("kozyri").decide(
            g.view(seat), g.legal_actions(), Limits(time=limit), random.Random(0)
        )
        assert time.perf_counter() - start < limit + 0.6  # slack for a loaded machine
        assert d.action in g.legal_actions() and "nodes" in d.reasoning


def test_bot_solves_an_endgame_and_says_so() -> None:
    g = trumps.from_json(OWN_TRUMP_THEN_UNBEATABLE)
    d = KozyriExpertBot("kozyri").decide(
        g.view(0), g.legal_actions(), Limits(nodes=50_000), random.Random(0)
    )
    assert d.action == "JS"
    assert d.reasoning.startswith("solved: win in")
    assert d.values == {"JS": 1.0}
    # For people: a structured reason with the same numbers (docs/protocol.md#hint).
    assert d.explain is not None and d.explain.code == "solved_win"
    assert f"solved: win in {d.explain.numbers['moves']} plies" in d.reasoning


def test_bot_chooses_a_free_trump() -> None:
    g = trumps.new_game("kozyri", seed=3)
    seat = g.current_player
    assert seat is not None
    d = KozyriHardBot("kozyri").decide(g.view(seat), g.legal_actions(), Limits(), random.Random(0))
    assert d.action in g.legal_actions() and d.action.startswith("trump ")


def test_bots_refuse_more_players_and_other_games() -> None:
    g = trumps.new_game("kozyri", players=3, seed=1, trumps=["S", "H", "D"])
    seat = g.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="2-player"):
        KozyriExpertBot("kozyri").decide(
            g.view(seat), g.legal_actions(), Limits(nodes=100), random.Random(0)
        )
    with pytest.raises(ValueError, match="kozyri"):
        KozyriHardBot("twentyfive")
