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

import contextlib
import errno
import ipaddress
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, cast

import click

from trumps import __version__
from trumps.ai import BOTS
from trumps.commands.analyze import analyze
from trumps.commands.arena import arena
from trumps.commands.paths import check_writable
from trumps.commands.record import record
from trumps.commands.solve import solve
from trumps.errors import InvalidRules
from trumps.games import GAMES, Game, new_game
from trumps.games.options import preset_named, rules_from_text
from trumps.server.quota import FairUse
from trumps.tui import PlayOptions
from trumps.tui import run as run_play

GAME_IDS = list(GAMES)
INTERRUPTED = 130  # the shell's code for a process ended by SIGINT (128 + 2)

# The install extra (pyproject.toml) of an optional package that a command imports late.
EXTRA_OF = {"matplotlib": ("plot", "trumps arena --plot")}


def _missing_extra(extra: str, command: str, module: str | None) -> SystemExit:
    click.echo(
        f"Error: {command} needs the '{extra}' extra ({module} is not installed): "
        f"pip install 'trumps[{extra}]' (in a checkout: pip install '.[{extra}]')",
        err=True,
    )
    return SystemExit(1)


@contextlib.contextmanager
def needs_extra(extra: str, command: str) -> Iterator[None]:
    """Imports for ``command``: a missing third-party package becomes one line naming the
    extra to install, not a traceback."""
    try:
        yield
    except ModuleNotFoundError as e:
        if (e.name or "trumps").partition(".")[0] == "trumps":
            raise
        raise _missing_extra(extra, command, e.name) from None


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


# ---------------------------------------------------------------------------------------
# serve


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    metavar="URL",
    envvar="TRUMPS_DB",
    help="SQLAlchemy URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DB "
    "(default: an SQLite file in the user's data directory; env TRUMPS_DB, which keeps "
    "a password off the command line).",
)
@click.option(
    "--secret-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File holding the secret that signs resume tokens (created if missing; "
    "default: beside the default database; TRUMPS_SECRET overrides).",
)
@click.option(
    "--bot-time",
    default=None,
    type=click.FloatRange(0.01, 30.0),
    help="At most this many seconds a bot or hint may think per move "
    "(default: each level's own budget: hard 0.2 s, expert 1 s).",
)
@click.option(
    "--bot-pace",
    default="normal",
    show_default=True,
    type=click.Choice(["normal", "fast", "instant"]),
    help="How fast bots move at tables where a person plays, unless the table's creator "
    "chose (bot-only tables never wait).",
)
@click.option(
    "--bot-ratings",
    "bot_ratings",
    metavar="FILE",
    type=click.Path(path_type=Path),
    help="The bots' fixed ratings for rated games (a calibration `trumps arena --calibrate` "
    "writes; default: the one shipped with trumps, docs/ratings.md).",
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    default=None,
    help="Deal tables from this seed onwards (tests and demos only: deals become predictable).",
)
@click.option(
    "--bot-workers",
    type=click.IntRange(0, 64),
    default=None,
    help="Processes the bots think in (default: one per core but one, at least 1; "
    "0 = threads of the server process).",
)
@click.option(
    "--rate",
    default=20,
    show_default=True,
    type=click.IntRange(1),
    help="Messages a connection may send per second ...",
)
@click.option(
    "--rate-minute",
    default=600,
    show_default=True,
    type=click.IntRange(1),
    help="... and per minute; more are refused with the error rate_limited.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this machine, sharing the port (more than one needs "
    "PostgreSQL and --redis).",
)
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    envvar="TRUMPS_REDIS",
    help="redis://HOST:6379/0: the Redis through which several processes (here or on "
    "other machines) form one service; needs a PostgreSQL --db (env TRUMPS_REDIS).",
)
@click.option(
    "--node-id",
    metavar="NAME",
    help="This process's name in the service (default: host name and process id; "
    "only with one worker).",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    metavar="ORIGIN",
    multiple=True,
    help="A site (https://HOST[:PORT]) whose pages may open game sockets here, beside this "
    "server's own page; repeat for more. Clients that send no Origin (terminal, bots) are "
    "always let in.",
)
@click.option(
    "--sockets-per-address",
    default=32,
    show_default=True,
    type=click.IntRange(1),
    help=(
        "Game connections one address may hold at once (more are refused, HTTP 403); it may"
        " hold twice as many TCP connections of any kind (HTTP 429). Per process."
    ),
)
@click.option(
    "--hello-timeout",
    default=5.0,
    show_default=True,
    type=click.FloatRange(0.1, 600),
    help=(
        "Seconds a new connection has to send its request's headers, and a new game"
        " connection to say hello, before it is closed."
    ),
)
@click.option(
    "--hints-per-player",
    default=FairUse.hints_per_player,
    show_default=True,
    type=click.IntRange(0),
    help="Hints one player may ask for an hour; more are refused (rate_limited).",
)
@click.option(
    "--hints-per-address",
    default=FairUse.hints_per_address,
    show_default=True,
    type=click.IntRange(0),
    help="Hints all players of one address may ask for an hour.",
)
@click.option(
    "--tables-per-address",
    default=FairUse.tables_per_address,
    show_default=True,
    type=click.IntRange(1),
    help="Unfinished tables the players of one address may have created at once "
    "(guests are free, so the cap per player alone stops nobody).",
)
@click.option(
    "--creations-per-address",
    default=FairUse.creations_per_address,
    show_default=True,
    type=click.IntRange(1),
    help="Tables the players of one address may create a minute.",
)
@click.option(
    "--guests-per-address",
    default=60,  # trumps.server.hub.GUESTS_PER_ADDRESS (not imported: the server extra)
    show_default=True,
    type=click.IntRange(1),
    help="New guest identities (hellos without a resume token) one address may make a "
    "minute; more are refused (rate_limited). Returning players are never counted.",
)
@click.option(
    "--login-per-minute",
    default=10,
    show_default=True,
    type=click.IntRange(1),
    help="Account, login and password tries one address may make a minute.",
)
@click.option(
    "--login-per-account",
    default=5,
    show_default=True,
    type=click.IntRange(1),
    help="Login tries one account may get a minute, from any address.",
)
@click.option(
    "--forwarded-allow-ips",
    "forwarded_allow_ips",
    metavar="ADDRESS",
    multiple=True,
    help="A reverse proxy (IP address or network, e.g. 127.0.0.1 or 10.0.0.0/8) whose "
    "X-Forwarded-For and X-Forwarded-Proto are believed; repeat for more. Default: none, "
    "every client is the address it connects from.",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
@click.option(
    "--offline",
    is_flag=True,
    help="Offer the page's own engine for play with no network: the page asks each player "
    "before keeping it (about 7 MB). Pyodide is fetched once from the npm registry, "
    "checked, and kept in the cache (docs/offline.md).",
)
@click.option(
    "--open",
    "open_page",
    is_flag=True,
    help="Open the page in this machine's web browser once the server listens (where "
    "there is none, the address printed is the way in).",
)
@click.pass_context
def serve(
    ctx: click.Context,
    *,
    host: str,
    port: int,
    db: str | None,
    secret_file: Path | None,
    bot_time: float | None,
    bot_pace: str,
    bot_ratings: Path | None,
    seed: int | None,
    bot_workers: int | None,
    rate: int,
    rate_minute: int,
    workers: int,
    redis_url: str | None,
    node_id: str | None,
    allowed_origins: tuple[str, ...],
    sockets_per_address: int,
    hello_timeout: float,
    hints_per_player: int,
    hints_per_address: int,
    tables_per_address: int,
    creations_per_address: int,
    guests_per_address: int,
    login_per_minute: int,
    login_per_account: int,
    forwarded_allow_ips: tuple[str, ...],
    log_level: str,
    offline: bool,
    open_page: bool,
) -> None:
    """Run the online game server: lobby, tables, bots and the page, at http://HOST:PORT/."""
    with needs_extra("server", "trumps serve"):
        from trumps.server.app import bot_calibration
        from trumps.server.run import serve as run_server
        from trumps.server.run import service_problem
        from trumps.server.wiretypes import BotPace
        from trumps.web import STATIC
        from trumps.web.i18n import LANGS, catalog_json
        from trumps.web.icons import icons_folder

    if db is not None and not db.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
        raise click.BadParameter(
            "use sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DB",
            param_hint="'--db'",
        )
    if redis_url is not None and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise click.BadParameter(
            "use redis://HOST:6379/0 (rediss:// for TLS, unix:///PATH for a socket)",
            param_hint="'--redis'",
        )
    for origin in allowed_origins:
        scheme, sep, rest = origin.partition("://")
        if scheme not in ("http", "https") or not sep or not rest or "/" in rest.rstrip("/"):
            raise click.BadParameter(
                f"{origin!r} is not an origin: use https://HOST[:PORT]",
                param_hint="'--allowed-origin'",
            )
    for proxy in forwarded_allow_ips:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise click.BadParameter(
                f"{proxy!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8)",
                param_hint="'--forwarded-allow-ips'",
            ) from None
    if node_id is not None and not node_id.strip():
        raise click.BadParameter("give a name", param_hint="'--node-id'")
    problem = service_problem(workers=workers, db=db, redis_url=redis_url, node_id=node_id)
    if problem is not None:
        raise click.UsageError(problem, ctx)
    if bot_ratings is not None:
        try:
            bot_calibration(str(bot_ratings))
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="'--bot-ratings'") from None
    if seed is not None:
        click.echo(
            "warning: --seed deals every table from the seed: the deals are predictable and "
            "not provably fair (tests and demonstrations only)",
            err=True,
        )
    try:
        icons = icons_folder()
    except (OSError, ValueError) as e:
        raise click.ClickException(f"cannot render the app's icons: {e}") from None
    device = None
    if offline:
        from trumps.web.offline import OfflineError, device_folder

        try:
            device = device_folder(langs=LANGS)
        except (OfflineError, OSError) as e:
            raise click.ClickException(f"cannot offer play with no network: {e}") from None
    try:
        run_server(
            host=host,
            port=port,
            db=db,
            secret_file=secret_file,
            bot_time=bot_time,
            bot_pace=cast(BotPace, bot_pace),
            static=STATIC,
            device=device,
            icons=icons,
            catalogs=catalog_json,
            catalogs_ref=f"{catalog_json.__module__}:{catalog_json.__name__}",
            rate=(rate, rate_minute),
            bot_workers=bot_workers,
            seed=seed,
            log_level=log_level,
            workers=workers,
            redis_url=redis_url,
            node_id=node_id,
            allowed_origins=allowed_origins,
            sockets_per_address=sockets_per_address,
            login_limits=(login_per_minute, login_per_account),
            forwarded_allow_ips=forwarded_allow_ips,
            hello_timeout=hello_timeout,
            fair=FairUse(
                hints_per_player=hints_per_player,
                hints_per_address=hints_per_address,
                tables_per_address=tables_per_address,
                creations_per_address=creations_per_address,
            ),
            guests_per_address=guests_per_address,
            bot_ratings=None if bot_ratings is None else str(bot_ratings.resolve()),
            open_page=open_page,
        )
    except (OSError, ValueError) as e:
        # Before the server runs: an unreadable or bad secret file, a database directory
        # that cannot be made.  (Once running, uvicorn reports its own failures.)
        raise click.ClickException(f"cannot start the server: {e}") from None


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
        raise _missing_extra(*EXTRA_OF[top], e.name) from None


if __name__ == "__main__":
    main()
