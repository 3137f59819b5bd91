"""Bots' fixed ratings (``trumps arena --calibrate``, docs/ratings.md): a round robin of
bot levels in one rating family, and each level's rating fitted to its games.

The round robin (``calibration_matchups``) is every group of the levels that can share a
table, each played as an ordinary arena match on the same seeded deals:

* a duel, or a team game: every pair of levels (one seat each; one team each);
* three or more seats, everyone alone, with at least as many levels as seats: every
  choice of as many levels as seats, one seat each;
* fewer levels than seats: every ordered pair, the first in one seat and the second in
  all the others (so that each level meets the others from both sides).

The fit (``fit_levels``) uses the server's own rating update, ``trumps.ratings.rate_game``,
so the numbers are on the scale people are rated on: every level starts as a new player
(1500, deviation 350), the games are replayed in a seeded shuffled order with the levels
rating each other as people would be rated (a level in several seats of a game moves by
the mean of its seats' new ratings), and a level's rating in one pass is the mean of its
ratings over the second half of the pass, when the start no longer counts.  Several
passes in different orders are averaged, and their spread says how much the order of
the games moved the result.  Last the ratings are shifted together so that the levels'
mean is 1500 (the scale has no zero of its own: this puts a new player, who starts at
1500, in the middle of the bots).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trumps.ai import BOTS
from trumps.ai.oracle import ORACLE_LEVEL
from trumps.arena.run import ArenaSetupError, Matchup, make_matchup
from trumps.games import GAMES, Outcome, new_game
from trumps.ratings import MIN_DEVIATION, NEW, START, Rating, family_of, rate_game

__all__ = [
    "DEFAULT_PASSES",
    "LevelFit",
    "RatedGame",
    "calibration_family",
    "calibration_matchups",
    "calibration_note",
    "fit_levels",
    "rated_games",
]

DEFAULT_PASSES = 16


@dataclass(frozen=True)
class RatedGame:
    """One finished game as the fit reads it: the level in each seat, the outcome and the
    sides (each side's seats)."""

    levels: tuple[str, ...]
    outcome: Outcome
    sides: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class LevelFit:
    """A level's fitted ``rating`` (its ``games`` the games it played), and ``spread``, the
    standard deviation of its rating over the passes."""

    level: str
    rating: Rating
    spread: float
    games: int


def calibration_family(
    game: str, players: int | None = None, rules: str | None = None
) -> tuple[str, Matchup]:
    """The rating family of a calibration and a matchup of two copies of ``random`` that
    shows its seats, rules and teams; raises ``ArenaSetupError``."""
    probe = make_matchup(game, ["random", "random"], players, rules)
    return family_of(new_game(game, players=probe.players, rules=probe.game_rules(), seed=0)), probe


def calibration_matchups(
    game: str,
    levels: Sequence[str],
    players: int | None = None,
    rules: str | None = None,
    *,
    time_limit: float | None = None,
    budget_scale: float | None = None,
) -> list[Matchup]:
    """The matches of a round robin of ``levels`` (module docstring); raises
    ``ArenaSetupError`` for fewer than two levels, a level given twice, the oracle (it
    sees every card: it has no rating) or settings ``make_matchup`` refuses."""
    names = [level.strip() for level in levels]
    if len(names) < 2:
        raise ArenaSetupError("a calibration needs two levels or more", "--bots")
    if ORACLE_LEVEL in names:
        raise ArenaSetupError(
            f"{ORACLE_LEVEL} sees every card: it has no rating to calibrate", "--bots"
        )
    if len(set(names)) != len(names):
        raise ArenaSetupError("a calibration names each level once", "--bots")
    for name in names:
        if name not in BOTS:
            make_matchup(game, [name, name], players, rules)  # names the error
    _, probe = calibration_family(game, players, rules)
    seats = probe.players

    def match(group: Sequence[str]) -> Matchup:
        return make_matchup(
            game, list(group), seats, probe.rules, time_limit, budget_scale=budget_scale
        )

    if probe.teams or seats == 2:
        return [match(pair) for pair in itertools.combinations(names, 2)]
    if len(names) >= seats:
        return [match(group) for group in itertools.combinations(names, seats)]
    return [match(pair) for pair in itertools.permutations(names, 2)]


def rated_games(matchup: Matchup, rows: Sequence[dict[str, Any]]) -> list[RatedGame]:
    """The games of an arena run (its rows) as the fit reads them."""
    return [
        RatedGame(
            tuple(matchup.level_of(name) for name in row["seats"]),
            Outcome.from_json(row["outcome"]),
            tuple(tuple(side) for side in row["sides"]),
        )
        for row in rows
    ]


def fit_levels(
    family: str, games: Sequence[RatedGame], *, passes: int = DEFAULT_PASSES, seed: int = 0
) -> dict[str, LevelFit]:
    """Each level's rating in ``family`` fitted to ``games`` (module docstring), in the
    order the levels first appear; the same ``games`` and ``seed`` give the same fit."""
    if passes < 1:
        raise ValueError(f"the fit needs one pass or more, not {passes}")
    if not games:
        raise ValueError("no games to fit")
    levels = list(dict.fromkeys(level for g in games for level in g.levels))
    rng = random.Random(f"trumps-calibrate/{family}/{seed}")
    means: dict[str, list[float]] = {level: [] for level in levels}
    deviations: dict[str, list[float]] = {level: [] for level in levels}
    for _ in range(passes):
        current = dict.fromkeys(levels, NEW)
        order = list(range(len(games)))
        rng.shuffle(order)
        kept: dict[str, list[Rating]] = {level: [] for level in levels}
        for step, index in enumerate(order):
            g = games[index]
            after = rate_game(family, [current[lv] for lv in g.levels], g.outcome, g.sides)
            for level in set(g.levels):
                mine = [after[s] for s, lv in enumerate(g.levels) if lv == level]
                current[level] = Rating(
                    value=math.fsum(r.value for r in mine) / len(mine),
                    deviation=math.fsum(r.deviation for r in mine) / len(mine),
                    volatility=math.fsum(r.volatility for r in mine) / len(mine),
                    games=current[level].games + 1,
                )
                if 2 * step >= len(order):
                    kept[level].append(current[level])
        for level in levels:
            seen = kept[level] or [current[level]]
            means[level].append(math.fsum(r.value for r in seen) / len(seen))
            deviations[level].append(math.fsum(r.deviation for r in seen) / len(seen))
    value = {level: statistics.fmean(means[level]) for level in levels}
    shift = START - statistics.fmean(value.values())
    played = {level: sum(1 for g in games if level in g.levels) for level in levels}
    return {
        level: LevelFit(
            level,
            Rating(
                value=value[level] + shift,
                deviation=max(MIN_DEVIATION, statistics.fmean(deviations[level])),
                games=played[level],
            ),
            statistics.stdev(means[level]) if passes > 1 else 0.0,
            played[level],
        )
        for level in levels
    }


def calibration_note(
    matchups: Sequence[Matchup], levels: Sequence[str], games: int, seed: int, total: int
) -> str:
    """How a calibration was measured: the ``trumps arena`` command (without its file)
    and the number of games."""
    m = matchups[0]
    parts = [f"trumps arena --game {m.game} --players {m.players}"]
    if m.rules != GAMES[m.game].DEFAULT_PRESET:
        parts.append(f"--rules {m.rules}")
    parts.append(f"--bots {','.join(levels)} --games {games} --seed {seed}")
    if m.time_limit is not None:
        parts.append(f"--time-limit {m.time_limit:g}")
    if m.budget_scale is not None:
        parts.append(f"--budget-scale {m.budget_scale:g}")
    matches = "1 match" if len(matchups) == 1 else f"{len(matchups)} matches"
    return f"{' '.join(parts)} --calibrate FILE: {matches}, {total} games"
