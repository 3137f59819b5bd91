"""The oracle (issue 12): a search given every hidden card, for measurement only.

It must never be offered to players (not a level, not in the server's catalog, not in
``trumps play``, not a ``Bot`` a seat could be given), the arena accepts it by name and
marks it, it plays only legal actions under every rule option, and it beats ``random``.
Every other bot stays under the no-peek test (``test_no_peeking.py``, over ``BOTS``).
"""

from __future__ import annotations

import random
from typing import Any

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

import trumps
from ai.positions import SETTINGS, positions, reach, redeal, rule_options
from trumps.ai import BOTS, Bot, Limits, make_bot
from trumps.ai.oracle import ORACLE_LEVEL, ORACLE_NOTE, OracleBot
from trumps.arena import InlineExecutor, make_matchup, plan_games, play_batch, run_games
from trumps.arena.run import ARENA_BOTS, play_game
from trumps.arena.stats import bot_stats, paired_stats
from trumps.cli import cli

LIMITS = Limits(iterations=6, nodes=300)


def test_the_oracle_is_no_level_and_no_bot() -> None:
    assert ORACLE_LEVEL == "oracle"
    assert ORACLE_LEVEL not in BOTS
    for game_id in ("kozyri", "twentyfive"):
        with pytest.raises(ValueError, match="no bot level 'oracle'"):
            make_bot(ORACLE_LEVEL, game_id)
    # Not a Bot: nothing that hands a seat's view to ``decide`` can use it.
    assert not issubclass(OracleBot, Bot)
    assert not hasattr(OracleBot, "decide")


def test_the_oracle_is_not_offered_to_players() -> None:
    pytest.importorskip("starlette")
    from trumps.server.api.catalog import catalog

    levels = [entry["level"] for entry in catalog()["levels"]]
    assert levels and ORACLE_LEVEL not in levels
    play = cli.commands["play"]
    (opponent,) = [p for p in play.params if p.name == "opponent"]
    assert isinstance(opponent.type, click.Choice)
    assert list(opponent.type.choices) and ORACLE_LEVEL not in opponent.type.choices


def test_every_other_arena_bot_is_under_the_no_peek_test() -> None:
    # test_no_peeking.py checks every level of BOTS: all the arena's bots but the oracle.
    assert set(ARENA_BOTS) - set(BOTS) == {ORACLE_LEVEL}


def _check(game: Any, seed: int) -> None:
    seat = game.current_player
    assert seat is not None
    legal = game.legal_actions()
    bot = OracleBot(game.game_id)
    decision = bot.decide_full(game.to_json(), list(legal), LIMITS, random.Random(seed))
    assert decision.action in legal, (decision, game.to_json())
    assert decision.reasoning


@SETTINGS
@given(
    players=st.integers(2, 4),
    rules=rule_options("kozyri"),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 120),
)
def test_the_oracle_plays_legally_at_svoi_kozyri(
    players: int, rules: dict[str, object], seed: int, plies: int
) -> None:
    _check(reach("kozyri", players, rules, seed, plies), seed)


@SETTINGS
@given(
    players=st.integers(2, 10),
    rules=rule_options("twentyfive"),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 60),
)
def test_the_oracle_plays_legally_at_twentyfive(
    players: int, rules: dict[str, object], seed: int, plies: int
) -> None:
    _check(reach("twentyfive", players, rules, seed, plies), seed)


def test_the_oracle_uses_the_hidden_cards() -> None:
    """Where the view leaves the choice open, the true deal decides it: across positions,
    the oracle's move depends on hidden cards that no view shows (the opposite of the
    no-peek test, which every level passes)."""
    changed = 0
    for k, game in enumerate(positions("twentyfive", 4, {})):
        seat = game.current_player
        assert seat is not None
        other = redeal(game, seat, random.Random(k))
        assert other.view(seat) == game.view(seat)
        legal = game.legal_actions()
        bot = OracleBot("twentyfive")
        a = bot.decide_full(game.to_json(), legal, Limits(iterations=400), random.Random(3))
        b = bot.decide_full(other.to_json(), legal, Limits(iterations=400), random.Random(3))
        changed += a.values != b.values
    assert changed >= 1


def test_the_oracle_is_deterministic_with_an_iteration_budget() -> None:
    game = trumps.new_game("twentyfive", players=4, seed=5)
    legal = game.legal_actions()
    bot = OracleBot("twentyfive")
    a = bot.decide_full(game.to_json(), legal, Limits(iterations=300), random.Random(1))
    b = bot.decide_full(game.to_json(), legal, Limits(iterations=300), random.Random(1))
    assert a == b


def test_the_oracle_refuses_another_games_position() -> None:
    game = trumps.new_game("kozyri", players=3, seed=1)
    with pytest.raises(ValueError, match="plays twentyfive"):
        OracleBot("twentyfive").decide_full(game.to_json(), ["x", "y"], LIMITS, random.Random())
    with pytest.raises(ValueError, match="no game"):
        OracleBot("chess")


def test_the_arena_plays_the_oracle_and_it_beats_random_clearly() -> None:
    m = make_matchup("twentyfive", ["oracle", "random"], players=4, time_limit=0.004)
    assert m.measurement_only == {"oracle": ORACLE_NOTE}
    plan = plan_games(m, 48, seed=3)
    rows = run_games(plan, InlineExecutor(play_batch), batch_size=48)
    stats = bot_stats(m, rows)
    # Three random bots share the other seats: a fair share is 12 of 48 (it won 34 when
    # written; random play keeps even a perfect player far from every game).
    assert stats["oracle"]["wins"] >= 20, stats["oracle"]
    paired = paired_stats(m, rows)
    assert paired["deals"] == 12
    lo, _ = paired["above_fair"]["oracle"]["ci95"]
    assert lo > 0, paired["above_fair"]["oracle"]


def test_the_arena_gives_the_oracle_the_whole_position(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    real = OracleBot.decide_full

    def spy(self: OracleBot, position: Any, *args: Any) -> Any:
        seen.append(position)
        return real(self, position, *args)

    monkeypatch.setattr(OracleBot, "decide_full", spy)
    m = make_matchup("twentyfive", ["oracle", "easy"], players=4, time_limit=0.002)
    play_game(m, plan_games(m, 1, seed=0).specs[0])
    assert seen
    for position in seen:
        # A full position, not a view: every hand is a list of cards, the stock is there.
        assert all(isinstance(h, list) for h in position["hands"])
        assert "stock" in position
