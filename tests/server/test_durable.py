"""Nothing is told before it is stored (issue "durable online play", part 1), on the hub.

The store here is an SQLite file behind a gate the test opens and closes, so the tests can
hold a transaction and look at what every connection has received meanwhile; and it can
fail like an unreachable database.  No sleeps: the tests wait on the gate's own events.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError

from server.hubkit import decoded, hello, next_of, said
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.tables.botplay import UNSTARTED_END
from trumps.server.tables.timing import ManualTime
from trumps.server.wire.protocol import (
    ChatPosted,
    Error,
    Event,
    GameOver,
    ServerMessage,
    TableClosed,
    TableList,
    TableState,
    Welcome,
)
from trumps.store import Fenced, SqlStore, TableWrite
from trumps.store._tables import RUNNING, games

SECRET = "durable-test-secret-0123456789"


class GatedStore(SqlStore):
    """An SQL store whose table commits and deletes wait for the test, or fail while
    ``down``; ``on_stored`` (if set) is called as each batch's transaction has committed,
    before the committer hears of it."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.gate = asyncio.Event()
        self.gate.set()
        self.waiting = asyncio.Event()  # a commit is waiting at the closed gate
        self.down = False
        self.failures = 0
        self.batches: list[list[str]] = []
        self.on_stored: Callable[[list[str]], None] | None = None

    async def _at_gate(self) -> None:
        if not self.gate.is_set():
            self.waiting.set()
            await self.gate.wait()
        if self.down:
            self.failures += 1
            raise OperationalError("commit", {}, ConnectionRefusedError("no database"))

    async def commit_tables(self, writes: Sequence[TableWrite]) -> list[int | Fenced]:
        await self._at_gate()
        self.batches.append([w.table_id for w in writes])
        results = await super().commit_tables(writes)
        if self.on_stored is not None:
            self.on_stored([w.table_id for w in writes])
        return results

    async def discard_running(self, table_id: str, fence: int, owner: str | None) -> bool:
        await self._at_gate()
        return await super().discard_running(table_id, fence, owner)

    async def add_player(
        self, name: str, password_hash: str | None = None, login: str | None = None
    ) -> int:
        if self.down:
            raise OperationalError("insert", {}, ConnectionRefusedError("no database"))
        return await super().add_player(name, password_hash, login)


def run(
    tmp_path: Path,
    body: Callable[[Hub, GatedStore], Awaitable[None]],
    time: ManualTime | None = None,
) -> None:
    async def main() -> None:
        store = GatedStore(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}")
        await store.create()
        options = HubOptions(bot_time=0.01, seed=1, time=time)
        hub = Hub(store, Sessions(store, SECRET), options)
        await hub.start()
        try:
            await asyncio.wait_for(body(hub, store), 60)
        finally:
            store.gate.set()
            store.down = False
            await hub.stop()
            await store.close()

    asyncio.run(main())


async def two_player_table(hub: Hub) -> tuple[str, Connection, Connection, Event]:
    """A started person-vs-person duel; returns its id, both connections and the start."""
    a, _ = await hello(hub, "Ana")
    b, _ = await hello(hub, "Rui")
    await said(hub, a, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
    table_id = (await next_of(a, TableState)).table_id
    await said(hub, b, {"type": "join_table", "table_id": table_id})
    start = await next_of(a, Event)
    while start.kind != "start":
        start = await next_of(a, Event)
    while (await next_of(b, Event)).kind != "start":
        pass
    return table_id, a, b, start


async def mover_and_moves(
    hub: Hub, a: Connection, b: Connection, table_id: str, start: Event
) -> tuple[Connection, TableState]:
    """The connection to move and its snapshot (with its legal moves)."""
    mover = a if start.to_move == 0 else b
    await said(hub, mover, {"type": "resync", "table_id": table_id, "last_event": 0})
    return mover, await next_of(mover, TableState)


async def move(hub: Hub, mover: Connection, table_id: str, snap: TableState) -> None:
    """``mover`` plays its first legal move, answering ``snap``."""
    await said(
        hub,
        mover,
        {"type": "action", "table_id": table_id, "action": snap.legal[0], "expected": snap.event},
    )


def test_no_event_reaches_anyone_before_its_move_is_stored(tmp_path: Path) -> None:
    """A move held in its commit is heard by nobody — not the mover, not the opponent;
    once the transaction commits, both hear it, and it is in the store."""

    async def body(hub: Hub, store: GatedStore) -> None:
        table_id, a, b, start = await two_player_table(hub)
        mover, snap = await mover_and_moves(hub, a, b, table_id, start)
        store.gate.clear()
        store.waiting.clear()
        await move(hub, mover, table_id, snap)
        await store.waiting.wait()  # the move is at the gate, in its transaction
        assert a.outbox.empty() and b.outbox.empty(), "a move was told before it was stored"
        running = {t.table_id: t for t in await SqlStore.running_tables(store)}[table_id]
        assert running.record["actions"] == []
        store.gate.set()
        for conn in (a, b):
            moved = await next_of(conn, Event)
            assert moved.kind == "action" and moved.number == snap.event + 1
        running = {t.table_id: t for t in await store.running_tables()}[table_id]
        assert running.record["actions"] == [snap.legal[0]]
        assert running.events[-1].number == snap.event + 1

    run(tmp_path, body)


def test_a_waiting_table_and_its_chat_survive_a_crash(tmp_path: Path) -> None:
    """A table not yet started and the chat said at tables are stored before anyone is
    told: a second server on the same database (the first never stopped, as after
    ``kill -9``) has the waiting table in its lobby and the chat in its snapshots."""

    async def body(hub: Hub, store: GatedStore) -> None:
        table_id, a, b, _ = await two_player_table(hub)
        await said(hub, a, {"type": "chat", "table_id": table_id, "text": "boa sorte"})
        await next_of(b, ChatPosted)
        c, welcome_c = await hello(hub, "Eve")
        await said(
            hub,
            c,
            {"type": "create_table", "game": "twentyfive", "seats": ["human", "human", "easy"]},
        )
        waiting = (await next_of(c, TableState)).table_id
        await said(hub, c, {"type": "chat", "table_id": waiting, "text": "anyone?"})
        await next_of(c, ChatPosted)

        other = Hub(store, Sessions(store, SECRET), HubOptions(bot_time=0.01, seed=2))
        await other.start()
        try:
            assert {table_id, waiting} <= set(other.tables)
            assert [t.table_id for t in other.lobby.summaries("twentyfive")] == [waiting]
            assert not other.tables[waiting].table.started
            assert other.tables[waiting].creator == int(welcome_c.player_id)
            c2, welcome = await hello(other, "Eve", welcome_c.resume_token)
            assert welcome.tables == [waiting]
            snap = await next_of(c2, TableState)
            assert [(x.seat, x.name, x.text) for x in snap.chat] == [(0, "Eve", "anyone?")]
            viewer, _ = await hello(other, "Watcher")
            await said(other, viewer, {"type": "spectate", "table_id": table_id})
            seen = await next_of(viewer, TableState)
            assert [x.text for x in seen.chat] == ["boa sorte"]
            # The log of the first table came back with it: the same numbered events.
            before = [(e.number, e.kind) for e in hub.tables[table_id].table.events]
            assert [(e.number, e.kind) for e in seen.log] == before
        finally:
            await other.stop()

    run(tmp_path, body)


def test_an_unreachable_store_refuses_requests_and_holds_moves_until_it_is_back(
    tmp_path: Path,
) -> None:
    """While the database cannot be reached, new requests get ``unavailable`` and a move
    made is told to nobody; when it is back the move is stored and told, by itself."""

    async def body(hub: Hub, store: GatedStore) -> None:
        table_id, a, b, start = await two_player_table(hub)
        mover, snap = await mover_and_moves(hub, a, b, table_id, start)
        store.down = True
        store.gate.clear()
        store.waiting.clear()
        await move(hub, mover, table_id, snap)
        await store.waiting.wait()
        store.gate.set()  # the commit fails now; the committer retries
        while store.failures == 0 or hub.committer.available:
            await asyncio.sleep(0)  # let the failing transaction run (no timing involved)
        newcomer = hub.connect()
        await said(hub, newcomer, {"type": "hello", "protocol": 1, "name": "New"})
        refused = await newcomer.outbox.get()
        assert isinstance(refused, Error) and refused.code == "unavailable"
        await said(hub, a, {"type": "play_computer", "game": "kozyri"})
        refused = await a.outbox.get()
        assert isinstance(refused, Error) and refused.code == "unavailable"
        assert b.outbox.empty() and a.outbox.empty(), "a move was told before it was stored"
        store.down = False  # the database is back: the retry stores the move, then tells it
        for conn in (a, b):
            moved = await next_of(conn, Event)
            assert moved.kind == "action" and moved.number == snap.event + 1
        assert hub.committer.available
        await said(hub, newcomer, {"type": "hello", "protocol": 1, "name": "New"})
        assert isinstance(await next_of(newcomer, Welcome), Welcome)

    run(tmp_path, body)


def test_a_table_taken_over_elsewhere_stops_here_and_tells_nobody(tmp_path: Path) -> None:
    """Another process took the table (its fencing number moved on): this process's
    next write is refused, nobody hears of the move, and the table stops here."""

    async def body(hub: Hub, store: GatedStore) -> None:
        table_id, a, b, start = await two_player_table(hub)
        mover, snap = await mover_and_moves(hub, a, b, table_id, start)
        async with store._engine.begin() as conn:  # what a takeover does to the row
            await conn.execute(update(games).where(games.c.table_id == table_id).values(fence=1))
        table = hub.tables[table_id].table
        await move(hub, mover, table_id, snap)
        await table.launch()  # the table's task ends
        assert table.abandoned and table_id not in hub.tables  # this process gave it up
        assert a.outbox.empty() and b.outbox.empty()
        [running] = [t for t in await store.running_tables() if t.table_id == table_id]
        assert running.record["actions"] == [] and running.fence == 1

    run(tmp_path, body)


def test_the_health_counts_show_the_queues(tmp_path: Path) -> None:
    """``Hub.stats`` (``/healthz``) counts the writes waiting for the store and the messages
    waiting in the outboxes: a held commit shows as one queued write, and its move's
    messages, once it is stored, as queued messages until they are read."""

    async def body(hub: Hub, store: GatedStore) -> None:
        table_id, a, b, start = await two_player_table(hub)
        mover, snap = await mover_and_moves(hub, a, b, table_id, start)
        for conn in (a, b):
            while not conn.outbox.empty():
                conn.outbox.get_nowait()
        before = hub.stats()
        assert before["commit_queue"] == 0 and before["outbox"] == 0
        assert before["writes"] >= before["transactions"] >= 1
        store.gate.clear()
        store.waiting.clear()
        await move(hub, mover, table_id, snap)
        await store.waiting.wait()
        held = hub.stats()
        assert held["commit_queue"] == 1 and held["outbox"] == 0
        store.gate.set()
        await next_of(a, Event)  # stored: the event reaches both; b's is still queued
        after = hub.stats()
        assert after["commit_queue"] == 0
        assert after["outbox"] == after["outbox_max"] == b.outbox.qsize() >= 1
        assert after["transactions"] == before["transactions"] + 1

    run(tmp_path, body)


def received(conn: Connection) -> list[ServerMessage]:
    """Everything in ``conn``'s outbox now (taken out of it)."""
    out = []
    while not conn.outbox.empty():
        raw = conn.outbox.get_nowait()
        assert raw is not None, "the connection was closed"
        out.append(decoded(raw))
    return out


async def until(done: Callable[[], bool], what: str) -> None:
    """Let the other tasks run until ``done()`` (bounded: no timing involved)."""
    for _ in range(10_000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"never happened: {what}")


async def stored_row(store: GatedStore, table_id: str) -> tuple[str, int, str | None] | None:
    """The running row of ``table_id``: (its table id, fence, owner), or None."""
    async with store._engine.connect() as conn:
        row = (
            await conn.execute(
                select(games.c.table_id, games.c.fence, games.c.owner).where(
                    games.c.table_id == table_id, games.c.status == RUNNING
                )
            )
        ).one_or_none()
    return None if row is None else (row.table_id, row.fence, row.owner)


async def waiting_table(hub: Hub) -> tuple[str, Connection, Connection]:
    """A duel its creator waits at, not started, with a spectator: (id, creator, spectator)."""
    a, _ = await hello(hub, "Ana")
    await said(hub, a, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
    table_id = (await next_of(a, TableState)).table_id
    viewer, _ = await hello(hub, "Vic")
    await said(hub, viewer, {"type": "spectate", "table_id": table_id})
    await next_of(viewer, TableState)
    return table_id, a, viewer


def test_a_stale_owner_s_expiry_deletes_nothing_and_tells_nobody(tmp_path: Path) -> None:
    """Another process took the waiting table over (its fencing number and owner moved on)
    while this one stalled; this process's timer for a table that never started then fires:
    its delete is fenced like any write, the row stays for its owner, and nobody here is
    told the table closed."""
    time = ManualTime()

    async def body(hub: Hub, store: GatedStore) -> None:
        table_id, a, viewer = await waiting_table(hub)
        table = hub.tables[table_id].table
        assert await stored_row(store, table_id) == (table_id, 0, hub.node)
        async with store._engine.begin() as db:  # what a takeover does to the row
            await db.execute(
                update(games)
                .where(games.c.table_id == table_id)
                .values(fence=games.c.fence + 1, owner="other-process")
            )
        time.advance(UNSTARTED_END)
        await table.settled()
        await hub._background.idle()  # the delete was tried
        assert table_id not in hub.tables  # given up here …
        assert await stored_row(store, table_id) == (table_id, 1, "other-process")  # … not there
        for conn in (a, viewer):
            told = [m for m in received(conn) if isinstance(m, TableClosed)]
            assert told == [], "a stale owner said a table it does not own closed"

    run(tmp_path, body, time)


def test_a_table_closed_is_told_once_its_row_is_deleted(tmp_path: Path) -> None:
    """``table_closed`` is held until the table's delete is stored, like every event."""
    time = ManualTime()

    async def body(hub: Hub, store: GatedStore) -> None:
        table_id, a, viewer = await waiting_table(hub)
        table = hub.tables[table_id].table
        store.gate.clear()
        store.waiting.clear()
        time.advance(UNSTARTED_END)
        await table.settled()
        await store.waiting.wait()  # the delete is at the gate
        for conn in (a, viewer):
            assert not [m for m in received(conn) if isinstance(m, TableClosed)], (
                "table_closed was told before the table's row was deleted"
            )
        assert await stored_row(store, table_id) is not None
        store.gate.set()
        for conn in (a, viewer):
            told = await next_of(conn, TableClosed)
            assert (told.table_id, told.reason) == (table_id, "not_started")
        assert await stored_row(store, table_id) is None

    run(tmp_path, body, time)


def test_a_table_closed_while_the_store_is_away_is_told_once_it_is_back(
    tmp_path: Path,
) -> None:
    """A delete that finds the store unreachable is retried; nobody is told until it is
    stored, and then everyone at the table is."""
    time = ManualTime()

    async def body(hub: Hub, store: GatedStore) -> None:
        table_id, a, viewer = await waiting_table(hub)
        table = hub.tables[table_id].table
        store.down = True
        time.advance(UNSTARTED_END)
        await table.settled()
        await until(lambda: store.failures >= 1, "the delete tried")
        for conn in (a, viewer):
            assert not [m for m in received(conn) if isinstance(m, TableClosed)]
        assert await stored_row(store, table_id) is not None
        store.down = False
        for conn in (a, viewer):
            assert (await next_of(conn, TableClosed)).table_id == table_id
        assert await stored_row(store, table_id) is None

    run(tmp_path, body, time)


def test_moves_at_several_tables_share_one_transaction(tmp_path: Path) -> None:
    """Moves made at three tables while the store is busy with another transaction go
    into the next one together (group commit across tables), and none of them reaches
    any client before that transaction is stored."""

    async def body(hub: Hub, store: GatedStore) -> None:
        tables = [await two_player_table(hub) for _ in range(3)]
        moving = [await mover_and_moves(hub, a, b, t, start) for t, a, b, start in tables]
        busy, owner, _ = await waiting_table(hub)
        conns = [c for _, a, b, _ in tables for c in (a, b)]
        for conn in conns:
            received(conn)
        store.gate.clear()
        store.waiting.clear()
        await said(hub, owner, {"type": "chat", "table_id": busy, "text": "hold on"})
        await store.waiting.wait()  # the store is busy with the chat's transaction
        for (table_id, _, _, _), (mover, snap) in zip(tables, moving, strict=True):
            await move(hub, mover, table_id, snap)
        await until(lambda: hub.committer.queued == 4, "three moves waiting for the store")
        assert all(conn.outbox.empty() for conn in conns), "a move was told before it was stored"
        ids = sorted(t for t, _, _, _ in tables)
        told_early: list[bool] = []

        def stored(batch: list[str]) -> None:  # the moves' transaction has just committed
            if sorted(batch) == ids:
                told_early.extend(not conn.outbox.empty() for conn in conns)

        store.on_stored = stored
        before = len(store.batches)
        store.gate.set()
        for (table_id, a, b, _), (_, snap) in zip(tables, moving, strict=True):
            for conn in (a, b):
                moved = await next_of(conn, Event)
                assert (moved.table_id, moved.kind, moved.number) == (
                    table_id,
                    "action",
                    snap.event + 1,
                )
        assert [sorted(b) for b in store.batches[before:]] == [[busy], ids]
        assert told_early == [False] * len(conns), "a move was told before it was stored"

    run(tmp_path, body)


def test_creation_start_and_end_are_told_only_once_stored(tmp_path: Path) -> None:
    """The creator's ``table_state``, the ``start`` after the last join and the
    ``game_over`` are each held until their commit is stored; and the lobby list (the
    answer to ``list_tables``, ``GET /api/tables``) shows no table before its first write
    is stored: a crash then would lose a table players had seen."""

    async def body(hub: Hub, store: GatedStore) -> None:
        a, _ = await hello(hub, "Ana")
        b, _ = await hello(hub, "Rui")
        store.gate.clear()
        store.waiting.clear()
        await said(hub, a, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        await store.waiting.wait()  # the table's first write is at the gate
        assert a.outbox.empty(), "the new table was shown before it was stored"
        [made] = list(hub.tables)
        await said(hub, b, {"type": "list_tables"})
        listed = [m for m in received(b) if isinstance(m, TableList)]
        assert [[t.table_id for t in m.tables] for m in listed] == [[]]
        assert hub.public_tables() == ([], 0)
        store.gate.set()
        assert (await next_of(a, TableState)).table_id == made
        await said(hub, b, {"type": "list_tables"})
        assert [t.table_id for t in (await next_of(b, TableList)).tables] == [made]
        assert [row["table_id"] for row in hub.public_tables()[0]] == [made]

        received(a)
        store.gate.clear()
        store.waiting.clear()
        await said(hub, b, {"type": "join_table", "table_id": made})
        await store.waiting.wait()  # the last join, and the start it makes, at the gate
        assert a.outbox.empty() and b.outbox.empty(), "the start was told before it was stored"
        store.gate.set()
        for conn in (a, b):
            while (await next_of(conn, Event)).kind != "start":
                pass

        received(a)
        received(b)
        store.gate.clear()
        store.waiting.clear()
        await said(hub, a, {"type": "resign", "table_id": made})
        await store.waiting.wait()  # the finished record at the gate
        assert a.outbox.empty() and b.outbox.empty(), "the end was told before it was stored"
        assert await stored_row(store, made) is not None  # still running in the store
        store.gate.set()
        for conn in (a, b):
            over = await next_of(conn, GameOver)
            assert over.table_id == made and over.record_id is not None
        assert await stored_row(store, made) is None  # stored as a finished game

    run(tmp_path, body)
