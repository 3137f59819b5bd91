"""Budgets per address hold across the processes of a service (issue 17 §1): two hubs on
one PostgreSQL and Redis, in one loop, as two processes of ``trumps serve --redis``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from server.e2e import postgres_database
from server.hubkit import next_of, said
from server.redis_env import REDIS_URL, fresh_prefix, need_redis
from server.test_fair_use import create, hint, my_turn
from store.postgres import need_postgres
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.protocol import Error, Hint, TableState, Welcome
from trumps.server.quota import FairUse
from trumps.server.sessions import Sessions
from trumps.store import SqlStore

SECRET = "fair-cluster-secret-0123456789"
ADDRESS = "198.51.100.20"


def run(body: Callable[[Hub, Hub], Awaitable[None]], fair: FairUse) -> None:
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


async def guest(hub: Hub, name: str) -> Connection:
    conn = hub.connect(ADDRESS)
    await said(hub, conn, {"type": "hello", "protocol": 1, "name": name})
    await next_of(conn, Welcome)
    return conn


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
