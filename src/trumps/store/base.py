"""The store interface (STYLE habit 9): players and game records behind a narrow async API.

A game is stored as its record (SPEC §7) — game, rules, seed, players, actions, outcome,
times — never as a pickled object, so any later version of trumps can replay it.  A table
still being played keeps one *running* row that the server rewrites after each move
(write-behind of the action list); ``save_game`` turns it into a finished game.

Stored values are stable: game ids are integers that never change, the status column holds
the strings ``running`` and ``finished``, seeds are kept as decimal text (any size).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "GameSummary",
    "Player",
    "RunningTable",
    "Store",
    "StoreError",
    "UnknownGame",
    "UnknownPlayer",
]


class StoreError(Exception):
    """Base class of the store's own errors."""


class UnknownGame(StoreError, LookupError):
    """No stored game (or no finished game, where one is required) has this id."""


class UnknownPlayer(StoreError, LookupError):
    """No stored player has this id."""


@dataclass(frozen=True)
class Player:
    """An account or guest; ``password_hash`` is ``None`` for a guest."""

    id: int
    name: str
    password_hash: str | None


@dataclass(frozen=True)
class GameSummary:
    """One line of a history listing: everything but the seed and the actions."""

    id: int
    table_id: str | None
    game: str
    players: list[str]
    player_ids: list[int | None]
    outcome: dict[str, Any] | None
    started: str | None
    finished: str | None


@dataclass(frozen=True)
class RunningTable:
    """A table that was being played, with its record so far, to resume after a restart.

    The record holds the seed: it must not reach a player before the game ends.
    """

    game_id: int
    table_id: str
    player_ids: list[int | None]
    record: dict[str, Any]


class Store(ABC):
    """Async persistence of players and game records."""

    @abstractmethod
    async def create(self) -> None:
        """Create the schema or migrate it to the current version; safe to call every start."""

    @abstractmethod
    async def close(self) -> None:
        """Release connections; the store is unusable afterwards."""

    # -- players ------------------------------------------------------------------------
    @abstractmethod
    async def add_player(self, name: str, password_hash: str | None = None) -> int:
        """Store a new player and return its id."""

    @abstractmethod
    async def get_player(self, player_id: int) -> Player:
        """The player with this id; raises ``UnknownPlayer``."""

    # -- games --------------------------------------------------------------------------
    @abstractmethod
    async def save_game(
        self,
        record: Mapping[str, Any],
        table_id: str | None = None,
        player_ids: Sequence[int | None] | None = None,
    ) -> int:
        """Store a finished game's record and return its game id.

        The record is replayed first and rejected with ``InvalidRecord`` if it is not a
        finished, legal game.  If ``table_id`` has a running row, that row becomes this
        finished game (same id).  ``player_ids`` gives the account per seat (``None`` for
        a bot or a guest without a row); it is what ``finished_games(player=…)`` filters on.
        """

    @abstractmethod
    async def update_running(
        self,
        table_id: str,
        record: Mapping[str, Any],
        player_ids: Sequence[int | None] | None = None,
    ) -> int:
        """Insert or replace the running record of ``table_id``; returns its game id.

        Called often (after each move), so the record is only checked for shape, not
        replayed; a running record has a null outcome.
        """

    @abstractmethod
    async def discard_running(self, table_id: str) -> None:
        """Forget the running row of ``table_id`` (an abandoned table); no-op if none."""

    @abstractmethod
    async def running_tables(self) -> list[RunningTable]:
        """Every running table with its stored record, oldest first."""

    @abstractmethod
    async def finished_games(
        self, player: int | None = None, limit: int = 50, offset: int = 0
    ) -> list[GameSummary]:
        """Finished games, newest first; only those ``player`` (an id) sat in, if given."""

    @abstractmethod
    async def get_game(self, game_id: int, include_running: bool = False) -> dict[str, Any]:
        """The record of a finished game; raises ``UnknownGame``.

        A running game counts as unknown unless ``include_running`` — its record holds
        the seed and must not reach a player before the game ends.
        """
