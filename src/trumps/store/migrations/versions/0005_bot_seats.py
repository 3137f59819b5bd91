"""Games finished by a takeover bot: ``games.bot_seats``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02

A finished game lists the seats a takeover bot played at the end — their person left or
never came back — so that a history does not count such a game as that person's win or
loss.  A nullable column: old rows (and games no bot finished) have none.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("bot_seats", sa.JSON, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "bot_seats")
