"""``SqlStore``: the store on SQLAlchemy 2 async — SQLite (aiosqlite) or PostgreSQL (asyncpg)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Row, delete, event, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from trumps.records import FORMAT, InvalidRecord, replay
from trumps.store._tables import FINISHED, RUNNING, game_players, games, players
from trumps.store.base import (
    GameSummary,
    LoginTaken,
    Player,
    RunningTable,
    RunningUpdate,
    Store,
    UnknownGame,
    UnknownPlayer,
)

__all__ = ["SqlStore"]

_MIGRATIONS = Path(__file__).parent / "migrations"
_KEYS = {"format", "game", "rules", "seed", "players", "actions", "outcome", "started", "finished"}


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


def _check_shape(record: Mapping[str, Any]) -> None:
    if not isinstance(record, Mapping) or set(record) != _KEYS:
        raise InvalidRecord(f"a record needs exactly the keys {sorted(_KEYS)}")
    if record["format"] != FORMAT:
        raise InvalidRecord(f"record format must be {FORMAT!r}, not {record['format']!r}")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidRecord(f"record seed must be a whole number ≥ 0, not {seed!r}")
    if not isinstance(record["players"], list) or not isinstance(record["actions"], list):
        raise InvalidRecord("record players and actions must be lists")


def _seats(record: Mapping[str, Any], player_ids: Sequence[int | None] | None) -> list[int | None]:
    n = len(record["players"])
    if player_ids is None:
        return [None] * n
    ids = list(player_ids)
    if len(ids) != n:
        raise ValueError(f"a game of {n} seats needs {n} player ids, got {len(ids)}")
    return ids


def _values(record: Mapping[str, Any], status: str, table_id: str | None) -> dict[str, Any]:
    return {
        "status": status,
        "table_id": table_id,
        "game": record["game"],
        "rules": dict(record["rules"]),
        "seed": str(record["seed"]),
        "players": list(record["players"]),
        "actions": list(record["actions"]),
        "outcome": None if record["outcome"] is None else dict(record["outcome"]),
        "started": record["started"],
        "finished": record["finished"],
    }


def _player(row: Row[Any]) -> Player:
    return Player(id=row.id, name=row.name, password_hash=row.password_hash, login=row.login)


def _record(row: Row[Any]) -> dict[str, Any]:
    m = row._mapping
    return {
        "format": FORMAT,
        "game": m["game"],
        "rules": m["rules"],
        "seed": int(m["seed"]),
        "players": m["players"],
        "actions": m["actions"],
        "outcome": m["outcome"],
        "started": m["started"],
        "finished": m["finished"],
    }


class SqlStore(Store):
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
        return _player(row)

    async def find_login(self, login: str) -> Player | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(players).where(players.c.login == login))
            ).one_or_none()
        return None if row is None else _player(row)

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
        _check_shape(record)
        if replay(record).outcome is None:
            raise InvalidRecord("save_game needs a finished game; use update_running")
        seats = _seats(record, player_ids)
        values = _values(record, FINISHED, table_id)
        async with self._engine.begin() as conn:
            running = await self._running_id(conn, table_id) if table_id is not None else None
            if running is None:
                result = await conn.execute(insert(games).values(values).returning(games.c.id))
                game_id = int(result.scalar_one())
            else:
                game_id = running
                await conn.execute(update(games).where(games.c.id == game_id).values(values))
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
            _check_shape(u.record)
            if u.record["outcome"] is not None:
                raise InvalidRecord("a running record has a null outcome; use save_game")
            values = _values(u.record, RUNNING, u.table_id)
            if u.meta is not None:
                # Left out when None: an update keeps the stored meta, an insert leaves NULL.
                values["meta"] = dict(u.meta)
            rows.append((u, _seats(u.record, u.player_ids), values))
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
                ids.append(game_id)
        return ids

    async def discard_running(self, table_id: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                delete(games).where(games.c.status == RUNNING, games.c.table_id == table_id)
            )

    async def running_tables(self) -> list[RunningTable]:
        async with self._engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(games).where(games.c.status == RUNNING).order_by(games.c.id)
                )
            ).all()
            seats = await self._seats_of(conn, [row.id for row in rows])
        return [
            RunningTable(
                game_id=row.id,
                table_id=row.table_id,
                player_ids=seats.get(row.id, []),
                record=_record(row),
                meta=row.meta,
            )
            for row in rows
        ]

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
            )
            for row in rows
        ]

    async def get_game(self, game_id: int, include_running: bool = False) -> dict[str, Any]:
        query = select(games).where(games.c.id == game_id)
        if not include_running:
            query = query.where(games.c.status == FINISHED)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).one_or_none()
        if row is None:
            kind = "game" if include_running else "finished game"
            raise UnknownGame(f"no {kind} has id {game_id!r}")
        return _record(row)

    # -- helpers ------------------------------------------------------------------------
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


def schema_revision_head() -> str | None:
    """The newest migration revision shipped with this package."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_alembic_config()).get_current_head()
