"""The engine's error classes (docs/api.md).

``InvalidAction`` is syntax (not an action at all), ``IllegalAction`` is legality (a
well-formed action that is not allowed now), ``InvalidPosition`` is a bad position
dict.  All are ``ValueError`` so callers that only care about "bad input" catch one
class.  Messages name the offending input and, where there is one, the position.
"""

from __future__ import annotations


class TrumpsError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidAction(TrumpsError):
    """The input is not an action at all (``"XX"``, ``"take 3"``, ``""``)."""


class IllegalAction(TrumpsError):
    """A well-formed action that the rules do not allow in this position."""


class InvalidPosition(TrumpsError):
    """A position dict (docs/positions.md) that is malformed or contradicts itself."""


class InvalidRules(TrumpsError):
    """An unknown rule option or preset, or a value the option does not take.

    ``option`` names the rule option at fault when there is one, and ``fits`` the player
    counts its value would fit when it is the count that does not (a client words both in
    the player's language: docs/protocol.md, error ``rule``)."""

    def __init__(
        self, message: str, *, option: str | None = None, fits: tuple[int, ...] = ()
    ) -> None:
        super().__init__(message)
        self.option = option
        self.fits = fits


class InvalidRecord(TrumpsError):
    """A game record (docs/records.md) that is malformed or does not replay."""
