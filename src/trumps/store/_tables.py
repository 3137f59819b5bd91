"""The SQL tables, as the queries see them; the migrations under ``migrations/`` create them."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    text,
)

RUNNING = "running"
FINISHED = "finished"

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", Text, nullable=False),
    Column("password_hash", Text, nullable=True),
    Column("login", String(32), nullable=True),  # null for a guest; case-folded by the server
    # A unique index, not a constraint: SQLite can add it without rebuilding the table, and
    # both backends let any number of guests have a null login.
    Index("ix_players_login", "login", unique=True),
    sqlite_autoincrement=True,  # ids are never reused, even after a delete
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("status", String(16), nullable=False),  # RUNNING or FINISHED (stable strings)
    Column("table_id", String(64), nullable=True),
    Column("game", String(32), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("seed", Text, nullable=False),  # decimal: seeds are unbounded ints
    Column("players", JSON, nullable=False),
    Column("actions", JSON, nullable=False),
    Column("outcome", JSON, nullable=True),
    Column("started", String(40), nullable=True),
    Column("finished", String(40), nullable=True),
    Column("meta", JSON, nullable=True),  # the server's table state, opaque to the store
    # A finished game's fair deal (docs/fairness.md): its secret and contributions.
    Column("fair", JSON, nullable=True),
    # The fencing number of the table's owner: a write with another number changes nothing.
    Column("fence", Integer, nullable=False, server_default=text("0")),
    # The process that owns the running table, and until when (the database's clock, in
    # seconds since 1970) unless it renews the lease; the player who created the table.
    Column("owner", String(64), nullable=True),
    Column("lease_until", Float, nullable=True),
    Column("creator_id", Integer, nullable=True),
    # A finished game's seats that a takeover bot played at the end (their person had left
    # or never came back): the game is not counted as theirs. Null: none (or not known).
    Column("bot_seats", JSON, nullable=True),
    # A rated game (docs/ratings.md): finishing it moved its people's ratings.
    Column("rated", Boolean, nullable=False, server_default=text("false")),
    Index(
        "ix_games_running_table",
        "table_id",
        unique=True,
        sqlite_where=text("status = 'running'"),
        postgresql_where=text("status = 'running'"),
    ),
    Index("ix_games_status_id", "status", "id"),
    # A table's games by status, newest first (its newest finished game, for a request about a table no
    # process holds: Store.finished_at).
    Index("ix_games_table_id", "table_id", "status", "id"),
    sqlite_autoincrement=True,  # a discarded running game's id is never reused
)

game_players = Table(
    "game_players",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True, index=True),
)

# A running table's numbered events, appended as they happen (the record's actions are the
# ``action`` of the events with a ``ply``, in ply order, after ``games.actions``).
table_events = Table(
    "table_events",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("action", Text, nullable=True),
    Column("by_bot", Boolean, nullable=False),
    Column("ply", Integer, nullable=True),
)

table_chat = Table(
    "table_chat",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),  # 1, 2, … per table
    Column("seat", Integer, nullable=True),
    Column("name", Text, nullable=False),
    Column("text", Text, nullable=False),
)

# A resume token's session: only the token's keyed digest is kept (``trumps.server.identity.sessions``).
sessions = Table(
    "sessions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("token_hash", String(64), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("created", Float, nullable=False),  # seconds since 1970
    Column("last_used", Float, nullable=False),
    Column("label", String(80), nullable=False, server_default=""),
    Index("ix_sessions_token_hash", "token_hash", unique=True),
    Index("ix_sessions_player", "player_id"),
    sqlite_autoincrement=True,
)

# Each player's rating in each family (trumps.ratings): moved by rated games only.
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("family", String(32), primary_key=True),
    Column("value", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),  # seconds since 1970: its last rated game
    Index("ix_ratings_family_value", "family", "value"),
)

# What each rated game did to each of its people's ratings.
rating_changes = Table(
    "rating_changes",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("family", String(32), nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_rating_changes_player", "player_id", "game_id"),
)

# A finished game's post-game analysis (docs/analysis.md): ``running`` while a process
# makes it (``updated`` its heartbeat), then ``done`` with the result.
analyses = Table(
    "analyses",
    metadata,
    Column(
        "game_id",
        Integer,
        ForeignKey("games.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    ),
    Column("status", String(16), nullable=False),
    Column("result", JSON, nullable=True),
    Column("requested_by", Integer, nullable=True),  # not a key: guests expire
    Column("owner", String(64), nullable=False),  # the claim: only its maker writes the row
    Column("requested", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_analyses_requested_by", "requested_by", "requested"),
)
