"""The arena: many seeded games between chosen bots, in parallel, with statistics.

``make_matchup`` checks the settings, ``plan_games`` lays out the deals and seat
rotations, ``run_games`` plays them through an executor (``make_executor``), and
``build_results`` turns the rows into the results document (``trumps.arena.report``).
"""

from __future__ import annotations

from trumps.arena.executors import (
    EXECUTORS,
    Executor,
    ExecutorUnavailable,
    InlineExecutor,
    ProcessExecutor,
    RayExecutor,
    default_jobs,
    make_executor,
)
from trumps.arena.report import build_results, print_table, write_csv, write_json, write_plot
from trumps.arena.run import (
    ArenaSetupError,
    Batch,
    BotFailure,
    Matchup,
    Plan,
    RunInfo,
    make_matchup,
    plan_games,
    play_batch,
    run_games,
)
from trumps.arena.stats import wilson

__all__ = [
    "EXECUTORS",
    "ArenaSetupError",
    "Batch",
    "BotFailure",
    "Executor",
    "ExecutorUnavailable",
    "InlineExecutor",
    "Matchup",
    "Plan",
    "ProcessExecutor",
    "RayExecutor",
    "RunInfo",
    "build_results",
    "default_jobs",
    "make_executor",
    "make_matchup",
    "plan_games",
    "play_batch",
    "print_table",
    "run_games",
    "wilson",
    "write_csv",
    "write_json",
    "write_plot",
]
