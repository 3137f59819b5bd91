"""The bots' pace where a person plays (docs/protocol.md#pacing), and the names every
client shows for the seats: the same for every host of a table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

__all__ = ["PACES", "Pace", "seat_names"]


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
