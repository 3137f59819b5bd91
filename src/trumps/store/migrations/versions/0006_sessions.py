"""Server-side sessions: ``sessions``.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02

A resume token is a random string the server hands out once; only its keyed SHA-256 digest
is stored here, with the player it opens, when it was made and last used, and a short label
(the browser or client it was made for), so a player can list their sessions and end them.
Tokens signed before this revision are not sessions: every player signs in again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=False),
        sa.Column("label", sa.String(80), nullable=False, server_default=""),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_sessions_token_hash", "sessions", ["token_hash"], unique=True)
    op.create_index("ix_sessions_player", "sessions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_index("ix_sessions_token_hash", "sessions")
    op.drop_table("sessions")
