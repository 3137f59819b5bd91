"""Nothing is told before it is stored (issue "durable online play", part 1), on the hub.

The store here is an SQLite file behind a gate the test opens and closes, so the tests can
hold a transaction and look at what every connection has received meanwhile; and it can
fail like an unreachable database.  No sleeps: the tests wait on the gate's own events.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from server.hubkit import hello, next_of, said
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.protocol import ChatPosted, Error, Event, TableState, Welcome
from trumps.server.sessions import Sessions
from trumps.store import Fenced, SqlStore, TableWrite
from trumps.store._tables import games

SECRET = "durable-test-secret-0123456789"


class GatedStore(SqlStore):
    """An SQL store whose table commits wait for the test, or fail while ``down``."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.gate = asyncio.Event()
        self.gate.set()
        self.waiting = asyncio.Event()  # a commit is waiting at the closed gate
        self.down = False
        self.failures = 0
        self.batches: list[list[str]] = []

    async def commit_tables(self, writes: Sequence[TableWrite]) -> list[int | Fenced]:
        if not self.gate.is_set():
            self.waiting.set()
            await self.gate.wait()
        if self.down:
            self.failures += 1
            raise OperationalError("commit", {}, ConnectionRefusedError("no database"))
        self.batches.append([w.table_id for w in writes])
        return await super().commit_tables(writes)

    async def add_player(
        self, name: str, password_hash: str | None = None, login: str | None = None
    ) -> int:
        if self.down:
            raise OperationalError("insert", {}, ConnectionRefusedError("no database"))
        return await super().add_player(name, password_hash, login)


def run(tmp_path: Path, body: Callable[[Hub, GatedStore], Awaitable[None]]) -> None:
    async def main() -> None:
        store = GatedStore(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}")
        await store.create()
        hub = Hub(store, Sessions(store, SECRET), HubOptions(bot_time=0.01, seed=1))
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
