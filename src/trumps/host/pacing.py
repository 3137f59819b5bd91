"""The bots at a table, as every host of one has them: their pace where a person plays
(docs/protocol.md#pacing), the names every client shows for the seats, and the level
hints come from."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

__all__ = ["HAND_WAIT", "HINT_LEVEL", "PACES", "Pace", "pace_delay", "seat_names"]

HINT_LEVEL: Final = "expert"  # hints come from the strongest bot

#: After a hand, at a paced table, the next hand's bots wait for every person at the table
#: to have read the hand's summary (a ``continue``), or this long (docs/protocol.md#pacing).
HAND_WAIT: Final = 30.0


class Pace(NamedTuple):
    """Seconds from the latest move to a bot's next one, where a person plays."""

    least: float  # a move: a delay drawn between least …
    most: float  # … and most
    trick: float  # after a move that finished a trick
    hand: float  # after a move that finished a hand


PACES: Final[dict[str, Pace]] = {
    "normal": Pace(0.7, 1.1, 1.4, 2.5),
    "fast": Pace(0.3, 0.45, 0.7, 1.2),
    "instant": Pace(0.0, 0.0, 0.0, 0.0),
}


def pace_delay(
    pace: Pace, closed: dict[str, Any] | None, *, over: bool, unread: bool, rng: random.Random
) -> float:
    """Seconds a bot's move waits after the latest move, which ``closed`` what the game
    says it closed: a hand's hold (until everyone has read its summary, ``unread``, or
    ``HAND_WAIT``), a trick's, or a natural delay drawn from ``rng``."""
    if closed is not None:
        if "hand" in closed and pace.hand > 0 and not over and unread:
            return max(pace.hand, HAND_WAIT)
        return pace.hand if "hand" in closed else pace.trick
    return rng.uniform(pace.least, pace.most)


def seat_names(levels: Sequence[str | None], names: Sequence[str | None]) -> list[str | None]:
    """Each seat's name as every client shows it: a person's own (``names``; None for one
    who chose none, whom clients word in their own language, "Guest"); a bot seat's its
    level (``medium bot``), numbered when several bots of one level sit at the table
    (``medium bot 1``, ``medium bot 2``), so that no two seats read alike."""
    counted: dict[str, int] = {}
    out: list[str | None] = []
    for level, name in zip(levels, names, strict=True):
        if level is None:
            out.append(name)
            continue
        counted[level] = counted.get(level, 0) + 1
        several = levels.count(level) > 1
        out.append(f"{level} bot" + (f" {counted[level]}" if several else ""))
    return out
