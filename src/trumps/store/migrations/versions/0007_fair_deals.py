"""Provably fair deals: ``games.fair``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03

A finished game's record carries its fair deal (docs/fairness.md): the server's secret, its
commitment and each seat's contribution. A nullable column: games dealt before it, and
running games (whose secret stays in the table's meta until the end), have none.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("fair", sa.JSON, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "fair")
