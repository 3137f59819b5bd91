"""The PettingZoo environment (issue 14 §2, docs/research.md): PettingZoo's own api_test
and seed_test, observations from a seat's view only, the documented rewards, seeding,
illegal actions and the rule options passing through."""

from __future__ import annotations

import pickle
import random
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test.api_test import api_test
from pettingzoo.test.seed_test import seed_test

import trumps
from gamekit import CONF, redeal
from trumps.envs.observation import encode, size
from trumps.envs.pettingzoo import env, raw_env
from trumps.games.viewtypes import hidden_hand, hidden_hands, kozyri_view, twentyfive_view

# What PettingZoo's checks say of any Dict observation (its classic games get the same).
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


@contextmanager
def pettingzoo_checks() -> Iterator[None]:
    """Run PettingZoo's tests, allowing only the warnings every Dict observation gets."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert unexpected == []


TABLES = [
    pytest.param({"game": "kozyri", "players": 2}, 1000, id="kozyri-2"),
    pytest.param({"game": "kozyri", "players": 3}, 700, id="kozyri-3"),
    pytest.param({"game": "kozyri", "players": 4, "rules": "pagat"}, 500, id="kozyri-4-pagat"),
    pytest.param({"game": "twentyfive", "players": 2}, 100, id="twentyfive-2"),
    pytest.param(
        {"game": "twentyfive", "players": 4, "rules": {"teams": 2}}, 100, id="twentyfive-4-teams"
    ),
    pytest.param(
        {"game": "twentyfive", "players": 5, "rules": {"joker": True}, "reward": "points"},
        100,
        id="twentyfive-5-joker-points",
    ),
    pytest.param(
        {"game": "twentyfive", "players": 10, "rules": {"teams": 2}, "reward": "points"},
        60,
        id="twentyfive-10-teams-points",
    ),
]


@pytest.mark.parametrize(("kwargs", "cycles"), TABLES)
def test_pettingzoo_api_test(kwargs: dict[str, Any], cycles: int) -> None:
    with pettingzoo_checks():
        api_test(env(**kwargs), num_cycles=cycles, verbose_progress=False)  # type: ignore[no-untyped-call]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game": "kozyri", "players": 2},
        {"game": "kozyri", "players": 3},
        {"game": "twentyfive", "players": 4},
        {"game": "twentyfive", "players": 6, "rules": {"teams": 3}, "reward": "points"},
    ],
    ids=["kozyri-2", "kozyri-3", "twentyfive-4", "twentyfive-6-teams-points"],
)
def test_pettingzoo_seed_test(kwargs: dict[str, Any]) -> None:
    with pettingzoo_checks():
        seed_test(lambda: env(**kwargs), num_cycles=300)  # type: ignore[no-untyped-call]


# -- whole games through raw_env --------------------------------------------------------

ENV_CONF = settings(CONF, max_examples=25)


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    game = draw(st.sampled_from(["kozyri", "twentyfive"]))
    if game == "kozyri":
        players = draw(st.integers(2, 4), label="players")
        # K17 draws included: a short max_plies ends some games drawn.
        plies = draw(st.sampled_from([40, 300, 2000]), label="max_plies")
        return {"game": game, "players": players, "rules": {"max_plies": plies}, "reward": "win"}
    players = draw(st.integers(2, 10), label="players")
    rules: dict[str, Any] = {"joker": draw(st.booleans())}
    if players in (4, 6, 8, 10) and draw(st.booleans()):
        rules["teams"] = 2
    rules["target"] = draw(st.sampled_from([10, 25]))
    reward = draw(st.sampled_from(["win", "points"]))
    return {"game": game, "players": players, "rules": rules, "reward": reward}


def check_observations(e: raw_env, rng: random.Random, redeal_too: bool) -> None:
    """Every agent's observation is its own view's encoding, and the mask is the game's
    for the agent to move, zeros for the others; with ``redeal_too``, re-dealing the cards
    hidden from a seat (consistently with its view) leaves its observation alone."""
    game = e.game
    pos = game.to_json()
    for seat, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        view = game.view(seat)
        expected = np.array(encode(view), np.float32)
        assert np.array_equal(obs["observation"], expected)
        assert e.observation_space(agent).contains(obs)
        if game.current_player == seat:
            assert obs["action_mask"].tolist() == game.action_mask()
        else:
            assert not obs["action_mask"].any()
        if redeal_too:
            again = redeal(pos, view, seat, rng)
            if again is not None:
                other = trumps.from_json(again)
                assert np.array_equal(np.array(encode(other.view(seat)), np.float32), expected)


def side_scores(game: trumps.Game) -> list[int]:
    view = twentyfive_view(game.view(None))
    teams = view["teams"]
    scores = view["scores"]
    if not teams:
        return list(scores)
    side = {s: t for t, members in enumerate(teams) for s in members}
    return [scores[side[s]] for s in range(game.players)]


@ENV_CONF
@given(table=tables(), seed=st.integers(0, 2**32))
def test_random_games_observe_reward_and_replay(table: dict[str, Any], seed: int) -> None:
    e = raw_env(**table)
    e.reset(seed=seed)
    rng = random.Random(seed)
    received = dict.fromkeys(e.possible_agents, 0.0)  # everything last() handed each agent
    ids: list[int] = []
    steps = 0
    for agent in e.agent_iter(100_000):
        assert agent in e.agents
        obs, reward, terminated, truncated, info = e.last()
        received[agent] += reward
        assert truncated is False and info == {}
        if terminated:
            assert e.game.is_over
            e.step(None)
            continue
        assert agent == e.possible_agents[e.game.current_player or 0]
        if steps % 7 == 0:
            check_observations(e, rng, redeal_too=steps % 21 == 0)
        assert obs is not None
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        assert action in e.game.legal_action_ids()
        e.step(action)
        ids.append(action)
        steps += 1
    assert e.agents == [] and e.game.is_over
    check_observations(e, rng, redeal_too=False)

    # Rewards as documented: ±1 (0 on a draw), plus the points ÷ target if asked for.
    outcome = e.game.outcome
    assert outcome is not None
    for seat, agent in enumerate(e.possible_agents):
        expected = 0.0 if outcome.draw else (1.0 if seat in outcome.winners else -1.0)
        if table["reward"] == "points":
            expected += side_scores(e.game)[seat] / table["rules"]["target"]
        assert received[agent] == pytest.approx(expected), (agent, outcome)
    if table["game"] == "kozyri" and not outcome.draw:
        assert sorted(received.values()).count(-1.0) == 1  # the one loser
    if getattr(e.game, "teams", None):
        for team in e.game.teams:  # type: ignore[attr-defined]
            assert len({received[e.possible_agents[s]] for s in team}) == 1

    # The game is the one the seed and the actions make.
    again = trumps.new_game(
        table["game"], players=table["players"], rules=table["rules"], seed=e.game.seed
    )
    for i in ids:
        again.play_id(i)
    assert again == e.game

    # The same env seed deals the same game, in this env again and in another.
    other = raw_env(**table)
    other.reset(seed=seed)
    e.reset(seed=seed)
    assert e.game == other.game and e.game.history == []


def test_seeding_is_reproducible_and_fresh() -> None:
    a, b = raw_env(game="twentyfive", players=4), raw_env(game="twentyfive", players=4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game == b.game
    a.reset()  # the next draw of the seeded generator: the same in both
    b.reset()
    assert a.game == b.game
    seeds = {a.game.seed}
    for s in range(12, 20):
        a.reset(seed=s)
        seeds.add(a.game.seed)
    assert len(seeds) == 9
    a.reset(seed=11)
    b.reset(seed=12)
    assert a.game.seed != b.game.seed


def test_kozyri_starts_with_the_trump_choice() -> None:
    e = raw_env(game="kozyri", players=3)
    e.reset(seed=5)
    mask = e.observe(e.agent_selection)["action_mask"]
    assert np.flatnonzero(mask).tolist() == [37, 38, 39, 40]
    while None in kozyri_view(e.game.view(None))["trumps"]:
        chooser = e.agent_selection
        e.step(int(np.flatnonzero(e.observe(chooser)["action_mask"])[0]))
    assert e.game.history == ["trump S", "trump H", "trump D"]
    assert sum(h["count"] for h in hidden_hands(e.game.view(None))) == 36  # dealt


def test_max_plies_ends_the_game_drawn_not_truncated() -> None:
    e = raw_env(game="kozyri", players=2, rules={"max_plies": 10})
    e.reset(seed=3)
    while not e.game.is_over:
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
    assert e.game.outcome is not None and e.game.outcome.reason == "max_plies"
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e._cumulative_rewards == dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        e.step(None)


# -- illegal actions ---------------------------------------------------------------------


def snapshot(e: raw_env) -> Any:
    return (
        e.game.to_json(),
        e.agent_selection,
        dict(e.rewards),
        dict(e._cumulative_rewards),
        dict(e.terminations),
    )


@pytest.mark.parametrize("game", ["kozyri", "twentyfive"])
def test_an_illegal_id_raises_in_raw_env_and_changes_nothing(game: str) -> None:
    e = raw_env(game=game, players=2, reward="win")
    e.reset(seed=2)
    for _ in range(3):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    before = snapshot(e)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(trumps.IllegalAction, match=f"action id {illegal}"):
        e.step(illegal)
    with pytest.raises(trumps.IllegalAction):
        e.step(np.int64(illegal))
    for bad in (e.game.num_actions, -1, True, 1.5):
        with pytest.raises(trumps.InvalidAction):
            e.step(bad)
    assert snapshot(e) == before


@pytest.mark.parametrize("game", ["kozyri", "twentyfive"])
def test_an_illegal_id_in_env_ends_the_game_with_minus_one(game: str) -> None:
    e = env(game=game, players=3)
    e.reset(seed=4)
    offender = e.agent_selection
    obs, *_ = e.last()
    assert obs is not None
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    got = {}
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        got[agent] = reward
        e.step(None)
    assert got == {a: (-1 if a == offender else 0) for a in e.possible_agents}


# -- construction ------------------------------------------------------------------------


def test_rules_pass_through_and_the_spaces_fit() -> None:
    e = raw_env(game="twentyfive", players=5, rules={"joker": True, "target": 45})
    assert e.game.rules["joker"] is True and e.game.rules["target"] == 45
    assert e.possible_agents == [f"player_{s}" for s in range(5)]
    e.reset(seed=1)
    assert e.game.rules["target"] == 45 and e.game.players == 5
    assert e.action_space("player_0").n == 159
    space = e.observation_space("player_3")
    assert space["observation"].shape == (size("twentyfive"),)
    assert space["action_mask"].shape == (159,)
    k = raw_env(game="kozyri", rules="pagat", players=4)
    assert k.game.rules == trumps.new_game("kozyri", rules="pagat", players=4).rules
    assert k.action_space("player_0").n == 41
    assert k.observation_space("player_0")["observation"].shape == (size("kozyri"),)
    assert e.agent_selection == f"player_{e.game.current_player}"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"game": "kozyri", "players": 5}, trumps.InvalidRules, "2–4 players"),
        ({"game": "twentyfive", "rules": {"target": "x"}}, trumps.InvalidRules, "target"),
        ({"game": "twentyfive", "rules": "nope"}, trumps.InvalidRules, "nope"),
        ({"game": "twentyfive", "players": 5, "rules": {"teams": 2}}, trumps.InvalidRules, "5"),
        ({"game": "chess"}, trumps.InvalidRules, "chess"),
        ({"game": "kozyri", "reward": "points"}, ValueError, "Twenty-Five only"),
        ({"game": "twentyfive", "reward": "score"}, ValueError, "reward"),
        ({"game": "kozyri", "render_mode": "human"}, ValueError, "render_mode"),
    ],
)
def test_bad_construction_is_one_line(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match) as info:
        raw_env(**kwargs)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("game", ["kozyri", "twentyfive"])
def test_render_ansi_shows_the_public_position(game: str) -> None:
    e = raw_env(game=game, players=4, render_mode="ansi")
    e.reset(seed=9)
    for _ in range(6):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    text = e.render()
    assert isinstance(text, str) and f"to move: {e.agent_selection}" in text
    words = set(re.split(r"[\s(),:]+", text))
    public = e.game.view(None)
    for seat, hand in enumerate(e.game.to_json()["hands"]):
        hidden = set(hand) - set(hidden_hand(public, seat)["known"])
        assert hidden and not hidden & words
    assert raw_env(game=game).render() is None


def test_envs_pickle() -> None:
    e = pickle.loads(pickle.dumps(raw_env(game="twentyfive", players=6, rules={"teams": 3})))
    assert e.game.players == 6 and e.game.teams == [[0, 2, 4], [1, 3, 5]]


def test_a_loop_like_the_docs() -> None:
    e = env(game="twentyfive", players=4, reward="points")
    e.reset(seed=42)
    for _agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
        else:
            assert obs is not None
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == []
