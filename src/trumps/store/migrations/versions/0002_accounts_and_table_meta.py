"""Accounts and table settings: ``players.login`` (unique, null for guests), ``games.meta``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Both columns are nullable, so existing rows stay valid as they are: old players are guests
until they sign up, old running tables resume without settings (the server's defaults).
Adding a nullable column is a plain ALTER TABLE on both backends: no table rebuild.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("login", sa.String(32), nullable=True))
    op.create_index("ix_players_login", "players", ["login"], unique=True)
    op.add_column("games", sa.Column("meta", sa.JSON, nullable=True))


def downgrade() -> None:
    # Plain ALTER TABLE … DROP COLUMN (SQLite ≥ 3.35), not a batch copy: rebuilding ``games``
    # or ``players`` drops the old table, which cascades into ``game_players`` and loses the
    # tables' AUTOINCREMENT.  SQLite cannot drop an indexed column, so the index goes first.
    op.drop_column("games", "meta")
    op.drop_index("ix_players_login", table_name="players")
    op.drop_column("players", "login")
