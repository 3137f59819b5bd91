"""Ratings: ``games.rated``, ``ratings`` and ``rating_changes``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03

A rated game (docs/ratings.md) moves the ratings of its people in the transaction that
stores it finished: ``ratings`` holds each player's rating in each family, and
``rating_changes`` what each rated game did to each of its people (for the history list,
the profile's plot and head-to-head).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("family", sa.String(32), primary_key=True),
        sa.Column("value", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_family_value", "ratings", ["family", "value"])
    op.create_table(
        "rating_changes",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player_id", "game_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_family_value", "ratings")
    op.drop_table("ratings")
    op.drop_column("games", "rated")
