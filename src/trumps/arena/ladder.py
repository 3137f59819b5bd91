"""The level ladder: every level against fields of one level each, and each step measured.

A *field* is every other seat played by one level ("three ``medium``" at four seats).  For
each field the ladder plays each level in one seat against it, on the same seeded deals
with the seats rotated (``plan_games`` of a one-against-many match, which depends only on
the game, the seat count and the seed), so each level's games and the level below's are
the same games.  A *step* is a level's score minus the score of the level below it in
that same seat of the same game, averaged per deal, with a 95% Student t interval over
deals (``reference_stats``): a level earns its name in a field when its step's interval
is above zero.  The oracle (it sees every card, measurement only) is reported beside the
levels as the ceiling of the seat, compared with the strongest level.

Search levels cost far more time than rules of thumb, so ``search_games`` may be fewer
than ``games``: a step is measured over the games both of its levels played (a plan of
fewer games is a prefix of the longer one).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from trumps.ai import BOTS, level_limits
from trumps.ai.oracle import ORACLE_LEVEL
from trumps.arena.executors import Executor
from trumps.arena.run import (
    ArenaSetupError,
    Batch,
    Matchup,
    make_matchup,
    plan_games,
    run_games,
)
from trumps.arena.stats import fair_share, reference_stats, seat_scores
from trumps.games import GAMES

__all__ = ["SEARCH_LEVELS", "Cell", "Ladder", "arena_command", "run_ladder"]

#: The levels whose moves are searches (their games are the costly ones).
SEARCH_LEVELS: frozenset[str] = frozenset({"hard", "expert", ORACLE_LEVEL})


@dataclass
class Cell:
    """One level in one field: its share, time per move and step over the level below."""

    level: str
    field: str
    games: int
    share: float  # the level's mean score (a win 1, a draw ½) in its seat
    fair: float  # what an equal player would score there (``fair_share``)
    seconds_mean: float
    seconds_max: float
    below: str | None = None  # the level the step is measured against
    step: dict[str, Any] | None = None  # ``reference_stats`` (scores: a win 1)
    command: str = ""


@dataclass
class Ladder:
    game: str
    players: int
    rules: str
    seed: int
    time_limit: float | None
    cells: list[Cell] = field(default_factory=list)

    def cell(self, level: str, fld: str) -> Cell | None:
        for c in self.cells:
            if c.level == level and c.field == fld:
                return c
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "rules": self.rules,
            "seed": self.seed,
            "time_limit": self.time_limit,
            "cells": [c.__dict__ for c in self.cells],
        }


def arena_command(matchup: Matchup, games: int, seed: int, reference: str | None = None) -> str:
    """The ``trumps arena`` command that plays one cell's games (and its step)."""
    parts = [
        "trumps arena",
        f"--game {matchup.game}",
        f"--players {matchup.players}",
        f"--bots {','.join(matchup.levels)}",
    ]
    if matchup.rules != GAMES[matchup.game].DEFAULT_PRESET:
        parts.append(f"--rules {matchup.rules}")
    if reference is not None:
        parts.append(f"--reference {reference}")
    parts += [f"--games {games}", f"--seed {seed}"]
    if matchup.time_limit is not None:
        parts.append(f"--time-limit {matchup.time_limit:g}")
    return " ".join(parts)


def _first_scores(matchup: Matchup, rows: Sequence[dict[str, Any]]) -> tuple[float, float]:
    """The first bot's mean score and the fair score of its seat over ``rows``."""
    first = matchup.bots[0]
    got, fair = [], []
    for row in rows:
        seat = list(row["seats"]).index(first)
        got.append(seat_scores(row)[seat])
        fair.append(fair_share(row))
    return math.fsum(got) / len(got), math.fsum(fair) / len(fair)


def _times(matchup: Matchup, rows: Sequence[dict[str, Any]]) -> tuple[float, float]:
    first = matchup.bots[0]
    moves = sum(int(r["moves"][first]) for r in rows)
    total = math.fsum(r["seconds"][first]["mean"] * int(r["moves"][first]) for r in rows)
    worst = max((r["seconds"][first]["max"] for r in rows), default=0.0)
    return (total / moves if moves else 0.0), worst


def run_ladder(
    game: str,
    players: int,
    levels: Sequence[str],
    fields: Sequence[str],
    *,
    games: int,
    seed: int,
    executor: Executor[Batch, list[dict[str, Any]]],
    rules: str | None = None,
    time_limit: float | None = None,
    search_games: int | None = None,
    budget_scale: float | None = None,
    oracle: bool = False,
    on_cell: Callable[[Cell], None] | None = None,
) -> Ladder:
    """Play every level of ``levels`` (weakest first) against every field of ``fields``;
    with ``oracle``, the oracle too.  ``time_limit`` is every bot's time per move;
    ``budget_scale`` instead gives each searching level that share of its own default
    budget (``level_limits``; the oracle the strongest level's), so that the levels keep
    their ratio of budgets (the field's bots do not search).  Raises
    ``ArenaSetupError`` for unknown names."""
    for name in (*levels, *fields):
        if name not in BOTS:
            make_matchup(game, [name, name], players, rules, time_limit)  # names the error
    if budget_scale is not None and not budget_scale > 0:
        raise ArenaSetupError(f"budget scale must be positive, not {budget_scale}", "scale")
    first = make_matchup(game, [levels[0], fields[0]], players, rules, time_limit)
    ladder = Ladder(game, players, first.rules, seed, time_limit)
    everyone = [*levels, ORACLE_LEVEL] if oracle else list(levels)
    for fld in fields:
        played: dict[str, tuple[Matchup, list[dict[str, Any]]]] = {}
        for i, level in enumerate(everyone):
            n = games if level not in SEARCH_LEVELS or search_games is None else search_games
            seconds = time_limit
            if budget_scale is not None:
                own = level_limits(game, levels[-1] if level == ORACLE_LEVEL else level, players)
                seconds = None if own.time is None else own.time * budget_scale
            matchup = make_matchup(game, [level, fld], players, rules, seconds)
            rows = run_games(plan_games(matchup, n, seed), executor)
            played[level] = (matchup, rows)
            share, fair = _first_scores(matchup, rows)
            mean, worst = _times(matchup, rows)
            below = None if i == 0 else everyone[i - 1]
            cell = Cell(level, fld, len(rows), share, fair, mean, worst, below)
            if below is not None:
                ref_matchup, ref_rows = played[below]
                common = min(len(rows), len(ref_rows))
                step = reference_stats(matchup, rows[:common], ref_matchup, ref_rows[:common])
                cell.step = step
                cell.command = arena_command(matchup, common, seed, below)
            else:
                cell.command = arena_command(matchup, len(rows), seed)
            ladder.cells.append(cell)
            if on_cell is not None:
                on_cell(cell)
    return ladder
