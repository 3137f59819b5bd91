"""Budgets per address hold across the processes of a service (issue 17 §1): two hubs on
one PostgreSQL and Redis, in one loop, as two processes of ``trumps serve --redis``; and
across a restart of a single process (the same SQLite file, a new hub)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from server.hubkit import (
    create,
    decoded,
    hint,
    my_turn,
    next_of,
    next_or_error,
    run_cluster,
    run_hub,
    said,
)
from trumps.server.hub import Connection, Hub
from trumps.server.limits.quota import FairUse
from trumps.server.wire.protocol import Error, Event, Hint, TableState, Welcome
from trumps.store import SqlStore

ADDRESS = "198.51.100.20"
ELSEWHERE = "203.0.113.30"


def run(body: Callable[[Hub, Hub], Awaitable[None]], fair: FairUse, **options: Any) -> None:
    """``body(a, b)`` against two hubs of one service that keep the budgets ``fair``."""

    async def both(a: Hub, b: Hub, _: SqlStore) -> None:
        await body(a, b)

    run_cluster(both, fair=fair, **options)


async def guest(hub: Hub, name: str, address: str = ADDRESS) -> Connection:
    conn = hub.connect(address)
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
        refused = await next_or_error(rui, TableState)
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "1 unfinished tables" in refused.message and refused.table_id == old
        assert [t for t in a.tables if t != old] == []  # A made nothing
        # Cid leaves before the start: the address is free, and the rematch is made …
        await said(b, cid, {"type": "leave_table", "table_id": held.table_id})
        await b.tables[held.table_id].table.settled()
        await b._background.idle()
        await said(b, rui, {"type": "rematch", "table_id": old})
        again = await next_or_error(rui, TableState)
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
    fair = FairUse(tables_per_address=1, creations_per_address=100)
    kept: list[str] = []

    async def before(hub: Hub, _: SqlStore) -> None:
        made = await create(hub, await guest(hub, "Ana"))
        assert isinstance(made, TableState), made
        await hub.tables[made.table_id].table.settled()  # stored
        kept.append(made.table_id)

    async def after(hub: Hub, _: SqlStore) -> None:
        assert list(hub.tables) == kept  # resumed
        await hub._background.idle()
        refused = await create(hub, await guest(hub, "Bea"))
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "1 unfinished tables" in refused.message
        elsewhere = await create(hub, await guest(hub, "Cid", ELSEWHERE))
        assert isinstance(elsewhere, TableState), elsewhere

    run_hub(tmp_path / "hub.db", before, fair=fair)
    run_hub(tmp_path / "hub.db", after, fair=fair)  # the same store: a restart


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
