"""The level ladder (issue 12): each level against fields of one level, each step measured
on the same games as the level below it (``benchmarks/strength.py`` prints it)."""

from __future__ import annotations

import math

import pytest

from trumps.arena import ArenaSetupError, play_batch
from trumps.arena.executors import InlineExecutor
from trumps.arena.ladder import arena_command, run_ladder
from trumps.arena.run import make_matchup, plan_games, run_games
from trumps.arena.stats import seat_scores


def _pool() -> InlineExecutor:  # type: ignore[type-arg]
    return InlineExecutor(play_batch)


def test_every_level_meets_every_field_and_steps_are_paired() -> None:
    ladder = run_ladder(
        "twentyfive", 3, ["random", "easy"], ["random", "easy"], games=6, seed=4, executor=_pool()
    )
    assert [(c.level, c.field) for c in ladder.cells] == [
        ("random", "random"),
        ("easy", "random"),
        ("random", "easy"),
        ("easy", "easy"),
    ]
    for c in ladder.cells:
        assert c.games == 6
        assert c.fair == pytest.approx(1 / 3)
    # The step is easy's score minus random's in the same seat of the same game, per deal:
    # worked out again here from the arena's own games.
    cell = ladder.cell("easy", "easy")
    assert cell is not None and cell.below == "random" and cell.step is not None
    per_deal: dict[int, list[float]] = {}
    for level in ("easy", "random"):
        m = make_matchup("twentyfive", [level, "easy"], 3)
        rows = run_games(plan_games(m, 6, 4), _pool())
        for row in rows:
            score = seat_scores(row)[list(row["seats"]).index(level)]
            per_deal.setdefault(int(row["deal"]), []).append(score if level == "easy" else -score)
    expected = math.fsum(math.fsum(v) / 3 for v in per_deal.values()) / len(per_deal)
    assert cell.step["mean"] == pytest.approx(expected)
    assert cell.step["deals"] == 2
    assert cell.command == (
        "trumps arena --game twentyfive --players 3 --bots easy,easy --reference random "
        "--games 6 --seed 4"
    )
    first = ladder.cell("random", "random")
    assert first is not None and first.step is None and first.below is None


def test_search_levels_play_fewer_games_and_steps_use_the_common_ones() -> None:
    ladder = run_ladder(
        "twentyfive",
        2,
        ["easy", "hard"],
        ["easy"],
        games=6,
        seed=9,
        executor=_pool(),
        time_limit=0.002,
        search_games=2,
        oracle=True,
    )
    easy, hard, oracle = ladder.cells
    assert (easy.games, hard.games, oracle.games) == (6, 2, 2)
    assert hard.step is not None and hard.step["deals"] == 1
    assert oracle.level == "oracle" and oracle.below == "hard"
    assert "--games 2" in hard.command and "--time-limit 0.002" in hard.command
    assert hard.seconds_mean > 0 and hard.seconds_max >= hard.seconds_mean


def test_unknown_names_are_refused_before_any_game() -> None:
    with pytest.raises(ArenaSetupError, match="superb"):
        run_ladder(
            "twentyfive", 4, ["easy", "superb"], ["random"], games=4, seed=1, executor=_pool()
        )
    with pytest.raises(ArenaSetupError, match="12"):
        run_ladder("kozyri", 12, ["easy"], ["random"], games=4, seed=1, executor=_pool())


def test_arena_command_names_the_budget() -> None:
    m = make_matchup("kozyri", ["expert", "medium"], 3, time_limit=0.05)
    assert arena_command(m, 30, 2, "hard") == (
        "trumps arena --game kozyri --players 3 --bots expert,medium --reference hard "
        "--games 30 --seed 2 --time-limit 0.05"
    )


def test_budget_scale_keeps_each_levels_own_budget_ratio() -> None:
    # hard's own budget is 0.2 s a move, expert's 1 s (trumps.ai.levels): at a scale of
    # 0.01 they think 0.002 s and 0.01 s, and the oracle as long as the strongest level.
    ladder = run_ladder(
        "twentyfive",
        2,
        ["medium", "hard", "expert"],
        ["easy"],
        games=2,
        seed=3,
        executor=_pool(),
        budget_scale=0.01,
        oracle=True,
    )
    medium, hard, expert, oracle = ladder.cells
    assert "--time-limit" not in medium.command
    assert hard.command.endswith("--time-limit 0.002")
    assert expert.command.endswith("--time-limit 0.01")
    assert oracle.command.endswith("--time-limit 0.01")
    with pytest.raises(ArenaSetupError, match="scale"):
        run_ladder(
            "twentyfive", 2, ["easy"], ["easy"], games=2, seed=3, executor=_pool(), budget_scale=0
        )


def test_fair_share_counts_every_player_who_does_not_lose() -> None:
    # 3-player Svoi Kozyri: one loser, two winners (K15): an equal player scores 2/3.
    ladder = run_ladder("kozyri", 3, ["easy"], ["easy"], games=3, seed=5, executor=_pool())
    (cell,) = ladder.cells
    assert cell.fair == pytest.approx(2 / 3)
