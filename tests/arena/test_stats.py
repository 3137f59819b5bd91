"""Arena statistics: Wilson intervals, Elo, fair shares and OpenSkill ratings."""

from __future__ import annotations

import math
from typing import Any

import pytest

from trumps.arena.run import Matchup, bot_results, make_matchup
from trumps.arena.stats import bot_stats, elo_estimate, elo_from_score, openskill_ratings, wilson


def _round(ci: tuple[float, float]) -> tuple[float, float]:
    return (round(ci[0], 3), round(ci[1], 3))


def test_wilson_known_values() -> None:
    assert _round(wilson(8, 10)) == (0.490, 0.943)
    assert _round(wilson(0, 10)) == (0.0, 0.278)
    assert _round(wilson(10, 10)) == (0.722, 1.0)
    assert _round(wilson(50, 100)) == (0.404, 0.596)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_is_symmetric_and_inside_unit_interval() -> None:
    for n in (1, 7, 30):
        for k in range(n + 1):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
            lo2, hi2 = wilson(n - k, n)
            assert math.isclose(lo, 1 - hi2, abs_tol=1e-12)
            assert math.isclose(hi, 1 - lo2, abs_tol=1e-12)


def test_elo_from_score() -> None:
    assert elo_from_score(0.5) == 0.0
    assert math.isclose(elo_from_score(0.75) or 0.0, 400 * math.log10(3))
    assert math.isclose(elo_from_score(0.25) or 0.0, -400 * math.log10(3))
    assert elo_from_score(0.0) is None
    assert elo_from_score(1.0) is None


def _row(
    m: Matchup, index: int, seats: list[str], winners: list[int], draw: bool = False
) -> dict[str, Any]:
    """A synthetic game row as ``play_game`` writes it (free-for-all sides)."""
    losers = [] if draw else [s for s in range(m.players) if s not in winners]
    return {
        "game": index,
        "deal": index // m.players,
        "rotation": index % m.players,
        "seed": 1,
        "seats": seats,
        "outcome": {
            "winners": [] if draw else winners,
            "losers": losers,
            "draw": draw,
            "reason": "draw_rule" if draw else "out_of_cards",
        },
        "actions": 10,
        "results": bot_results(m, seats, [] if draw else winners, draw),
        "sides": [[s] for s in range(m.players)],
        "moves": dict.fromkeys(m.bots, 5),
        "seconds": {b: {"mean": 0.001, "max": 0.002} for b in m.bots},
    }


def test_duel_counts_fair_share_elo_and_ratings() -> None:
    m = make_matchup("kozyri", ["easy", "random"], players=2)
    rows = []
    for g in range(10):
        seats = list(m.lineup(g % 2))
        if g == 9:
            rows.append(_row(m, g, seats, [], draw=True))
        else:
            rows.append(_row(m, g, seats, [seats.index("easy")]))
    stats = bot_stats(m, rows)
    easy, rnd = stats["easy"], stats["random"]
    assert (easy["games"], easy["wins"], easy["draws"], easy["losses"]) == (10, 9, 1, 0)
    assert (rnd["games"], rnd["wins"], rnd["draws"], rnd["losses"]) == (10, 0, 1, 9)
    assert easy["ci95"] == list(wilson(9, 10))
    assert easy["decided_win_rate"] == 1.0
    assert easy["decided_ci95"] == list(wilson(9, 9))
    assert easy["fair_share"] == 0.5 and rnd["fair_share"] == 0.5
    assert easy["vs_fair_share"] == 2.0
    assert easy["seat_games"] == [5, 5]
    assert easy["score"] == 0.95
    assert easy["seconds_per_move"] == {"mean": 0.001, "max": 0.002}
    elo = elo_estimate(m, stats)
    assert elo is not None and elo["bot"] == "easy" and elo["over"] == "random"
    assert elo["diff"] is not None and elo["diff"] > 400
    ratings = openskill_ratings(m, rows)
    assert ratings["easy"]["ordinal"] > ratings["random"]["ordinal"]
    assert ratings["easy"]["mu"] > 25 > ratings["random"]["mu"]


def test_always_winning_bot_gets_the_higher_ordinal_in_free_for_all() -> None:
    m = make_matchup("kozyri", ["random", "medium", "easy"], players=3)
    rows = []
    for g in range(12):
        seats = list(m.lineup(g % 3))
        # medium always wins; random loses; easy wins half the time (else loses too)
        winners = [seats.index("medium")] + ([seats.index("easy")] if g % 2 else [])
        rows.append(_row(m, g, seats, winners))
    ratings = openskill_ratings(m, rows)
    order = sorted(ratings, key=lambda b: ratings[b]["ordinal"], reverse=True)
    assert order == ["medium", "easy", "random"]


def test_one_against_many_fair_share_and_rating() -> None:
    # Twenty-Five style: one winner of four seats; the single bot wins half its games.
    m = make_matchup("twentyfive", ["easy", "random"], players=4)
    rows = []
    for g in range(16):
        seats = list(m.lineup(g % 4))
        single = seats.index("easy")
        winner = single if g % 2 == 0 else (single + 1) % 4
        rows.append(_row(m, g, seats, [winner]))
    stats = bot_stats(m, rows)
    assert stats["easy"]["wins"] == 8 and stats["random"]["wins"] == 8
    assert stats["easy"]["fair_share"] == 0.25
    assert stats["random"]["fair_share"] == 0.75
    assert stats["easy"]["vs_fair_share"] == 2.0
    assert stats["easy"]["seat_games"] == [4, 4, 4, 4]
    assert stats["random"]["seat_games"] == [12, 12, 12, 12]
    assert elo_estimate(m, stats) is None  # not a head-to-head: fair share is not 1/2
    ratings = openskill_ratings(m, rows)
    # winning twice its fair share makes the single bot the stronger one
    assert ratings["easy"]["ordinal"] > ratings["random"]["ordinal"]


@pytest.mark.parametrize("draws", [0, 3])
def test_counts_add_up(draws: int) -> None:
    m = make_matchup("kozyri", ["easy", "random"], players=4)
    rows = []
    for g in range(12):
        seats = list(m.lineup(g % 4))
        if g < draws:
            rows.append(_row(m, g, seats, [], draw=True))
        else:
            loser = (g // 4) % 4
            rows.append(_row(m, g, seats, [s for s in range(4) if s != loser]))
    stats = bot_stats(m, rows)
    for s in stats.values():
        assert s["wins"] + s["draws"] + s["losses"] == s["games"] == 12
        assert s["decided"] == 12 - draws
    # the field's result is the single bot's opposite
    assert stats["easy"]["wins"] == stats["random"]["losses"]
    assert stats["easy"]["fair_share"] == 0.75 and stats["random"]["fair_share"] == 0.25
