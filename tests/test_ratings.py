"""trumps.ratings: Glicko-2 for the duel, Plackett–Luce for the other families, the rating
families of games, what can be rated, and bots' fixed ratings (docs/ratings.md)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from trumps import ratings
from trumps.errors import InvalidRules
from trumps.games import GAMES, Game, Outcome, new_game
from trumps.ratings import (
    FAMILIES,
    MIN_DEVIATION,
    NEW,
    PROVISIONAL_DEVIATION,
    START_DEVIATION,
    Rating,
    bot_rating,
    family_of,
    glicko2,
    idle,
    rate_game,
    rateable,
    sides_of,
)

SCALE = 173.7178  # Glicko-2's factor between its scale and Glicko's


def _won(winners: list[int], losers: list[int]) -> Outcome:
    return Outcome(winners=winners, losers=losers, draw=False, reason="test")


def _drawn(seats: int) -> Outcome:
    return Outcome(winners=[], losers=[], draw=True, reason="test")


def _alone(seats: int) -> list[list[int]]:
    return [[s] for s in range(seats)]


def _played(game: Game, seed: int = 0) -> Game:
    """``game`` played to its end by random moves."""
    rng = random.Random(seed)
    while game.outcome is None:
        game.play(rng.choice(game.legal_actions()))
    return game


# ---------------------------------------------------------------------------- Glicko-2


def test_glickmans_worked_example() -> None:
    player = Rating(1500.0, 200.0, 0.06)
    after = glicko2(
        player,
        [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0), (Rating(1700.0, 300.0), 0.0)],
    )
    assert after.value == pytest.approx(1464.05, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-4)
    assert after.games == 3


def test_provisional_above_the_threshold() -> None:
    assert PROVISIONAL_DEVIATION == 110.0
    assert NEW.provisional
    assert not Rating(1500.0, 110.0).provisional
    assert Rating(1500.0, 110.01).provisional
    assert Rating(1612.4, 109.6, games=12).to_json() == {
        "rating": 1612,
        "deviation": 110,
        "provisional": False,
        "games": 12,
    }
    assert NEW.to_json() == {"rating": 1500, "deviation": 350, "provisional": True, "games": 0}


def test_deviation_never_below_the_floor() -> None:
    player = Rating(1500.0, MIN_DEVIATION)
    opponent = Rating(1500.0, MIN_DEVIATION)
    for score in (1.0, 0.5, 0.0):
        after = glicko2(player, [(opponent, score)] * 30)
        assert after.deviation == MIN_DEVIATION
    # One game a period (as rate_game rates): the volatility's drift each period holds
    # the deviation near 60, above the floor, however many games are played.
    r = NEW
    for k in range(200):
        r = glicko2(r, [(opponent, float(k % 2))])
    assert MIN_DEVIATION < r.deviation < 65.0
    assert r.games == 200


def test_idle_grows_the_deviation_by_the_volatility_and_caps_it() -> None:
    r = Rating(1600.0, 60.0, 0.06, games=40)
    one = idle(r, 1)
    assert one.deviation == pytest.approx(math.sqrt(60.0**2 + (0.06 * SCALE) ** 2))
    assert (one.value, one.volatility, one.games) == (1600.0, 0.06, 40)
    ten = idle(r, 10)
    assert ten.deviation == pytest.approx(math.sqrt(60.0**2 + 10 * (0.06 * SCALE) ** 2))
    assert idle(r, 2.5).deviation == pytest.approx(math.sqrt(60.0**2 + 2.5 * (0.06 * SCALE) ** 2))
    assert idle(r, 0) == r and idle(r, -3) == r
    assert idle(r, 10_000).deviation == START_DEVIATION
    assert idle(NEW, 5).deviation == START_DEVIATION


def test_glicko2_with_no_results_only_grows_the_deviation() -> None:
    r = Rating(1720.0, 80.0, 0.07, games=9)
    after = glicko2(r, [])
    assert after.deviation == pytest.approx(math.sqrt(80.0**2 + (0.07 * SCALE) ** 2))
    assert after.deviation == pytest.approx(idle(r, 1).deviation)
    assert (after.value, after.volatility, after.games) == (1720.0, 0.07, 9)
    assert glicko2(NEW, []).deviation == START_DEVIATION


def test_a_draw_between_equals_moves_nobody_and_helps_the_lower() -> None:
    equal = glicko2(Rating(1500.0, 80.0), [(Rating(1500.0, 80.0), 0.5)])
    assert equal.value == pytest.approx(1500.0, abs=1e-9)
    assert equal.deviation < 80.0
    low = glicko2(Rating(1400.0, 80.0), [(Rating(1600.0, 80.0), 0.5)])
    high = glicko2(Rating(1600.0, 80.0), [(Rating(1400.0, 80.0), 0.5)])
    assert low.value > 1400.0 and high.value < 1600.0
    assert low.value - 1400.0 == pytest.approx(1600.0 - high.value)


@pytest.mark.parametrize("score", [-0.1, 1.5, math.nan, 2])
def test_a_score_outside_zero_to_one_is_refused(score: float) -> None:
    with pytest.raises(ValueError, match="score"):
        glicko2(NEW, [(NEW, score)])


# ---------------------------------------------------------------------------- the duel


def test_duel_winner_up_loser_down_symmetric() -> None:
    before = [Rating(1500.0, 120.0), Rating(1500.0, 120.0)]
    a, b = rate_game("kozyri-duel", before, _won([0], [1]), _alone(2))
    assert a.value > 1500.0 > b.value
    assert a.value - 1500.0 == pytest.approx(1500.0 - b.value)
    assert a.deviation == pytest.approx(b.deviation) and a.deviation < 120.0
    assert a.games == b.games == 1
    # the same game with the seats swapped gives the same numbers swapped
    b2, a2 = rate_game("kozyri-duel", before[::-1], _won([1], [0]), _alone(2))
    assert (a2, b2) == (a, b)


def test_duel_beating_a_stronger_player_gains_more() -> None:
    upset, _ = rate_game(
        "kozyri-duel", [Rating(1400.0, 80.0), Rating(1700.0, 80.0)], _won([0], [1]), _alone(2)
    )
    expected, _ = rate_game(
        "kozyri-duel", [Rating(1700.0, 80.0), Rating(1400.0, 80.0)], _won([0], [1]), _alone(2)
    )
    assert upset.value - 1400.0 > expected.value - 1700.0 > 0


def test_duel_draw() -> None:
    a, b = rate_game(
        "kozyri-duel", [Rating(1450.0, 90.0), Rating(1550.0, 90.0)], _drawn(2), _alone(2)
    )
    assert a.value > 1450.0 and b.value < 1550.0


def test_duel_forfeited_seat_loses_even_when_its_side_won() -> None:
    before = [Rating(1500.0, 100.0), Rating(1500.0, 100.0)]
    a, b = rate_game("kozyri-duel", before, _won([0], [1]), _alone(2), forfeited=[0])
    assert a.value < 1500.0
    assert b.value < 1500.0  # the opponent is rated on the real result: a loss
    fair_a, _ = rate_game("kozyri-duel", before, _won([1], [0]), _alone(2))
    assert a == fair_a  # exactly a loss
    _, real_b = rate_game("kozyri-duel", before, _won([0], [1]), _alone(2))
    assert b == real_b


def test_duel_needs_two_seats() -> None:
    with pytest.raises(ValueError, match="two players"):
        rate_game("kozyri-duel", [NEW] * 3, _won([0, 1], [2]), _alone(3))


# ---------------------------------------------------------------------------- Plackett–Luce


def test_multi_winners_up_losers_down() -> None:
    before = [NEW] * 4
    after = rate_game("kozyri-multi", before, _won([0, 1, 3], [2]), _alone(4))
    for s in (0, 1, 3):
        assert after[s].value > 1500.0
        assert after[s].value == pytest.approx(after[0].value)
    assert after[2].value < 1500.0
    assert all(r.games == 1 and r.deviation < START_DEVIATION for r in after)


def test_a_strong_winner_among_weak_winners_still_gains() -> None:
    # Svoi Kozyri with four: three do not lose.  Openskill's ties would read that as three
    # equal performances and take rating from the strong one.
    before = [Rating(1800.0, 60.0), Rating(1400.0, 60.0), Rating(1400.0, 60.0), NEW]
    after = rate_game("kozyri-multi", before, _won([0, 1, 2], [3]), _alone(4))
    assert after[0].value > 1800.0
    assert after[1].value > 1400.0 and after[2].value > 1400.0
    assert after[3].value < 1500.0


def test_a_weak_loser_among_strong_losers_still_loses() -> None:
    before = [Rating(1500.0, 60.0), Rating(1100.0, 60.0), *[Rating(1900.0, 60.0)] * 3]
    after = rate_game("twentyfive", before, _won([0], [1, 2, 3, 4]), _alone(5))
    assert after[0].value > 1500.0
    assert all(after[s].value < before[s].value for s in range(1, 5))


def test_the_loser_loses_what_the_equal_winners_gain() -> None:
    after = rate_game("kozyri-multi", [Rating(1500.0, 70.0)] * 3, _won([1, 2], [0]), _alone(3))
    gains = [r.value - 1500.0 for r in after]
    assert gains[1] == pytest.approx(gains[2]) and gains[1] > 0
    assert math.fsum(gains) == pytest.approx(0.0, abs=1e-9)


def test_multi_draw_keeps_equals_level_and_brings_others_together() -> None:
    level = rate_game("kozyri-multi", [Rating(1500.0, 90.0)] * 3, _drawn(3), _alone(3))
    for r in level:
        assert r.value == pytest.approx(1500.0, abs=1e-9)
        assert r.games == 1
    apart = [Rating(1300.0, 90.0), Rating(1500.0, 90.0), Rating(1700.0, 90.0)]
    low, mid, high = rate_game("kozyri-multi", apart, _drawn(3), _alone(3))
    assert low.value > 1300.0 and high.value < 1700.0
    assert abs(mid.value - 1500.0) < min(low.value - 1300.0, 1700.0 - high.value)


def test_two_sides_are_openskills_plackett_luce_exactly() -> None:
    model = PlackettLuce(
        mu=1500.0, sigma=350.0, beta=ratings._PL_BETA, tau=ratings._PL_TAU, kappa=1e-4
    )
    rng = random.Random(7)
    for _ in range(50):
        before = [Rating(rng.uniform(900, 2100), rng.uniform(50, 350)) for _ in range(4)]
        sides = [[0, 2], [1, 3]]
        got = rate_game("twentyfive-teams", before, _won([1, 3], [0, 2]), sides)
        teams = [
            [model.rating(mu=before[s].value, sigma=before[s].deviation) for s in side]
            for side in sides
        ]
        for side, team in zip(sides, model.rate(teams, ranks=[2, 1]), strict=True):
            for s, r in zip(side, team, strict=True):
                assert got[s].value == pytest.approx(r.mu, abs=1e-9)
                assert got[s].deviation == pytest.approx(max(MIN_DEVIATION, r.sigma), abs=1e-9)


def test_plackett_luce_moves_a_settled_player_about_as_glicko_does() -> None:
    # One scale: a settled player's win over an equal one is worth about as much in every
    # family (beta chosen so that the two models expect the same results).
    settled = Rating(1500.0, 60.0)
    duel, _ = rate_game("kozyri-duel", [settled, settled], _won([0], [1]), _alone(2))
    alone, _ = rate_game("twentyfive", [settled, settled], _won([0], [1]), _alone(2))
    ratio = (alone.value - 1500.0) / (duel.value - 1500.0)
    assert 0.8 < ratio < 1.25


def test_teams_move_together() -> None:
    before = [Rating(1500.0, 100.0)] * 4
    after = rate_game("twentyfive-teams", before, _won([1, 3], [0, 2]), [[0, 2], [1, 3]])
    assert after[1].value > 1500.0 and after[3].value > 1500.0
    assert after[1].value == pytest.approx(after[3].value)
    assert after[0].value < 1500.0 and after[2].value < 1500.0
    assert after[0].value == pytest.approx(after[2].value)
    # a member with the wider deviation takes the larger share of the team's change
    mixed = [Rating(1500.0, 200.0), NEW, Rating(1500.0, 60.0), NEW]
    moved = rate_game("twentyfive-teams", mixed, _won([0, 2], [1, 3]), [[0, 2], [1, 3]])
    assert moved[0].value - 1500.0 > moved[2].value - 1500.0 > 0
    # three teams of two, one wins
    six = rate_game(
        "twentyfive-teams", [NEW] * 6, _won([2, 5], [0, 1, 3, 4]), [[0, 3], [1, 4], [2, 5]]
    )
    assert [r.value > 1500.0 for r in six] == [False, False, True, False, False, True]


def test_a_forfeited_team_member_loses_while_the_partner_gains() -> None:
    before = [NEW] * 4
    sides = [[0, 2], [1, 3]]
    real = rate_game("twentyfive-teams", before, _won([0, 2], [1, 3]), sides)
    after = rate_game("twentyfive-teams", before, _won([0, 2], [1, 3]), sides, forfeited=[2])
    assert after[2].value < 1500.0 < after[0].value
    assert after[0] == real[0] and after[1] == real[1] and after[3] == real[3]
    assert after[2].games == 1


def test_a_forfeited_winner_of_a_multi_game_loses() -> None:
    before = [NEW] * 4
    after = rate_game("kozyri-multi", before, _won([0, 1, 2], [3]), _alone(4), forfeited=[1])
    assert after[1].value < 1500.0
    assert after[0].value > 1500.0 and after[3].value < 1500.0


_BAD_GAMES = [
    # family, seats, sides, outcome, forfeited, what the error says
    ("chess", 2, [[0], [1]], _won([0], [1]), (), "unknown rating family"),
    ("twentyfive", 3, [[0], [1]], _won([0], [1, 2]), (), "every seat once"),
    ("twentyfive", 3, [[0], [1], [1], [2]], _won([0], [1, 2]), (), "every seat once"),
    ("twentyfive", 2, [[0], [1], [2]], _won([0], [1]), (), "every seat once"),
    ("kozyri-multi", 3, _alone(3), _won([0, 1], [2]), (3,), "outside"),
    ("kozyri-multi", 3, _alone(3), _won([0, 5], [2]), (), "outside"),
    ("kozyri-duel", 2, _alone(2), _won([0], [1]), (-1,), "outside"),
]


@pytest.mark.parametrize("case", _BAD_GAMES)
def test_bad_games_are_refused(
    case: tuple[str, int, list[list[int]], Outcome, tuple[int, ...], str],
) -> None:
    family, seats, sides, outcome, forfeited, match = case
    with pytest.raises(ValueError, match=match):
        rate_game(family, [NEW] * seats, outcome, sides, forfeited)


# ---------------------------------------------------------------------------- invariants

_values = st.floats(min_value=200.0, max_value=2800.0)
_deviations = st.floats(min_value=MIN_DEVIATION, max_value=START_DEVIATION)


@st.composite
def _multi_games(draw: st.DrawFn) -> tuple[list[Rating], list[list[int]], list[int]]:
    """Ratings, sides (one to three seats each) and the winning sides of a decided game."""
    n_sides = draw(st.integers(2, 8))
    size = draw(st.integers(1, 3)) if n_sides <= 3 else 1
    sides = [[k + n_sides * m for m in range(size)] for k in range(n_sides)]
    seats = n_sides * size
    rs = [Rating(draw(_values), draw(_deviations)) for _ in range(seats)]
    winning = draw(
        st.lists(st.integers(0, n_sides - 1), min_size=1, max_size=n_sides - 1, unique=True)
    )
    return rs, sides, winning


@given(_multi_games())
@settings(max_examples=300, deadline=None)
def test_pl_winners_never_lose_losers_never_gain(
    game: tuple[list[Rating], list[list[int]], list[int]],
) -> None:
    before, sides, winning = game
    winners = sorted(s for k in winning for s in sides[k])
    losers = sorted(set(range(len(before))) - set(winners))
    family = "twentyfive-teams" if len(sides[0]) > 1 else "twentyfive"
    after = rate_game(family, before, _won(winners, losers), sides)
    drift = ratings._PL_TAU
    for s, (b, a) in enumerate(zip(before, after, strict=True)):
        assert math.isfinite(a.value) and math.isfinite(a.deviation)
        if s in winners:
            assert a.value >= b.value
        else:
            assert a.value <= b.value
        # a deviation shrinks, except by at most the drift added before each game
        assert (
            MIN_DEVIATION
            <= a.deviation
            <= max(MIN_DEVIATION, math.hypot(b.deviation, drift)) + 1e-9
        )
        assert a.games == b.games + 1


@given(_multi_games(), _deviations)
@settings(max_examples=200, deadline=None)
def test_pl_with_equal_deviations_moves_no_rating_into_or_out_of_the_game(
    game: tuple[list[Rating], list[list[int]], list[int]], deviation: float
) -> None:
    before, sides, winning = game
    before = [Rating(r.value, deviation) for r in before]
    winners = sorted(s for k in winning for s in sides[k])
    losers = sorted(set(range(len(before))) - set(winners))
    for outcome in (_won(winners, losers), _drawn(len(before))):
        after = rate_game("twentyfive-teams", before, outcome, sides)
        moved = math.fsum(a.value - b.value for a, b in zip(after, before, strict=True))
        assert moved == pytest.approx(0.0, abs=1e-6)


@given(_multi_games(), st.data())
@settings(max_examples=150, deadline=None)
def test_a_forfeit_moves_only_the_forfeiter_and_never_up(
    game: tuple[list[Rating], list[list[int]], list[int]], data: st.DataObject
) -> None:
    before, sides, winning = game
    winners = sorted(s for k in winning for s in sides[k])
    losers = sorted(set(range(len(before))) - set(winners))
    seat = data.draw(st.integers(0, len(before) - 1))
    real = rate_game("twentyfive-teams", before, _won(winners, losers), sides)
    after = rate_game("twentyfive-teams", before, _won(winners, losers), sides, forfeited=[seat])
    assert after[seat].value <= before[seat].value
    assert after[seat].value <= real[seat].value
    assert [r for s, r in enumerate(after) if s != seat] == [
        r for s, r in enumerate(real) if s != seat
    ]


@given(_values, _deviations, _values, _deviations, st.sampled_from([0.0, 0.5, 1.0]))
@settings(max_examples=300, deadline=None)
def test_glicko_moves_in_the_direction_of_the_result(
    v: float, d: float, ov: float, od: float, score: float
) -> None:
    before = Rating(v, d)
    after = glicko2(before, [(Rating(ov, od), score)])
    if score == 1.0 or (score == 0.5 and v <= ov):
        assert after.value >= v - 1e-9
    if score == 0.0 or (score == 0.5 and v >= ov):
        assert after.value <= v + 1e-9
    # never more uncertain than one period's drift
    grown = math.hypot(d, after.volatility * SCALE)
    assert MIN_DEVIATION <= after.deviation <= max(MIN_DEVIATION, grown) + 1e-9


# ---------------------------------------------------------------------------- games


def test_family_of_every_game_and_seat_count() -> None:
    assert set(FAMILIES) == {"kozyri-duel", "kozyri-multi", "twentyfive", "twentyfive-teams"}
    kozyri = GAMES["kozyri"]
    for n in range(kozyri.min_players, kozyri.max_players + 1):
        expected = "kozyri-duel" if n == 2 else "kozyri-multi"
        assert family_of(new_game("kozyri", players=n, seed=1)) == expected
    assert family_of(new_game("kozyri", rules="pagat", seed=1)) == "kozyri-multi"
    twentyfive = GAMES["twentyfive"]
    counts = range(twentyfive.min_players, twentyfive.max_players + 1)
    for n in counts:
        assert family_of(new_game("twentyfive", players=n, seed=1)) == "twentyfive"
    team_counts: dict[int, list[int]] = {2: [], 3: []}
    for size in (2, 3):
        for n in counts:
            try:
                game = new_game("twentyfive", players=n, rules={"teams": size}, seed=1)
            except InvalidRules:
                continue
            team_counts[size].append(n)
            assert family_of(game) == "twentyfive-teams"
    assert team_counts == {2: [4, 6, 8, 10], 3: [6, 9]}


def test_sides_of() -> None:
    assert sides_of(new_game("kozyri", seed=1)) == [[0], [1]]
    assert sides_of(new_game("kozyri", players=4, seed=1)) == _alone(4)
    assert sides_of(new_game("twentyfive", players=5, seed=1)) == _alone(5)
    assert sides_of(new_game("twentyfive", players=4, rules={"teams": 2}, seed=1)) == [
        [0, 2],
        [1, 3],
    ]
    assert sides_of(new_game("twentyfive", players=6, rules={"teams": 2}, seed=1)) == [
        [0, 3],
        [1, 4],
        [2, 5],
    ]
    assert sides_of(new_game("twentyfive", players=6, rules={"teams": 3}, seed=1)) == [
        [0, 2, 4],
        [1, 3, 5],
    ]


def test_rateable() -> None:
    game = new_game("kozyri", seed=3)
    assert rateable(game) == "the game is not over"
    game.resign(0)
    assert rateable(game) == "no move was made: the game was aborted"
    moved = new_game("twentyfive", players=3, seed=3)
    moved.play(moved.legal_actions()[0])
    assert rateable(moved) == "the game is not over"
    moved.resign(1)
    assert rateable(moved) is None
    assert rateable(_played(new_game("kozyri", players=3, seed=4))) is None


@pytest.mark.parametrize(
    ("game", "players", "rules"),
    [
        ("kozyri", 2, None),
        ("kozyri", 4, None),
        ("twentyfive", 5, None),
        ("twentyfive", 6, {"teams": 3}),
    ],
)
def test_a_played_game_rates_its_winners_up(
    game: str, players: int, rules: dict[str, object] | None
) -> None:
    g = _played(new_game(game, players=players, rules=rules, seed=11), seed=2)
    assert g.outcome is not None and rateable(g) is None
    after = rate_game(family_of(g), [NEW] * players, g.outcome, sides_of(g))
    for s in range(players):
        assert (after[s].value > 1500.0) == (s in g.outcome.winners)


def test_bot_rating() -> None:
    hard = Rating(1810.0, 50.0)
    calibration = {"kozyri-duel": {"hard": hard}}
    assert bot_rating(calibration, "kozyri-duel", "hard") is hard
    assert bot_rating(calibration, "kozyri-duel", "easy") == NEW
    assert bot_rating(calibration, "twentyfive", "hard") == NEW
    assert bot_rating({}, "kozyri-multi", "random") == NEW
