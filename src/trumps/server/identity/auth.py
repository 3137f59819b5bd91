"""Identity on the server: password hashes, logins and the server secret.

Resume tokens are sessions kept in the store (``trumps.server.identity.sessions``); the secret keys
their digests, and is kept in a file so that sessions survive restarts.  Passwords are
hashed with argon2id in a worker thread: hashing is deliberately slow.
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

__all__ = [
    "LOGIN_RE",
    "BadToken",
    "Passwords",
    "load_secret",
    "make_private_dir",
]

LOGIN_RE: Final = re.compile(r"^[a-z0-9][a-z0-9_.-]{2,31}$")
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256


class BadToken(ValueError):
    """A resume token that is forged, from another server, malformed or expired."""


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
