"""The arena's paired statistics (issue 12, duplicate mode): per deal, a bot's score above
its fair share and its difference from the field or from a reference bot on the same
deals, with a Student t interval over deals.  Every expected number is worked by hand in
the comments."""

from __future__ import annotations

import math
from typing import Any

import pytest

from trumps.arena.run import Matchup, bot_results, make_matchup
from trumps.arena.stats import (
    Z95,
    deal_means,
    mean_interval,
    paired_stats,
    reference_stats,
    seat_scores,
    t_quantile,
)


def _row(
    m: Matchup, index: int, seats: list[str], winners: list[int], draw: bool = False
) -> dict[str, Any]:
    losers = [] if draw else [s for s in range(m.players) if s not in winners]
    return {
        "game": index,
        "deal": index // m.rotations,
        "rotation": index % m.rotations,
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


def test_t_quantiles_match_the_tables() -> None:
    # Student t, two-sided 95%: the printed tables' values.
    for df, t in [(1, 12.706204736), (2, 4.302652730), (10, 2.228138852), (30, 2.042272456)]:
        assert math.isclose(t_quantile(0.975, df), t, rel_tol=1e-8), df
    assert math.isclose(t_quantile(0.5, 7), 0.0, abs_tol=1e-12)
    assert math.isclose(t_quantile(0.025, 4), -t_quantile(0.975, 4), rel_tol=1e-12)
    assert abs(t_quantile(0.975, 100_000) - Z95) < 1e-4
    with pytest.raises(ValueError):
        t_quantile(0.975, 0)


def test_mean_interval_by_hand() -> None:
    # 0.1, 0.2, 0.3: mean 0.2, sd 0.1, se 0.1/√3 = 0.0577350; t(2) = 4.3026527
    # half-width 0.2484138: [-0.0484138, 0.4484138].
    got = mean_interval([0.1, 0.2, 0.3])
    assert got["n"] == 3
    assert math.isclose(got["mean"], 0.2)
    assert math.isclose(got["sd"], 0.1)
    assert math.isclose(got["se"], 0.1 / math.sqrt(3))
    lo, hi = got["ci95"]
    assert math.isclose(lo, -0.0484138, abs_tol=1e-7)
    assert math.isclose(hi, 0.4484138, abs_tol=1e-7)
    # Every deal the same: no spread, the interval is the point.
    same = mean_interval([0.25] * 4)
    assert same["sd"] == 0.0 and same["ci95"] == [0.25, 0.25]
    # One deal: a mean but no interval; none: nothing.
    one = mean_interval([0.5])
    assert one["mean"] == 0.5 and one["ci95"] is None and one["sd"] is None
    none = mean_interval([])
    assert none["n"] == 0 and none["mean"] is None and none["ci95"] is None


def test_seat_scores() -> None:
    m = make_matchup("kozyri", ["easy", "random"], players=3)
    row = _row(m, 0, list(m.lineup(0)), [0, 2])
    assert seat_scores(row) == [1.0, 0.0, 1.0]
    drawn = _row(m, 1, list(m.lineup(1)), [], draw=True)
    assert seat_scores(drawn) == [0.5, 0.5, 0.5]


def _one_vs_many_rows(m: Matchup, wins_per_deal: list[list[bool]]) -> list[dict[str, Any]]:
    """Twenty-Five style (one winner): per deal and rotation, whether the single bot
    won; otherwise the seat after it wins."""
    rows = []
    for d, wins in enumerate(wins_per_deal):
        for r, won in enumerate(wins):
            seats = list(m.lineup(r))
            single = seats.index(m.bots[0])
            rows.append(_row(m, d * m.rotations + r, seats, [single if won else (single + 1) % 4]))
    return rows


def test_one_against_many_above_fair_and_against_the_field_by_hand() -> None:
    m = make_matchup("twentyfive", ["expert", "medium"], players=4)
    t, f = True, False
    # Deal 0: the single bot wins 2 of 4 (0.50 − 0.25 fair = +0.25);
    # deal 1: 0 of 4 (−0.25); deal 2: 1 of 4 (0).  Mean 0, sd 0.25, se 0.25/√3,
    # half-width 4.3026527 × 0.1443376 = 0.6210344.
    rows = _one_vs_many_rows(m, [[t, t, f, f], [f, f, f, f], [f, t, f, f]])
    p = paired_stats(m, rows)
    assert p["unit"] == "deal" and p["deals"] == 3 and p["games"] == 12
    single = p["above_fair"]["expert"]
    assert math.isclose(single["mean"], 0.0, abs_tol=1e-12)
    assert math.isclose(single["sd"], 0.25)
    assert math.isclose(single["ci95"][0], -0.6210344, abs_tol=1e-7)
    assert math.isclose(single["ci95"][1], 0.6210344, abs_tol=1e-7)
    # The field's seats share the opposite, a third each: +0.25 → −0.25/3 per seat.
    field = p["above_fair"]["medium"]
    assert math.isclose(field["mean"], 0.0, abs_tol=1e-12)
    assert math.isclose(field["sd"], 0.25 / 3)
    # Against the field, per seat: a win is 1 − 0, a loss 0 − 1/3, so deal 0 is
    # (1 + 1 − 1/3 − 1/3) / 4 = 1/3, deal 1 is −1/3, deal 2 is 0.
    (diff,) = p["differences"]
    assert diff["bot"] == "expert" and diff["vs"] == "medium"
    assert math.isclose(diff["mean"], 0.0, abs_tol=1e-12)
    assert math.isclose(diff["sd"], 1 / 3)
    assert deal_means(m, rows, lambda row: seat_scores(row)[row["rotation"]]) == {
        0: 0.5,
        1: 0.0,
        2: 0.25,
    }


def test_a_better_bot_has_an_interval_above_zero() -> None:
    m = make_matchup("twentyfive", ["expert", "medium"], players=4)
    t, f = True, False
    # Wins 2, 1, 2, 2, 1 of 4: above fair +.25, 0, +.25, +.25, 0 → mean 0.15,
    # sd = √(0.075 / 4) = 0.1369306, se = 0.0612372, t(4) = 2.7764451,
    # half-width 0.1700218: [−0.0200218, 0.3200218] — still includes zero.
    pattern = [[t, t, f, f], [t, f, f, f], [f, t, t, f], [f, f, t, t], [f, f, f, t]]
    p = paired_stats(m, _one_vs_many_rows(m, pattern))
    got = p["above_fair"]["expert"]
    assert math.isclose(got["mean"], 0.15)
    assert math.isclose(got["sd"], math.sqrt(0.075 / 4))
    assert math.isclose(got["ci95"][0], -0.0200218, abs_tol=1e-7)
    assert math.isclose(got["ci95"][1], 0.3200218, abs_tol=1e-7)
    # Twice the deals, the same pattern: mean 0.15, sd √(0.15 / 9) = 0.1290994,
    # se 0.0408248, t(9) = 2.2621572, half-width 0.0923522: [0.0576478, 0.2423522].
    p2 = paired_stats(m, _one_vs_many_rows(m, pattern * 2))
    assert math.isclose(p2["above_fair"]["expert"]["ci95"][0], 0.0576478, abs_tol=1e-7)


def test_incomplete_deals_are_left_out() -> None:
    m = make_matchup("twentyfive", ["expert", "medium"], players=4)
    t, f = True, False
    rows = _one_vs_many_rows(m, [[t, f, f, f], [t, t, t, t]])[:6]  # deal 1 half played
    p = paired_stats(m, rows)
    assert p["deals"] == 1 and p["games"] == 4
    assert p["above_fair"]["expert"]["mean"] == 0.0
    assert p["above_fair"]["expert"]["ci95"] is None


def test_one_each_with_draws_and_two_winners_by_hand() -> None:
    # Svoi Kozyri, three bots, one loser a game (two winners: fair 2/3 a seat), a draw
    # is ½ for everyone (fair ½).  Rotation r puts bot i in seat (i + r) % 3.
    m = make_matchup("kozyri", ["medium", "easy", "random"], players=3)
    rows = []
    # Deal 0: random loses every game.  medium: 1,1,1 → above fair 1/3; random −2/3.
    for r in range(3):
        seats = list(m.lineup(r))
        rows.append(_row(m, r, seats, [seats.index("medium"), seats.index("easy")]))
    # Deal 1: a draw, then easy loses, then medium loses.
    seats = list(m.lineup(0))
    rows.append(_row(m, 3, seats, [], draw=True))
    seats = list(m.lineup(1))
    rows.append(_row(m, 4, seats, [seats.index("medium"), seats.index("random")]))
    seats = list(m.lineup(2))
    rows.append(_row(m, 5, seats, [seats.index("easy"), seats.index("random")]))
    p = paired_stats(m, rows)
    assert p["deals"] == 2
    # Deal 1 for medium: (½ − ½) + (1 − ⅔) + (0 − ⅔) = −⅓, over 3 games: −1/9.
    # Deal 0: +1/3.  Mean (1/3 − 1/9)/2 = 1/9.
    assert math.isclose(p["above_fair"]["medium"]["mean"], 1 / 9)
    # random: deal 0 −2/3; deal 1 (0 + ⅓ + ⅓)/3 = 2/9; mean (−2/3 + 2/9)/2 = −2/9.
    assert math.isclose(p["above_fair"]["random"]["mean"], -2 / 9)
    # Above fair sums to zero over the seats of every game.
    total = sum(p["above_fair"][b]["mean"] for b in m.bots)
    assert math.isclose(total, 0.0, abs_tol=1e-12)
    # medium − random per deal: deal 0: 1 − 0 = 1; deal 1: (0 + 1 − 0)/3 … per game
    # (½ − ½), (1 − 1), (0 − 1) → −1/3.  Mean 1/3, sd √((⅔² + ⅔²)/1) = 0.9428090.
    diffs = {d["vs"]: d for d in p["differences"]}
    assert set(diffs) == {"easy", "random"}
    assert math.isclose(diffs["random"]["mean"], 1 / 3)
    assert math.isclose(diffs["random"]["sd"], math.sqrt(8 / 9))


def test_reference_on_the_same_deals_by_hand() -> None:
    m = make_matchup("twentyfive", ["expert", "medium"], players=4)
    ref = make_matchup("twentyfive", ["hard", "medium"], players=4)
    t, f = True, False
    rows = _one_vs_many_rows(m, [[t, t, f, f], [t, f, f, f], [f, f, f, f]])
    ref_rows = _one_vs_many_rows(ref, [[t, f, f, f], [t, f, f, f], [f, f, t, f]])
    # Per deal, expert's mean score − hard's on the same games: ¼, 0, −¼.
    # Mean 0, sd 0.25, t(2)·0.25/√3 = 0.6210344.
    got = reference_stats(m, rows, ref, ref_rows)
    assert got["bot"] == "expert" and got["reference"] == "hard"
    assert got["deals"] == 3
    assert math.isclose(got["mean"], 0.0, abs_tol=1e-12)
    assert math.isclose(got["sd"], 0.25)
    assert math.isclose(got["ci95"][1], 0.6210344, abs_tol=1e-7)
    # The rows must be the same games: another seed's rows are refused.
    other = [dict(r, seed=2) for r in ref_rows]
    with pytest.raises(ValueError, match="same"):
        reference_stats(m, rows, ref, other)
