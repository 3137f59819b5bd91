"""``SqlStore``: the store on SQLAlchemy 2 async — SQLite (aiosqlite) or PostgreSQL (asyncpg)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import delete, event, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from trumps.records import InvalidRecord, replay
from trumps.store._tables import (
    FINISHED,
    RUNNING,
    game_players,
    games,
    players,
    table_chat,
    table_events,
)
from trumps.store.analyses import AnalysisRows
from trumps.store.base import (
    ChatLine,
    Fenced,
    GameSummary,
    LoginTaken,
    Player,
    RunningTable,
    RunningUpdate,
    Store,
    TableEvent,
    TableWrite,
    UnknownGame,
    UnknownPlayer,
)
from trumps.store.bulk import update_running
from trumps.store.leases import Leases
from trumps.store.ratingrows import RatingRows
from trumps.store.rows import (
    chat_rows,
    check_shape,
    check_write,
    event_rows,
    player_of,
    record_of_row,
    seats_of,
    take_back,
    values_of,
)
from trumps.store.sessions import SessionRows

__all__ = ["SqlStore"]

_MIGRATIONS = Path(__file__).parent / "migrations"
CHAT_KEPT = 50  # chat lines of a running table given back on resume (the latest)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers do not block the writer; foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # In WAL mode NORMAL loses no committed transaction when the process dies (kill -9),
    # only on power loss, and saves an fsync per commit; writers wait for each other.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=15000")
    cursor.close()


class SqlStore(Leases, SessionRows, RatingRows, AnalysisRows, Store):
    """The store in an SQL database named by a SQLAlchemy URL.

    ``sqlite+aiosqlite:///path/to.db`` or ``postgresql+asyncpg://user@host/db``; extra
    keywords go to ``create_async_engine`` (e.g. ``connect_args``).  Call ``create()``
    before use: it runs the packaged Alembic migrations up to the newest revision.
    """

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.url = url
        self._engine: AsyncEngine = create_async_engine(url, **engine_options)
        if self._engine.dialect.name == "sqlite":
            event.listen(self._engine.sync_engine, "connect", _sqlite_pragmas)

    async def create(self) -> None:
        async with self._engine.begin() as conn:
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        await self._engine.dispose()

    # -- players ------------------------------------------------------------------------
    async def add_player(
        self, name: str, password_hash: str | None = None, login: str | None = None
    ) -> int:
        try:
            async with self._engine.begin() as conn:
                if login is not None:
                    await self._check_login(conn, login, None)
                result = await conn.execute(
                    insert(players)
                    .values(name=name, password_hash=password_hash, login=login)
                    .returning(players.c.id)
                )
                return int(result.scalar_one())
        except IntegrityError:
            await self._raise_if_taken(login, None)
            raise

    async def get_player(self, player_id: int) -> Player:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(players).where(players.c.id == player_id))
            ).one_or_none()
        if row is None:
            raise UnknownPlayer(f"no player has id {player_id!r}")
        return player_of(row)

    async def find_login(self, login: str) -> Player | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(players).where(players.c.login == login))
            ).one_or_none()
        return None if row is None else player_of(row)

    async def set_account(
        self, player_id: int, login: str, password_hash: str, name: str | None = None
    ) -> None:
        values: dict[str, Any] = {"login": login, "password_hash": password_hash}
        if name is not None:
            values["name"] = name
        try:
            async with self._engine.begin() as conn:
                # An unknown id is reported as such even if the login is also taken.
                found = await conn.execute(select(players.c.id).where(players.c.id == player_id))
                if found.first() is None:
                    raise UnknownPlayer(f"no player has id {player_id!r}")
                await self._check_login(conn, login, player_id)
                await self._update_player(conn, player_id, values)
        except IntegrityError:
            await self._raise_if_taken(login, player_id)
            raise

    async def rename_player(self, player_id: int, name: str) -> None:
        async with self._engine.begin() as conn:
            await self._update_player(conn, player_id, {"name": name})

    # -- games --------------------------------------------------------------------------
    async def save_game(
        self,
        record: Mapping[str, Any],
        table_id: str | None = None,
        player_ids: Sequence[int | None] | None = None,
    ) -> int:
        check_shape(record)
        if replay(record).outcome is None:
            raise InvalidRecord("save_game needs a finished game; use update_running")
        seats = seats_of(record, player_ids)
        values = values_of(record, FINISHED, table_id)
        async with self._engine.begin() as conn:
            running = await self._running_id(conn, table_id) if table_id is not None else None
            if running is None:
                result = await conn.execute(insert(games).values(values).returning(games.c.id))
                game_id = int(result.scalar_one())
            else:
                game_id = running
                await conn.execute(update(games).where(games.c.id == game_id).values(values))
                await conn.execute(delete(table_events).where(table_events.c.game_id == game_id))
                await conn.execute(delete(table_chat).where(table_chat.c.game_id == game_id))
            await self._set_seats(conn, game_id, seats)
        return game_id

    async def update_running(
        self,
        table_id: str,
        record: Mapping[str, Any],
        player_ids: Sequence[int | None] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> int:
        (game_id,) = await self.update_running_many(
            [RunningUpdate(table_id, record, player_ids, meta)]
        )
        return game_id

    async def update_running_many(self, updates: Sequence[RunningUpdate]) -> list[int]:
        rows = []
        for u in updates:  # every record is checked before anything is written
            check_shape(u.record)
            if u.record["outcome"] is not None:
                raise InvalidRecord("a running record has a null outcome; use save_game")
            values = values_of(u.record, RUNNING, u.table_id)
            if u.meta is not None:
                # Left out when None: an update keeps the stored meta, an insert leaves NULL.
                values["meta"] = dict(u.meta)
            rows.append((u, seats_of(u.record, u.player_ids), values))
        ids = []
        async with self._engine.begin() as conn:
            for u, seats, values in rows:
                result = await conn.execute(
                    update(games)
                    .where(games.c.status == RUNNING, games.c.table_id == u.table_id)
                    .values(values)
                    .returning(games.c.id)
                )
                found = result.scalar_one_or_none()
                if found is None:
                    result = await conn.execute(insert(games).values(values).returning(games.c.id))
                    game_id = int(result.scalar_one())
                    await self._set_seats(conn, game_id, seats)
                else:
                    game_id = int(found)
                    if u.player_ids is not None:
                        await self._set_seats(conn, game_id, seats)
                    # The whole record was written: appended events are in it now.
                    await conn.execute(
                        update(table_events)
                        .where(table_events.c.game_id == game_id)
                        .values(ply=None)
                    )
                ids.append(game_id)
        return ids

    async def commit_tables(self, writes: Sequence[TableWrite]) -> list[int | Fenced]:
        checked = [(w, *check_write(w), seats_of(w.record, w.player_ids)) for w in writes]
        results: list[int | Fenced] = []
        async with self._engine.begin() as conn:
            await self._lock_ratings(conn, [w.rating for w in writes if w.rating is not None])
            # A write naming its row (the id an earlier write returned) needs no lookup:
            # its UPDATE checks status and fence itself.
            found: dict[str, tuple[int, str, int]] = {
                w.table_id: (w.game_id, RUNNING, w.fence) for w in writes if w.game_id is not None
            }
            ids = list({w.table_id for w in writes if w.game_id is None})
            if ids:
                rows = await conn.execute(
                    select(games.c.table_id, games.c.id, games.c.status, games.c.fence).where(
                        games.c.table_id.in_(ids)
                    )
                )
                for table_id, game_id, status, fence in rows:
                    if table_id not in found or status == RUNNING:
                        found[table_id] = (game_id, status, fence)
            # PostgreSQL: the writes that only append and refresh a running row's header go
            # into one statement (trumps.store.bulk); the rest, one by one below.
            batched: dict[int, bool] = {}  # index in writes -> its row was changed
            if self._engine.dialect.name == "postgresql":
                times = Counter(w.table_id for w in writes)
                plain = [
                    (i, w, row[0])
                    for i, (w, finished, _, _) in enumerate(checked)
                    if not finished
                    and w.player_ids is None
                    and times[w.table_id] == 1
                    and w.undone is None
                    and (row := found.get(w.table_id)) is not None
                    and row[1] == RUNNING
                    and row[2] == w.fence
                ]
                if plain:
                    changed = await update_running(
                        conn, [(w, game_id) for _, w, game_id in plain], self._now()
                    )
                    batched = {i: game_id in changed for i, _, game_id in plain}
            new_events: list[dict[str, Any]] = []
            new_chat: list[dict[str, Any]] = []
            for i, (w, finished, first, seats) in enumerate(checked):
                if i in batched:
                    if not batched[i]:  # fenced or finished meanwhile
                        results.append(Fenced(w.table_id))
                        continue
                    game_id = found[w.table_id][0]
                    results.append(game_id)
                    new_events += event_rows(game_id, w)
                    new_chat += chat_rows(game_id, w)
                    continue
                values = values_of(w.record, FINISHED if finished else RUNNING, w.table_id)
                if w.meta is not None:
                    values["meta"] = dict(w.meta)
                if finished and w.bot_seats:
                    values["bot_seats"] = list(w.bot_seats)
                row = found.get(w.table_id)
                if row is None:  # the table's first write
                    if not finished:
                        values["actions"] = values["actions"][:first]
                    values["fence"] = w.fence
                    values["owner"] = w.owner
                    values["lease_until"] = self._now() + w.lease if w.owner else None
                    values["creator_id"] = w.creator
                    result = await conn.execute(insert(games).values(values).returning(games.c.id))
                    game_id = int(result.scalar_one())
                    await self._set_seats(conn, game_id, seats)
                else:
                    if row[1] != RUNNING or row[2] != w.fence:
                        results.append(Fenced(w.table_id))
                        continue
                    if not finished:
                        # The seed stays: the game is dealt again from the contributions
                        # when it starts (docs/fairness.md).
                        del values["actions"], values["rules"], values["game"], values["fair"]
                        if w.owner is not None and w.lease > 0:  # every write renews the lease
                            values["lease_until"] = self._now() + w.lease
                    result = await conn.execute(
                        update(games)
                        .where(
                            games.c.id == row[0],
                            games.c.fence == w.fence,
                            games.c.status == RUNNING,
                        )
                        .values(values)
                        .returning(games.c.id)
                    )
                    if result.scalar_one_or_none() is None:  # taken over meanwhile
                        results.append(Fenced(w.table_id))
                        continue
                    game_id = row[0]
                    if w.player_ids is not None:
                        await self._set_seats(conn, game_id, seats)
                    if w.undone is not None and not finished:
                        await take_back(conn, game_id, w.record["actions"], w.undone)
                found[w.table_id] = (game_id, FINISHED if finished else RUNNING, w.fence)
                results.append(game_id)
                if finished and w.rating is not None:
                    await self._rate(conn, game_id, w.rating, w.record["outcome"], self._now())
                if finished:  # the record holds it all now
                    await conn.execute(
                        delete(table_events).where(table_events.c.game_id == game_id)
                    )
                    await conn.execute(delete(table_chat).where(table_chat.c.game_id == game_id))
                    continue
                new_events += event_rows(game_id, w)
                new_chat += chat_rows(game_id, w)
            # A write retried after its answer was lost finds its rows there: keep them.
            if new_events:
                await conn.execute(self._insert_new(table_events), new_events)
            if new_chat:
                await conn.execute(self._insert_new(table_chat), new_chat)
        return results

    async def discard_running(self, table_id: str, fence: int, owner: str | None) -> bool:
        # Fenced like every write of a table: a former owner that stalled past its lease
        # (its fence and owner no longer the row's) deletes nothing.
        owned = games.c.owner.is_(None) if owner is None else games.c.owner == owner
        async with self._engine.begin() as conn:
            result = await conn.execute(
                delete(games).where(
                    games.c.status == RUNNING,
                    games.c.table_id == table_id,
                    games.c.fence == fence,
                    owned,
                )
            )
            return bool(result.rowcount)

    async def running_tables(self) -> list[RunningTable]:
        return await self._running(None)

    async def _running(self, only: set[int] | None) -> list[RunningTable]:
        query = select(games).where(games.c.status == RUNNING).order_by(games.c.id)
        if only is not None:
            query = query.where(games.c.id.in_(sorted(only)))
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            game_ids = [row.id for row in rows]
            seats = await self._seats_of(conn, game_ids)
            events: dict[int, list[TableEvent]] = {}
            chat: dict[int, list[ChatLine]] = {}
            if game_ids:
                for e in await conn.execute(
                    select(table_events)
                    .where(table_events.c.game_id.in_(game_ids))
                    .order_by(table_events.c.game_id, table_events.c.number)
                ):
                    events.setdefault(e.game_id, []).append(
                        TableEvent(e.number, e.kind, e.seat, e.action, bool(e.by_bot), e.ply)
                    )
                for c in await conn.execute(
                    select(table_chat)
                    .where(table_chat.c.game_id.in_(game_ids))
                    .order_by(table_chat.c.game_id, table_chat.c.number)
                ):
                    chat.setdefault(c.game_id, []).append(
                        ChatLine(c.number, c.seat, c.name, c.text)
                    )
        out = []
        for row in rows:
            record = record_of_row(row)
            logged = events.get(row.id, [])
            plied = sorted((e.ply, e.action) for e in logged if e.ply is not None)
            record["actions"] = list(record["actions"]) + [a for _, a in plied]
            out.append(
                RunningTable(
                    game_id=row.id,
                    table_id=row.table_id,
                    player_ids=seats.get(row.id, []),
                    record=record,
                    meta=row.meta,
                    events=logged,
                    chat=chat.get(row.id, [])[-CHAT_KEPT:],
                    fence=row.fence,
                )
            )
        return out

    async def finished_games(
        self, player: int | None = None, limit: int = 50, offset: int = 0
    ) -> list[GameSummary]:
        if limit < 0 or offset < 0:
            raise ValueError(f"limit and offset must be ≥ 0, not {limit!r} and {offset!r}")
        query = select(
            games.c.id,
            games.c.table_id,
            games.c.game,
            games.c.players,
            games.c.outcome,
            games.c.started,
            games.c.finished,
            games.c.bot_seats,
            games.c.rated,
        ).where(games.c.status == FINISHED)
        if player is not None:
            query = query.where(
                games.c.id.in_(
                    select(game_players.c.game_id).where(game_players.c.player_id == player)
                )
            )
        query = query.order_by(games.c.id.desc()).limit(limit).offset(offset)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            seats = await self._seats_of(conn, [row.id for row in rows])
        changes = await self.game_rating_changes([row.id for row in rows if row.rated])
        return [
            GameSummary(
                id=row.id,
                table_id=row.table_id,
                game=row.game,
                players=row.players,
                player_ids=seats.get(row.id, []),
                outcome=row.outcome,
                started=row.started,
                finished=row.finished,
                by_bot=list(row.bot_seats or []),
                rated=bool(row.rated),
                rating_changes=changes.get(row.id, []),
            )
            for row in rows
        ]

    async def finished_at(self, table_id: str) -> tuple[int, dict[str, Any]] | None:
        query = finished_at_query(table_id)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).one_or_none()
        return None if row is None else (int(row.id), dict(row.outcome))

    async def get_game(self, game_id: int, include_running: bool = False) -> dict[str, Any]:
        query = select(games).where(games.c.id == game_id)
        if not include_running:
            query = query.where(games.c.status == FINISHED)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).one_or_none()
        if row is None:
            kind = "game" if include_running else "finished game"
            raise UnknownGame(f"no {kind} has id {game_id!r}")
        return record_of_row(row)

    # -- helpers ------------------------------------------------------------------------
    def _insert_new(self, table: Any) -> Any:
        """``INSERT … ON CONFLICT DO NOTHING`` on either backend."""
        if self._engine.dialect.name == "postgresql":
            return pg_insert(table).on_conflict_do_nothing()
        return sqlite_insert(table).on_conflict_do_nothing()

    @staticmethod
    async def _check_login(conn: AsyncConnection, login: str, player_id: int | None) -> None:
        # Checked first for a clear error; the unique index still decides under a race.
        owner = (
            await conn.execute(select(players.c.id).where(players.c.login == login))
        ).scalar_one_or_none()
        if owner is not None and owner != player_id:
            raise LoginTaken(f"login {login!r} is taken")

    async def _raise_if_taken(self, login: str | None, player_id: int | None) -> None:
        # After an IntegrityError the transaction is gone (PostgreSQL aborts it), so look
        # again on a fresh connection: a login taken meanwhile is a LoginTaken, not a crash.
        if login is None:
            return
        found = await self.find_login(login)
        if found is not None and found.id != player_id:
            raise LoginTaken(f"login {login!r} is taken")

    @staticmethod
    async def _update_player(conn: AsyncConnection, player_id: int, values: dict[str, Any]) -> None:
        result = await conn.execute(
            update(players).where(players.c.id == player_id).values(values).returning(players.c.id)
        )
        if result.first() is None:
            raise UnknownPlayer(f"no player has id {player_id!r}")

    @staticmethod
    async def _running_id(conn: AsyncConnection, table_id: str) -> int | None:
        result = await conn.execute(
            select(games.c.id).where(games.c.status == RUNNING, games.c.table_id == table_id)
        )
        found = result.scalar_one_or_none()
        return None if found is None else int(found)

    @staticmethod
    async def _set_seats(conn: AsyncConnection, game_id: int, seats: list[int | None]) -> None:
        await conn.execute(delete(game_players).where(game_players.c.game_id == game_id))
        await conn.execute(
            insert(game_players),
            [{"game_id": game_id, "seat": s, "player_id": p} for s, p in enumerate(seats)],
        )

    @staticmethod
    async def _seats_of(conn: AsyncConnection, ids: list[int]) -> dict[int, list[int | None]]:
        if not ids:
            return {}
        rows = (
            await conn.execute(
                select(game_players.c.game_id, game_players.c.player_id)
                .where(game_players.c.game_id.in_(ids))
                .order_by(game_players.c.game_id, game_players.c.seat)
            )
        ).all()
        out: dict[int, list[int | None]] = {}
        for game_id, player_id in rows:
            out.setdefault(game_id, []).append(player_id)
        return out


def _alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    command.upgrade(_alembic_config(connection), "head")


def finished_at_query(table_id: str) -> Any:
    """The newest finished game of a table id (``SqlStore.finished_at``): found through
    ``ix_games_table_id``, so a request about a table nobody holds costs one index probe
    however many games the server has finished."""
    return (
        select(games.c.id, games.c.outcome)
        .where(games.c.table_id == table_id, games.c.status == FINISHED)
        .order_by(games.c.id.desc())
        .limit(1)
    )


def schema_revision_head() -> str | None:
    """The newest migration revision shipped with this package."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_alembic_config()).get_current_head()
