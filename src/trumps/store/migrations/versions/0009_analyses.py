"""Post-game analyses: ``analyses``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

A finished game's analysis (docs/analysis.md) is stored beside it once made, so that a
second request is answered at once: one row per game, ``running`` while a server process
makes it (``owner`` its claim, ``updated`` its heartbeat) and ``done`` with the result.  ``requested_by`` is
the player who asked (not a foreign key: guests who asked may be expired), for the
per-player limit.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("requested_by", sa.Integer, nullable=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("requested", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_analyses_requested_by", "analyses", ["requested_by", "requested"])


def downgrade() -> None:
    op.drop_index("ix_analyses_requested_by", "analyses")
    op.drop_table("analyses")
