"""``trumps analyze RECORD``: the moves of a finished game that cost the most (issue 13 §3;
docs/analysis.md).

Replays the record (as ``trumps record check`` does) and runs ``trumps.ai.analysis`` on
it: the exact solver for the Svoi Kozyri duel, the ``expert`` search from each player's
view for the other games.  Prints one line per marked move and a summary, or with
``--json`` the structured result.  Unreadable files and bad records exit with code 1 and
one line; bad options are click usage errors (code 2).
"""

from __future__ import annotations

import json
import sys

import click

from trumps.ai.analysis import DEFAULT_DEALS, Analysis, Budget, MoveAnalysis, analyze_game
from trumps.commands.paths import read_text
from trumps.commands.solve import search_options
from trumps.errors import InvalidRecord
from trumps.games import new_game
from trumps.records import loads

__all__ = ["analyze"]

DEFAULT_TIME_LIMIT = 2.0

_WORDS = {
    "win_to_loss": "threw a won position to a loss",
    "win_to_draw": "let a won position slip to a draw",
    "draw_to_loss": "turned a drawn position into a loss",
}


def _move_line(move: MoveAnalysis) -> str:
    if move.reason == "lost_chance":
        why = (
            f"lost {move.lost:.0f} points of the estimated chance "
            f"({100 * (move.before or 0):.0f}% → {100 * (move.after or 0):.0f}%)"
        )
    else:
        why = _WORDS.get(move.reason or "", move.reason or "")
    return (
        f"ply {move.ply}: seat {move.seat} played {move.action}: {move.mark}, {why}"
        f" (better: {move.better})"
    )


def _text(result: Analysis) -> str:
    lines = [_move_line(m) for m in result.moves if m.mark is not None]
    if result.method == "solver":
        lines.append(
            f"{len(result.moves)} decisions analysed: {result.proved} proved, "
            f"{result.marked} marked, {result.unproved} unproved (over the budget)"
        )
    else:
        lines.append(
            f"{len(result.moves)} decisions analysed from each player's view "
            f"({result.budget['deals']} deals each): {result.marked} marked"
        )
    return "\n".join(lines)


@click.command("analyze")
@click.argument("record", metavar="RECORD")
@search_options(DEFAULT_TIME_LIMIT, "each position of a duel")
@click.option(
    "--deals",
    type=click.IntRange(min=2, max=100_000),
    default=DEFAULT_DEALS,
    show_default=True,
    metavar="N",
    help="Twenty-Five and 3-4 player Svoi Kozyri: judge each decision over N sampled deals.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    metavar="N",
    help="Seed of the sampled deals (the same seed gives the same result).",
)
def analyze(
    *,
    record: str,
    time_limit: float,
    node_limit: int | None,
    as_json: bool,
    deals: int,
    seed: int,
) -> None:
    """Mark the moves of the finished game in RECORD (a docs/records.md file, or - for
    stdin) that cost the most, each with a better move: exactly for the 2-player Svoi
    Kozyri duel, from each player's own view for the other games."""
    text = read_text(record)
    try:
        game = loads(text)
    except InvalidRecord as e:
        raise click.ClickException(f"{record}: {e}") from None
    start = new_game(game.game_id, players=game.players, rules=game.rules, seed=game.seed)
    if node_limit is not None:
        time_limit_used: float | None = None  # a node budget alone: the same on any machine
    else:
        time_limit_used = time_limit
    budget = Budget(time_limit=time_limit_used, node_limit=node_limit, deals=deals, seed=seed)
    if sys.stderr.isatty():
        click.echo("Analysing (Ctrl-C stops) …", err=True)
    result = analyze_game(start, game.history, budget)
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(_text(result))
