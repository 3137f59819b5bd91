"""Property: every registered bot, at every level, answers a legal action from any
reachable position of either game, under any rule options and preset.

Positions are reached by random legal play from a fresh game (the Svoi Kozyri trump
choice included); the budgets are tiny so that the search levels stay fast — legality
does not depend on the budget.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

import trumps
from ai.positions import SETTINGS, reach, rule_options
from trumps.ai import BOTS, make_bot
from trumps.ai.base import Limits

LIMITS = Limits(iterations=4, nodes=300)


def _check_every_level(game: Any, seed: int) -> None:
    seat = game.current_player
    assert seat is not None
    legal = game.legal_actions()
    for level in BOTS:
        bot = make_bot(level, game.game_id)
        decision = bot.decide(game.view(seat), list(legal), LIMITS, random.Random(seed))
        assert decision.action in legal, (level, decision, game.to_json())
        assert decision.reasoning, level


@SETTINGS
@given(
    players=st.integers(2, 4),
    rules=rule_options("kozyri"),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 120),
)
def test_every_bot_plays_legally_at_svoi_kozyri(
    players: int, rules: dict[str, object], seed: int, plies: int
) -> None:
    _check_every_level(reach("kozyri", players, rules, seed, plies), seed)


@SETTINGS
@given(
    players=st.integers(2, 10),
    rules=rule_options("twentyfive"),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 60),
)
@example(players=4, rules={"joker": True}, seed=58, plies=0)  # F17a: the discard owed
@example(players=4, rules={"joker": True}, seed=58, plies=1)  # F17a: just discarded
def test_every_bot_plays_legally_at_twentyfive(
    players: int, rules: dict[str, object], seed: int, plies: int
) -> None:
    _check_every_level(reach("twentyfive", players, rules, seed, plies), seed)


def test_the_positions_reach_the_rare_cases() -> None:
    """The generator reaches what broke bots before: the joker discard owed (F17a) and a
    rob on offer (F9), and the Svoi Kozyri trump choice (K3) and a pick-up (K12)."""
    seen: set[str] = set()
    for seed in range(200):
        game = _reach_plain("twentyfive", 4, {"joker": True}, seed, seed % 12)
        legal = game.legal_actions()
        seen |= {a.split()[0] for a in legal if " " in a}
        k = _reach_plain("kozyri", 3, {}, seed, seed % 30)
        seen |= {a.split()[0] for a in k.legal_actions() if a == "take" or " " in a}
    assert {"discard", "rob", "trump", "take"} <= seen


def _reach_plain(
    game_id: str, players: int, rules: dict[str, object], seed: int, plies: int
) -> Any:
    game = trumps.new_game(game_id, players=players, rules=rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
    return game
