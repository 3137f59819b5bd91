"""``trumps arena``: many seeded games between bots, with statistics and ratings.

The lead registers it in the ``trumps`` group (``cli.add_command(arena)``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from trumps.ai import BOTS
from trumps.ai.oracle import ORACLE_LEVEL, ORACLE_NOTE
from trumps.arena import (
    EXECUTORS,
    ArenaSetupError,
    BotFailure,
    ExecutorUnavailable,
    RunInfo,
    build_results,
    default_jobs,
    make_executor,
    make_matchup,
    plan_games,
    play_batch,
    print_table,
    run_games,
    with_reference,
    write_csv,
    write_json,
    write_plot,
)
from trumps.commands.calibrate import CalibrationSettings, run_calibration
from trumps.commands.paths import check_writable
from trumps.games import GAMES

_PATH = click.Path(dir_okay=False, writable=True, path_type=Path)


@click.command("arena")
@click.option("--game", required=True, type=click.Choice(list(GAMES)), help="The game to play.")
@click.option(
    "--bots",
    required=True,
    metavar="A,B[,C…]",
    help=(
        f"Bot levels ({', '.join(BOTS)}; or {ORACLE_LEVEL}, which {ORACLE_NOTE}; or a bot "
        "of your own, file.py:Class or module:Class, a trumps.ai.Bot subclass): one per "
        "seat, or two — the first takes one seat, the second all the others; with teams "
        "(--rules teams=2 or 3) the first takes every seat of one team, the second all "
        "the other seats."
    ),
)
@click.option(
    "--reference",
    metavar="LEVEL",
    help=(
        "Also play the same games with LEVEL in the first bot's place, and report the "
        "first bot's score minus LEVEL's, deal by deal, with a 95% interval."
    ),
)
@click.option(
    "--games",
    "n_games",
    required=True,
    type=click.IntRange(min=1),
    metavar="N",
    help=(
        "Games in all. Each deal is played once per seat rotation (P for P seats, or one "
        "per team with two bots and teams): N/P deals."
    ),
)
@click.option("--seed", required=True, type=click.IntRange(min=0), help="Seed of the deals.")
@click.option("--players", "-n", type=int, help="Number of seats (default: the game's).")
@click.option(
    "--rules",
    "rules",
    metavar="RULES",
    help="A rule preset, options, or both, as `trumps play` takes them: classic, teams=2 or "
    "classic,teams=3 (see `trumps rules`).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Worker processes (default: the CPU count).",
)
@click.option("--out", type=_PATH, metavar="FILE", help="Write the results as JSON to FILE.")
@click.option("--csv", "csv_path", type=_PATH, metavar="FILE", help="Write one row per game.")
@click.option("--plot", type=_PATH, metavar="FILE", help="Write a PNG plot of the win rates.")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Each bot's time per move (default: the level's own budget).",
)
@click.option(
    "--budget-scale",
    type=click.FloatRange(min=0, min_open=True),
    metavar="F",
    help="Give each searching level F times its own budget per move (0.1: a tenth), "
    "keeping the ratio of the levels' budgets; not with --time-limit.",
)
@click.option(
    "--calibrate",
    type=_PATH,
    metavar="FILE",
    help=(
        "Measure the bots' fixed ratings instead: play a round robin of the --bots levels "
        "(--games N games in each match), fit each level's rating in the game's rating "
        "family, and write it into FILE (kept: its other families). docs/ratings.md."
    ),
)
@click.option(
    "--executor",
    type=click.Choice(list(EXECUTORS)),
    default="process",
    show_default=True,
    help="Where games run; ray needs `pip install -e .[distributed]`.",
)
def arena(
    *,
    game: str,
    bots: str,
    reference: str | None,
    n_games: int,
    seed: int,
    players: int | None,
    rules: str | None,
    jobs: int | None,
    out: Path | None,
    csv_path: Path | None,
    plot: Path | None,
    time_limit: float | None,
    budget_scale: float | None,
    calibrate: Path | None,
    executor: str,
) -> None:
    """Play seeded games between bots and report win rates, intervals and ratings.

    Every deal is played once per seat rotation, so each bot sits in each seat on the
    same cards and the luck of the deal cancels; the paired table compares the bots deal
    by deal (with --reference, against another bot on the same games).  Results do not
    depend on --jobs.

    Team match: with teams in the rules (Twenty-Five teams=2 or 3; seat s is in team s
    mod the number of teams) and two bots, the first bot plays every seat of one team
    and the second all the other seats; each deal is played once per team, the seats
    turned so that the first bot holds each team's cards once (twice with two teams:
    the teams swapped).  The report gives the share of games the first bot's team won,
    with a 95% interval paired over deals.

    Calibration (--calibrate FILE): --bots are the levels to rate, and every group of
    them that fits the table plays --games N games (docs/ratings.md); their fitted ratings
    replace the family's in FILE.
    """
    if calibrate is not None:
        given = {"--reference": reference, "--out": out, "--csv": csv_path, "--plot": plot}
        clash = [option for option, value in given.items() if value is not None]
        if clash:
            raise click.UsageError(
                f"--calibrate writes bots' ratings, not a match's results: drop {clash[0]}"
            )
        run_calibration(
            calibrate,
            CalibrationSettings(
                game, bots.split(","), players, rules, n_games, seed, time_limit, budget_scale
            ),
            executor,
            jobs,
        )
        return
    if plot is not None:  # before the games, not after: `trumps` names the missing extra
        import matplotlib  # noqa: F401
    for path, option in ((out, "--out"), (csv_path, "--csv"), (plot, "--plot")):
        check_writable(path, option)  # before the games too
    try:
        matchup = make_matchup(
            game, bots.split(","), players, rules, time_limit, budget_scale=budget_scale
        )
        plan = plan_games(matchup, n_games, seed)
        ref_plan = None
        if reference is not None:
            ref_plan = plan_games(with_reference(matchup, reference), n_games, seed)
    except ArenaSetupError as e:
        raise click.BadParameter(str(e), param_hint=f"'{e.param}'") from None
    workers = jobs if jobs is not None else default_jobs()
    try:
        pool = make_executor(executor, play_batch, workers)
    except ExecutorUnavailable as e:
        raise click.ClickException(str(e)) from None

    err = Console(file=sys.stderr)
    info = RunInfo()
    progress = Progress(
        TextColumn("[bold]arena[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
        transient=True,
    )
    try:
        with pool, progress:
            total = len(plan.specs) * (1 if ref_plan is None else 2)
            task = progress.add_task("games", total=total)
            rows = run_games(plan, pool, on_progress=lambda n: progress.advance(task, n), info=info)
            ref_rows = None
            if ref_plan is not None:
                ref_rows = run_games(
                    ref_plan, pool, on_progress=lambda n: progress.advance(task, n)
                )
    except BotFailure as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        click.echo("\nInterrupted.", err=True)
        raise SystemExit(130) from None

    both = None if ref_plan is None or ref_rows is None else (ref_plan.matchup, ref_rows)
    results = build_results(plan, rows, executor, workers, info, reference=both)
    print_table(results)
    for path, write in ((out, write_json), (csv_path, write_csv), (plot, write_plot)):
        if path is None:
            continue
        try:
            write(results, path)
        except OSError as e:
            raise click.ClickException(f"cannot write {path}: {e.strerror or e}") from None
        click.echo(f"wrote {path}")
