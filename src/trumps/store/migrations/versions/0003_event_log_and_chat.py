"""Append-only table log: ``table_events`` and ``table_chat``; ``games.fence``.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02

A running table no longer rewrites its record after each move: each numbered event of the
table (with the action it added to the record, if any) is appended to ``table_events``, and
numbered chat lines to ``table_chat``, in the same transaction as the table's small settings row.
``games.fence`` is the fencing number of the table's current owner: a write carrying an
older number changes nothing.  Both logs are keyed by (game, number), so a write that
is retried after a lost answer stores nothing twice.  Existing running rows keep their whole action list in
``games.actions``; new events append after it.  New tables and columns only: no rebuild.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("fence", sa.Integer, nullable=False, server_default=sa.text("0"))
    )
    op.create_table(
        "table_events",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.Text, nullable=True),
        sa.Column("by_bot", sa.Boolean, nullable=False),
        sa.Column("ply", sa.Integer, nullable=True),
    )
    op.create_table(
        "table_chat",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_chat")
    op.drop_table("table_events")
    op.drop_column("games", "fence")
