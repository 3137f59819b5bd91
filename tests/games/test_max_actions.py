"""``Game.max_actions``: the bound the rules guarantee on a game's length (K3, K17, K18;
F4, F10, F16, F17a), which OpenSpiel's ``max_game_length`` takes from the game."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import trumps
from gamekit import CONF, GAME_IDS, make_game


@given(data=st.data(), game_id=st.sampled_from(GAME_IDS))
@CONF
def test_random_games_end_within_the_bound(data: st.DataObject, game_id: str) -> None:
    fixed = {"max_plies": 300, "match_losses": 1} if game_id == "kozyri" else {}
    game = make_game(data, game_id, **fixed)
    bound = game.max_actions()
    assert bound is not None and bound > 0
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    while not game.is_over:
        game.play_id(rng.choice(game.legal_action_ids()))
        assert len(game.history) <= bound


def test_the_bounds_follow_the_rules() -> None:
    # K3 + K17: the trump choices, then max_plies; K18: a longer match has no bound.
    duel = trumps.new_game("kozyri", players=3, rules={"max_plies": 150}, seed=1)
    assert duel.max_actions() == 3 + 150
    assert trumps.new_game("kozyri", rules={"match_losses": 2}, seed=1).max_actions() is None
    # F16: four sides to 25 at 5 a trick (25 a hand): at most 4 * 24 // 25 + 1 = 4 hands
    # of 5 * 4 + 2 actions; two teams of two: 2 * 24 // 25 + 1 = 2 hands.
    assert trumps.new_game("twentyfive", players=4, seed=1).max_actions() == 4 * 22
    teams = trumps.new_game("twentyfive", players=4, rules={"teams": 2}, seed=1)
    assert teams.max_actions() == 2 * 22
