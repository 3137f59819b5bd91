"""Initial schema: players, games (running and finished records), game_players.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("password_hash", sa.Text, nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("actions", sa.JSON, nullable=False),
        sa.Column("outcome", sa.JSON, nullable=True),
        sa.Column("started", sa.String(40), nullable=True),
        sa.Column("finished", sa.String(40), nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_index(
        "ix_games_running_table",
        "games",
        ["table_id"],
        unique=True,
        sqlite_where=sa.text("status = 'running'"),
        postgresql_where=sa.text("status = 'running'"),
    )
    op.create_index("ix_games_status_id", "games", ["status", "id"])
    op.create_table(
        "game_players",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    )
    op.create_index("ix_game_players_player_id", "game_players", ["player_id"])


def downgrade() -> None:
    op.drop_table("game_players")
    op.drop_table("games")
    op.drop_table("players")
