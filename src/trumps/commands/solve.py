"""``trumps solve POSITION.json``: solve a 2-player Svoi Kozyri position (issue 3).

Prints the exact value for the side to move (win, draw or loss), a best move, the
node count and the time; with ``--json`` exactly ``{"value", "best", "nodes",
"seconds"}`` (``value`` null when the budget ran out: ``best`` is then the best guess).
Unreadable files, bad JSON, invalid positions and positions the solver cannot search
exit with code 1 and a message; bad options are click usage errors (code 2).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from trumps.ai.kozyri_search import SolveError, SolveResult
from trumps.ai.kozyri_search import solve as solve_position
from trumps.commands.paths import read_text
from trumps.errors import InvalidPosition

DEFAULT_TIME_LIMIT = 10.0
F = TypeVar("F", bound=Callable[..., Any])


def _load(path: str) -> object:
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise click.ClickException(f"{path} is not JSON: {e}") from None


def _text(result: SolveResult) -> str:
    who = f"seat {result.to_move} to move"
    if result.value in ("win", "loss"):
        head = f"{who}: {result.value} in {result.plies} plies (proven)"
    elif result.value == "draw":
        head = f"{who}: draw (proven)"
    else:
        head = (
            f"{who}: unknown — the budget ran out at depth {result.depth} "
            f"(heuristic score {result.score:+d})"
        )
    lines = [head, f"{'best' if result.exact else 'best guess'}: {result.best}"]
    if result.pv:
        lines.append("line: " + " ".join(result.pv))
    lines.append(f"nodes: {result.nodes:,}  time: {result.seconds:.3f} s")
    return "\n".join(lines)


def search_options(default_seconds: float, what: str) -> Callable[[F], F]:
    """The options of a command that runs the duel solver: ``--time-limit`` (default
    ``default_seconds``) and ``--node-limit`` for ``what`` (e.g. "the search", "each
    position"), and ``--json``."""

    def decorate(command: F) -> F:
        command = click.option(
            "--json", "as_json", is_flag=True, help="Print the result as one JSON object."
        )(command)
        command = click.option(
            "--node-limit",
            type=click.IntRange(min=1),
            default=None,
            metavar="N",
            help=f"Search {what} for at most N nodes (deterministic).",
        )(command)
        return click.option(
            "--time-limit",
            type=click.FloatRange(min=0, min_open=True),
            default=default_seconds,
            show_default=True,
            metavar="S",
            help=f"Search {what} for at most S seconds.",
        )(command)

    return decorate


@click.command("solve")
@click.argument("position", metavar="POSITION.json")
@search_options(DEFAULT_TIME_LIMIT, "the position")
def solve(*, position: str, time_limit: float, node_limit: int | None, as_json: bool) -> None:
    """Solve a 2-player Svoi Kozyri POSITION (a docs/positions.md JSON file, or - for stdin):
    the exact value for the side to move and a best move."""
    data = _load(position)
    if not isinstance(data, dict):
        raise click.ClickException(f"{position} must hold a position object, not {data!r:.60}")
    if data.get("game") != "kozyri":
        raise click.ClickException(
            f"{position}: the solver needs a kozyri position, not game {data.get('game')!r}"
        )
    if sys.stderr.isatty():
        # A person is waiting: say that the search runs and how to stop it.
        click.echo(f"Searching (Ctrl-C stops) for at most {time_limit:g} s …", err=True)
    try:
        result = solve_position(data, time_limit, node_limit)
    except InvalidPosition as e:
        raise click.ClickException(f"{position}: invalid position: {e}") from None
    except SolveError as e:
        raise click.ClickException(f"{position}: {e}") from None
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(_text(result))
