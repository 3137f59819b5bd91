"""``trumps arena --calibrate FILE``: the bots' fixed ratings of one rating family, measured
by a round robin of levels and written into a calibration file (docs/ratings.md)."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from trumps.arena import (
    ArenaSetupError,
    BotFailure,
    ExecutorUnavailable,
    default_jobs,
    make_executor,
    plan_games,
    play_batch,
    run_games,
)
from trumps.arena.calibrate import (
    DEFAULT_PASSES,
    RatedGame,
    calibration_family,
    calibration_matchups,
    calibration_note,
    fit_levels,
    rated_games,
)
from trumps.commands.paths import check_writable
from trumps.ratings import FAMILIES, load_calibration, merge_calibration

__all__ = ["CalibrationSettings", "run_calibration"]


@dataclass(frozen=True)
class CalibrationSettings:
    """The ``trumps arena`` options a calibration uses."""

    game: str
    levels: list[str]
    players: int | None
    rules: str | None
    games: int
    seed: int
    time_limit: float | None
    budget_scale: float | None


def _bad(e: ArenaSetupError) -> click.BadParameter:
    return click.BadParameter(str(e), param_hint=f"'{e.param}'")


def run_calibration(
    path: Path, settings: CalibrationSettings, executor: str, jobs: int | None
) -> None:
    """Play the round robin, fit the levels and write them into ``path`` (its other
    families kept); every problem with the settings or the file is found before a game
    is played."""
    s = settings
    check_writable(path, "--calibrate")
    old = None
    if path.exists():
        try:
            load_calibration(path)
        except ValueError as e:
            raise click.BadParameter(
                f"{e} (the file is there: a calibration is added to it)",
                param_hint="'--calibrate'",
            ) from None
        old = path.read_text(encoding="utf-8")
    try:
        family, _ = calibration_family(s.game, s.players, s.rules)
        matchups = calibration_matchups(
            s.game,
            s.levels,
            s.players,
            s.rules,
            time_limit=s.time_limit,
            budget_scale=s.budget_scale,
        )
        plans = [plan_games(m, s.games, s.seed) for m in matchups]
    except ArenaSetupError as e:
        raise _bad(e) from None
    levels = [level.strip() for level in s.levels]
    workers = jobs if jobs is not None else default_jobs()
    try:
        pool = make_executor(executor, play_batch, workers)
    except ExecutorUnavailable as e:
        raise click.ClickException(str(e)) from None
    err = Console(file=sys.stderr)
    progress = Progress(
        TextColumn("[bold]calibrate[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
        transient=True,
    )
    click.echo(
        f"Calibrating {family} ({FAMILIES[family]}): {_count(len(matchups), 'match')} of "
        f"{_count(s.games, 'game')}, {matchups[0].players} seats, rules {matchups[0].rules}"
    )
    games: list[RatedGame] = []
    try:
        with pool, progress:
            task = progress.add_task("games", total=sum(len(p.specs) for p in plans))
            for plan in plans:
                rows = run_games(plan, pool, on_progress=lambda n: progress.advance(task, n))
                played = rated_games(plan.matchup, rows)
                games.extend(played)
                click.echo(f"  {_summary(plan.matchup.levels, played)}")
    except BotFailure as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        click.echo("\nInterrupted: nothing written.", err=True)
        raise SystemExit(130) from None

    fits = fit_levels(family, games, passes=DEFAULT_PASSES, seed=s.seed)
    click.echo(f"Ratings ({DEFAULT_PASSES} passes over {len(games)} games; the levels' mean 1500):")
    click.echo(f"  {'level':<8} {'rating':>7} {'± pass':>7} {'deviation':>9} {'games':>6}")
    for fit in fits.values():
        r = fit.rating
        click.echo(
            f"  {fit.level:<8} {r.value:>7.0f} {fit.spread:>7.1f} {r.deviation:>9.0f} {fit.games:>6}"
        )
    note = calibration_note(matchups, levels, s.games, s.seed, len(games))
    text = merge_calibration(old, family, {lv: fit.rating for lv, fit in fits.items()}, note)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror or e}") from None
    click.echo(f"wrote {path} ({family})")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}es" if noun.endswith("ch") else f"{n} {noun}s"


def _summary(levels: tuple[str, ...], played: list[RatedGame]) -> str:
    """One line of a match: its levels and how many games each won (a level in several
    seats wins a game when one of its seats does)."""
    wins: Counter[str] = Counter()
    draws = 0
    for g in played:
        if g.outcome.draw:
            draws += 1
            continue
        for level in {g.levels[s] for s in g.outcome.winners}:
            wins[level] += 1
    parts = ", ".join(f"{level} {wins[level]}" for level in dict.fromkeys(levels))
    drawn = f", {draws} drawn" if draws else ""
    return f"{' vs '.join(dict.fromkeys(levels))}: {len(played)} games; won: {parts}{drawn}"
