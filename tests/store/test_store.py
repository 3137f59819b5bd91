"""The store (STYLE habit 9) on SQLite and on the PostgreSQL server on localhost.

Every test runs on both backends.  PostgreSQL tests each get a fresh schema (first on
``search_path``), so they are isolated from each other and from parallel workers.
The async bodies run under ``asyncio.run`` in sync tests: pytest-asyncio is not needed.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import insert, inspect, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

import trumps
from gamekit import finished_game
from store.storekit import Db
from trumps.records import InvalidRecord, record_of, replay
from trumps.store import (
    ChatLine,
    Fenced,
    LoginTaken,
    Player,
    RunningUpdate,
    SqlStore,
    TableEvent,
    TableWrite,
    UnknownGame,
    UnknownPlayer,
)
from trumps.store._tables import game_players, games, metadata, players
from trumps.store.sql import _alembic_config, finished_at_query, schema_revision_head

TABLES = {
    "players",
    "games",
    "game_players",
    "table_events",
    "table_chat",
    "sessions",
    "ratings",
    "rating_changes",
    "analyses",
    "alembic_version",
}


def _running(game_id: str, players: int, seed: int, moves: int) -> trumps.Game:
    game = trumps.new_game(game_id, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game.play(rng.choice(game.legal_actions()))
    assert not game.is_over
    return game


@pytest.mark.parametrize(
    ("game_id", "players", "seed"),
    [("kozyri", 2, 3), ("twentyfive", 4, 2**70 + 11)],  # a seed beyond 64 bits survives
)
def test_finished_game_round_trip_replays(db: Db, game_id: str, players: int, seed: int) -> None:
    async def body(store: SqlStore) -> None:
        game = finished_game(game_id, players, seed)
        names = [f"Игрок {s}" for s in range(players)]  # non-ASCII names survive too
        record = record_of(game, names, started="2026-11-29T10:00:00+00:00")
        game_id_ = await store.save_game(record)
        got = await store.get_game(game_id_)
        assert got == record
        again = replay(got)
        assert again.to_json() == game.to_json()
        assert again.history == game.history

    db.on_store(body)


def test_resigned_game_is_stored_with_its_outcome(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        game = _running("kozyri", 2, 9, 5)
        game.resign(1)
        record = record_of(game, ["a", "b"])
        got = await store.get_game(await store.save_game(record))
        assert replay(got).outcome == game.outcome

    db.on_store(body)


def test_running_tables_update_list_and_finish(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        assert await store.running_tables() == []
        game = _running("twentyfive", 3, 7, 2)
        first = await store.update_running("t1", record_of(game), [alice, None, None])
        other = await store.update_running("t2", record_of(_running("kozyri", 2, 4, 1)))
        assert other != first
        for _ in range(3):
            game.play(game.legal_actions()[0])
        # Write-behind of the action list: same row, newest actions.
        assert await store.update_running("t1", record_of(game)) == first
        tables = await store.running_tables()
        assert [(t.table_id, t.game_id) for t in tables] == [("t1", first), ("t2", other)]
        assert tables[0].player_ids == [alice, None, None]  # kept when not passed again
        assert tables[0].record == record_of(game)
        assert replay(tables[0].record).to_json() == game.to_json()  # a restart can resume
        assert await store.finished_games() == []
        # A running game's record holds the seed: not served as a finished game.
        with pytest.raises(UnknownGame):
            await store.get_game(first)
        assert (await store.get_game(first, include_running=True))["actions"] == game.history

        while not game.is_over:
            game.play(game.legal_actions()[0])
        assert await store.save_game(record_of(game), "t1", [alice, None, None]) == first
        assert await store.discard_running("t2", 0, None)  # written with no owner
        assert not await store.discard_running("no such table", 0, None)
        assert await store.running_tables() == []
        [summary] = await store.finished_games(player=alice)
        assert summary.id == first and summary.table_id == "t1"
        assert summary.player_ids == [alice, None, None]
        # The table can start its next game: a new running row, a new id.
        nxt = await store.update_running("t1", record_of(_running("kozyri", 2, 5, 1)))
        assert nxt not in (first, other)

    db.on_store(body)


def test_many_running_tables_are_written_in_one_call_or_none_are(db: Db) -> None:
    """The server's periodic write-behind: several tables in one transaction; one bad
    record rejects the whole batch and nothing is written."""

    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        a, b = _running("twentyfive", 2, 3, 2), _running("kozyri", 2, 8, 1)
        ids = await store.update_running_many(
            [
                RunningUpdate("ta", record_of(a), [alice, None], {"n": 1}),
                RunningUpdate("tb", record_of(b)),
            ]
        )
        assert len(set(ids)) == 2
        a.play(a.legal_actions()[0])
        again = await store.update_running_many([RunningUpdate("ta", record_of(a))])
        assert again == ids[:1]
        bad = dict(record_of(b), outcome={"winners": [0], "losers": [1], "draw": False})
        b.play(b.legal_actions()[0])
        with pytest.raises(InvalidRecord):
            await store.update_running_many(
                [RunningUpdate("tb", record_of(b)), RunningUpdate("tc", bad)]
            )
        tables = {t.table_id: t for t in await store.running_tables()}
        assert set(tables) == {"ta", "tb"}
        assert tables["ta"].record == record_of(a) and tables["ta"].meta == {"n": 1}
        assert tables["ta"].player_ids == [alice, None]
        assert len(tables["tb"].record["actions"]) == 1  # the rejected batch wrote nothing

    db.on_store(body)


def test_history_pages_newest_first_and_filters_by_player(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice", "$argon2id$v=19$fake")
        bob = await store.add_player("bob")
        assert await store.get_player(alice) == Player(alice, "alice", "$argon2id$v=19$fake")
        assert (await store.get_player(bob)).password_hash is None
        ids = []
        for seed in range(5):
            seats = [alice, bob] if seed % 2 == 0 else [bob, None]
            ids.append(
                await store.save_game(record_of(finished_game("kozyri", 2, seed)), None, seats)
            )
        newest_first = list(reversed(ids))
        pages = [await store.finished_games(limit=2, offset=o) for o in (0, 2, 4, 6)]
        assert [[s.id for s in page] for page in pages] == [
            newest_first[0:2],
            newest_first[2:4],
            newest_first[4:5],
            [],
        ]
        assert [s.id for s in await store.finished_games(player=alice)] == newest_first[::2]
        assert [s.id for s in await store.finished_games(player=bob)] == newest_first
        assert [s.id for s in await store.finished_games(player=alice, limit=1, offset=1)] == [
            ids[2]
        ]
        summary = (await store.finished_games(limit=1))[0]
        assert summary.players == ["Seat 0", "Seat 1"]
        assert summary.outcome is not None and summary.finished is not None
        with pytest.raises(ValueError, match="limit and offset"):
            await store.finished_games(limit=-1)

    db.on_store(body)


def test_unknown_ids_and_bad_records_give_clear_errors(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        with pytest.raises(UnknownGame, match="no finished game has id 12345"):
            await store.get_game(12345)
        with pytest.raises(UnknownGame, match="no game has id 12345"):
            await store.get_game(12345, include_running=True)
        with pytest.raises(UnknownPlayer, match="no player has id 777"):
            await store.get_player(777)
        running = record_of(_running("kozyri", 2, 1, 2))
        with pytest.raises(InvalidRecord, match="finished game"):
            await store.save_game(running)
        finished = record_of(finished_game("kozyri", 2, 1))
        with pytest.raises(InvalidRecord, match="null outcome"):
            await store.update_running("t", finished)
        tampered = dict(finished, actions=finished["actions"][:-1])
        with pytest.raises(InvalidRecord):
            await store.save_game(tampered)
        with pytest.raises(InvalidRecord, match="keys"):
            await store.save_game({"game": "kozyri"})
        with pytest.raises(ValueError, match="2 seats needs 2 player ids"):
            await store.save_game(finished, None, [None])
        # A player id that does not exist is refused by the foreign key (SQLite too).
        with pytest.raises(IntegrityError):
            await store.save_game(finished, None, [424242, None])
        assert await store.finished_games() == [] and await store.running_tables() == []

    db.on_store(body)


def _schema(conn: Connection) -> tuple[set[str], list[tuple[Any, ...]]]:
    tables = set(inspect(conn).get_table_names())
    diff = compare_metadata(MigrationContext.configure(conn), metadata)
    return tables, diff


def test_migrations_create_schema_and_are_idempotent(db: Db) -> None:
    async def body() -> None:
        engine = create_async_engine(db.url, **db.options)
        try:
            async with engine.connect() as conn:
                assert (await conn.run_sync(_schema))[0] == set()  # empty database
            store = await db.opened()
            async with engine.connect() as conn:
                tables, diff = await conn.run_sync(_schema)
                version = (
                    await conn.execute(text("SELECT version_num FROM alembic_version"))
                ).all()
            assert tables == TABLES
            assert diff == []  # the migrations build exactly what the queries expect
            assert version == [(schema_revision_head(),)]
            record = record_of(finished_game("twentyfive", 4, 8))
            saved = await store.save_game(record)
            running = await store.update_running("t", record_of(_running("kozyri", 2, 2, 3)))
            await store.create()  # again on the same store: nothing happens
            await store.close()

            restarted = await db.opened()  # a restart migrates again: still one revision, data kept
            assert await restarted.get_game(saved) == record
            assert [t.game_id for t in await restarted.running_tables()] == [running]
            async with engine.connect() as conn:
                version = (
                    await conn.execute(text("SELECT version_num FROM alembic_version"))
                ).all()
            assert version == [(schema_revision_head(),)]
            if db.backend == "sqlite":
                async with engine.connect() as conn:
                    mode = (await conn.execute(text("PRAGMA journal_mode"))).scalar_one()
                assert mode == "wal"
        finally:
            await engine.dispose()

    db.run(body)


async def _count_players(db: Db) -> int:
    engine = create_async_engine(db.url, **db.options)
    try:
        async with engine.connect() as conn:
            return int((await conn.execute(text("SELECT count(*) FROM players"))).scalar_one())
    finally:
        await engine.dispose()


def test_accounts_are_added_and_found_by_login(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("Alice", "$argon2id$a", login="alice")
        # Guests have no login: any number of null logins pass the unique index.
        guests = [await store.add_player(f"guest {n}") for n in range(3)]
        assert len(set(guests)) == 3
        assert await store.get_player(alice) == Player(alice, "Alice", "$argon2id$a", "alice")
        assert await store.find_login("alice") == Player(alice, "Alice", "$argon2id$a", "alice")
        assert (await store.get_player(guests[0])).login is None
        assert await store.find_login("bob") is None
        # Exact match: case-folding is the server's job, the store compares what it gets.
        assert await store.find_login("Alice") is None
        assert await store.add_player("Other Alice", "$argon2id$o", login="Alice") not in guests

    db.on_store(body)


def test_a_duplicate_login_is_refused_and_nothing_is_stored(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("Alice", "$argon2id$a", login="alice")
        before = await _count_players(db)
        with pytest.raises(LoginTaken, match="'alice'"):
            await store.add_player("Impostor", "$argon2id$i", login="alice")
        assert await _count_players(db) == before
        assert await store.find_login("alice") == Player(alice, "Alice", "$argon2id$a", "alice")

    db.on_store(body)


def test_a_guest_becomes_an_account_and_keeps_its_history(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        guest = await store.add_player("guest 7")
        other = await store.add_player("guest 8")
        played = await store.save_game(
            record_of(finished_game("kozyri", 2, 3)), None, [guest, other]
        )
        await store.set_account(guest, "carol", "$argon2id$c", name="Carol")
        assert await store.get_player(guest) == Player(guest, "Carol", "$argon2id$c", "carol")
        assert await store.find_login("carol") == await store.get_player(guest)
        # Same id, so the games played as a guest are the account's history.
        assert [s.id for s in await store.finished_games(player=guest)] == [played]
        # Without a name the display name stays; setting one's own login again is no clash.
        await store.set_account(guest, "carol", "$argon2id$new")
        assert await store.get_player(guest) == Player(guest, "Carol", "$argon2id$new", "carol")

    db.on_store(body)


def test_set_account_errors_change_nothing(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("Alice", "$argon2id$a", login="alice")
        guest = await store.add_player("guest 1")
        with pytest.raises(LoginTaken, match="'alice'"):
            await store.set_account(guest, "alice", "$argon2id$g", name="Not Alice")
        assert await store.get_player(guest) == Player(guest, "guest 1", None, None)
        assert await store.find_login("alice") == Player(alice, "Alice", "$argon2id$a", "alice")
        with pytest.raises(UnknownPlayer, match="no player has id 777"):
            await store.set_account(777, "dave", "$argon2id$d")
        with pytest.raises(UnknownPlayer, match="no player has id 777"):
            await store.set_account(777, "alice", "$argon2id$d")  # unknown id wins
        assert await store.find_login("dave") is None
        assert await _count_players(db) == 2

    db.on_store(body)


def test_rename_player(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("Alice", "$argon2id$a", login="alice")
        record = record_of(finished_game("kozyri", 2, 5), ["Alice", "Bob"])
        played = await store.save_game(record, None, [alice, None])
        await store.rename_player(alice, "Алиса")
        assert await store.get_player(alice) == Player(alice, "Алиса", "$argon2id$a", "alice")
        assert (await store.get_game(played))["players"] == ["Alice", "Bob"]  # record as played
        with pytest.raises(UnknownPlayer, match="no player has id 777"):
            await store.rename_player(777, "nobody")

    db.on_store(body)


async def _meta_column(db: Db, game_id: int) -> Any:
    engine = create_async_engine(db.url, **db.options)
    try:
        async with engine.connect() as conn:
            query = select(games.c.meta).where(games.c.id == game_id)
            return (await conn.execute(query)).scalar_one()
    finally:
        await engine.dispose()


def test_running_table_meta_is_stored_replaced_and_kept(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        game = _running("kozyri", 2, 6, 1)
        meta = {
            "seats": ["human", "bot:greedy"],
            "clock": {"base": 300.5, "left": [299.25, 300.5]},
            "private": True,
            "note": "стол",
        }
        t1 = await store.update_running("t1", record_of(game), meta=meta)
        t2 = await store.update_running("t2", record_of(_running("kozyri", 2, 7, 1)))
        tables = await store.running_tables()
        assert [(t.game_id, t.meta) for t in tables] == [(t1, meta), (t2, None)]

        game.play(game.legal_actions()[0])
        await store.update_running("t1", record_of(game))  # None: the stored meta stays
        [first, _] = await store.running_tables()
        assert first.meta == meta and first.record == record_of(game)

        replaced = {"seats": ["human", "human"], "clock": None}
        await store.update_running("t1", record_of(game), meta=replaced)  # replaced, not merged
        await store.update_running("t2", record_of(_running("kozyri", 2, 7, 2)), meta={})
        tables = await store.running_tables()
        assert [(t.game_id, t.meta) for t in tables] == [(t1, replaced), (t2, {})]

        while not game.is_over:
            game.play(game.legal_actions()[0])
        assert await store.save_game(record_of(game), "t1") == t1
        assert await _meta_column(db, t1) == replaced  # finishing leaves the meta column alone
        assert [t.game_id for t in await store.running_tables()] == [t2]

    db.on_store(body)


def _at_revision(revision: str) -> Callable[[Connection], None]:
    def run(conn: Connection) -> None:
        command.upgrade(_alembic_config(conn), revision)

    return run


def _downgrade_to(revision: str) -> Callable[[Connection], None]:
    def run(conn: Connection) -> None:
        command.downgrade(_alembic_config(conn), revision)

    return run


def test_migrating_a_0001_database_keeps_its_data(db: Db) -> None:
    async def body() -> None:
        record = record_of(finished_game("kozyri", 2, 11), ["old", "bot"])
        engine = create_async_engine(db.url, **db.options)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(_at_revision("0001"))
                old = (
                    await conn.execute(
                        insert(players)
                        .values(name="old guest", password_hash=None)
                        .returning(players.c.id)
                    )
                ).scalar_one()
                game_id = (
                    await conn.execute(
                        insert(games)
                        .values(
                            status="finished",
                            table_id="t",
                            game=record["game"],
                            rules=record["rules"],
                            seed=str(record["seed"]),
                            players=record["players"],
                            actions=record["actions"],
                            outcome=record["outcome"],
                            started=record["started"],
                            finished=record["finished"],
                        )
                        .returning(games.c.id)
                    )
                ).scalar_one()
                await conn.execute(
                    insert(game_players),
                    [
                        {"game_id": game_id, "seat": 0, "player_id": old},
                        {"game_id": game_id, "seat": 1, "player_id": None},
                    ],
                )

            store = await db.opened()  # create() migrates 0001 → head
            assert await store.get_player(old) == Player(old, "old guest", None, None)
            assert await store.get_game(game_id) == record
            [summary] = await store.finished_games(player=old)
            assert summary.id == game_id and summary.player_ids == [old, None]
            async with engine.connect() as conn:
                tables, diff = await conn.run_sync(_schema)
            assert tables == TABLES and diff == []
            await store.set_account(old, "old", "$argon2id$o")  # the new columns work
            assert (await store.find_login("old")) == Player(old, "old guest", "$argon2id$o", "old")
            await store.close()

            # Back to 0001 without a table rebuild: the seats (a cascade away) survive.
            async with engine.begin() as conn:
                await conn.run_sync(_downgrade_to("0001"))
            async with engine.connect() as conn:
                columns = await conn.run_sync(
                    lambda c: {col["name"] for col in inspect(c).get_columns("players")}
                )
                seats = (await conn.execute(select(game_players.c.player_id))).scalars().all()
            assert columns == {"id", "name", "password_hash"}
            assert sorted(seats, key=str) == sorted([old, None], key=str)
            again = await db.opened()
            assert await again.get_player(old) == Player(old, "old guest", "$argon2id$o", None)
        finally:
            await engine.dispose()

    db.run(body)


# ------------------------------------------------------------------ the append-only table log


def _moves(game: trumps.Game, number: int, count: int) -> list[TableEvent]:
    """Play ``count`` first-legal moves; their events, numbered from ``number + 1``."""
    out = []
    for i in range(count):
        game.play(game.legal_actions()[0])
        ply = len(game.history) - 1
        out.append(TableEvent(number + 1 + i, "action", 0, game.history[-1], False, ply))
    return out


def test_commit_tables_appends_events_and_chat_and_resumes_them(db: Db) -> None:
    """A table's writes append its events and chat (one transaction for many tables); a
    restart gets the record, the event log and the chat back exactly."""

    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        a, b = trumps.new_game("twentyfive", players=2, seed=3), trumps.new_game("kozyri", seed=4)
        join = TableEvent(1, "join", 0)
        ids = await store.commit_tables(
            [
                TableWrite("ta", record_of(a), [join], player_ids=[alice, None], meta={"m": 1}),
                TableWrite("tb", record_of(b), chat=[ChatLine(1, None, "eve", "hi")]),
            ]
        )
        assert all(isinstance(i, int) for i in ids) and ids[0] != ids[1]
        log_a = [join, TableEvent(2, "start"), *_moves(a, 2, 3)]
        log_b = _moves(b, 0, 2)
        more = await store.commit_tables(
            [
                TableWrite("ta", record_of(a), log_a[1:], chat=[ChatLine(1, 0, "alice", "gl")]),
                TableWrite("tb", record_of(b), log_b, meta={"m": 2}),
            ]
        )
        assert more == ids
        tables = {t.table_id: t for t in await store.running_tables()}
        assert tables["ta"].record == record_of(a) and tables["tb"].record == record_of(b)
        assert tables["ta"].events == log_a and tables["tb"].events == log_b
        assert tables["ta"].chat == [ChatLine(1, 0, "alice", "gl")]
        assert tables["tb"].chat == [ChatLine(1, None, "eve", "hi")]
        assert tables["ta"].meta == {"m": 1} and tables["tb"].meta == {"m": 2}
        assert tables["ta"].player_ids == [alice, None] and tables["ta"].fence == 0
        # The end of the game: the whole record is stored as a finished game.
        while not a.is_over:
            log_a += _moves(a, log_a[-1].number, 1)
        [done] = await store.commit_tables([TableWrite("ta", record_of(a), log_a[5:])])
        assert isinstance(done, int) and done == ids[0]
        assert replay(await store.get_game(done)).outcome == a.outcome
        assert [t.table_id for t in await store.running_tables()] == ["tb"]
        [summary] = await store.finished_games(player=alice)
        assert summary.id == done

    db.on_store(body)


def test_a_take_back_keeps_the_first_actions_and_later_moves_append_after_them(db: Db) -> None:
    """A write after a take-back (``undone``: the actions kept) stores that the game lost
    its last moves: a restart gets the shorter record, and moves made after it append to
    it — whether the moves taken back were in the table's events or in its row."""

    async def body(store: SqlStore) -> None:
        game = trumps.new_game("twentyfive", players=2, seed=5)
        log = [TableEvent(1, "start"), *_moves(game, 1, 5)]
        await store.commit_tables([TableWrite("tt", record_of(game), log)])
        # two of the five moves taken back: their events no longer add an action
        game.undo()
        game.undo()
        back = TableEvent(7, "takeback", 0, game.history[-1])
        await store.commit_tables([TableWrite("tt", record_of(game), [back], undone=3)])
        [running] = await store.running_tables()
        assert running.record["actions"] == game.history and len(game.history) == 3
        again = _moves(game, 7, 2)
        await store.commit_tables([TableWrite("tt", record_of(game), again)])
        [running] = await store.running_tables()
        assert running.record == record_of(game) and len(game.history) == 5
        # A row stored with its actions in it (no events add them): the row is cut.
        other = trumps.new_game("kozyri", seed=6)
        _moves(other, 0, 4)
        await store.commit_tables([TableWrite("tk", record_of(other))])
        other.undo()
        back = TableEvent(1, "takeback", 0, other.history[-1])
        await store.commit_tables([TableWrite("tk", record_of(other), [back], undone=3)])
        tables = {t.table_id: t for t in await store.running_tables()}
        assert tables["tk"].record == record_of(other) and len(other.history) == 3
        assert tables["tt"].record == record_of(game)

    db.on_store(body)


def test_commit_tables_refuses_a_stale_fence_and_a_finished_table(db: Db) -> None:
    """A write whose fencing number is not the row's changes nothing (another process
    owns the table); neither does a write to a table whose game was stored as finished."""

    async def body(store: SqlStore) -> None:
        game = trumps.new_game("kozyri", seed=9)
        [gid] = await store.commit_tables([TableWrite("t", record_of(game), fence=4)])
        events = _moves(game, 0, 1)
        [stale] = await store.commit_tables([TableWrite("t", record_of(game), events, fence=3)])
        assert isinstance(stale, Fenced) and stale.table_id == "t"
        [table] = await store.running_tables()
        assert table.record["actions"] == [] and table.events == [] and table.fence == 4
        # Others in the same transaction are stored.
        other = trumps.new_game("kozyri", seed=10)
        stale2, ok = await store.commit_tables(
            [TableWrite("t", record_of(game), events, fence=5), TableWrite("u", record_of(other))]
        )
        assert isinstance(stale2, Fenced) and isinstance(ok, int)
        assert await store.commit_tables([TableWrite("t", record_of(game), events, fence=4)]) == [
            gid
        ]
        while not game.is_over:
            game.play(game.legal_actions()[0])
        plies = [
            TableEvent(2 + i, "action", 0, a, False, 1 + i) for i, a in enumerate(game.history[1:])
        ]
        assert await store.commit_tables([TableWrite("t", record_of(game), plies, fence=4)]) == [
            gid
        ]
        [after] = await store.commit_tables([TableWrite("t", record_of(game), fence=4)])
        assert isinstance(after, Fenced)  # finished: no running row comes back
        assert [t.table_id for t in await store.running_tables()] == ["u"]

    db.on_store(body)


def test_commit_tables_checks_every_write_before_storing_any(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        game = trumps.new_game("kozyri", seed=2)
        good = TableWrite("t", record_of(game))
        moved = trumps.new_game("kozyri", seed=2)
        events = _moves(moved, 0, 2)
        cases: list[tuple[TableWrite, type[Exception], str]] = [
            # An outcome its game does not have.
            (
                TableWrite(
                    "x",
                    dict(record_of(game), outcome={"winners": [0], "losers": [1], "draw": False}),
                ),
                InvalidRecord,
                "outcome",
            ),
            (TableWrite("x", record_of(moved), events[:1]), ValueError, "plies"),
            (TableWrite("x", record_of(moved), events[::-1]), ValueError, "numbers"),
            (
                TableWrite("x", record_of(moved), [events[0], replace_action(events[1])]),
                ValueError,
                "action",
            ),
            (TableWrite("x", {"game": "kozyri"}), InvalidRecord, "keys"),
        ]
        for bad, error, words in cases:
            with pytest.raises(error, match=words):
                await store.commit_tables([good, bad])
        assert await store.running_tables() == []  # nothing of any batch was stored

    db.on_store(body)


def replace_action(event: TableEvent) -> TableEvent:
    return TableEvent(event.number, event.kind, event.seat, "take", event.by_bot, event.ply)


def test_leases_give_each_running_table_one_owner_at_a_time(db: Db) -> None:
    """A table's lease: its owner renews it; once it runs out another process takes the
    table over with a higher fencing number, and the former owner's renewal and writes
    find nothing of it any more; a released table is free at once."""

    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        game = trumps.new_game("kozyri", seed=5)
        [gid] = await store.commit_tables(
            [
                TableWrite(
                    "t", record_of(game), player_ids=[alice, None], fence=1, owner="A",
                    lease=60, creator=alice,
                )
            ]
        )  # fmt: skip
        await store.commit_tables(
            [TableWrite("bots", record_of(trumps.new_game("kozyri", seed=6)), creator=alice)]
        )
        assert await store.table_owner("t") == (True, "A")
        assert await store.table_owner("bots") == (True, None)  # nobody owns it
        assert await store.table_owner("nope") == (False, None)
        assert await store.player_tables(alice) == ["t"]
        assert await store.open_tables(alice) == 2  # seated at one, made both
        assert [t.table_id for t in await store.claim_tables("B", 5)] == ["bots"]  # ownerless
        assert await store.table_owner("bots") == (True, "B")
        assert await store.claim_tables("C", 5) == []  # every lease is live
        assert await store.renew_leases("A", 0) == {"t"}  # A's lease runs out now …
        [taken] = await store.claim_tables("C", 5)
        assert (taken.table_id, taken.fence, taken.player_ids) == ("t", 2, [alice, None])
        assert await store.table_owner("t") == (True, "C")
        assert await store.renew_leases("A", 60) == set()  # … A learns it lost the table
        [refused] = await store.commit_tables([TableWrite("t", record_of(game), fence=1)])
        assert isinstance(refused, Fenced)
        assert await store.commit_tables([TableWrite("t", record_of(game), fence=2)]) == [gid]
        await store.release_tables("C")
        assert await store.table_owner("t") == (True, None)
        everything = await store.claim_tables("D", 5, everything=True)
        assert sorted(t.table_id for t in everything) == ["bots", "t"]
        assert {t.table_id: t.fence for t in everything} == {"t": 3, "bots": 2}

    db.on_store(body)


def test_deleting_a_given_up_table_is_fenced_like_any_write(db: Db) -> None:
    """Deleting the running row of a table given up (never started, or left to bots) is a
    write of the table: it needs the row's fencing number and owner, so a former owner that
    stalled past its lease deletes nothing of a table another process took over; and a
    finished game is never deleted."""

    async def body(store: SqlStore) -> None:
        game = trumps.new_game("kozyri", seed=5)
        await store.commit_tables([TableWrite("t", record_of(game), fence=1, owner="A", lease=60)])
        assert not await store.discard_running("t", 1, "B")  # not its owner
        assert not await store.discard_running("t", 0, "A")  # a stale fence
        assert await store.renew_leases("A", 0) == {"t"}  # A stalls: its lease runs out …
        [taken] = await store.claim_tables("C", 5)  # … and C takes the table over
        assert (taken.table_id, taken.fence) == ("t", 2)
        assert not await store.discard_running("t", 1, "A")  # A wakes up: nothing deleted
        [kept] = await store.running_tables()
        assert (kept.table_id, kept.fence) == ("t", 2)
        assert await store.table_owner("t") == (True, "C")
        assert await store.discard_running("t", 2, "C")  # the owner's delete is stored
        assert await store.running_tables() == []
        assert not await store.discard_running("t", 2, "C")  # nothing left to delete
        done = finished_game("kozyri", 2, 3)
        [gid] = await store.commit_tables([TableWrite("f", record_of(done), fence=0, owner="C")])
        assert isinstance(gid, int)
        assert not await store.discard_running("f", 0, "C")  # a finished game stays
        assert replay(await store.get_game(gid)).outcome == done.outcome

    db.on_store(body)


def test_renewing_leases_never_waits_for_a_table_being_written(db: Db) -> None:
    """PostgreSQL: a renewal that waited for the rows a commit holds, locking them in
    another order, deadlocked with it (and leases ran out under load); it skips those rows
    — the commit renews them — and still reports every table the process owns."""
    if db.backend != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing to deadlock")

    async def body(store: SqlStore) -> None:
        records = [record_of(trumps.new_game("kozyri", seed=s)) for s in (1, 2)]
        await store.commit_tables(
            [TableWrite(f"t{i}", r, owner="A", lease=60) for i, r in enumerate(records)]
        )
        other = SqlStore(db.url, **db.options)
        db.stores.append(other)
        async with other._engine.connect() as conn:
            await conn.begin()  # a commit in flight holds t0's row
            await conn.execute(update(games).where(games.c.table_id == "t0").values(meta={}))
            owned = await asyncio.wait_for(store.renew_leases("A", 60), 5)
            await conn.rollback()
        assert owned == {"t0", "t1"}

    db.on_store(body)


def test_a_write_naming_its_row_is_fenced_and_finished_like_any_other(db: Db) -> None:
    """The shortcut of naming the row (no lookup) checks the same: a stale fence or a
    finished game refuses the write, a good one appends."""

    async def body(store: SqlStore) -> None:
        game = trumps.new_game("kozyri", seed=12)
        [gid] = await store.commit_tables([TableWrite("t", record_of(game), fence=2)])
        assert isinstance(gid, int)
        events = _moves(game, 0, 1)
        [stale] = await store.commit_tables(
            [TableWrite("t", record_of(game), events, fence=1, game_id=gid)]
        )
        assert isinstance(stale, Fenced)
        good = TableWrite("t", record_of(game), events, fence=2, game_id=gid)
        assert await store.commit_tables([good]) == [gid]
        [table] = await store.running_tables()
        assert table.record["actions"] == game.history and table.events == events
        while not game.is_over:
            game.play(game.legal_actions()[0])
        plies = [
            TableEvent(2 + i, "action", 0, a, False, 1 + i) for i, a in enumerate(game.history[1:])
        ]
        done = TableWrite("t", record_of(game), plies, fence=2, game_id=gid)
        assert await store.commit_tables([done]) == [gid]
        [after] = await store.commit_tables(
            [TableWrite("t", record_of(game), fence=2, game_id=gid)]
        )
        assert isinstance(after, Fenced)  # the game is finished

    db.on_store(body)


def test_many_tables_in_one_commit_each_get_their_own_answer(db: Db) -> None:
    """A group commit of several running tables (on PostgreSQL one statement refreshes all
    their rows): each write gets its own answer in order — the stale one Fenced, changing
    nothing of its table — and each other table gets its own events, state and lease."""

    async def body(store: SqlStore) -> None:
        games_ = [trumps.new_game("kozyri", seed=20 + k) for k in range(4)]
        first = [
            TableWrite(f"t{k}", record_of(g), fence=1, owner="A", lease=60)
            for k, g in enumerate(games_)
        ]
        answered = await store.commit_tables(first)
        ids = [i for i in answered if isinstance(i, int)]
        assert len(ids) == 4
        assert await store.renew_leases("A", 0) == {"t0", "t1", "t2", "t3"}  # run out now
        events = [_moves(g, 0, 1 + k % 2) for k, g in enumerate(games_)]
        writes = [
            # t0 and t2 name their rows, t1 and t3 are looked up; t2 is stale (another owner
            # took it): only the update's own fence check can find that.
            TableWrite("t0", record_of(games_[0]), events[0], meta={"k": 0}, fence=1,
                       owner="A", lease=60, game_id=ids[0]),
            TableWrite("t1", record_of(games_[1]), events[1], meta={"k": 1}, fence=1,
                       owner="A", lease=60),
            TableWrite("t2", record_of(games_[2]), events[2], meta={"k": 2}, fence=0,
                       owner="A", lease=60, game_id=ids[2]),
            TableWrite("t3", record_of(games_[3]), events[3], fence=1),  # no state, no lease
        ]  # fmt: skip
        answers = await store.commit_tables(writes)
        assert answers[:2] == ids[:2] and answers[3] == ids[3]
        assert isinstance(answers[2], Fenced) and answers[2].table_id == "t2"
        tables = {t.table_id: t for t in await store.running_tables()}
        for k in (0, 1, 3):
            assert tables[f"t{k}"].events == events[k]
            assert tables[f"t{k}"].record == record_of(games_[k])
        assert tables["t2"].events == [] and tables["t2"].record["actions"] == []
        assert [tables[f"t{k}"].meta for k in range(4)] == [{"k": 0}, {"k": 1}, None, None]
        # The writes with a lease renewed their own tables' leases: another process can
        # claim only the stale table and the one written without a lease.
        claimed = await store.claim_tables("B", 5)
        assert sorted(t.table_id for t in claimed) == ["t2", "t3"]

    db.on_store(body)


def test_the_newest_finished_game_of_a_table_is_found_through_an_index(db: Db) -> None:
    """A request about a table no process holds asks the store for that table's newest
    finished game (``finished_at``): the query is answered from an index on the table id,
    not by walking every finished game (the plan of the very query the store runs)."""

    async def body() -> None:
        store = await db.opened()
        for seed in range(3):  # three finished games, one of them at the table asked about
            record = record_of(finished_game("kozyri", 2, seed))
            await store.save_game(record, table_id=f"t-{seed}")
        found = await store.finished_at("t-1")
        assert found is not None and found[1] == record_of(finished_game("kozyri", 2, 1))["outcome"]
        query = finished_at_query("t-1")
        engine = create_async_engine(db.url, **db.options)
        try:
            async with engine.connect() as conn:
                compiled = query.compile(conn.sync_engine, compile_kwargs={"literal_binds": True})
                if db.backend == "sqlite":
                    plan = (await conn.execute(text(f"EXPLAIN QUERY PLAN {compiled}"))).all()
                else:  # a planner free to scan a small table is told not to, as a big one would
                    await conn.execute(text("SET enable_seqscan = off"))
                    plan = (await conn.execute(text(f"EXPLAIN {compiled}"))).all()
        finally:
            await engine.dispose()
        assert "ix_games_table_id" in " ".join(str(part) for row in plan for part in row), plan

    db.run(body)
