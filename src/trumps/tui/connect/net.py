"""The terminal client's network side: addresses, the resume-token file, the WebSocket
with reconnects and pings, and the few HTTP requests (history, replays).

``Client`` owns one ``ClientState`` (``trumps.tui.connect.model``) and keeps it in step with
the server: it says ``hello`` (with the stored resume token, so a reconnect gets the seats
back), folds every message into the state, sends the resyncs the state asks for, and tells
its ``listener`` what changed.  It runs as one asyncio task (``Client.run``); nothing here
knows about Textual.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import random
import re
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import websockets
from platformdirs import user_data_path
from websockets.asyncio.client import ClientConnection

from trumps.server.wire.wiretypes import MAX_NAME_CHARS, PROTOCOL_VERSION, clean_text
from trumps.tui.connect.model import Change, ClientState, Msg

__all__ = [
    "Client",
    "HttpError",
    "Server",
    "TokenStore",
    "Unreachable",
    "client_data_dir",
    "connect_problem",
    "default_name",
    "parse_invite",
    "reach",
    "server_address",
]

RETRY_FIRST: Final = 0.5  # seconds before the first reconnect …
RETRY_MAX: Final = 5.0  # … doubling up to this (``retry_now`` does not wait at all)
PING_EVERY: Final = 15.0  # seconds between protocol pings
HELLO_AGAIN: Final = 3.0  # seconds before asking again a server that was unavailable
SILENCE_LIMIT: Final = 45.0  # no message for this long: the connection is dead
HTTP_TIMEOUT: Final = 15.0
REACH_TIMEOUT: Final = 8.0  # seconds the first contact with a server may take
MAX_FRAME: Final = 4 * 1024 * 1024


# ---------------------------------------------------------------- addresses


@dataclass(frozen=True)
class Server:
    """Where a server answers: its WebSocket URL, its HTTP base, and a key naming it."""

    ws_url: str
    http_url: str
    key: str  # host_port, safe in a file name
    invite: str | None = None  # a table id from an invite link (``?table=ID``)

    def invite_link(self, table_id: str) -> str:
        """The link that opens ``table_id`` in a browser (and in ``trumps connect``)."""
        return f"{self.http_url}/?table={urllib.parse.quote(table_id)}"


def server_address(url: str) -> Server:
    """The server of ``http://host:port``, ``https://…``, ``ws://host:port/ws``, ``host:port``
    or an invite link ``http://host:port/?table=ID``."""
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urllib.parse.urlsplit(text)
    scheme = parts.scheme.lower()
    secure = {"http": False, "ws": False, "https": True, "wss": True}.get(scheme)
    if secure is None or not parts.hostname:
        raise ValueError(f"not a server address: {url!r} (try http://host:port)")
    path = parts.path.rstrip("/")
    base = path[: -len("/ws")] if path.endswith("/ws") else path
    netloc = parts.netloc.rsplit("@", 1)[-1]
    port = parts.port or (443 if secure else 80)
    key = re.sub(r"[^A-Za-z0-9._-]", "_", f"{parts.hostname}_{port}")
    invite = urllib.parse.parse_qs(parts.query).get("table", [None])[0]
    return Server(
        ws_url=f"{'wss' if secure else 'ws'}://{netloc}{base}/ws",
        http_url=f"{'https' if secure else 'http'}://{netloc}{base}",
        key=key,
        invite=invite or None,
    )


def parse_invite(text: str) -> str | None:
    """A table id from what a person pasted: the id itself or an invite link."""
    text = text.strip()
    if "table=" in text:
        query = urllib.parse.urlsplit(text).query or text.split("?", 1)[-1]
        found = urllib.parse.parse_qs(query).get("table", [""])[0]
        text = found.strip()
    return text if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", text) else None


# ---------------------------------------------------------------- can it be reached


class Unreachable(RuntimeError):
    """The server cannot be reached; the message says why, in a few words."""


def connect_problem(error: BaseException, host: str = "") -> str:
    """Why a connection failed, for people: ``connection refused``, ``no such host``,
    ``timed out`` … (``host`` names the host a look-up failed for)."""
    if isinstance(error, urllib.error.URLError) and isinstance(error.reason, BaseException):
        error = error.reason
    where = f" {host}" if host else ""
    if isinstance(error, socket.gaierror):
        if error.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)):
            return f"no such host{where}"
        return f"cannot look up the host{where} ({error.strerror or error})"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused (is the server running, on that port?)"
    if isinstance(error, TimeoutError):
        return "timed out (no answer)"
    if isinstance(error, ssl.SSLError):
        return f"the secure connection failed ({error.reason or error})"
    if isinstance(error, ConnectionResetError):
        return "the connection was reset"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror[:1].lower() + error.strerror[1:]
    text = " ".join(str(error).split())
    return text or type(error).__name__


def reach(server: Server, timeout: float = REACH_TIMEOUT) -> None:
    """Check that something answers HTTP at ``server`` (its ``/healthz``); raises
    ``Unreachable`` with the reason when nothing does.  Any HTTP answer will do: the
    WebSocket session says the rest."""
    host = urllib.parse.urlsplit(server.http_url).hostname or ""
    request = urllib.request.Request(server.http_url + "/healthz")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            answer.read(1)
    except urllib.error.HTTPError:
        return  # it answered
    except http.client.HTTPException as e:
        if isinstance(e, ConnectionResetError):  # closed without a word
            raise Unreachable("the connection was closed without an answer") from None
        raise Unreachable("something answers there, but not a web server") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise Unreachable(connect_problem(e, host)) from None


# ---------------------------------------------------------------- the token file


def client_data_dir() -> Path:
    """Where the client keeps its files (``TRUMPS_DATA_DIR`` overrides)."""
    override = os.environ.get("TRUMPS_DATA_DIR")
    return Path(override) if override else user_data_path("trumps", appauthor=False)


class TokenStore:
    """The name and resume token for one server, in a small JSON file only the user reads."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def for_server(cls, server: Server) -> TokenStore:
        return cls(client_data_dir() / f"client-{server.key}.json")

    def load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def save(self, **fields: Any) -> None:
        data = {**self.load(), **fields}
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, self.path)


def default_name(stored: dict[str, Any]) -> str | None:
    """The name last used with this server; None when the player never chose one (the
    ``hello`` then says none, and every client words it in its language: "Guest")."""
    name = stored.get("name")
    if not isinstance(name, str):
        return None
    return clean_text(name).strip()[:MAX_NAME_CHARS] or None


# ---------------------------------------------------------------- HTTP


class HttpError(RuntimeError):
    """An HTTP request failed; the message is for people, one line.  ``status`` is the
    HTTP status of an answer (None when nothing answered)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def _request(url: str, token: str | None, body: Msg | None = None) -> Any:
    """GET ``url`` (POST ``body`` as JSON when given) and read the JSON answer."""
    headers = {"accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["content-type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers)
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as answer:
            return json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        try:
            detail = json.loads(e.read().decode("utf-8"))
            detail = detail.get("message") or detail.get("error") or e.reason
        except (ValueError, AttributeError, OSError):
            detail = e.reason
        raise HttpError(f"{e.code}: {' '.join(str(detail).split())}", e.code) from None
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as e:
        host = urllib.parse.urlsplit(url).hostname or ""
        raise HttpError(f"the server cannot be reached: {connect_problem(e, host)}") from None


# ---------------------------------------------------------------- the client

Listener = Callable[[Change, Msg], None]


class Client:
    """One player's session with a server: the socket, the state, reconnects and pings."""

    def __init__(
        self,
        url: str,
        name: str | None = None,
        token_file: Path | None = None,
        listener: Listener | None = None,
    ) -> None:
        self.server = server_address(url)
        self.store = TokenStore(token_file) if token_file else TokenStore.for_server(self.server)
        stored = self.store.load()
        given = clean_text(name).strip()[:MAX_NAME_CHARS] if name else ""
        self.name: str | None = given or default_name(stored)  # None: no name chosen
        token = stored.get("resume_token")
        self.state = ClientState(name=self.name, token=token if isinstance(token, str) else None)
        self.listener = listener
        self.status = "connecting"
        self.ws: ClientConnection | None = None
        self.connects = 0  # connections that got a welcome
        self._outbox: asyncio.Queue[str] | None = None
        self._stopping = False
        self._nonce = 0
        self._last_seen = 0.0
        self._retry = RETRY_FIRST
        self._wake = asyncio.Event()  # set by retry_now: the backoff wait ends at once
        self._now = False  # reconnect without waiting (a new identity)
        self._invite = self.server.invite

    def retry_now(self) -> None:
        """Reconnect at once instead of waiting out the backoff (nothing while connected)."""
        self._wake.set()

    # -- sending ---------------------------------------------------------------------------
    def send(self, msg: Msg) -> bool:
        """Queue ``msg`` for the server; False (and nothing sent) while not connected."""
        if self._outbox is None or (not self.state.welcomed and msg.get("type") != "hello"):
            return False
        self._outbox.put_nowait(json.dumps(msg, ensure_ascii=False))
        return True

    def _hello(self) -> None:
        # contributes: this client gives a random value to every deal it sits at
        # (docs/fairness.md; ``ClientState.contribution``).
        hello: Msg = {"type": "hello", "protocol": PROTOCOL_VERSION, "contributes": True}
        if self.name:  # none chosen: none said (the server keeps a resumed player's own)
            hello["name"] = self.name
        if self.state.token:
            hello["resume_token"] = self.state.token
        self.send(hello)

    # -- requests --------------------------------------------------------------------------
    def act(self, table_id: str, action: str) -> bool:
        t = self.state.tables.get(table_id)
        if t is None or not t.can_act:
            return False
        msg = {"type": "action", "table_id": table_id, "action": action, "expected": t.event}
        if self.send(msg):
            t.sent = True
            return True
        return False

    def join(self, table_id: str, seat: int | None = None) -> bool:
        self.state.pending_join = table_id
        msg: Msg = {"type": "join_table", "table_id": table_id}
        if seat is not None:
            msg["seat"] = seat
        return self.send(msg)

    def spectate(self, table_id: str) -> bool:
        return self.send({"type": "spectate", "table_id": table_id})

    def leave(self, table_id: str) -> bool:
        t = self.state.tables.get(table_id)
        if t is not None:
            t.left = True
        return self.send({"type": "leave_table", "table_id": table_id})

    def quick_match(self, game: str, rules: str | None, rated: bool | None = None) -> bool:
        """Wait for the next person asking for the same game and rules; ``rated`` None:
        rated for an account, casual for a guest (the server decides)."""
        return self.send({"type": "quick_match", "game": game, "rules": rules, "rated": rated})

    def cancel_quick_match(self) -> bool:
        self.state.waiting = None
        return self.send({"type": "cancel_quick_match"})

    # -- HTTP ------------------------------------------------------------------------------
    async def get_json(self, path: str, *, auth: bool = False) -> Any:
        """GET ``path`` from the server's HTTP API (with the bearer token when ``auth``)."""
        token = self.state.token if auth else None
        if auth and not token:
            raise HttpError("not signed in yet: wait for the connection")
        return await asyncio.to_thread(_request, self.server.http_url + path, token)

    async def post_json(self, path: str, body: Msg | None = None) -> Any:
        """POST ``body`` (default ``{}``) to ``path`` of the server's HTTP API with the
        bearer token (a guest's or an account's): the JSON answer."""
        token = self.state.token
        if not token:
            raise HttpError("not signed in yet: wait for the connection")
        url = self.server.http_url + path
        return await asyncio.to_thread(_request, url, token, {} if body is None else body)

    async def sign_in(self, login: str, password: str, *, create: bool = False) -> str:
        """Sign in to an account (``create``: make this guest an account, keeping its
        games), keep its token and connect again with it; the account's login.  Raises
        ``HttpError`` with the reason (a wrong password, a login taken …)."""
        body: Msg = {"login": login, "password": password}
        path = "/api/login"
        if create:
            path = "/api/accounts"
            if self.name:  # (no name: the account is called by its login)
                body["name"] = self.name
        answer = await asyncio.to_thread(
            _request, self.server.http_url + path, self.state.token, body
        )
        token = answer.get("resume_token") if isinstance(answer, dict) else None
        if not isinstance(token, str):
            raise HttpError("the server's answer carried no session")
        self.state.token = token
        self.store.save(resume_token=token)
        self.reconnect()
        return str(answer.get("login") or login)

    def reconnect(self) -> None:
        """Drop the connection and open a new one at once (a new identity says hello)."""
        self._now = True
        self._wake.set()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.transport.abort()

    # -- the connection --------------------------------------------------------------------
    def stop(self) -> None:
        self._stopping = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.transport.abort()

    def _set_status(self, status: str) -> None:
        self.status = status
        if self.listener is not None:
            self.listener(Change("status", text=status), {"type": "status"})

    async def run(self) -> None:
        """Stay connected until ``stop`` (or cancellation): reconnect with backoff."""
        while not self._stopping:
            try:
                self._set_status("connecting")
                async with websockets.connect(
                    self.server.ws_url, max_size=MAX_FRAME, open_timeout=10
                ) as ws:
                    await self._session(ws)
            except asyncio.CancelledError:
                raise
            except (OSError, websockets.WebSocketException, TimeoutError) as e:
                host = urllib.parse.urlsplit(self.server.http_url).hostname or ""
                self._set_status(f"offline ({connect_problem(e, host)})")
            except Exception as e:  # a bug here must not end the session for good
                self._set_status(f"offline (client error: {type(e).__name__}: {e})")
            finally:
                self.ws = None
                self._outbox = None
                self.state.welcomed = False
            if self._stopping:
                break
            if self._now:  # asked for: no wait
                self._now = False
                continue
            delay = self._retry * random.uniform(0.8, 1.2)
            self._retry = min(self._retry * 2, RETRY_MAX)
            self._set_status(f"offline, retrying in {delay:.1f} s (Ctrl+R: now)")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
        self._set_status("closed")

    async def _session(self, ws: ClientConnection) -> None:
        self.ws = ws
        outbox: asyncio.Queue[str] = asyncio.Queue()
        self._outbox = outbox
        self.state.welcomed = False
        self._last_seen = time.monotonic()
        writer = asyncio.create_task(self._write(ws, outbox))
        pinger = asyncio.create_task(self._ping(ws))
        try:
            self._set_status("saying hello")
            self._hello()
            async for raw in ws:
                self._last_seen = time.monotonic()
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    self._receive(msg)
        finally:
            for task in (writer, pinger):
                task.cancel()
            for task in (writer, pinger):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._set_status("disconnected")

    async def _write(self, ws: ClientConnection, outbox: asyncio.Queue[str]) -> None:
        while True:
            text = await outbox.get()
            try:
                await ws.send(text)
            except websockets.ConnectionClosed:
                return

    async def _ping(self, ws: ClientConnection) -> None:
        while True:
            await asyncio.sleep(PING_EVERY)
            if time.monotonic() - self._last_seen > SILENCE_LIMIT:
                ws.transport.abort()  # silent too long: drop it and reconnect
                return
            self._nonce += 1
            self.send({"type": "ping", "nonce": self._nonce})

    def _receive(self, msg: Msg) -> None:
        kind = msg.get("type")
        if kind == "error" and msg.get("code") == "bad_token" and not self.state.welcomed:
            # The stored token is no good here any more: start again as a new guest.
            self.state.token = None
            self.store.save(resume_token=None)
            self._hello()
            return
        if kind == "error" and msg.get("code") == "unavailable" and not self.state.welcomed:
            # The server cannot reach its database or Redis just now: ask again soon.
            loop = asyncio.get_running_loop()
            loop.call_later(HELLO_AGAIN, lambda: None if self.state.welcomed else self._hello())
        change = self.state.apply(msg)
        if kind == "welcome":
            self.connects += 1
            self._retry = RETRY_FIRST
            self.name = self.state.name
            self.store.save(name=self.state.name, resume_token=self.state.token)
            self._set_status("online")
        for request in change.send:
            self.send(request)
        if kind == "welcome" and self._invite:
            invite, self._invite = self._invite, None
            if invite not in self.state.resumed:
                self.join(invite)
        if self.listener is not None:
            self.listener(change, msg)
