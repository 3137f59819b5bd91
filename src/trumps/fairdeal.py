"""Provably fair deals (docs/fairness.md): a seed nobody could choose alone.

A table's server draws a *secret* and publishes its *commitment*, the SHA-256 of the
secret, before anyone sits down.  Each seat may then *contribute* a random value of its
own, after it has seen the commitment.  When the game starts, its seed — and so every
deal — is derived from the secret and all the contributions:

    seed = first 53 bits of SHA-256("trumps-deal/1" LF secret LF c0 LF c1 … LF c(n-1))

where ``ck`` is seat k's contribution, or ``-`` for a seat that gave none.  The finished
game's record carries the secret and the contributions (``"fair"``), so anyone can check
that the secret is the one committed to, that the seed is the one derived, and — by
replaying the record — that every deal came from that seed.

The server cannot pick a deal after seeing who sits where (its secret is fixed by the
commitment and it cannot predict the contributions); a player cannot steer the deal (the
secret is unknown to them until the game is over).  It does not stop players who share
their hands with each other, nor a server that plays in a seat itself.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trumps.errors import InvalidRecord

__all__ = [
    "SCHEME",
    "Fairness",
    "check_contribution",
    "commitment",
    "deal_seed",
    "fair_of",
    "new_secret",
]

SCHEME = "trumps-deal/1"
SECRET_HEX = 64  # a secret is 32 random bytes, written as 64 lowercase hex digits
MIN_CONTRIBUTION_HEX = 16  # a contribution is 8 to 64 bytes, in lowercase hex
MAX_CONTRIBUTION_HEX = 128
_SEED_BITS = 53  # a seed any JSON reader holds exactly (a JavaScript number)
_HEX = re.compile(r"[0-9a-f]*")


def new_secret() -> str:
    """A fresh random secret (64 hex digits)."""
    return secrets.token_hex(SECRET_HEX // 2)


def commitment(secret: str) -> str:
    """What the server publishes before anyone sits down: SHA-256 of the secret's text."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def check_contribution(value: object) -> str:
    """``value`` if it is a valid contribution (16–128 lowercase hex digits, an even
    number), else ``ValueError`` naming the problem in one line."""
    if not isinstance(value, str):
        raise ValueError(f"a contribution must be a string of hex digits, not {value!r:.40}")
    if not MIN_CONTRIBUTION_HEX <= len(value) <= MAX_CONTRIBUTION_HEX or len(value) % 2:
        raise ValueError(
            f"a contribution must be {MIN_CONTRIBUTION_HEX}–{MAX_CONTRIBUTION_HEX} hex digits "
            f"(an even number), not {len(value)}"
        )
    if not _HEX.fullmatch(value):
        raise ValueError("a contribution must be lowercase hex digits (0-9, a-f)")
    return value


def deal_seed(secret: str, contributions: Sequence[str | None]) -> int:
    """The game's seed from the server's secret and each seat's contribution (None: none)."""
    text = "\n".join([SCHEME, secret, *(c if c is not None else "-" for c in contributions)])
    digest = hashlib.sha256(text.encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - _SEED_BITS)


@dataclass(frozen=True)
class Fairness:
    """A game's fair-deal data: the secret, its commitment and one contribution per seat."""

    secret: str
    contributions: tuple[str | None, ...]

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    @property
    def seed(self) -> int:
        return deal_seed(self.secret, self.contributions)

    def to_json(self) -> dict[str, Any]:
        """The record's ``"fair"`` object (docs/records.md)."""
        return {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "secret": self.secret,
            "contributions": list(self.contributions),
        }


def fair_of(data: object, players: int, seed: object) -> Fairness:
    """A record's ``"fair"`` object checked against the record: the secret must match the
    commitment and the seed must be the one the secret and contributions give.  Raises
    ``InvalidRecord`` naming the first thing that does not hold."""
    if not isinstance(data, Mapping):
        raise InvalidRecord(f"record fair must be an object, not {data!r:.80}")
    keys = {"scheme", "commitment", "secret", "contributions"}
    if set(data) != keys:
        raise InvalidRecord(f"record fair must have exactly the keys {', '.join(sorted(keys))}")
    if data["scheme"] != SCHEME:
        raise InvalidRecord(f"record fair scheme must be {SCHEME!r}, not {data['scheme']!r:.40}")
    secret, committed = data["secret"], data["commitment"]
    for name, value in (("secret", secret), ("commitment", committed)):
        if not isinstance(value, str) or len(value) != SECRET_HEX or not _HEX.fullmatch(value):
            raise InvalidRecord(f"record fair {name} must be {SECRET_HEX} lowercase hex digits")
    given = data["contributions"]
    if not isinstance(given, list) or len(given) != players:
        raise InvalidRecord(f"record fair contributions must be a list of {players} (one a seat)")
    for seat, value in enumerate(given):
        if value is not None:
            try:
                check_contribution(value)
            except ValueError as e:
                raise InvalidRecord(f"record fair contribution of seat {seat}: {e}") from None
    if not hmac.compare_digest(commitment(secret), committed):
        raise InvalidRecord(
            "the secret does not match the commitment published before the game: "
            "the deal cannot be trusted"
        )
    fair = Fairness(secret, tuple(given))
    if seed != fair.seed:
        raise InvalidRecord(
            f"the seed {seed!r} is not the one the secret and contributions give "
            f"({fair.seed}): the deals were not made as committed"
        )
    return fair
