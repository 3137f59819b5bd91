"""The HTTP API of identity: accounts, login, logout and the list of one's sessions.

Every answer that gives out a resume token makes a new session (``trumps.server.identity.sessions``):
logging in ends the session the request came with (the browser's guest), making an account
out of a guest ends every session of the guest, and changing the password ends every
session of the account; the sockets of an ended session are closed on every process.
Logins are throttled per address and per account, with counters shared by every process of
the service (``trumps.server.limits.quota``: in Redis with ``--redis``), so more processes give an
attacker no more tries; while they cannot be counted, tries are refused (503
``unavailable``).  An unknown login costs one argon2 verification like a known one, so its
answer takes as long.  Passwords that are common or
easy to guess are refused (``weak_password``, judged by zxcvbn).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from zxcvbn import zxcvbn

from trumps.server.identity.auth import LOGIN_RE, MAX_PASSWORD, MIN_PASSWORD, BadToken, Passwords
from trumps.server.identity.sessions import Sessions, client_label
from trumps.server.limits.httpsafety import Refused, json_body
from trumps.server.limits.quota import Counters, Unavailable, address_key
from trumps.server.wire.wiretypes import MAX_NAME_CHARS, clean_text
from trumps.store import LoginTaken, Session, Store

__all__ = ["MAX_BODY_BYTES", "MIN_SCORE", "Accounts", "LoginLimits", "fail", "weak_password"]

MAX_BODY_BYTES: Final = 4096  # an HTTP request body (accounts, login, password)
LOGIN_WINDOW: Final = 60.0  # seconds the login limits are counted over (a minute)
# zxcvbn's score (0–4) a new password needs: 3 is "safely unguessable" against an online
# attack that is throttled (10^8 guesses); 12345678 and password score 0.
MIN_SCORE: Final = 3
ZXCVBN_CHARS: Final = 72  # what zxcvbn looks at (it refuses longer input; more is stronger)
WEAK: Final = (
    "this password is too easy to guess (common, or a pattern): use a longer one, "
    "or several words that do not go together"
)


def weak_password(password: str, *context: str) -> bool:
    """Whether ``password`` is common or easy to guess, also given the account's login and
    name (zxcvbn, a maintained estimator with lists of common passwords and words)."""
    found = zxcvbn(password[:ZXCVBN_CHARS], user_inputs=[c for c in context if c])
    return int(found["score"]) < MIN_SCORE


class _AccountIn(msgspec.Struct, forbid_unknown_fields=True):
    login: Annotated[str, Meta(min_length=3, max_length=32)]
    password: Annotated[str, Meta(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)]
    name: Annotated[str, Meta(min_length=1, max_length=MAX_NAME_CHARS)] | None = None


class _LoginIn(msgspec.Struct, forbid_unknown_fields=True):
    login: Annotated[str, Meta(min_length=1, max_length=32)]
    password: Annotated[str, Meta(min_length=1, max_length=MAX_PASSWORD)]


class _PasswordIn(msgspec.Struct, forbid_unknown_fields=True):
    password: Annotated[str, Meta(min_length=1, max_length=MAX_PASSWORD)]
    new_password: Annotated[str, Meta(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)]


def fail(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _login_key(login: str) -> str:
    """What a login's tries are counted under (a hash, like an address)."""
    return hashlib.sha256(login.encode("utf-8", "replace")).hexdigest()[:20]


@dataclass(frozen=True)
class LoginLimits:
    """Tries of the account and login endpoints: per address, and of each login per account
    (whether or not the account exists, so the limit tells nothing).  Each is a bucket
    (``Counters.allow``): all of them at once, then one each minute / limit."""

    per_address: int = 10  # a minute (all of them at once)
    per_account: int = 5  # a minute (all of them at once)


class Accounts:
    """The identity endpoints of one app."""

    def __init__(
        self,
        store: Store,
        sessions: Sessions,
        ended: Callable[[list[int]], None],
        limits: LoginLimits = LoginLimits(),
        passwords: Passwords | None = None,
        *,
        counters: Counters | None = None,
    ) -> None:
        self.store, self.sessions, self._ended = store, sessions, ended
        self.passwords = passwords or Passwords()
        self.limits = limits
        # The hub's, so that every process of a service counts in one place (Redis).
        self.counters = counters if counters is not None else Counters()
        self._dummy: str | None = None

    # -- helpers -----------------------------------------------------------------------------
    async def bearer(self, request: Request) -> Session | None:
        """The session of the request's ``Authorization: Bearer`` token (None without
        one); raises ``BadToken`` for a token that is no live session."""
        header = request.headers.get("authorization", "")
        if not header.lower().startswith("bearer "):
            return None
        token = header[7:].strip()
        if not token or len(token) > 128:
            raise BadToken("the token is not a session of this server")
        return await self.sessions.check(token)

    async def _need_bearer(self, request: Request) -> Session | Response:
        try:
            session = await self.bearer(request)
        except BadToken as e:
            return fail(401, "bad_token", str(e))
        if session is None:
            return fail(401, "bad_token", "this needs an Authorization: Bearer token")
        return session

    async def _address_refusal(self, request: Request) -> Response | None:
        """429 once the request's address made its tries this minute (503 if they cannot be
        counted); None, with one try taken, otherwise."""
        address = address_key(request.client.host if request.client else "?")
        return await self._throttle(
            f"login:a:{address}", self.limits.per_address, "too many attempts; wait a minute"
        )

    async def _account_refusal(self, login: str) -> Response | None:
        return await self._throttle(
            f"login:u:{_login_key(login)}",
            self.limits.per_account,
            "too many attempts for this login; wait a minute",
        )

    async def _throttle(self, key: str, limit: int, message: str) -> Response | None:
        try:
            if await self.counters.allow(key, limit, LOGIN_WINDOW):
                return None
        except Unavailable:
            return fail(503, "unavailable", "tries cannot be counted just now; try again shortly")
        return fail(429, "rate_limited", message)

    async def _open(self, player_id: int, request: Request) -> str:
        token, _ = await self.sessions.open(
            player_id, client_label(request.headers.get("user-agent"))
        )
        return token

    async def _end(
        self, player_id: int, ids: list[int] | None = None, keep: int | None = None
    ) -> list[int]:
        ended = await self.store.end_sessions(player_id, ids, keep)
        self._ended(ended)
        return ended

    async def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = await self.passwords.hash(secrets.token_urlsafe(16))
        return self._dummy

    # -- endpoints ---------------------------------------------------------------------------
    async def create(self, request: Request) -> Response:
        """``POST /api/accounts``: a new account, or the bearer's guest made one."""
        if (refused := await self._address_refusal(request)) is not None:
            return refused
        try:
            body: _AccountIn = await _body(request, _AccountIn)
        except Refused as e:
            return fail(e.status, e.code, str(e))
        except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as e:
            return fail(400, "bad_field", str(e))
        login = body.login.strip().lower()
        if not LOGIN_RE.match(login):
            return fail(
                400,
                "bad_field",
                "a login is 3–32 of a–z, 0–9, '_', '.', '-', starting alphanumeric",
            )
        try:
            guest = await self.bearer(request)
        except BadToken:
            # No stored guest: one that never sat, made a table or chatted has nothing to
            # keep (or its session ended): the account is a new player.
            guest = None
        name = clean_text(body.name or body.login).strip() or login
        if await asyncio.to_thread(weak_password, body.password, login, name):
            return fail(400, "weak_password", WEAK)
        password_hash = await self.passwords.hash(body.password)
        try:
            if guest is not None:
                player = await self.store.get_player(guest.player_id)
                if player.login is not None:
                    return fail(409, "bad_field", "this player already has an account")
                await self.store.set_account(guest.player_id, login, password_hash, name)
                player_id = guest.player_id
                await self._end(player_id)  # the guest's tokens no longer open the account
            else:
                player_id = await self.store.add_player(name, password_hash, login=login)
        except LoginTaken:
            return fail(409, "login_taken", f"the login {login!r} is taken")
        except LookupError:
            return fail(401, "bad_token", "the token names no player here")
        return JSONResponse(
            {
                "player_id": player_id,
                "name": name,
                "login": login,
                "resume_token": await self._open(player_id, request),
            },
            status_code=201,
        )

    async def login(self, request: Request) -> Response:
        """``POST /api/login``: a new session of the account; the bearer's ends."""
        if (refused := await self._address_refusal(request)) is not None:
            return refused
        try:
            body: _LoginIn = await _body(request, _LoginIn)
        except Refused as e:
            return fail(e.status, e.code, str(e))
        except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as e:
            return fail(400, "bad_field", str(e))
        login = body.login.strip().lower()
        if (refused := await self._account_refusal(login)) is not None:
            return refused
        player = await self.store.find_login(login)
        known = player is not None and player.password_hash is not None
        # An unknown login is verified against a dummy hash: it costs as long as a known one.
        stored = player.password_hash if player is not None and known else None
        good = await self.passwords.verify(stored or await self._dummy_hash(), body.password)
        if player is None or not known or not good:
            return fail(401, "bad_login", "wrong login or password")
        try:
            old = await self.bearer(request)
        except BadToken:
            old = None
        if old is not None:
            await self._end(old.player_id, [old.id])
        return JSONResponse(
            {
                "player_id": player.id,
                "name": player.name,
                "login": player.login,
                "resume_token": await self._open(player.id, request),
            }
        )

    async def password(self, request: Request) -> Response:
        """``POST /api/password``: a new password; every session of the account ends and
        the answer carries the one new session."""
        session = await self._need_bearer(request)
        if isinstance(session, Response):
            return session
        if (refused := await self._address_refusal(request)) is not None:
            return refused
        try:
            body: _PasswordIn = await _body(request, _PasswordIn)
        except Refused as e:
            return fail(e.status, e.code, str(e))
        except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as e:
            return fail(400, "bad_field", str(e))
        player = await self.store.get_player(session.player_id)
        if player.login is None or player.password_hash is None:
            return fail(409, "bad_field", "a guest has no password; make an account first")
        if (refused := await self._account_refusal(player.login)) is not None:
            return refused
        if not await self.passwords.verify(player.password_hash, body.password):
            return fail(401, "bad_login", "wrong password")
        if await asyncio.to_thread(weak_password, body.new_password, player.login, player.name):
            return fail(400, "weak_password", WEAK)
        await self.store.set_password(player.id, await self.passwords.hash(body.new_password))
        await self._end(player.id)
        return JSONResponse({"resume_token": await self._open(player.id, request)})

    async def logout(self, request: Request) -> Response:
        """``POST /api/logout``: end the bearer's session."""
        session = await self._need_bearer(request)
        if isinstance(session, Response):
            return session
        return JSONResponse({"ended": await self._end(session.player_id, [session.id])})

    async def logout_everywhere(self, request: Request) -> Response:
        """``POST /api/logout/everywhere``: end every session of the bearer's player."""
        session = await self._need_bearer(request)
        if isinstance(session, Response):
            return session
        return JSONResponse({"ended": await self._end(session.player_id)})

    async def listing(self, request: Request) -> Response:
        """``GET /api/sessions``: the bearer's player's sessions, the current one marked."""
        session = await self._need_bearer(request)
        if isinstance(session, Response):
            return session
        rows = await self.store.player_sessions(session.player_id)
        return JSONResponse(
            {"sessions": [_session_json(row, row.id == session.id) for row in rows]},
            headers={"cache-control": "no-store"},
        )

    async def end(self, request: Request) -> Response:
        """``DELETE /api/sessions/{id}``: end one of the bearer's player's sessions."""
        session = await self._need_bearer(request)
        if isinstance(session, Response):
            return session
        try:
            wanted = int(request.path_params["session_id"])
        except ValueError:
            wanted = -1
        if not await self._end(session.player_id, [wanted]):
            return fail(404, "no_such_session", "you have no session with that id")
        return JSONResponse({"ended": [wanted]})


def _session_json(row: Session, current: bool) -> dict[str, Any]:
    return {
        "id": row.id,
        "created": row.created,
        "last_used": row.last_used,
        "label": row.label,
        "current": current,
    }


async def _body(request: Request, kind: type[Any]) -> Any:
    return msgspec.json.decode(await json_body(request, MAX_BODY_BYTES), type=kind)
