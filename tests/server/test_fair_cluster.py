"""Budgets per address hold across the processes of a service (issue 17 §1): two hubs on
one PostgreSQL and Redis, in one loop, as two processes of ``trumps serve --redis``; and
across a restart of a single process (the same SQLite file, a new hub)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from server.e2e import postgres_database
from server.hubkit import decoded, next_of, said
from server.redis_env import REDIS_URL, fresh_prefix, need_redis
from server.test_fair_use import create, hint, my_turn
from store.postgres import need_postgres
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.protocol import Error, Event, Hint, TableState, Welcome
from trumps.server.quota import FairUse
from trumps.server.sessions import Sessions
from trumps.store import SqlStore

SECRET = "fair-cluster-secret-0123456789"
ADDRESS = "198.51.100.20"
ELSEWHERE = "203.0.113.30"


def run(body: Callable[[Hub, Hub], Awaitable[None]], fair: FairUse, **options: Any) -> None:
    need_postgres()
    need_redis()
    prefix = fresh_prefix()
    with postgres_database() as url:

        async def main() -> None:
            stores = [SqlStore(url), SqlStore(url)]
            await stores[0].create()
            hubs = [
                Hub(
                    store,
                    Sessions(store, SECRET),
                    HubOptions(
                        bot_time=0.01,
                        seed=seed,
                        fair=fair,
                        redis_url=REDIS_URL,
                        node_id=node,
                        redis_prefix=prefix,
                        **options,
                    ),
                )
                for store, seed, node in ((stores[0], 1, "A"), (stores[1], 100, "B"))
            ]
            for hub in hubs:
                await hub.start()
            try:
                await asyncio.wait_for(body(hubs[0], hubs[1]), 60)
            finally:
                for hub in hubs:
                    await hub.stop()
                for store in stores:
                    await store.close()

        asyncio.run(main())


async def guest(hub: Hub, name: str, address: str = ADDRESS) -> Connection:
    conn = hub.connect(address)
    await said(hub, conn, {"type": "hello", "protocol": 1, "name": name})
    await next_of(conn, Welcome)
    return conn


async def answer(conn: Connection) -> TableState | Error:
    """The next table or error ``conn`` is sent (other messages are skipped)."""
    while True:
        raw = await conn.outbox.get()
        assert raw is not None, "the connection was closed"
        msg = decoded(raw)
        if isinstance(msg, TableState | Error):
            return msg


def test_an_address_s_tables_count_on_every_process() -> None:
    async def body(a: Hub, b: Hub) -> None:
        assert isinstance(await create(a, await guest(a, "Ana")), TableState)
        assert isinstance(await create(b, await guest(b, "Bea")), TableState)
        refused = await create(a, await guest(a, "Cid"))
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "2 unfinished tables" in refused.message

    run(body, FairUse(tables_per_address=2, creations_per_address=100))


def test_an_address_s_hints_count_on_every_process() -> None:
    async def body(a: Hub, b: Hub) -> None:
        ana, bea = await guest(a, "Ana"), await guest(b, "Bea")
        at_a, at_b = await my_turn(a, ana), await my_turn(b, bea)
        assert isinstance(await hint(a, ana, at_a), Hint)
        assert isinstance(await hint(b, bea, at_b), Hint)
        refused = await hint(a, ana, at_a)
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "your address" in refused.message

    run(body, FairUse(hints_per_address=2, hints_per_player=100))


def test_a_rematch_asked_on_another_process_counts_against_the_asker_s_address() -> None:
    """Rui, on B, asks for a rematch of a game A owns: A makes the table, and Rui's address
    (carried over the bus, as its hash) is refused at its cap and charged when allowed,
    exactly as if Rui were on A."""

    async def body(a: Hub, b: Hub) -> None:
        ana = await guest(a, "Ana", ELSEWHERE)
        made = await create(a, ana)
        assert isinstance(made, TableState), made
        old = made.table_id
        rui = await guest(b, "Rui")
        await said(b, rui, {"type": "join_table", "table_id": old})
        await next_of(rui, TableState)
        await said(b, rui, {"type": "resign", "table_id": old})
        while (await next_of(ana, Event)).kind != "resign":
            pass
        await a._background.idle()  # the finished table no longer counts
        # Cid, from Rui's address, takes its one unfinished table.
        cid = await guest(b, "Cid")
        held = await create(b, cid)
        assert isinstance(held, TableState), held
        await b._background.idle()
        await said(b, rui, {"type": "rematch", "table_id": old})
        refused = await answer(rui)
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "1 unfinished tables" in refused.message and refused.table_id == old
        assert [t for t in a.tables if t != old] == []  # A made nothing
        # Cid leaves before the start: the address is free, and the rematch is made …
        await said(b, cid, {"type": "leave_table", "table_id": held.table_id})
        await b.tables[held.table_id].table.settled()
        await b._background.idle()
        await said(b, rui, {"type": "rematch", "table_id": old})
        again = await answer(rui)
        assert isinstance(again, TableState), again
        assert again.table_id != old and again.table_id in a.tables
        await a._background.idle()
        # … and it counts against Rui's address, whichever process is asked next.
        for hub in (b, a):
            late = await create(hub, await guest(hub, "Dan"))
            assert isinstance(late, Error) and late.code == "rate_limited", late
            assert "1 unfinished tables" in late.message

    run(body, FairUse(tables_per_address=1, creations_per_address=100))


def test_a_table_resumed_after_a_restart_still_counts_against_its_address(
    tmp_path: Path,
) -> None:
    """One process, restarted on the same store: the tables it resumes are held against
    their creators' addresses again, so the cap holds across the restart."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}"
    fair = FairUse(tables_per_address=1, creations_per_address=100)
    kept: list[str] = []

    async def life(body: Callable[[Hub], Awaitable[None]]) -> None:
        store = SqlStore(url)
        await store.create()
        hub = Hub(store, Sessions(store, SECRET), HubOptions(bot_time=0.01, seed=1, fair=fair))
        await hub.start()
        try:
            await asyncio.wait_for(body(hub), 60)
        finally:
            await hub.stop()
            await store.close()

    async def before(hub: Hub) -> None:
        made = await create(hub, await guest(hub, "Ana"))
        assert isinstance(made, TableState), made
        await hub.tables[made.table_id].table.settled()  # stored
        kept.append(made.table_id)

    async def after(hub: Hub) -> None:
        assert list(hub.tables) == kept  # resumed
        await hub._background.idle()
        refused = await create(hub, await guest(hub, "Bea"))
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "1 unfinished tables" in refused.message
        elsewhere = await create(hub, await guest(hub, "Cid", ELSEWHERE))
        assert isinstance(elsewhere, TableState), elsewhere

    asyncio.run(life(before))
    asyncio.run(life(after))


def test_an_address_s_new_guests_count_on_every_process() -> None:
    async def body(a: Hub, b: Hub) -> None:
        await guest(a, "Ana")
        await guest(b, "Bea")
        for hub in (a, b):
            conn = hub.connect(ADDRESS)
            await said(hub, conn, {"type": "hello", "protocol": 1, "name": "Cid"})
            refused = decoded(await conn.outbox.get())  # type: ignore[arg-type]
            assert isinstance(refused, Error) and refused.code == "rate_limited", refused
            assert "2 new guests this minute" in refused.message
        await guest(b, "Dan", ELSEWHERE)

    run(body, FairUse(), guests_per_address=2)
