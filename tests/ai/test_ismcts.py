"""The search bots (trumps.ai.ismcts): legal, deterministic, within budget, and they find
the winning move in composed Twenty-Five positions where one exists."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest

import trumps
from trumps.ai.base import Bot, Limits
from trumps.ai.ismcts import ISMCTSExpertBot, ISMCTSHardBot, PIMCBot

BOT_CLASSES: list[type[Bot]] = [ISMCTSHardBot, ISMCTSExpertBot, PIMCBot]
SETUPS: list[tuple[str, int, dict[str, object]]] = [
    ("twentyfive", 2, {}),
    ("twentyfive", 4, {}),
    ("twentyfive", 4, {"teams": 2}),
    ("twentyfive", 6, {"teams": 3, "joker": True}),
    ("twentyfive", 5, {"rob": "mandatory"}),
    ("kozyri", 3, {}),
    ("kozyri", 4, {"voluntary_pickup": True}),
]


def _positions(
    game_id: str, players: int, rules: dict[str, object], count: int
) -> list[trumps.Game]:
    rng = random.Random(f"{game_id}{players}{sorted(rules.items())}")
    out: list[trumps.Game] = []
    seed = 0
    while len(out) < count:
        extra: dict[str, Any] = {"trumps": list("SHDC"[:players])} if game_id == "kozyri" else {}
        game = trumps.new_game(game_id, players=players, rules=rules, seed=seed, **extra)
        seed += 1
        for _ in range(rng.randrange(0, 30)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_actions()))
        if not game.is_over and len(game.legal_actions()) > 1:
            out.append(game)
    return out


@pytest.mark.parametrize(("game_id", "players", "rules"), SETUPS)
def test_bots_return_legal_actions(game_id: str, players: int, rules: dict[str, object]) -> None:
    for i, game in enumerate(_positions(game_id, players, rules, 4)):
        seat = game.current_player
        assert seat is not None
        legal = game.legal_actions()
        bot = BOT_CLASSES[i % len(BOT_CLASSES)](game_id)
        d = bot.decide(game.view(seat), legal, Limits(iterations=60), random.Random(i))
        assert d.action in legal
        assert d.reasoning and "\n" not in d.reasoning
        assert d.values is not None
        assert set(d.values) <= set(legal)
        assert all(0.0 <= v <= 1.0 for v in d.values.values())


def test_a_whole_game_of_legal_moves() -> None:
    game = trumps.new_game("twentyfive", players=3, seed=4)
    bot = ISMCTSHardBot("twentyfive")
    rng = random.Random(0)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        legal = game.legal_actions()
        game.play(bot.decide(game.view(seat), legal, Limits(iterations=30), rng).action)


def test_trivial_decisions_are_immediate() -> None:
    game = trumps.new_game("kozyri", players=3, seed=1)
    seat = game.current_player
    assert seat is not None
    legal = game.legal_actions()
    d = ISMCTSExpertBot("kozyri").decide(game.view(seat), legal, Limits(), random.Random(0))
    assert d.action in legal and d.action.startswith("trump ")
    only = trumps.new_game("twentyfive", seed=0).view(0)  # one legal action: nothing read
    d = ISMCTSExpertBot("twentyfive").decide(only, ["7H"], Limits(), random.Random(0))
    assert d.action == "7H"


@pytest.mark.parametrize("bot_class", BOT_CLASSES)
@pytest.mark.parametrize("game_id", ["twentyfive", "kozyri"])
def test_deterministic_for_a_seed(bot_class: type[Bot], game_id: str) -> None:
    players = 4 if game_id == "twentyfive" else 3
    game = _positions(game_id, players, {}, 1)[0]
    seat = game.current_player
    assert seat is not None
    view, legal = game.view(seat), game.legal_actions()
    a = bot_class(game_id).decide(view, legal, Limits(iterations=150), random.Random(3))
    b = bot_class(game_id).decide(view, legal, Limits(iterations=150), random.Random(3))
    assert a == b


@pytest.mark.parametrize("bot_class", [ISMCTSHardBot, PIMCBot])
def test_time_limit_is_respected(bot_class: type[Bot]) -> None:
    game = trumps.new_game("twentyfive", players=6, seed=2)
    seat = game.current_player
    assert seat is not None
    start = time.perf_counter()
    d = bot_class("twentyfive").decide(
        game.view(seat), game.legal_actions(), Limits(time=0.08), random.Random(0)
    )
    elapsed = time.perf_counter() - start
    assert d.action in game.legal_actions()
    # Slack for a loaded CI machine; a search ignoring its limit would run for ever here.
    assert elapsed < 0.08 + 0.6


def test_node_limit_stops_the_search() -> None:
    game = trumps.new_game("twentyfive", players=4, seed=2)
    seat = game.current_player
    assert seat is not None
    d = ISMCTSHardBot("twentyfive").decide(
        game.view(seat), game.legal_actions(), Limits(nodes=40), random.Random(0)
    )
    assert "40 nodes" in d.reasoning
    # For people: the sampled score and the number of deals, as structured numbers.
    assert d.explain is not None and d.explain.code == "sampled"
    assert f"scores {d.explain.numbers['percent']:.0f}%" in d.reasoning
    assert d.explain.numbers["deals"] >= 1


# -- composed positions (two cards a seat, nobody robbed) --------------------------------


def _decide(position: dict[str, Any], bot_class: type[Bot], iterations: int = 300) -> str:
    game = trumps.from_json(position)
    seat = game.current_player
    assert seat is not None
    d = bot_class("twentyfive").decide(
        game.view(seat), game.legal_actions(), Limits(iterations=iterations), random.Random(1)
    )
    return d.action


@pytest.mark.parametrize("bot_class", BOT_CLASSES)
def test_leads_the_top_trump_to_reach_the_target(bot_class: type[Bot]) -> None:
    # Spades are trumps; seat 0 needs one trick.  The 5♠ wins whatever the others hold;
    # the 2♦ may well lose the trick, and the game, to a seat that also needs one.
    position = {
        "game": "twentyfive",
        "dealer": 3,
        "turnup": "8S",
        "hands": [["2D", "5S"], ["KD", "9C"], ["QH", "TC"], ["3D", "4H"]],
        "to_move": 0,
        "scores": [20, 20, 20, 20],
    }
    assert _decide(position, bot_class) == "5S"


@pytest.mark.parametrize("bot_class", BOT_CLASSES)
def test_plays_the_trump_that_surely_wins_the_game(bot_class: type[Bot]) -> None:
    # Spades are trumps; seat 0 led the K♠.  Seat 1 must play a trump (F14: it holds a
    # non-privileged one): the 5♠ takes the trick and the game, the 4♠ cannot.
    position = {
        "game": "twentyfive",
        "dealer": 3,
        "turnup": "8S",
        "hands": [["2D"], ["4S", "5S"], ["QH", "TC"], ["3D", "4H"]],
        "trick": ["KS"],
        "to_move": 1,
        "scores": [20, 20, 15, 15],
    }
    assert _decide(position, bot_class) == "5S"


@pytest.mark.parametrize("bot_class", BOT_CLASSES)
def test_does_not_overtake_the_partner(bot_class: type[Bot]) -> None:
    # Teams {0, 2} and {1, 3}; hearts are trumps.  Seat 1's K♣ already wins the clubs
    # trick; seat 3 keeps its 5♥ (the best trump) for the last trick: both tricks and the
    # game.  Trumping the partner's trick with it throws the last trick away.
    position = {
        "game": "twentyfive",
        "rules": {"teams": 2},
        "teams": [[0, 2], [1, 3]],
        "dealer": 3,
        "turnup": "2H",
        "hands": [["QD"], ["9S"], ["JD"], ["4C", "5H"]],
        "trick": ["2C", "KC", "3C"],
        "to_move": 3,
        "scores": [15, 15],
    }
    assert _decide(position, bot_class) == "4C"


@pytest.mark.parametrize("bot_class", BOT_CLASSES)
def test_teams_of_three_do_not_trump_the_partners_trick(bot_class: type[Bot]) -> None:
    # Teams {0, 2, 4} and {1, 3, 5}; hearts are trumps.  Seat 1's K♣ holds the trick and
    # seat 5 plays last: the 5♥ kept wins the last trick, and with this one the game for
    # the team (15 + 5 + 5) — the search scores the team's result, not the seat's tricks.
    position = {
        "game": "twentyfive",
        "rules": {"teams": 3},
        "teams": [[0, 2, 4], [1, 3, 5]],
        "dealer": 5,
        "turnup": "2H",
        "hands": [["QD"], ["9S"], ["JD"], ["8S"], ["TD"], ["4D", "5H"]],
        "trick": ["2C", "KC", "3C", "4C", "6C"],
        "to_move": 5,
        "scores": [10, 15],
    }
    assert _decide(position, bot_class) == "4D"


# -- Twenty-Five rollout policy, race reward, inference ----------------------------------


def test_race_table_is_a_distribution_and_symmetric() -> None:
    from trumps.ai._ismcts_env import race_table

    table = race_table([1, 1, 1, 1], 4, 5)

    def code(needs: tuple[int, ...]) -> int:
        return sum(k * 6**i for i, k in enumerate(needs))

    assert table[code((5, 5, 5, 5))] == pytest.approx([0.25] * 4)
    for needs in [(1, 5, 5, 5), (2, 3, 4, 5), (3, 3, 1, 2)]:
        row = table[code(needs)]
        assert sum(row) == pytest.approx(1.0)
        # Fewer tricks needed, better chances.
        order = sorted(range(4), key=lambda s: needs[s])
        assert all(row[a] >= row[b] - 1e-12 for a, b in itertools.pairwise(order))
    # Teams of two at four seats: two sides, each taking a trick half the time.
    teams = race_table([2, 2], 4, 5)
    assert teams[1 + 6 * 1] == pytest.approx([0.5, 0.5])


@pytest.mark.parametrize(("players", "rules"), [(4, {}), (4, {"teams": 2}), (6, {"joker": True})])
def test_smart_rollout_policy_plays_legal_moves(players: int, rules: dict[str, object]) -> None:
    from trumps.ai._ismcts_policy import twentyfive_policy_smart

    rng = random.Random(5)
    for seed in range(6):
        core = trumps.new_game("twentyfive", players=players, rules=rules, seed=seed).core
        while not core.over():
            m = twentyfive_policy_smart(core, rng, 0.0, True)  # type: ignore[arg-type]
            assert m in core.legal_moves()
            core.step(m)


def test_inference_option_is_legal_and_deterministic() -> None:
    class Inferring(PIMCBot):
        tf_infer = 0.2

    for game in _positions("twentyfive", 4, {}, 3):
        seat = game.current_player
        assert seat is not None
        view, legal = game.view(seat), game.legal_actions()
        a = Inferring("twentyfive").decide(view, legal, Limits(iterations=40), random.Random(2))
        b = Inferring("twentyfive").decide(view, legal, Limits(iterations=40), random.Random(2))
        assert a == b and a.action in legal
