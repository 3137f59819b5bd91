"""Identity on the server: signed resume tokens, password hashes and the server secret.

A *resume token* names a player (guest or account) and is signed with the server's secret
(itsdangerous), so a client cannot forge one and a token from another server (another
secret) is refused.  It is what a reloaded page sends in ``hello`` to get its seats back and
the bearer token of the HTTP API.  The secret is kept in a file so tokens survive restarts.
Passwords are hashed with argon2id in a worker thread: hashing is deliberately slow.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
from pathlib import Path
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

__all__ = [
    "LOGIN_RE",
    "BadToken",
    "Passwords",
    "Tokens",
    "load_secret",
    "make_private_dir",
]

TOKEN_MAX_AGE: Final = 60 * 60 * 24 * 90  # a resume token is good for 90 days
LOGIN_RE: Final = re.compile(r"^[a-z0-9][a-z0-9_.-]{2,31}$")
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256


class BadToken(ValueError):
    """A resume token that is forged, from another server, malformed or expired."""


class Tokens:
    """Issues and checks resume tokens for player ids."""

    def __init__(self, secret: str, max_age: int = TOKEN_MAX_AGE) -> None:
        if len(secret) < 16:
            raise ValueError("the server secret must be at least 16 characters")
        self._serializer = URLSafeTimedSerializer(secret, salt="trumps-resume")
        self.max_age = max_age

    def issue(self, player_id: int) -> str:
        return self._serializer.dumps({"p": player_id})

    def check(self, token: str) -> int:
        """The player id a token names; raises ``BadToken``."""
        try:
            data = self._serializer.loads(token, max_age=self.max_age)
        except SignatureExpired:
            raise BadToken("the resume token has expired; play on as a new guest") from None
        except BadSignature:
            raise BadToken("the resume token is not one this server issued") from None
        player = data.get("p") if isinstance(data, dict) else None
        if not isinstance(player, int) or isinstance(player, bool) or not 1 <= player < 2**31:
            raise BadToken("the resume token names no player")
        return player


class Passwords:
    """argon2id hashing off the event loop."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self._hasher = hasher or PasswordHasher()

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, password_hash: str, password: str) -> bool:
        def check() -> bool:
            try:
                return self._hasher.verify(password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(check)


def make_private_dir(path: Path) -> None:
    """Make folder ``path`` and any missing parents readable by their owner only (0700);
    folders that exist keep their mode."""
    missing = []
    for folder in (path, *path.parents):
        if folder.exists():
            break
        missing.append(folder)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by another process
            folder.mkdir(mode=0o700)


def load_secret(path: Path) -> str:
    """The secret stored at ``path``, created (readable by its owner only) if missing."""
    try:
        secret = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        make_private_dir(path.parent)
        secret = secrets.token_urlsafe(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(secret + "\n")
    if len(secret) < 16:
        raise ValueError(f"the secret in {path} is too short (at least 16 characters)")
    return secret
