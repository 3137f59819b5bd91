"""Resume tokens as sessions kept on the server (docs/security.md#sessions).

A token is 256 random bits (``secrets.token_urlsafe(32)``), handed to the client once; the
store keeps only its HMAC-SHA256 digest under the server secret, so neither a copy of the
database alone nor a guess opens a session, and replacing the secret ends every session.
A session is ended by deleting its row: the next ``hello`` or HTTP request with its token
is refused, and the open sockets of an ended session are closed (``SESSION_ENDED``).  Its
last use is written at most once per ``touch_every`` seconds, not on every message.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from typing import Final

from trumps.server.identity.auth import BadToken
from trumps.store import Session, Store

__all__ = [
    "GUEST_IDLE",
    "GUEST_UNUSED",
    "SESSION_ENDED",
    "SESSION_IDLE",
    "TOUCH_EVERY",
    "Sessions",
    "client_label",
]

SESSION_IDLE: Final = 60 * 60 * 24 * 90  # a session unused for 90 days ends
GUEST_IDLE: Final = 60 * 60 * 24 * 7  # a guest that holds nothing goes after a week unused
GUEST_UNUSED: Final = 60 * 60  # … or after an hour if its token was never used again
TOUCH_EVERY: Final = 300.0  # seconds between two writes of a session's last use
SESSION_ENDED: Final = "session ended"  # the close reason of a socket whose session ended
MAX_LABEL: Final = 80


def client_label(user_agent: str | None) -> str:
    """A short label for a session from the client's ``User-Agent``: its browser and system
    when they can be told, else the header cut short (never more than ``MAX_LABEL``)."""
    ua = (user_agent or "").strip()
    if not ua:
        return ""
    browser = next(
        (
            name
            for key, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"),
                ("Safari/", "Safari"),
            )
            if key in ua
        ),
        None,
    )
    system = next(
        (
            name
            for key, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS X", "macOS"),
                ("Linux", "Linux"),
            )
            if key in ua
        ),
        None,
    )
    if browser is not None:
        return f"{browser} on {system}" if system else browser
    return "".join(c for c in ua if c.isprintable())[:MAX_LABEL]


class Sessions:
    """Issues, checks, lists and ends the sessions of one service (all its processes share
    the store and the secret)."""

    def __init__(
        self,
        store: Store,
        secret: str,
        *,
        touch_every: float = TOUCH_EVERY,
        idle: float = SESSION_IDLE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if len(secret) < 16:
            raise ValueError("the server secret must be at least 16 characters")
        self.store = store
        self._key = secret.encode()
        self.touch_every = touch_every
        self.idle = idle
        self.clock = clock

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(32)

    def digest(self, token: str) -> str:
        return hmac.new(self._key, token.encode(), hashlib.sha256).hexdigest()

    async def open(self, player_id: int, label: str = "") -> tuple[str, Session]:
        """A new session of ``player_id``: its token (given out once) and its row."""
        token = self.new_token()
        row = await self.store.add_session(player_id, self.digest(token), label, self.clock())
        return token, row

    async def open_guest(
        self, name: str, token: str, label: str = "", player_id: int | None = None
    ) -> Session:
        """Store a new guest (``player_id``: reserved for it at its ``hello``) with a session
        for ``token`` (made by ``new_token``)."""
        return await self.store.add_guest(
            name, self.digest(token), label, self.clock(), player_id=player_id
        )

    async def check(self, token: str) -> Session:
        """The live session of ``token``; raises ``BadToken``.  Notes its use if the last
        note is older than ``touch_every``."""
        found = await self.store.find_session(self.digest(token))
        now = self.clock()
        if found is None:
            raise BadToken(
                "the resume token opens no session here (it ended, or its guest never sat, "
                "made a table or chatted)"
            )
        if now - found.last_used > self.idle:
            await self.store.end_sessions(found.player_id, [found.id])
            raise BadToken("the session has expired; sign in again or play on as a new guest")
        if now - found.last_used >= self.touch_every:
            await self.store.touch_session(found.id, now)
        return found

    async def touch(self, session_id: int) -> None:
        await self.store.touch_session(session_id, self.clock())

    async def expire(self) -> tuple[int, int]:
        """End the sessions unused for ``idle`` and remove guests that hold nothing and
        were not used for ``GUEST_IDLE`` (``GUEST_UNUSED`` if their token was never used
        after the first ``hello``: a flood of hellos); how many of each."""
        now = self.clock()
        return await self.store.expire(now - self.idle, now - GUEST_IDLE, now - GUEST_UNUSED)
