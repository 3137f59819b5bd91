"""The store interface (STYLE habit 9): players and game records behind a narrow async API.

A game is stored as its record (docs/records.md) — game, rules, seed, players, actions, outcome,
times — never as a pickled object, so any later version of trumps can replay it.  A table
being played (or waiting for its players) keeps one *running* row with its settings, and
appends its numbered events and chat lines as they happen (``commit_tables``: many tables in
one transaction, each write fenced by its owner's number); its last write turns it into a
finished game.

Stored values are stable: game ids are integers that never change, the status column holds
the strings ``running`` and ``finished``, seeds are kept as decimal text (any size).

A player row is a guest until it gets a login: ``set_account`` keeps the id, so games played
as a guest stay in the history of the account.  Logins are compared exactly — the server
case-folds them before they get here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trumps.ratings import Rating

__all__ = [
    "AnalysisRow",
    "ChatLine",
    "GameSummary",
    "LoginTaken",
    "Player",
    "RunningTable",
    "RunningUpdate",
    "Session",
    "Store",
    "StoreError",
    "TableEvent",
    "TableWrite",
    "UnknownGame",
    "UnknownPlayer",
]


class StoreError(Exception):
    """Base class of the store's own errors."""


class UnknownGame(StoreError, LookupError):
    """No stored game (or no finished game, where one is required) has this id."""


class UnknownPlayer(StoreError, LookupError):
    """No stored player has this id."""


class Fenced(StoreError):
    """A table write carried a fencing number that is not the row's: another process owns
    the table now (or it is gone), and nothing of the write was stored."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: another process owns it now")
        self.table_id = table_id


class LoginTaken(StoreError):
    """Another player already has this login; nothing was stored."""


@dataclass(frozen=True)
class Player:
    """An account or guest; a guest has neither ``login`` nor ``password_hash``.

    ``name`` is what other players see and need not be unique; ``login`` is what the
    account signs in with, unique among players.
    """

    id: int
    name: str
    password_hash: str | None
    login: str | None = None


@dataclass(frozen=True)
class Session:
    """One resume token's session (the token itself is never stored): the player it
    opens, when it was made and last used (seconds since 1970) and a short label."""

    id: int
    player_id: int
    created: float
    last_used: float
    label: str = ""


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
    # The seats a takeover bot played at the end (their person left or never came back).
    by_bot: list[int] = field(default_factory=list)
    rated: bool = False
    # A rated game: what it did to each of its people's ratings (by seat).
    rating_changes: list[RatingChange] = field(default_factory=list)


@dataclass(frozen=True)
class RatingPlan:
    """How to rate a game when it is stored finished (docs/ratings.md): its ``family``,
    the player id of each person's seat (``people``), the fixed rating of each bot's seat
    (``fixed``: a seat in neither is rated as a new player and moves nobody), the ``sides``
    (each side's seats), the seats ``forfeited`` (abandoned: a loss for their person) and
    the people's seats whose ratings are written (``movers``; None: every person's)."""

    family: str
    people: Mapping[int, int]
    sides: Sequence[Sequence[int]]
    fixed: Mapping[int, Rating] = field(default_factory=dict)
    forfeited: Sequence[int] = ()
    movers: Sequence[int] | None = None


@dataclass(frozen=True)
class RatingChange:
    """What rated game ``game_id`` did to the rating of the player in ``seat``."""

    game_id: int
    seat: int
    player_id: int
    family: str
    before: float
    after: float
    deviation: float  # after the game
    at: float  # seconds since 1970


@dataclass(frozen=True)
class LeaderboardRow:
    player_id: int
    name: str
    rating: Rating


@dataclass(frozen=True)
class AnalysisRow:
    """A finished game's post-game analysis (docs/analysis.md): ``status`` ``running``
    (``updated``: the working process's last heartbeat) or ``done`` with ``result``."""

    game_id: int
    status: str
    result: dict[str, Any] | None
    requested_by: int | None
    requested: float
    updated: float


@dataclass(frozen=True)
class HeadToHead:
    """The finished games a player shared with another person, from the player's side."""

    player_id: int
    name: str
    won: int
    drawn: int
    lost: int


@dataclass(frozen=True)
class RunningUpdate:
    """One table's running record to write (see ``Store.update_running``)."""

    table_id: str
    record: Mapping[str, Any]
    player_ids: Sequence[int | None] | None = None
    meta: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class TableEvent:
    """One numbered event of a live table.  ``ply`` is the index in the record's actions of
    the action this event added (a move, or a timeout's default move), else None."""

    number: int
    kind: str
    seat: int | None = None
    action: str | None = None
    by_bot: bool = False
    ply: int | None = None


@dataclass(frozen=True)
class ChatLine:
    """Chat line ``number`` (1, 2, … per table) said at a table (``seat`` None: a spectator)."""

    number: int
    seat: int | None
    name: str
    text: str


@dataclass(frozen=True)
class TableWrite:
    """What one table adds to the store in a ``commit_tables`` transaction.

    ``record`` is the table's record now (its header — players, started, outcome — is
    written; of its actions only those the new ``events`` add are appended).  A record with an
    outcome finishes the game: it is replayed and stored whole.  ``fence`` must equal the
    row's fencing number, else the write is refused (``Fenced``) and changes nothing.
    """

    table_id: str
    record: Mapping[str, Any]
    events: Sequence[TableEvent] = ()
    chat: Sequence[ChatLine] = ()
    player_ids: Sequence[int | None] | None = None
    meta: Mapping[str, Any] | None = None
    fence: int = 0
    owner: str | None = None  # the owning process: the write renews its lease by ``lease`` s
    lease: float = 0.0
    creator: int | None = None  # the first write: the player who made the table
    game_id: int | None = None  # the row, as an earlier write returned it (saves a lookup)
    # With a finished record: the seats a takeover bot played at the end (GameSummary.by_bot).
    bot_seats: Sequence[int] | None = None
    # With a finished record of a rated table: how to rate it, in the same transaction.
    rating: RatingPlan | None = None
    # A take-back since the last write (docs/protocol.md#takeback): the record kept only its
    # first ``undone`` actions; the stored ones after them are no longer the game's.
    undone: int | None = None


@dataclass(frozen=True)
class RunningTable:
    """A table that was being played, with its record so far, to resume after a restart.

    The record holds the seed: it must not reach a player before the game ends.  ``meta``
    is the server's own table state (seat kinds, clocks, …), opaque to the store: the
    record alone cannot rebuild a timed or private table.
    """

    game_id: int
    table_id: str
    player_ids: list[int | None]
    record: dict[str, Any]
    meta: dict[str, Any] | None = None
    events: list[TableEvent] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)  # the latest lines, oldest first
    fence: int = 0


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
    async def add_player(
        self, name: str, password_hash: str | None = None, login: str | None = None
    ) -> int:
        """Store a new player and return its id; raises ``LoginTaken`` for a used login."""

    @abstractmethod
    async def get_player(self, player_id: int) -> Player:
        """The player with this id; raises ``UnknownPlayer``."""

    @abstractmethod
    async def find_login(self, login: str) -> Player | None:
        """The player signing in with ``login`` (exact match), or ``None``."""

    @abstractmethod
    async def set_account(
        self, player_id: int, login: str, password_hash: str, name: str | None = None
    ) -> None:
        """Give an existing player (a guest signing up) a login and password, keeping its id.

        Keeping the id keeps the guest's finished games in the account's history.  ``name``
        replaces the display name if given.  Raises ``UnknownPlayer``, or ``LoginTaken`` if
        another player has the login; either way nothing changes.
        """

    @abstractmethod
    async def rename_player(self, player_id: int, name: str) -> None:
        """Change the display name; raises ``UnknownPlayer``.

        Finished records keep the names they were played under.
        """

    @abstractmethod
    async def set_password(self, player_id: int, password_hash: str) -> None:
        """Replace an account's password hash; raises ``UnknownPlayer``."""

    # -- sessions (a resume token's row: only its digest is stored) ----------------------
    @abstractmethod
    async def add_session(self, player_id: int, token_hash: str, label: str, now: float) -> Session:
        """A new session of ``player_id`` for the token with digest ``token_hash``;
        raises ``UnknownPlayer``."""

    @abstractmethod
    async def reserve_player_id(self) -> int:
        """A new player id, never given before or after, without storing a player (a guest
        that has not sat, made a table or chatted yet is not stored)."""

    @abstractmethod
    async def add_guest(
        self, name: str, token_hash: str, label: str, now: float, player_id: int | None = None
    ) -> Session:
        """A new guest (with ``player_id`` from ``reserve_player_id``, or a new id) and its
        first session, in one transaction."""

    @abstractmethod
    async def find_session(self, token_hash: str) -> Session | None:
        """The session of the token with this digest, or ``None``."""

    @abstractmethod
    async def touch_session(self, session_id: int, now: float) -> None:
        """Note that the session was used at ``now`` (no-op if it is gone)."""

    @abstractmethod
    async def player_sessions(self, player_id: int) -> list[Session]:
        """The player's sessions, the most recently used first."""

    @abstractmethod
    async def end_sessions(
        self, player_id: int, ids: Sequence[int] | None = None, keep: int | None = None
    ) -> list[int]:
        """End the player's sessions (those of ``ids`` if given; all but ``keep`` if
        given); the ids ended.  Another player's session ids are left alone."""

    @abstractmethod
    async def expire(
        self, sessions_before: float, guests_before: float, unused_before: float | None = None
    ) -> tuple[int, int]:
        """Delete the sessions last used before ``sessions_before``, and the guests that
        hold nothing (no login, no seat in any game, no running table they made) and have
        no session used since ``guests_before`` — or, with ``unused_before``, none made
        since then or used again after it was made; how many of each."""

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
        finished game (same id, its ``meta`` left as it was).  ``player_ids`` gives the account per seat (``None`` for
        a bot or a guest without a row); it is what ``finished_games(player=…)`` filters on.
        """

    @abstractmethod
    async def update_running(
        self,
        table_id: str,
        record: Mapping[str, Any],
        player_ids: Sequence[int | None] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> int:
        """Insert or replace the running record of ``table_id``; returns its game id.

        Called often (after each move), so the record is only checked for shape, not
        replayed; a running record has a null outcome.  ``player_ids`` and ``meta``
        (the server's table state, stored as opaque JSON) replace the stored ones when
        given and are kept when ``None``, so a plain move need not resend them.
        """

    @abstractmethod
    async def update_running_many(self, updates: Sequence[RunningUpdate]) -> list[int]:
        """``update_running`` for many tables in one transaction (the server's periodic
        write-behind: one commit for every table that changed, not one per move)."""

    @abstractmethod
    async def commit_tables(self, writes: Sequence[TableWrite]) -> list[int | Fenced]:
        """Append each table's new events and chat and update its row, all in one
        transaction (the server's group commit); per write its game id, or ``Fenced``.

        A table's first write creates its running row.  Every write is checked before
        anything is stored; an invalid one (``InvalidRecord``, ``ValueError``) fails the
        whole call and nothing is stored.
        """

    # -- ownership of running tables (a service of several processes) ---------------------
    @abstractmethod
    async def claim_tables(
        self, owner: str, lease: float, *, everything: bool = False, limit: int = 100
    ) -> list[RunningTable]:
        """Take over running tables whose lease has run out (all of them if ``everything``:
        a process alone in its service, after a restart), at most ``limit``: each gets
        ``owner`` for ``lease`` seconds and a new fencing number, and is returned with it."""

    @abstractmethod
    async def renew_leases(self, owner: str, lease: float) -> set[str]:
        """Extend the leases ``owner`` holds by ``lease`` seconds from now (a table being
        written just now may be left to that write, which renews it too); the ids of the
        tables it still owns (one taken over meanwhile is not among them)."""

    @abstractmethod
    async def release_tables(self, owner: str) -> None:
        """End ``owner``'s leases now (a clean stop): other processes may take them over."""

    @abstractmethod
    async def table_owner(self, table_id: str) -> tuple[bool, str | None]:
        """Whether ``table_id`` is a running table, and the process whose lease on it has
        not run out (None: nobody owns it just now)."""

    @abstractmethod
    async def player_tables(self, player: int) -> list[str]:
        """The running tables where ``player`` holds a seat, oldest first."""

    @abstractmethod
    async def open_tables(self, player: int) -> int:
        """How many running tables ``player`` made or holds a seat at."""

    @abstractmethod
    async def discard_running(self, table_id: str, fence: int, owner: str | None) -> bool:
        """Delete the running row of ``table_id`` (a table given up unfinished), fenced like
        every write of a table: only if its fencing number is ``fence`` and its owner
        ``owner`` (None: no owner).  Whether a row was deleted (False: another process owns
        the table now, or it is gone or finished)."""

    @abstractmethod
    async def running_tables(self) -> list[RunningTable]:
        """Every running table with its stored record, events and latest chat, oldest first."""

    @abstractmethod
    async def finished_games(
        self, player: int | None = None, limit: int = 50, offset: int = 0
    ) -> list[GameSummary]:
        """Finished games, newest first; only those ``player`` (an id) sat in, if given."""

    @abstractmethod
    async def finished_at(self, table_id: str) -> tuple[int, dict[str, Any]] | None:
        """The newest finished game of table ``table_id``: its id and its record's outcome
        (None: the table has no finished game)."""

    @abstractmethod
    async def player_ratings(self, player_id: int) -> dict[str, Rating]:
        """The player's rating in each family they played a rated game of."""

    @abstractmethod
    async def leaderboard(
        self,
        family: str,
        *,
        min_games: int,
        limit: int = 50,
        offset: int = 0,
        active_since: float | None = None,
    ) -> list[LeaderboardRow]:
        """Accounts with a settled rating in ``family`` and ``min_games`` rated games, best first."""

    @abstractmethod
    async def rating_history(self, player_id: int, family: str | None = None) -> list[RatingChange]:
        """What each rated game did to the player's rating, oldest first."""

    @abstractmethod
    async def results_by_game(self, player_id: int) -> dict[str, dict[str, int]]:
        """The player's finished games by game: ``{"won": n, "drawn": n, "lost": n}``."""

    @abstractmethod
    async def head_to_head(self, player_id: int, limit: int = 20) -> list[HeadToHead]:
        """The people this player met most, with the player's wins, draws and losses."""

    @abstractmethod
    async def get_game(self, game_id: int, include_running: bool = False) -> dict[str, Any]:
        """The record of a finished game; raises ``UnknownGame``.

        A running game counts as unknown unless ``include_running`` — its record holds
        the seed and must not reach a player before the game ends.
        """

    # -- post-game analyses (docs/analysis.md) -----------------------------------------
    @abstractmethod
    async def get_analysis(self, game_id: int) -> AnalysisRow | None:
        """The game's analysis row, or None if nobody asked for one."""

    @abstractmethod
    async def claim_analysis(
        self, game_id: int, player: int | None, now: float, stale_before: float
    ) -> str | None:
        """Start the (finished) game's analysis for ``player``: a token of this claim if this
        call made the ``running`` row, or took over one whose heartbeat is older than
        ``stale_before``; None if another is running or it is done."""

    @abstractmethod
    async def touch_analysis(self, game_id: int, owner: str, now: float) -> bool:
        """The running analysis's heartbeat; False when ``owner``'s claim is gone."""

    @abstractmethod
    async def finish_analysis(
        self, game_id: int, owner: str, result: dict[str, Any], now: float
    ) -> bool:
        """Store the analysis ``result`` (the row is ``done``); False, storing nothing, when
        ``owner``'s claim was taken over."""

    @abstractmethod
    async def drop_analysis(self, game_id: int, owner: str) -> None:
        """Forget ``owner``'s running analysis that failed (a done one, or another's, stays)."""

    @abstractmethod
    async def analyses_of(self, player: int, since: float, stale_before: float) -> tuple[int, int]:
        """How many analyses ``player`` started since ``since`` (seconds since 1970), and how
        many of theirs are running now (a heartbeat since ``stale_before``)."""
