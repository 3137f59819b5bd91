"""``trumps record check FILE`` and ``trumps record verify FILE``: game records (JSON,
docs/records.md) replayed through the engine, and their deals checked against the
server's commitment (docs/fairness.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import click

from trumps.commands.paths import read_text
from trumps.errors import InvalidRecord
from trumps.games import Outcome
from trumps.records import loads, verify

__all__ = ["outcome_words", "record"]


@click.group()
def record() -> None:
    """Game records (JSON, docs/records.md)."""


def outcome_words(outcome: Outcome | None) -> str:
    """A short account of an outcome: ``seat 0 won, seat 1 lost (out_of_cards)``."""
    if outcome is None:
        return "not finished"
    if outcome.draw:
        return f"draw ({outcome.reason})"

    def seats(s: Sequence[int]) -> str:
        return ("seat " if len(s) == 1 else "seats ") + ", ".join(str(x) for x in s)

    return f"{seats(outcome.winners)} won, {seats(outcome.losers)} lost ({outcome.reason})"


@record.command("check")
@click.argument("file", type=click.Path(path_type=Path))
def record_check(file: Path) -> None:
    """Replay the record in FILE through the engine and report."""
    text = read_text(str(file))
    try:
        game = loads(text)
    except InvalidRecord as e:
        raise click.ClickException(f"{file}: {e}") from None
    click.echo(f"ok: {game.game_id}, {len(game.history)} actions, {outcome_words(game.outcome)}")


@record.command("verify")
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--contribution",
    metavar="HEX",
    help="Your contribution to the deal (the client shows and saves it): it must be in the record.",
)
@click.option(
    "--commitment",
    metavar="HEX",
    help="The commitment you were shown before the game: it must be the record's.",
)
def record_verify(file: Path, contribution: str | None, commitment: str | None) -> None:
    """Check that the deals of the game in FILE are the provably fair ones (docs/fairness.md)."""
    text = read_text(str(file))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise click.ClickException(f"{file}: record is not JSON: {e}") from None
    try:
        report = verify(data, contribution=contribution, committed=commitment)
    except InvalidRecord as e:
        raise click.ClickException(f"{file}: not verified: {e}") from None
    for line in report:
        click.echo(f"ok: {line}")
    click.echo("verified: the deals are the ones committed to before the game")
