"""Games found by table id: ``ix_games_table_id``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07

A request about a table that no server process holds asks for that table's newest finished
game (``Store.finished_at``), so that its players are told how it ended. Only running games
were indexed by table id; this index on ``(table_id, status, id)`` answers the question with one
probe, newest first, however many games the server has finished.
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_games_table_id", "games", ["table_id", "status", "id"])


def downgrade() -> None:
    op.drop_index("ix_games_table_id", "games")
