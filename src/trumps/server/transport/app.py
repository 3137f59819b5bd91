"""The ASGI application: the WebSocket endpoint, the HTTP API and the page (Starlette).

``create_app(ServerSettings(...))`` builds an app whose lifespan opens the store (migrating
it), starts the hub (resuming running tables) and closes both on shutdown.  Routes:

- ``GET /`` the page; ``/static/…`` its assets (``trumps.web``).
- ``GET /ws`` the game protocol (docs/protocol.md): one WebSocket per client.
- ``GET /healthz`` liveness, this process's node id and counts; ``GET /readyz`` readiness for a load balancer (503
  while the process stops or cannot reach its store); ``GET /api/schema`` the protocol's
  JSON Schema.
- ``GET /api/catalog`` the games, presets, rule options and bot levels (``catalog.py``).
- ``GET /api/tables`` the public tables.
- ``POST /api/accounts`` make an account (or turn the bearer's guest into one);
  ``POST /api/login`` log in; ``POST /api/password``; ``POST /api/logout`` (and
  ``/api/logout/everywhere``); ``GET /api/sessions``, ``DELETE /api/sessions/{id}``
  (``trumps.server.identity.accounts``).
- ``GET /api/games`` finished games (``?mine=1`` with a bearer token: mine);
  ``GET /api/games/{id}`` a record (``?download=1`` as a file);
  ``GET /api/games/{id}/replay`` the record and every position of it;
  ``GET``/``POST /api/games/{id}/analysis`` its post-game analysis (``analysisapi.py``).
- ``GET /api/leaderboard/{family}`` and ``GET /api/players/{id}``: ratings (``ratingapi.py``).

``trumps serve --workers N`` runs N processes of this app under uvicorn's supervisor: each
builds its own app with ``app_from_env``, from settings the command put in the environment
as JSON (``settings_env``), never on a command line, since they hold the secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import importlib
import json
import logging
import os
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from sqlalchemy.exc import DBAPIError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from trumps.ai import BOTS
from trumps.host.archive import replay_json
from trumps.ratings import Rating, load_calibration, shipped_calibration
from trumps.server.api.analysisapi import AnalysisApi, AnalysisLimits
from trumps.server.api.catalog import catalog_json
from trumps.server.api.ratingapi import RatingApi, summary_json
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.identity.accounts import Accounts, LoginLimits, fail
from trumps.server.identity.auth import BadToken
from trumps.server.identity.sessions import Sessions, client_label
from trumps.server.limits.httpsafety import Refused, SecurityHeaders, json_body
from trumps.server.limits.quota import FairUse, Unavailable
from trumps.server.limits.sockets import SocketGate, socket_budget
from trumps.server.tables.commit import UNREACHABLE, one_line, unreachable
from trumps.server.transport.assets import Assets
from trumps.server.transport.device import Device
from trumps.server.wire.protocol import json_schema
from trumps.server.wire.wiretypes import PROTOCOL_VERSION
from trumps.store import SqlStore, Store, UnknownGame

__all__ = [
    "SETTINGS_ENV",
    "ServerSettings",
    "app_from_env",
    "create_app",
    "default_node_id",
    "settings_env",
]

log = logging.getLogger(__name__)

MAX_ID: Final = 2**31 - 1  # ids are 32-bit integers in every backend
# A frame beyond this closes the socket (1009) before it is read whole; a message over
# MAX_MESSAGE_BYTES (16 KiB) but within this is answered `too_large` and the socket stays.
WS_MAX_BYTES: Final = 64 * 1024
EXPIRE_EVERY: Final = 3600.0  # seconds between two sweeps of idle sessions and guests
MAX_PAGE: Final = 200  # games per page of GET /api/games
MAX_OFFSET: Final = MAX_ID  # how far GET /api/games may page (a 32-bit count of games)
# The environment variable that carries a worker process's settings (JSON, with the secret).
SETTINGS_ENV: Final = "TRUMPS_SERVER_SETTINGS"


@dataclass
class ServerSettings:
    """Everything a server needs to run: what its hub is given (``hub``) and what the
    process around it is."""

    db: str
    secret: str
    # The hub's own options (bots' budget and workers, deals, message rates, fair use, the
    # service's Redis and this process's name in it): as `trumps serve` gives them unless
    # told, the bots paced normally (docs/protocol.md#pacing), not at once as a hub made in
    # code would.
    hub: HubOptions = field(default_factory=lambda: HubOptions(bot_pace="normal"))
    # The bots' fixed ratings (docs/ratings.md): a calibration file, read into
    # ``hub.bot_ratings`` when the app is made; None: the shipped one.
    bot_ratings: str | None = None
    login_per_minute: int = 10  # account and login tries per address
    login_per_account: int = 5  # login tries of one login, a minute
    freeze_gc: bool = True
    # The page's translations: lang -> JSON bytes or None (trumps.web.i18n.catalog_json).
    catalogs: Callable[[str], bytes | None] | None = None
    static: Path | None = None  # the page's files (trumps.web.STATIC); None: API only
    # The page's own engine offered for play with no network (trumps.web.offline's
    # device_folder; needs ``static``); None: not offered (device.py).
    device: Path | None = None
    # Files served beside the page's: its icons rendered as PNG (trumps.web.icons).
    icons: Path | None = None
    # Pages of these origins (scheme://host[:port]) may open a WebSocket too, beside the
    # server's own; a handshake without Origin (not a browser) is always let in.
    allowed_origins: tuple[str, ...] = ()
    sockets_per_address: int = 32  # game sockets one address may hold at once
    max_sockets: int = 20_000  # game sockets in all (fewer if the file limit says so)
    hello_timeout: float = 5.0  # seconds a new socket has to say hello
    # Post-game analysis (docs/analysis.md): its budget and per-player limits.
    analysis: AnalysisLimits = field(default_factory=AnalysisLimits)


class _Server:
    """The routes, sharing the store, hub and token machinery of one app."""

    def __init__(self, settings: ServerSettings, store: Store | None = None) -> None:
        self._origins = {o.rstrip("/").lower() for o in settings.allowed_origins}
        self.gate = SocketGate(settings.sockets_per_address, socket_budget(settings.max_sockets))
        self.settings = settings
        self.assets = (
            Assets(settings.static, settings.icons) if settings.static is not None else None
        )
        self.device = (
            Device(settings.device, self.assets, catalog_json(), settings.catalogs or _none)
            if settings.device is not None and self.assets is not None
            else None
        )
        self.catalog = catalog_json() if self.device is None else self.device.catalog
        self.store: Store = store or SqlStore(settings.db)
        self.sessions = Sessions(self.store, settings.secret)
        self.hub = Hub(
            self.store,
            self.sessions,
            dataclasses.replace(settings.hub, bot_ratings=bot_calibration(settings.bot_ratings)),
        )
        self.accounts = Accounts(
            self.store,
            self.sessions,
            self.hub.sessions_ended,
            LoginLimits(settings.login_per_minute, settings.login_per_account),
            counters=self.hub.counters,  # shared by the processes of a service (Redis)
        )
        self.ratings = RatingApi(self.store, self.hub.options.bot_ratings)
        self.analysis = AnalysisApi(self.store, self.hub.runner, self._bearer, settings.analysis)

    async def _expire(self) -> None:
        """Now and then: end idle sessions and delete guests that hold nothing."""
        while True:
            try:
                ended, guests = await self.sessions.expire()
                if ended or guests:
                    log.info("expired %d idle sessions and %d unused guests", ended, guests)
            except Exception as e:  # the store is down: next time
                log.warning("idle sessions and guests not expired: %s", e)
            await asyncio.sleep(EXPIRE_EVERY)

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        await self.store.create()
        await self.hub.start()
        expiry = asyncio.create_task(self._expire())
        if self.settings.freeze_gc:
            # Everything imported and built so far lives as long as the process: move it
            # out of the collector's sight, so a full collection walks only the objects of
            # live games and connections; and collect less often (a server allocates in
            # bursts of short-lived messages).  Measured at 1,000 players in 250 games
            # (benchmarks/server.py): p99 272 ms with the defaults, 4–14 ms with these.
            gc.collect()
            gc.freeze()
            gc.set_threshold(10_000, 10, 100)
        try:
            yield
        finally:
            expiry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await expiry
            await self.analysis.close()
            await self.hub.stop()
            await self.store.close()

    # -- the socket ---------------------------------------------------------------------------
    async def websocket(self, ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and not self._origin_ok(origin, ws.headers.get("host", "")):
            log.info("WebSocket refused: origin %r is not this server's", origin[:100])
            await ws.close(code=1008)  # before the handshake is accepted: HTTP 403
            return
        address = ws.client.host if ws.client else "?"
        refused = self.gate.admit(address)
        if refused is not None:
            log.info("WebSocket from %s refused: %s", address, refused)
            await ws.close(code=1008)
            return
        try:
            await ws.accept()
        except Exception:
            self.gate.release(address)
            raise
        conn = self.hub.connect(address)
        conn.label = client_label(ws.headers.get("user-agent"))
        pump = asyncio.create_task(self._pump(ws, conn))
        deadline = asyncio.get_running_loop().time() + self.settings.hello_timeout
        try:
            while not conn.closed:
                if conn.player is None:  # a socket that says nothing is not kept
                    try:
                        async with asyncio.timeout_at(deadline):
                            message = await ws.receive()
                    except TimeoutError:
                        await ws.close(code=1008, reason="say hello first")
                        break
                else:
                    message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                await self.hub.handle(conn, data)
        except WebSocketDisconnect:
            pass
        finally:
            self.gate.release(address)
            self.hub.disconnect(conn)
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump

    def _origin_ok(self, origin: str, host: str) -> bool:
        """A page of this server (its origin names the host the browser connected to) or of
        an origin the host allowed.  The scheme is not compared: behind a TLS proxy the
        browser says https and the server hears http."""
        if origin.rstrip("/").lower() in self._origins:
            return True
        _, sep, netloc = origin.partition("://")
        return bool(sep) and bool(host) and netloc.rstrip("/").lower() == host.lower()

    @staticmethod
    async def _pump(ws: WebSocket, conn: Connection) -> None:
        """Send the outbox in order; a None asks to close."""
        while True:
            text = await conn.next_frame()  # encoded once, when it was queued
            if text is None:
                with contextlib.suppress(Exception):
                    await ws.close(code=1008, reason=conn.close_reason)
                return
            try:
                await ws.send_text(text)
            except Exception:  # the peer is gone: the receive loop ends it
                return

    async def unavailable(self, conn: Request, exc: Exception) -> Response:
        """An HTTP request that found the store (or Redis) unreachable: 503 ``unavailable``
        in the API's error shape, one line in the log — not a 500 with a traceback.  Any
        other error (or one on a WebSocket) goes on to the usual 500."""
        if conn.scope["type"] != "http" or not unreachable(exc):
            raise exc
        what = "Redis" if isinstance(exc, Unavailable) else "the game store"
        log.warning(
            "%s %s: %s cannot be reached: %s", conn.method, conn.url.path, what, one_line(exc)
        )
        if not isinstance(exc, Unavailable):
            self.hub.availability.store_failed(exc)  # not ready until a probe reaches it again
        return fail(503, "unavailable", f"{what} cannot be reached just now; try again shortly")

    # -- identity ----------------------------------------------------------------------------
    async def _bearer(self, request: Request) -> int | None:
        session = await self.accounts.bearer(request)
        return None if session is None else session.player_id

    # -- reading -----------------------------------------------------------------------------
    async def healthz(self, _request: Request) -> Response:
        return JSONResponse(
            {
                "ok": True,
                "protocol": PROTOCOL_VERSION,
                "node": self.settings.hub.node_id,
                **self.hub.stats(),
            }
        )

    async def readyz(self, _request: Request) -> Response:
        """Readiness: whether a load balancer should send this process new players.  It is
        asked afresh each time, so it answers 503 from the moment the process starts
        stopping (``Hub.stop``) or loses its store."""
        ready, why = self.hub.availability.ready()
        headers = {"cache-control": "no-store"}
        if ready:
            return JSONResponse({"ready": True}, headers=headers)
        return JSONResponse({"ready": False, "reason": why}, status_code=503, headers=headers)

    async def test_deals(self, request: Request) -> Response:
        """``POST /api/test/deals`` ``{"seed": n}``, only on a server given ``--seed`` (tests
        and demonstrations, whose deals are predictable anyway): the next table is dealt
        from ``n``, the one after from n + 1, as on a server just started with ``--seed n``.
        One server serves many tests this way, each with the deals it was written for."""
        try:
            seed = json.loads(await json_body(request, 100))["seed"]
        except Refused as e:
            return fail(e.status, e.code, str(e))
        except (ValueError, TypeError, KeyError):
            return fail(400, "bad_field", 'the body is {"seed": n} with n a whole number ≥ 0')
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            return fail(400, "bad_field", 'the body is {"seed": n} with n a whole number ≥ 0')
        self.hub.requests.deal_from(seed)
        return Response(status_code=204)

    async def schema(self, _request: Request) -> Response:
        return JSONResponse(json_schema())

    async def tables(self, request: Request) -> Response:
        paging = _paging(request)
        if isinstance(paging, Response):
            return paging
        limit, offset = paging
        game = request.query_params.get("game")
        rows, total = self.hub.public_tables(game, offset=offset, limit=limit)
        return JSONResponse({"tables": rows, "offset": offset, "total": total})

    async def games(self, request: Request) -> Response:
        paging = _paging(request)
        if isinstance(paging, Response):
            return paging
        limit, offset = paging
        player = None
        if request.query_params.get("mine") in ("1", "true"):
            try:
                player = await self._bearer(request)
            except BadToken as e:
                return fail(401, "bad_token", str(e))
            if player is None:
                return fail(401, "bad_token", "mine=1 needs an Authorization: Bearer token")
        found = await self.store.finished_games(player=player, limit=limit, offset=offset)
        return JSONResponse({"games": [summary_json(g, player) for g in found]})

    async def _record(self, request: Request) -> dict[str, Any] | Response:
        try:
            game_id = int(request.path_params["game_id"])
            if not 1 <= game_id <= MAX_ID:
                raise ValueError(game_id)
            return await self.store.get_game(game_id)
        except (ValueError, UnknownGame):
            return fail(404, "no_such_game", "no finished game has that id")

    async def game(self, request: Request) -> Response:
        record = await self._record(request)
        if isinstance(record, Response):
            return record
        headers = {}
        if request.query_params.get("download") in ("1", "true"):
            name = f"trumps-{record['game']}-{request.path_params['game_id']}.json"
            headers["content-disposition"] = f'attachment; filename="{name}"'
        return JSONResponse(record, headers=headers)

    async def replay(self, request: Request) -> Response:
        record = await self._record(request)
        if isinstance(record, Response):
            return record

        return JSONResponse(await asyncio.to_thread(replay_json, record))

    async def i18n(self, request: Request) -> Response:
        lang = request.path_params["lang"]
        found = self.settings.catalogs(lang) if self.settings.catalogs is not None else None
        if found is None:
            return fail(404, "no_such_language", f"no translations for {lang[:20]!r}")
        return Response(found, media_type="application/json", headers={"cache-control": "no-cache"})

    async def catalog_endpoint(self, _request: Request) -> Response:
        """``GET /api/catalog`` (with ``device`` where the page's engine is offered)."""
        return Response(self.catalog, media_type="application/json")

    async def index(self, request: Request) -> Response:
        if self.assets is None:
            return PlainTextResponse("trumps server: the page is not installed; see /api/schema")
        return await self.assets.index(request)


def _none(_lang: str) -> None:
    return None


def create_app(settings: ServerSettings, store: Store | None = None) -> Starlette:
    """The trumps server as an ASGI app."""
    server = _Server(settings, store)

    def route(path: str, fn: Callable[[Request], Awaitable[Response]], methods: list[str]) -> Route:
        return Route(path, fn, methods=methods)

    static: list[BaseRoute] = []
    if server.assets is not None:
        assets = server.assets
        static = [
            Mount(assets.prefix, app=assets.versioned, name="static"),
            Mount("/static", app=assets.plain, name="static-plain"),
        ]
    if server.device is not None:
        static += [
            route("/sw.js", server.device.service_worker, ["GET"]),
            Mount(server.device.prefix, app=server.device.files, name="device"),
        ]
    # Deals on request, for tests: only where deals are predictable already (--seed).
    test_routes = (
        [] if settings.hub.seed is None else [route("/api/test/deals", server.test_deals, ["POST"])]
    )
    app = Starlette(
        routes=[
            route("/", server.index, ["GET"]),
            route("/healthz", server.healthz, ["GET"]),
            route("/readyz", server.readyz, ["GET"]),
            route("/api/schema", server.schema, ["GET"]),
            route("/api/catalog", server.catalog_endpoint, ["GET"]),
            route("/api/tables", server.tables, ["GET"]),
            route("/api/accounts", server.accounts.create, ["POST"]),
            route("/api/login", server.accounts.login, ["POST"]),
            route("/api/logout", server.accounts.logout, ["POST"]),
            route("/api/logout/everywhere", server.accounts.logout_everywhere, ["POST"]),
            route("/api/password", server.accounts.password, ["POST"]),
            route("/api/sessions", server.accounts.listing, ["GET"]),
            route("/api/sessions/{session_id}", server.accounts.end, ["DELETE"]),
            route("/api/games", server.games, ["GET"]),
            route("/api/games/{game_id}", server.game, ["GET"]),
            route("/api/games/{game_id}/replay", server.replay, ["GET"]),
            route("/api/games/{game_id}/analysis", server.analysis.get, ["GET"]),
            route("/api/games/{game_id}/analysis", server.analysis.post, ["POST"]),
            route("/api/leaderboard/{family}", server.ratings.leaderboard, ["GET"]),
            route("/api/players/{player_id}", server.ratings.profile, ["GET"]),
            route("/i18n/{lang}.json", server.i18n, ["GET"]),
            *test_routes,
            WebSocketRoute("/ws", server.websocket),
            *static,
        ],
        lifespan=server.lifespan,
        # The store (or Redis) unreachable: 503 `unavailable`, not 500 (`_Server.unavailable`).
        exception_handlers=dict.fromkeys((*UNREACHABLE, DBAPIError), server.unavailable),
        # Text, JSON and SVG compressed (fonts and images already are: left alone).
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(GZipMiddleware, minimum_size=500, compresslevel=6),
        ],
    )
    app.state.server = server
    return app


def default_node_id() -> str:
    """A name for this process that no other process of the service has: host and pid."""
    return f"{socket.gethostname()}-{os.getpid()}"


def settings_env(
    settings: ServerSettings, *, catalogs: str | None = None, log_level: str = "info"
) -> str:
    """``settings`` as the JSON a worker process reads from ``SETTINGS_ENV``.

    A function cannot travel as JSON, so the page's translations are named instead:
    ``catalogs`` is ``"module:function"`` (``settings.catalogs`` is not sent).  The hub's
    options travel whole but for what a worker makes itself: its clock (``time``) and the
    bots' ratings (read from ``bot_ratings``, the file)."""
    hub = {
        f.name: getattr(settings.hub, f.name)
        for f in dataclasses.fields(settings.hub)
        if f.name not in _HUB_MADE_BY_WORKER
    }
    return json.dumps(
        {
            "db": settings.db,
            "secret": settings.secret,
            "hub": {**hub, "fair": dataclasses.asdict(settings.hub.fair)},
            "login_per_minute": settings.login_per_minute,
            "login_per_account": settings.login_per_account,
            "freeze_gc": settings.freeze_gc,
            "static": None if settings.static is None else str(settings.static),
            "device": None if settings.device is None else str(settings.device),
            "icons": None if settings.icons is None else str(settings.icons),
            "allowed_origins": list(settings.allowed_origins),
            "sockets_per_address": settings.sockets_per_address,
            "max_sockets": settings.max_sockets,
            "hello_timeout": settings.hello_timeout,
            "bot_ratings": settings.bot_ratings,
            "analysis": dataclasses.asdict(settings.analysis),
            "catalogs": catalogs,
            "log_level": log_level,
        }
    )


_HUB_MADE_BY_WORKER = ("time", "bot_ratings")


def bot_calibration(path: str | None) -> dict[str, dict[str, Rating]]:
    """The bots' fixed ratings from the calibration file at ``path`` (None: the one shipped
    with trumps); ``ValueError`` with one line when it cannot be read or is not one."""
    if path is None:
        return shipped_calibration(BOTS)
    return load_calibration(Path(path), BOTS)


def _paging(request: Request) -> tuple[int, int] | Response:
    """``limit`` (50 unless asked) and ``offset`` of a listing, or the 400 that says why."""
    try:
        limit = int(request.query_params.get("limit", "50"))
        offset = int(request.query_params.get("offset", "0"))
        if not (0 <= limit <= MAX_PAGE and 0 <= offset <= MAX_OFFSET):
            raise ValueError
    except ValueError:
        return fail(400, "bad_field", f"limit is 0–{MAX_PAGE} and offset 0–{MAX_OFFSET}")
    return limit, offset


class _NoFrames(logging.Filter):
    """At debug, uvicorn's WebSocket protocol logs every frame (``< TEXT '…'``) on
    ``uvicorn.error``, shortened to its ends: a ``hello`` ends with its resume token.  No
    frame is logged, at any level."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in ("< %s", "> %s")


def log_no_frames() -> None:
    """Keep the frames (and so the tokens in them) out of this process's log."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _NoFrames) for f in logger.filters):
        logger.addFilter(_NoFrames())


def app_from_env() -> Starlette:
    """The app of one worker process of ``trumps serve --workers N`` (uvicorn calls it with
    ``factory=True`` in each process it starts).  The settings come from ``SETTINGS_ENV``,
    which is then removed, so the bot processes this one starts do not inherit the secret;
    each process names itself (``default_node_id``) unless the settings name it."""
    raw = os.environ.pop(SETTINGS_ENV, None)
    if raw is None:
        raise RuntimeError(f"{SETTINGS_ENV} is not set: start workers with `trumps serve`")
    data: dict[str, Any] = json.loads(raw)
    catalogs = None
    if (ref := data.pop("catalogs")) is not None:
        module, _, name = ref.partition(":")
        catalogs = getattr(importlib.import_module(module), name)
    log_level = str(data.pop("log_level"))
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    log_no_frames()
    static = data.pop("static")
    device = data.pop("device", None)
    icons = data.pop("icons", None)
    origins = tuple(data.pop("allowed_origins", ()))
    hub = data.pop("hub")
    analysis = AnalysisLimits(**data.pop("analysis", {}))
    settings = ServerSettings(
        **data,
        hub=HubOptions(**{**hub, "fair": FairUse(**hub["fair"])}),
        analysis=analysis,
        catalogs=catalogs,
        static=None if static is None else Path(static),
        device=None if device is None else Path(device),
        icons=None if icons is None else Path(icons),
        allowed_origins=origins,
    )
    settings.hub.node_id = settings.hub.node_id or default_node_id()
    return create_app(settings)
