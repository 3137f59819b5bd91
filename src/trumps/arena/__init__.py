"""The arena: many seeded games between chosen bots, in parallel, with statistics.

``make_matchup`` checks the settings, ``plan_games`` lays out the deals and seat
rotations (``with_reference``: the same games with a reference bot in the first bot's
place), ``run_games`` plays them through an executor (``make_executor``), and
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
    with_reference,
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
    "with_reference",
    "write_csv",
    "write_json",
    "write_plot",
]
