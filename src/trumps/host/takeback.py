"""Take-backs (docs/protocol.md#takeback): which moves a player's take-back undoes, and
when a player may ask for one.

A player takes back *their last move*: the game goes back to the position before it, so
the moves made after it (the computer's replies, or other people's) are undone too.  In a
casual game against the computer it happens at once; between people, every other person
holding a seat must accept.  Never at a rated table, never once the game is over, and not
past the end of a hand (its score was told; the next hand is dealt).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

__all__ = ["Refusal", "kept_after_takeback", "takeback_refusal"]

#: An error code of the protocol (docs/protocol.md#error-codes) and its message.
Refusal = tuple[Literal["not_allowed", "game_over"], str]


class _Logged(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def by_bot(self) -> bool: ...
    @property
    def ply(self) -> int | None: ...


class _Closed(Protocol):
    @property
    def closed(self) -> dict[str, Any] | None: ...


def kept_after_takeback(events: Sequence[_Logged], seat: int) -> int | None:
    """How many actions the game keeps when ``seat`` takes back its last move: the index of
    the latest action that person played themselves (not a bot for them, not a default
    move on time), or None if there is none.  A move already taken back is not counted
    (its event no longer adds an action), so a second take-back goes one move further."""
    for e in reversed(events):
        if e.kind == "action" and e.seat == seat and not e.by_bot and e.ply is not None:
            return e.ply
    return None


def takeback_refusal(
    *,
    seat: int,
    rated: bool,
    started: bool,
    over: bool,
    asked: int | None,
    events: Sequence[_Logged],
    notes: Sequence[_Closed],
    plies: int,
) -> Refusal | None:
    """Why ``seat`` may not take back (or ask to take back) its last move now, or None.
    ``asked``: the seat whose take-back waits for answers; ``notes``: what each action
    closed (``trumps.host.notes.PlyNotes``); ``plies``: the actions played so far."""
    if rated:
        return "not_allowed", "take-backs are not allowed at rated tables"
    if over:
        return "game_over", "the game at this table has ended"
    if not started:
        return "not_allowed", "the game has not started"
    if asked is not None:
        return "not_allowed", f"seat {asked}'s take-back is waiting for an answer"
    kept = kept_after_takeback(events, seat)
    if kept is None:
        return "not_allowed", "you have no move to take back"
    if any("hand" in (notes[k].closed or {}) for k in range(kept, min(plies, len(notes)))):
        return "not_allowed", "the hand of your last move is over"
    return None
