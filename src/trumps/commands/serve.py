"""``trumps serve``: the online game server, its page and (``--offline``) the page's own
engine for play with no network; every option checked before anything starts, a bad one
in one line."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import cast

import click

from trumps.commands.extras import needs_extra
from trumps.server.limits.quota import FairUse

__all__ = ["serve"]


@click.command()
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
    default=60,  # trumps.server.hubparts.GUESTS_PER_ADDRESS (not imported: the server extra)
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
        from trumps.server.run import serve as run_server
        from trumps.server.run import service_problem
        from trumps.server.transport.app import bot_calibration
        from trumps.server.wire.wiretypes import BotPace
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
