"""Sessions and guests in SQL: the rows behind resume tokens, and the expiry of guests.

A part of ``SqlStore`` (``trumps.store.sql``).  A session row keeps the keyed digest of one
resume token (never the token), the player it opens, when it was made and last used and a
short label; ending a session deletes its row.  ``expire`` removes sessions unused for too
long and guests that hold nothing: no login, no seat in any game, no running table they
made, and no session used lately.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Row,
    and_,
    delete,
    exists,
    insert,
    not_,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine

from trumps.store._tables import RUNNING, game_players, games, players, sessions
from trumps.store.base import Session, UnknownPlayer

__all__ = ["SessionRows"]


def _session(row: Row[Any]) -> Session:
    return Session(
        id=int(row.id),
        player_id=int(row.player_id),
        created=float(row.created),
        last_used=float(row.last_used),
        label=str(row.label),
    )


class SessionRows:
    """The ``sessions`` table, and guests that nothing holds any more."""

    _engine: AsyncEngine

    async def add_session(self, player_id: int, token_hash: str, label: str, now: float) -> Session:
        async with self._engine.begin() as conn:
            known = await conn.execute(select(players.c.id).where(players.c.id == player_id))
            if known.first() is None:
                raise UnknownPlayer(f"no player has id {player_id!r}")
            values = {
                "player_id": player_id,
                "token_hash": token_hash,
                "created": now,
                "last_used": now,
                "label": label[:80],
            }
            result = await conn.execute(insert(sessions).values(values).returning(sessions.c.id))
            return Session(id=int(result.scalar_one()), player_id=player_id, created=now,
                           last_used=now, label=label[:80])  # fmt: skip

    async def reserve_player_id(self) -> int:
        # The players table's own counter, moved on without a row: PostgreSQL's sequence,
        # SQLite's AUTOINCREMENT entry (made first if no player was ever stored).
        async with self._engine.begin() as conn:
            if self._engine.dialect.name == "postgresql":
                found = await conn.execute(
                    text("SELECT nextval(pg_get_serial_sequence('players', 'id'))")
                )
                return int(found.scalar_one())
            await conn.execute(
                text(
                    "INSERT INTO sqlite_sequence (name, seq) SELECT 'players', "
                    "COALESCE((SELECT MAX(id) FROM players), 0) WHERE NOT EXISTS "
                    "(SELECT 1 FROM sqlite_sequence WHERE name = 'players')"
                )
            )
            found = await conn.execute(
                text(
                    "UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'players' RETURNING seq"
                )
            )
            return int(found.scalar_one())

    async def add_guest(
        self, name: str, token_hash: str, label: str, now: float, player_id: int | None = None
    ) -> Session:
        async with self._engine.begin() as conn:
            values: dict[str, Any] = {"name": name}
            if player_id is not None:
                values["id"] = player_id
            made = await conn.execute(insert(players).values(values).returning(players.c.id))
            player_id = int(made.scalar_one())
            values = {
                "player_id": player_id,
                "token_hash": token_hash,
                "created": now,
                "last_used": now,
                "label": label[:80],
            }
            result = await conn.execute(insert(sessions).values(values).returning(sessions.c.id))
            return Session(id=int(result.scalar_one()), player_id=player_id, created=now,
                           last_used=now, label=label[:80])  # fmt: skip

    async def find_session(self, token_hash: str) -> Session | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(sessions).where(sessions.c.token_hash == token_hash))
            ).one_or_none()
        return None if row is None else _session(row)

    async def touch_session(self, session_id: int, now: float) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(sessions).where(sessions.c.id == session_id).values(last_used=now)
            )

    async def player_sessions(self, player_id: int) -> list[Session]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(sessions)
                .where(sessions.c.player_id == player_id)
                .order_by(sessions.c.last_used.desc(), sessions.c.id.desc())
            )
            return [_session(row) for row in rows]

    async def end_sessions(
        self, player_id: int, ids: Sequence[int] | None = None, keep: int | None = None
    ) -> list[int]:
        where = sessions.c.player_id == player_id
        if ids is not None:
            where = and_(where, sessions.c.id.in_(list(ids)))
        if keep is not None:
            where = and_(where, sessions.c.id != keep)
        async with self._engine.begin() as conn:
            result = await conn.execute(delete(sessions).where(where).returning(sessions.c.id))
            return sorted(int(row[0]) for row in result)

    async def expire(
        self, sessions_before: float, guests_before: float, unused_before: float | None = None
    ) -> tuple[int, int]:
        used_lately = exists().where(
            sessions.c.player_id == players.c.id, sessions.c.last_used >= guests_before
        )
        seated = exists().where(game_players.c.player_id == players.c.id)
        made = exists().where(games.c.creator_id == players.c.id, games.c.status == RUNNING)
        keep: ColumnElement[bool] = used_lately
        if unused_before is not None:
            # A session used again after it was made (a reload, a long visit) keeps its guest
            # for ``guests_before``; one never used again only until ``unused_before``.
            used_again = exists().where(
                sessions.c.player_id == players.c.id,
                (sessions.c.last_used > sessions.c.created) | (sessions.c.created >= unused_before),
            )
            keep = and_(used_lately, used_again)
        idle_guest = and_(players.c.login.is_(None), not_(keep), not_(seated), not_(made))
        async with self._engine.begin() as conn:
            gone = await conn.execute(
                delete(sessions).where(sessions.c.last_used < sessions_before)
            )
            # One statement, so a guest seated meanwhile is not taken (its sessions go with
            # it: ON DELETE CASCADE).
            guests = await conn.execute(delete(players).where(idle_guest))
            return int(gone.rowcount or 0), int(guests.rowcount or 0)

    async def set_password(self, player_id: int, password_hash: str) -> None:
        async with self._engine.begin() as conn:
            result = await conn.execute(
                update(players)
                .where(players.c.id == player_id)
                .values(password_hash=password_hash)
                .returning(players.c.id)
            )
            if result.first() is None:
                raise UnknownPlayer(f"no player has id {player_id!r}")
