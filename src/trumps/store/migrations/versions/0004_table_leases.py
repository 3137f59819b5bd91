"""Table ownership: ``games.owner``, ``games.lease_until`` and ``games.creator_id``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02

In a service of several processes each running table has one owner process, named in
``owner``, until ``lease_until`` (seconds since 1970 by the database's clock) unless the
owner renews it; another process may take an expired table over, raising ``fence`` so the
former owner can no longer write to it.  ``creator_id`` counts a player's unfinished tables
across processes.  Nullable columns only: old rows have no owner and can be claimed at once.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("owner", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("lease_until", sa.Float, nullable=True))
    op.add_column("games", sa.Column("creator_id", sa.Integer, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "creator_id")
    op.drop_column("games", "lease_until")
    op.drop_column("games", "owner")
