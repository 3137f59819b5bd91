"""A table's settings, chosen at creation and stored beside its record to resume it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trumps.server.wire.protocol import TimeControl
from trumps.server.wire.wiretypes import BotPace, OnTimeout

__all__ = ["GUESTS_CASUAL", "RATED_CLOCK", "TableConfig"]


# The clock of a rated table whose creator chose none (docs/ratings.md): ten minutes a
# person and five seconds a move; running out of time loses a rated game.
RATED_CLOCK = TimeControl(base=600.0, increment=5.0)

# Why a guest may not create or sit at a rated table (error ``not_allowed``).
GUESTS_CASUAL = "rated games are for accounts: sign in to play rated (guests play casual games)"


@dataclass
class TableConfig:
    """The settings of a table, chosen at creation (and stored to resume it)."""

    time_control: TimeControl | None = None
    on_timeout: OnTimeout = "move"
    grace: float = 30.0
    takeover: str = "medium"
    private: bool = False
    # Where a person plays, bots' moves are paced (docs/protocol.md#pacing).  A table made
    # in code moves at once unless told; the server gives each table its creator's choice
    # or its own default (``--bot-pace``, normal).
    bot_pace: BotPace = "instant"
    rated: bool = False  # finishing the game moves its people's ratings (docs/ratings.md)

    def to_json(self) -> dict[str, Any]:
        tc = self.time_control
        return {
            "time_control": None if tc is None else {"base": tc.base, "increment": tc.increment},
            "on_timeout": self.on_timeout,
            "grace": self.grace,
            "takeover": self.takeover,
            "private": self.private,
            "bot_pace": self.bot_pace,
            "rated": self.rated,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        tc = data.get("time_control")
        return cls(
            time_control=None if tc is None else TimeControl(**tc),
            on_timeout=data.get("on_timeout", "move"),
            grace=float(data.get("grace", 30.0)),
            takeover=data.get("takeover", "medium"),
            private=bool(data.get("private", False)),
            bot_pace=data.get("bot_pace", "normal"),
            rated=bool(data.get("rated", False)),
        )
