"""The one table of bot levels × games (``trumps.ai.LEVELS``) and its default budgets."""

from __future__ import annotations

import random

import pytest

import trumps
from trumps.ai import BOTS, LEVELS, Limits, level_entry, level_limits, make_bot
from trumps.ai.ismcts import ISMCTSExpertBot, ISMCTSHardBot
from trumps.ai.kozyri_search import KozyriExpertBot, KozyriHardBot
from trumps.games import GAMES


def test_every_level_of_every_game_at_every_size_has_exactly_one_row() -> None:
    for game_id, cls in GAMES.items():
        for level in BOTS:
            for players in range(cls.min_players, cls.max_players + 1):
                rows = [
                    e
                    for e in LEVELS
                    if e.game_id == game_id
                    and e.level == level
                    and e.min_players <= players <= e.max_players
                ]
                assert len(rows) == 1, (game_id, level, players, rows)
    assert list(BOTS) == ["random", "easy", "medium", "hard", "expert"]  # weakest first


def test_default_budgets() -> None:
    # The levels that do not search have no budget; hard and expert differ (online they
    # must not think alike), and each search's own default is the table's.
    for level in ("random", "easy", "medium"):
        assert level_limits("twentyfive", level, 4) == Limits()
    assert level_limits("twentyfive", "hard", 4) == Limits(time=ISMCTSHardBot.default_time)
    assert level_limits("kozyri", "expert", 3) == Limits(time=ISMCTSExpertBot.default_time)
    assert level_limits("kozyri", "hard", 2) == Limits(time=KozyriHardBot.default_time)
    assert level_limits("kozyri", "expert", 2) == Limits(time=KozyriExpertBot.default_time)
    assert level_limits("kozyri", "hard", 2).time != level_limits("kozyri", "expert", 2).time


def test_the_duel_is_searched_exactly_and_the_rest_by_determinization() -> None:
    assert level_entry("kozyri", "hard", 2).bot is KozyriHardBot  # K19: perfect information
    assert level_entry("kozyri", "hard", 3).bot is ISMCTSHardBot
    assert level_entry("twentyfive", "expert", 2).bot is ISMCTSExpertBot
    duel = trumps.new_game("kozyri", seed=3, trumps=["S", "H"])
    three = trumps.new_game("kozyri", players=3, seed=3, trumps=["S", "H", "D"])
    for game, word in ((duel, "search"), (three, "ISMCTS")):
        seat = game.current_player
        assert seat is not None
        d = make_bot("hard", "kozyri").decide(
            game.view(seat), game.legal_actions(), Limits(nodes=200), random.Random(0)
        )
        assert word in d.reasoning and d.action in game.legal_actions()


def test_depth_is_its_own_limit() -> None:
    duel = trumps.new_game("kozyri", seed=3, trumps=["S", "H"])
    seat = duel.current_player
    assert seat is not None
    bot = make_bot("expert", "kozyri")
    for depth in (1, 3):
        d = bot.decide(duel.view(seat), duel.legal_actions(), Limits(depth=depth), random.Random(0))
        assert d.reasoning.startswith(f"depth {depth} search")
    # An iteration budget is not a depth: the duel search stays deterministic instead.
    a, b = (
        bot.decide(duel.view(seat), duel.legal_actions(), Limits(iterations=3), random.Random(0))
        for _ in range(2)
    )
    assert a == b and not a.reasoning.startswith("depth 3 ")


def test_unknown_games_levels_and_sizes_are_named() -> None:
    with pytest.raises(ValueError, match="no game 'poker'"):
        level_limits("poker", "hard", 2)
    with pytest.raises(ValueError, match="no bot level 'grandmaster'"):
        level_limits("kozyri", "grandmaster", 2)
    with pytest.raises(ValueError, match="kozyri has no 5-player games"):
        level_limits("kozyri", "hard", 5)
    with pytest.raises(ValueError, match="poker"):
        make_bot("medium", "poker")
