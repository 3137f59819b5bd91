"""``trumps analyze RECORD``: the moves of a finished duel that changed its value
(issue 13 §3; docs/analysis.md).

Replays the record (as ``trumps record check`` does) and runs ``trumps.ai.analysis`` on
it: one line per marked move and a summary, or with ``--json`` the structured result.
Unreadable files, bad records and records of another game or player count exit with
code 1 and one line; bad options are click usage errors (code 2).
"""

from __future__ import annotations

import json
import sys

import click

from trumps.ai.analysis import Analysis, AnalysisError, MoveAnalysis, analyze_duel
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
    why = _WORDS.get(move.reason or "", move.reason or "")
    return (
        f"ply {move.ply}: seat {move.seat} played {move.action}: {move.mark}, {why}"
        f" (better: {move.better})"
    )


def _text(result: Analysis) -> str:
    lines = [_move_line(m) for m in result.moves if m.mark is not None]
    lines.append(
        f"{len(result.moves)} decisions analysed: {result.proved} proved, "
        f"{result.marked} marked, {result.unproved} unproved (over the budget)"
    )
    return "\n".join(lines)


@click.command("analyze")
@click.argument("record", metavar="RECORD")
@search_options(DEFAULT_TIME_LIMIT, "each position")
def analyze(*, record: str, time_limit: float, node_limit: int | None, as_json: bool) -> None:
    """Mark the moves of the finished 2-player Svoi Kozyri game in RECORD (a docs/records.md
    file, or - for stdin) that changed its exact value, each with a better move."""
    text = read_text(record)
    try:
        game = loads(text)
    except InvalidRecord as e:
        raise click.ClickException(f"{record}: {e}") from None
    if game.game_id != "kozyri" or game.players != 2:
        raise click.ClickException(
            f"{record}: only the 2-player Svoi Kozyri duel is analysed so far, "
            f"not {game.game_id} with {game.players} players"
        )
    start = new_game(game.game_id, players=game.players, rules=game.rules, seed=game.seed)
    if sys.stderr.isatty():
        click.echo(f"Analysing (at most {time_limit:g} s a position; Ctrl-C stops) …", err=True)
    try:
        result = analyze_duel(start, game.history, time_limit=time_limit, node_limit=node_limit)
    except AnalysisError as e:  # cannot happen after the check above
        raise click.ClickException(f"{record}: {e}") from None
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(_text(result))
