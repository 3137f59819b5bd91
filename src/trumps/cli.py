"""The ``trumps`` command.

``trumps play GAME``  play against the computer in the terminal
``trumps rules [GAME]``  the rule options and presets of each game
``trumps record check FILE``  replay a game record and report on it
``trumps record verify FILE``  check that its deals are the provably fair ones
``trumps arena …``  many seeded games between bots, with statistics and ratings
``trumps solve POSITION.json``  the exact value and a best move of a 2-player duel position
``trumps serve``  the online game server (lobby, tables, bots, persistence) and its page
``trumps connect HOST:PORT``  the terminal client of a server

Each subcommand is a small function over the library; later ones (``record``, ``solve``, ``arena``,
``serve``, ``connect``) attach to the same ``cli`` group.

Failing, the same way for every command (``TrumpsGroup``): one line on stderr starting
``Error: `` and no traceback.  Exit code 2 when the command line itself is wrong (an
unknown command or option, a bad option value, a missing argument: click's usage errors,
with a pointer to ``--help``), 1 when the command line is fine but the work fails (a file
that cannot be read or written, a file or position that is not valid, a server that
cannot start).  Ctrl-C prints ``Interrupted.`` and exits with 130 (``trumps play``
first saves the game with ``--save``).
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from trumps import __version__
from trumps.ai import BOTS
from trumps.commands.analyze import analyze
from trumps.commands.arena import arena
from trumps.commands.extras import EXTRA_OF, missing_extra, needs_extra
from trumps.commands.paths import check_writable
from trumps.commands.record import record
from trumps.commands.serve import serve
from trumps.commands.solve import solve
from trumps.errors import InvalidRules
from trumps.games import GAMES, Game, new_game
from trumps.games.options import preset_named, rules_from_text
from trumps.tui import PlayOptions
from trumps.tui import run as run_play

GAME_IDS = list(GAMES)
INTERRUPTED = 130  # the shell's code for a process ended by SIGINT (128 + 2)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def fail(message: str, code: int) -> NoReturn:
    """Print ``Error: message`` (one line, stderr) and exit with ``code``."""
    click.echo(f"Error: {_one_line(message)}", err=True)
    raise SystemExit(code)


class TrumpsGroup(click.Group):
    """The ``trumps`` group: reports every command's failures in one format (see the
    module doc) instead of click's several-line usage text."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **context: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **context)
        try:
            rv = super().main(args, prog_name, complete_var, False, **context)
        except click.UsageError as e:
            where = e.ctx.command_path if e.ctx is not None else (prog_name or "trumps")
            fail(f"{e.format_message().rstrip('.')}; see '{where} --help'", e.exit_code)
        except click.ClickException as e:
            fail(e.format_message(), e.exit_code)
        except click.Abort as e:
            if isinstance(e.__cause__, KeyboardInterrupt):
                click.echo("Interrupted.", err=True)
                raise SystemExit(INTERRUPTED) from None
            fail("aborted", 1)
        except KeyboardInterrupt:  # after click's own handling (e.g. while exiting)
            click.echo("\nInterrupted.", err=True)
            raise SystemExit(INTERRUPTED) from None
        except OSError as e:
            if e.errno != errno.EPIPE:  # a closed pipe (``| head``) is not an error
                raise
            raise SystemExit(1) from None
        # Non-standalone click returns the command's value or an explicit exit code.
        raise SystemExit(rv if isinstance(rv, int) else 0)


@click.group(cls=TrumpsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="trumps", message="%(prog)s %(version)s")
def cli() -> None:
    """Svoi Kozyri and Twenty-Five: rules engines, bots and play."""


# ---------------------------------------------------------------------------------------
# play


def players_for(game_id: str, players: int | None, preset: str) -> int:
    """The player count ``trumps play`` uses; raises ``click.BadParameter``."""
    cls = GAMES[game_id]
    if players is None:
        return cls.PRESETS[preset].players or cls.default_players
    if not cls.min_players <= players <= cls.max_players:
        raise click.BadParameter(
            f"{game_id} is for {cls.min_players}–{cls.max_players} players, not {players}",
            param_hint="'--players'",
        )
    return players


@cli.command()
@click.argument("game", type=click.Choice(GAME_IDS))
@click.option("--players", "-n", type=int, help="Number of players (default: the game's).")
@click.option(
    "--rules",
    "preset",
    metavar="RULES",
    help="A rule preset, options, or both: classic, target=45 or classic,target=45,joker=true "
    "(see `trumps rules`).",
)
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the deals (default: random).")
@click.option(
    "--opponent",
    type=click.Choice(list(BOTS)),
    default="medium",
    show_default=True,
    help="Level of the computer players.",
)
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True, help="Your seat.")
@click.option(
    "--save",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Write the game record (JSON) to FILE at the end, or when interrupted; "
    "each game played again goes to a new file (FILE-2.json, …).",
)
def play(
    *,
    game: str,
    players: int | None,
    preset: str | None,
    seed: int | None,
    opponent: str,
    seat: int,
    save: Path | None,
) -> None:
    """Play GAME (kozyri or twentyfive) against the computer."""
    cls = GAMES[game]
    text = preset if preset is not None else cls.DEFAULT_PRESET
    try:
        chosen = rules_from_text(game, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, text)
    except InvalidRules as e:
        raise click.BadParameter(str(e), param_hint="'--rules'") from None
    # An earlier name (alias) stands for the preset itself.
    name = chosen if isinstance(chosen, str) else str(chosen["preset"])
    found = preset_named(cls.PRESETS, name)
    assert found is not None  # rules_from_text checked it
    name = found.name
    n = players_for(game, players, name)
    if seat >= n:
        raise click.BadParameter(
            f"seat must be 0–{n - 1} with {n} players, not {seat}", param_hint="'--seat'"
        )
    try:
        new_game(game, players=n, rules=chosen, seed=0)  # rules that need other players
    except InvalidRules as e:
        raise click.BadParameter(str(e), param_hint="'--rules'") from None
    check_writable(save, "--save")  # now, not after the whole game
    rules = name if isinstance(chosen, str) else {**chosen, "preset": name}
    options = PlayOptions(game, n, rules, seed, opponent, seat, save)
    raise SystemExit(run_play(options))  # Ctrl-C outside the game: see TrumpsGroup


# ---------------------------------------------------------------------------------------
# rules


def describe_rules(cls: type[Game]) -> str:
    """The options and presets of a game, as text."""
    lines = [
        f"{cls.title} ({cls.game_id}): {cls.min_players}–{cls.max_players} players, "
        f"default {cls.default_players}",
        "  Options:",
    ]
    for opt in cls.OPTIONS.values():
        values = ""
        if opt.choices:
            values = " (" + " | ".join(_show(c) for c in opt.choices) + ")"
        elif opt.minimum is not None or opt.maximum is not None:
            lo = "" if opt.minimum is None else str(opt.minimum)
            hi = "" if opt.maximum is None else str(opt.maximum)
            values = f" ({lo}..{hi})"
        lines.append(f"    {opt.name} = {_show(opt.default)}{values} — {opt.doc}")
    lines.append("  Presets:")
    for preset in cls.PRESETS.values():
        mark = " (default)" if preset.name == cls.DEFAULT_PRESET else ""
        settings = ", ".join(f"{k}={_show(v)}" for k, v in preset.options.items())
        if preset.players:
            settings = ", ".join(s for s in (settings, f"{preset.players} players") if s)
        lines.append(
            f"    {preset.name}{mark} — {preset.doc}" + (f" [{settings}]" if settings else "")
        )
    return "\n".join(lines)


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


@cli.command()
@click.argument("game", type=click.Choice(GAME_IDS), required=False)
def rules(game: str | None) -> None:
    """Show the rule options and presets of GAME (default: every game)."""
    ids = [game] if game else GAME_IDS
    click.echo("\n\n".join(describe_rules(GAMES[g]) for g in ids))


cli.add_command(arena)
cli.add_command(record)
cli.add_command(solve)
cli.add_command(analyze)
cli.add_command(serve)


# ---------------------------------------------------------------------------------------
# connect


@cli.command()
@click.argument("url")
@click.option(
    "--name",
    help="Your display name (default: the one you used last time; without one, others "
    "see you as Guest, in their own language).",
)
@click.option(
    "--token-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where your resume token is kept (default: in your user data directory).",
)
def connect(*, url: str, name: str | None, token_file: Path | None) -> None:
    """Play on a trumps server in the terminal: lobby, tables, history (URL: HOST:PORT,
    http://HOST:PORT or an invite link)."""
    with needs_extra("tui", "trumps connect"):
        from trumps.tui.connect import run as run_client
        from trumps.tui.connect.net import Unreachable, reach, server_address

    try:
        server = server_address(url)
    except ValueError:
        raise click.BadParameter(
            "give the server's address, e.g. 127.0.0.1:8000 or http://127.0.0.1:8000",
            param_hint="'URL'",
        ) from None
    try:
        reach(server)
    except Unreachable as e:
        raise click.ClickException(f"cannot connect to {server.http_url}: {e}") from None
    run_client(url, name, token_file)


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
def site(*, folder: Path) -> None:
    """Write the page with its own engine into FOLDER as static files: games against the
    computer from any static host, no server (docs/offline.md)."""
    from trumps.host.catalog import catalog
    from trumps.web.offline import OfflineError

    with needs_extra("offline", "trumps site"):
        from trumps.web.site import write_site

    try:
        size = write_site(folder, catalog())
    except (OfflineError, OSError) as e:
        fail(str(e), 1)
    click.echo(
        f"wrote {folder} ({size / 1e6:.1f} MB); serve it at the root of an address, "
        f"e.g. python3 -m http.server --directory {folder}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``trumps`` console script."""
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="trumps")
    except ModuleNotFoundError as e:
        top = (e.name or "").partition(".")[0]
        if top not in EXTRA_OF:
            raise
        raise missing_extra(*EXTRA_OF[top], e.name) from None


if __name__ == "__main__":
    main()
