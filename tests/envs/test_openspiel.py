"""Both games as OpenSpiel Python games (issue 14 §3, docs/research.md): OpenSpiel's own
random-simulation check, the parameters, the sampled chance node, legal actions against the
engine, information states and observations from a seat's view only, resampling from an
information state, and OpenSpiel's ISMCTS playing whole games against our bots."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import trumps
from gamekit import redeal
from trumps.ai import Limits, make_bot
from trumps.envs.observation import encode
from trumps.envs.openspiel import DEAL_SEEDS, TrumpsState

CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")

# Short Svoi Kozyri hands (K17's max_plies) keep the Python game's random play fast.
CONFIGS = [
    "python_trumps_kozyri(max_plies=80)",
    "python_trumps_kozyri(players=3,max_plies=150)",
    "python_trumps_kozyri(players=4,preset=pagat,sixes_to_owner=false,max_plies=150)",
    "python_trumps_twentyfive(players=2)",
    "python_trumps_twentyfive(players=4,teams=2,joker=true)",
    "python_trumps_twentyfive(players=6,teams=3,rob=mandatory,deal_packets=4_1)",
    "python_trumps_twentyfive(players=5,five_trick_bonus=plus10,ranking=as-written)",
]


def dealt(name: str, seed: int) -> TrumpsState:
    state = pyspiel.load_game(name).new_initial_state()
    state.apply_action(seed)
    assert isinstance(state, TrumpsState)
    return state


def play_randomly(state: TrumpsState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", CONFIGS)
def test_openspiel_random_simulation_check(name: str) -> None:
    # OpenSpiel's own conformance check, as its python games' tests run it.
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


def test_parameters_reach_the_game() -> None:
    k = pyspiel.load_game("python_trumps_kozyri(players=3,voluntary_pickup=true)")
    assert k.num_players() == 3 and k.num_distinct_actions() == 41
    assert k.max_chance_outcomes() == DEAL_SEEDS and k.max_game_length() == 3 + 10000
    assert k.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert k.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    duel = pyspiel.load_game("python_trumps_kozyri")
    assert duel.num_players() == 2 and duel.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = k.new_initial_state()
    state.apply_action(5)
    assert isinstance(state, TrumpsState) and state.game is not None
    assert state.game.rules["voluntary_pickup"] is True and state.game.players == 3

    t = pyspiel.load_game("python_trumps_twentyfive(players=6,teams=3,preset=forty-five)")
    assert t.num_players() == 6 and t.num_distinct_actions() == 159
    assert t.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    game = dealt("python_trumps_twentyfive(players=6,teams=3,preset=forty-five)", 1).game
    assert game is not None and game.rules["target"] == 45 and game.rules["teams"] == 3
    assert game.side_of(0) == [0, 2, 4]
    # Five players alone: one winner, four losers, so the returns always sum to -3.
    five = pyspiel.load_game("python_trumps_twentyfive(players=5)")
    assert five.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert five.utility_sum() == -3.0
    # A guaranteed bound: 2 sides, 25 points a hand, target 25: at most 2 hands of 22 actions.
    assert pyspiel.load_game("python_trumps_twentyfive(teams=2)").max_game_length() == 44
    assert pyspiel.load_game("python_trumps_kozyri(deal_seeds=7)").max_chance_outcomes() == 7


@pytest.mark.parametrize(
    "name",
    [
        "python_trumps_kozyri(players=5)",
        "python_trumps_kozyri(match_losses=2)",  # no bound on a match's length (K18)
        "python_trumps_twentyfive(rob=sometimes)",
        "python_trumps_twentyfive(players=5,teams=2)",
        "python_trumps_kozyri(deal_seeds=0)",
        "python_trumps_kozyri(deal_seeds=16777217)",  # above MAX_DEAL_SEEDS
    ],
)
def test_bad_parameters_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        pyspiel.load_game(name)


@pytest.mark.parametrize("name", ["python_trumps_kozyri(players=3)", "python_trumps_twentyfive"])
def test_the_initial_state_draws_the_deal_seed(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == DEAL_SEEDS == game.max_chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(DEAL_SEEDS))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.returns() == [0.0] * game.num_players()
    a, b, c = dealt(name, 4321), dealt(name, 4321), dealt(name, 4322)
    assert a.game is not None and b.game is not None and c.game is not None
    assert a.game == b.game != c.game
    g = a.game
    assert g == trumps.new_game(g.game_id, players=g.players, rules=g.rules, seed=4321)
    assert a.history() == [4321] and not a.is_chance_node()


@pytest.mark.parametrize("name", CONFIGS)
def test_legal_actions_follow_the_engine(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(name)
    for seed in range(3):
        state = dealt(name, seed)
        assert state.game is not None
        g = state.game
        twin = trumps.new_game(g.game_id, players=g.players, rules=g.rules, seed=seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == twin.legal_action_ids()
            assert state.legal_actions_mask() == twin.action_mask()
            assert state.current_player() == twin.current_player
            a = rng.choice(legal)
            assert state.action_to_string(a) == twin.action_to_string(a)
            assert state.returns() == [0.0] * game.num_players()
            state.apply_action(a)
            twin.play_id(a)
        assert twin.is_over and twin.outcome is not None
        assert len(state.history()) - 1 <= game.max_game_length()
        returns = state.returns()
        for s in range(game.num_players()):
            expected = 1.0 if s in twin.outcome.winners else -1.0 if s in twin.outcome.losers else 0
            assert returns[s] == expected
        assert state.current_player() == pyspiel.PlayerId.TERMINAL


def hidden_cards(pos: dict[str, Any], view: Mapping[str, Any], seat: int) -> set[str]:
    """The cards of ``pos`` that ``seat`` may not know."""
    out = {
        c
        for s, h in enumerate(pos["hands"])
        if s != seat
        for c in h
        if c not in view["hands"][s]["known"]
    }
    if pos["game"] == "twentyfive":
        out |= set(pos["stock"])
        robbed = pos.get("robbed")
        if robbed and robbed["seat"] != seat:
            out.add(robbed["discard"])
        if pos.get("joker_discard") and pos["dealer"] != seat:
            out.add(pos["joker_discard"])
    return out


def seen_by(state: TrumpsState, seat: int) -> tuple[str, str, list[float]]:
    return (
        state.information_state_string(seat),
        state.observation_string(seat),
        state.observation_tensor(seat),
    )


@pytest.mark.parametrize("name", CONFIGS)
def test_information_states_and_observations_hold_only_the_seats_view(name: str) -> None:
    rng = random.Random(name)
    checked = 0
    for seed in range(4):
        state = dealt(name, seed)
        while not state.is_terminal():
            play_randomly(state, rng, rng.randrange(1, 25))
            assert state.game is not None
            pos = state.game.to_json()
            for seat in range(state.game.players):
                view = state.game.view(seat)
                info, obs, tensor = seen_by(state, seat)
                assert tensor == pytest.approx(encode(view))
                assert info.startswith(obs + "\n") or info == obs
                # The seat's own secret actions in full, the others' without their card.
                for line in info.split("\n")[1:]:
                    actor, action = line.split(": ")
                    if action.split(" ")[0] in ("rob", "discard") and int(actor) != seat:
                        assert action in ("rob", "discard"), line
                hidden = hidden_cards(pos, view, seat)
                shown = set(CARD.findall(info if pos["game"] == "kozyri" else obs))
                assert not shown & hidden, (seat, shown & hidden)
                # The hidden cards dealt again consistently with the view: nothing changes.
                again = redeal(pos, view, seat, rng)
                if again is not None:
                    other = state.clone()
                    assert isinstance(other, TrumpsState) and other.held is not None
                    other.held.game = trumps.from_json(again)
                    assert other.game is not None and other.game.view(seat) == view
                    assert seen_by(other, seat) == (info, obs, tensor)
                    checked += 1
    assert checked > 5


def test_secret_actions_are_shown_only_to_their_maker() -> None:
    # Twenty-Five robbing (F10) with the rob mandatory: find a deal where someone robs.
    for seed in range(200):
        state = dealt("python_trumps_twentyfive(players=4,rob=mandatory)", seed)
        assert state.game is not None
        robs = [a for a in state.legal_actions() if state.action_to_string(a).startswith("rob")]
        if robs:
            break
    else:
        pytest.fail("no deal with a rob")
    robber = state.current_player()
    state.apply_action(robs[0])
    text = state.action_to_string(robs[0])
    for seat in range(4):
        last = state.information_state_string(seat).split("\n")[-1]
        assert last == f"{robber}: {text}" if seat == robber else last == f"{robber}: rob"


def check_resampled_secrets(state: TrumpsState, seat: int, pos: dict[str, Any]) -> None:
    """In a state resampled for another player, ``seat``'s own secret cards (``rob XX``,
    ``discard XX``) show only for the current hand, and are the sampled ones."""
    robbed = pos.get("robbed") or {}
    joker = pos.get("joker_discard")
    current = {
        "rob": f"rob {robbed['discard']}" if robbed.get("seat") == seat else None,
        "discard": f"discard {joker}" if joker and pos["dealer"] == seat else None,
    }
    lines = state.information_state_string(seat).split("\n")[1:]
    for word, full in current.items():
        mine = [line for line in lines if line.startswith(f"{seat}: {word} ")]
        assert mine == ([] if full is None else [f"{seat}: {full}"]), (mine, full)


@pytest.mark.parametrize("name", CONFIGS)
def test_resampling_keeps_the_information_state(name: str) -> None:
    rng = random.Random(name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    varied = 0
    for seed in range(3):
        state = dealt(name, seed)
        while not state.is_terminal():
            play_randomly(state, rng, rng.randrange(1, 30))
            player = state.current_player()
            if player < 0:
                continue
            assert state.game is not None
            key = state.information_state_string(player)
            deals = set()
            for _ in range(3):
                other = state.resample_from_infostate(player, sampler)
                assert isinstance(other, TrumpsState) and other.game is not None
                assert other.information_state_string(player) == key
                assert other.observation_tensor(player) == state.observation_tensor(player)
                assert other.legal_actions() == state.legal_actions()
                pos = other.game.to_json()
                deals.add(str(pos["hands"]))
                for seat in range(other.game.players):
                    if seat != player:
                        check_resampled_secrets(other, seat, pos)
                play_randomly(other, rng, 10_000)
                assert other.is_terminal()
            varied += len(deals) > 1
    # The duel hides no card once dealt (K19); every other table does.
    duel = name.startswith("python_trumps_kozyri") and "players" not in name
    assert varied == 0 if duel else varied > 0
    # Before the deal the information state is the initial state's.
    initial = pyspiel.load_game(name).new_initial_state()
    assert initial.resample_from_infostate(0, sampler).is_chance_node()


def test_clones_are_independent_and_str_is_public() -> None:
    state = dealt("python_trumps_twentyfive(players=3)", 9)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == len(state.history()) + 1
    assert isinstance(copy, TrumpsState) and copy.game != state.game
    assert state.game is not None
    pos = state.game.to_json()
    text = str(state)
    assert not set(CARD.findall(text)) & {c for h in pos["hands"] for c in h}
    assert "seed" not in text
    assert "not drawn" in str(pyspiel.load_game("python_trumps_kozyri").new_initial_state())


@pytest.mark.parametrize(
    "name",
    [
        "python_trumps_twentyfive(players=3,joker=true)",
        "python_trumps_kozyri(players=3,max_plies=200)",
    ],
)
def test_openspiel_ismcts_plays_whole_games_against_our_bots(name: str) -> None:
    # OpenSpiel's information-set MCTS (it samples worlds with resample_from_infostate)
    # in seat 0, trumps' easy and medium bots, which see only their view and legal moves.
    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    searcher = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=15, random_state=np.random.RandomState(2)
    )
    rng = random.Random(3)
    for seed in (11, 12):
        state = dealt(name, seed)
        assert state.game is not None
        bots = {1: make_bot("easy", state.game.game_id), 2: make_bot("medium", state.game.game_id)}
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            g = state.game
            if player == 0:
                action = searcher.step(state)
            else:
                decision = bots[player].decide(
                    g.view(player), g.legal_actions(), Limits(iterations=30), rng
                )
                action = g.string_to_action(decision.action)
            assert action in legal
            state.apply_action(action)
        outcome = state.game.outcome
        assert outcome is not None and outcome.reason in (
            "out_of_cards",
            "draw_rule",
            "max_plies",
            "repetition",
            "target",
        )
        seats = set(outcome.winners) | set(outcome.losers)
        assert outcome.draw or seats == {0, 1, 2}
        assert not set(outcome.winners) & set(outcome.losers)
        returns = state.returns()
        assert all(returns[s] == 1.0 for s in outcome.winners)
        assert all(returns[s] == -1.0 for s in outcome.losers)
