"""Two hubs as one service (PostgreSQL + Redis), in one event loop: routing, the shared
lobby, quick match and takeover with fencing (issue "durable online play", part 2).

Each hub is what one process of ``trumps serve --redis …`` runs; here both live in the
test's loop so every step can be awaited exactly.  The processes themselves (SIGSTOP,
SIGKILL) are tested end to end in ``test_e2e_cluster.py``.
"""

from __future__ import annotations

import asyncio

from server.hubkit import decoded, hello, next_of, run_cluster, said
from trumps.server.hub import Connection, Hub
from trumps.server.service.bus import ALIVE_TTL
from trumps.server.service.cluster import Cluster
from trumps.server.wire.protocol import (
    Error,
    Event,
    Rematch,
    Spectators,
    TableList,
    TableState,
    Waiting,
    Welcome,
)
from trumps.store import SqlStore


async def across(a: Hub, b: Hub) -> tuple[Connection, Connection, Welcome, str]:
    """Ana on A makes a duel; Rui, on B, joins it: (ana, rui, Rui's welcome, the table)."""
    ana, _ = await hello(a, "Ana")
    rui, welcome = await hello(b, "Rui")
    await said(a, ana, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
    table_id = (await next_of(ana, TableState)).table_id
    await said(b, rui, {"type": "join_table", "table_id": table_id})
    await next_of(rui, TableState)
    return ana, rui, welcome, table_id


async def play_one(hub: Hub, conn: Connection, table_id: str) -> Event:
    """``conn`` resyncs, makes its first legal move, and returns the event of it."""
    await said(hub, conn, {"type": "resync", "table_id": table_id, "last_event": 0})
    snap = await next_of(conn, TableState)
    assert snap.legal, "not this seat's turn"
    await said(
        hub,
        conn,
        {"type": "action", "table_id": table_id, "action": snap.legal[0], "expected": snap.event},
    )
    while True:
        event: Event = await next_of(conn, Event)
        if event.kind == "action" and event.number == snap.event + 1:
            return event


def test_a_player_on_either_process_plays_at_a_table_owned_by_one() -> None:
    """A table made on A is listed in B's lobby; a player connected to B joins it, and
    both players' moves and events cross between the processes."""

    async def body(a: Hub, b: Hub, store: SqlStore) -> None:
        ana, _ = await hello(a, "Ana")
        rui, _ = await hello(b, "Rui")
        await said(b, rui, {"type": "list_tables"})
        await next_of(rui, TableList)
        await said(a, ana, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        table_id = (await next_of(ana, TableState)).table_id
        assert table_id in a.tables and table_id not in b.tables
        listed = await next_of(rui, TableList)  # pushed by B: a row A published
        while table_id not in [t.table_id for t in listed.tables]:
            listed = await next_of(rui, TableList)
        await said(b, rui, {"type": "join_table", "table_id": table_id})
        snap = await next_of(rui, TableState)
        assert snap.seat == 1 and snap.table_id == table_id
        start = await next_of(ana, Event)
        while start.kind != "start":
            start = await next_of(ana, Event)
        first, second = (ana, rui) if start.to_move == 0 else (rui, ana)
        hub_of = {id(ana): a, id(rui): b}
        moved = await play_one(hub_of[id(first)], first, table_id)
        seen = await next_of(second, Event)
        while seen.number < moved.number:
            seen = await next_of(second, Event)
        assert (seen.number, seen.kind, seen.action) == (moved.number, "action", moved.action)
        moved2 = await play_one(hub_of[id(second)], second, table_id)
        assert moved2.number == moved.number + 1
        [running] = [t for t in await store.running_tables() if t.table_id == table_id]
        assert len(running.record["actions"]) == 2
        assert await store.table_owner(table_id) == (True, "A")

    run_cluster(body)


async def watchers(conn: Connection, table_id: str, count: int) -> Spectators:
    """The next ``spectators`` list of ``table_id`` that counts ``count`` watchers."""
    while True:
        got: Spectators = await next_of(conn, Spectators)
        if got.table_id == table_id and got.count == count:
            return got


def test_a_spectator_on_another_process_watches_the_owner_s_table() -> None:
    """Sam, connected to B, watches a table A owns: a public snapshot, then every event;
    the players on both processes are told who watches, and told again when Sam's
    connection to B is gone."""

    async def body(a: Hub, b: Hub, _store: SqlStore) -> None:
        ana, rui, _, table_id = await across(a, b)
        start = await next_of(ana, Event)
        while start.kind != "start":
            start = await next_of(ana, Event)
        sam, _ = await hello(b, "Sam")
        await said(b, sam, {"type": "spectate", "table_id": table_id})
        snap = await next_of(sam, TableState)
        assert (snap.table_id, snap.seat, snap.legal) == (table_id, None, [])
        assert snap.spectators.count == 1 and snap.spectators.names == ["Sam"]
        assert snap.view is not None
        assert all(isinstance(hand, dict) for hand in snap.view["hands"]), snap.view["hands"]
        assert table_id in a.tables and table_id not in b.tables  # A owns it still
        for player in (ana, rui):  # on A and on B
            told = await watchers(player, table_id, 1)
            assert told.names == ["Sam"]
        mover, hub = (ana, a) if start.to_move == 0 else (rui, b)
        moved = await play_one(hub, mover, table_id)
        seen: Event = await next_of(sam, Event)
        while seen.number < moved.number:
            seen = await next_of(sam, Event)
        assert (seen.number, seen.kind, seen.action) == (moved.number, "action", moved.action)
        b.disconnect(sam)  # Sam's socket to B closes: A hears of it
        for player in (ana, rui):
            assert (await watchers(player, table_id, 0)).names == []

    run_cluster(body)


def test_a_private_table_is_joined_by_its_id_from_another_process() -> None:
    """A private table made on A is in no lobby, yet Rui, connected to B, joins it with the
    id from the invite link and both are seated."""

    async def body(a: Hub, b: Hub, store: SqlStore) -> None:
        ana, _ = await hello(a, "Ana")
        rui, _ = await hello(b, "Rui")
        await said(a, ana, {"type": "create_table", "game": "kozyri",
                            "seats": ["human", "human"], "private": True})  # fmt: skip
        made = await next_of(ana, TableState)
        table_id = made.table_id
        assert made.private and table_id in a.tables
        await said(b, rui, {"type": "list_tables"})
        listed = await next_of(rui, TableList)
        assert table_id not in [t.table_id for t in listed.tables]
        await said(b, rui, {"type": "join_table", "table_id": table_id})
        joined = await next_of(rui, TableState)
        while joined.table_id != table_id:
            joined = await next_of(rui, TableState)
        assert (joined.seat, joined.private) == (1, True)
        start = await next_of(ana, Event)
        while start.kind != "start":
            start = await next_of(ana, Event)
        mover, hub = (ana, a) if start.to_move == 0 else (rui, b)
        moved = await play_one(hub, mover, table_id)
        [running] = [t for t in await store.running_tables() if t.table_id == table_id]
        assert running.record["actions"] == [moved.action]
        assert await store.table_owner(table_id) == (True, "A")

    run_cluster(body)


def test_quick_match_pairs_players_on_different_processes() -> None:
    async def body(a: Hub, b: Hub, _store: SqlStore) -> None:
        ana, _ = await hello(a, "Ana")
        rui, _ = await hello(b, "Rui")
        await said(a, ana, {"type": "quick_match", "game": "kozyri"})
        await next_of(ana, Waiting)
        await said(b, rui, {"type": "quick_match", "game": "kozyri"})
        mine = await next_of(rui, TableState)
        theirs = await next_of(ana, TableState)
        assert mine.table_id == theirs.table_id and {mine.seat, theirs.seat} == {0, 1}

    run_cluster(body)


def test_a_table_whose_owner_stops_renewing_moves_to_another_process() -> None:
    """A's lease runs out (as when A freezes): B takes the table over with a higher fencing
    number, A gives it up, and the players — on both processes — are seated again at B
    and play on there.  (A frozen owner's refused writes: ``test_e2e_cluster.py``.)"""

    async def body(a: Hub, b: Hub, store: SqlStore) -> None:
        assert isinstance(a.cluster, Cluster) and isinstance(b.cluster, Cluster)
        ana, rui, _, table_id = await across(a, b)
        start = await next_of(ana, Event)
        while start.kind != "start":
            start = await next_of(ana, Event)
        for task in a.cluster._tasks:  # A freezes: it renews nothing any more …
            task.cancel()
        await asyncio.gather(*a.cluster._tasks, return_exceptions=True)  # (their Redis calls end)
        old = a.tables[table_id].table
        await store.renew_leases("A", -1)  # … and its lease runs out
        await b.cluster.scan()  # B takes the table over
        assert table_id in b.tables and await store.table_owner(table_id) == (True, "B")
        [stored] = [t for t in await store.running_tables() if t.table_id == table_id]
        assert stored.fence == old.stored.fence + 1
        # Both players hear of the new owner (a snapshot from B) and play on there.
        for conn in (ana, rui):
            state = await next_of(conn, TableState)
            assert state.table_id == table_id
        assert table_id not in a.tables  # A heard the table moved and gave it up
        assert old.stored.fence < stored.fence
        mover = ana if start.to_move == 0 else rui
        moved = await play_one(a if mover is ana else b, mover, table_id)
        [stored] = [t for t in await store.running_tables() if t.table_id == table_id]
        assert stored.record["actions"] == [moved.action]

    run_cluster(body)


def test_rematch_offer_and_table_limit_work_across_processes() -> None:
    """A rematch asked on the owner reaches the other player on the other process, who
    sits at the new table from there; a player's unfinished tables count on every process."""

    async def body(a: Hub, b: Hub, _store: SqlStore) -> None:
        ana, _ = await hello(a, "Ana")
        rui, welcome = await hello(b, "Rui")
        await said(a, ana, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        old = (await next_of(ana, TableState)).table_id
        await said(b, rui, {"type": "join_table", "table_id": old})
        await next_of(rui, TableState)
        await said(b, rui, {"type": "resign", "table_id": old})
        while (await next_of(ana, Event)).kind != "resign":
            pass
        await said(a, ana, {"type": "rematch", "table_id": old})
        new = (await next_of(ana, TableState)).table_id
        offer = await next_of(rui, Rematch)
        assert (offer.table_id, offer.new_table_id, offer.by) == (old, new, "Ana")
        await said(b, rui, {"type": "rematch", "table_id": old})
        joined = await next_of(rui, TableState)
        assert joined.table_id == new and joined.seat == 1
        # Rui sits at a table A owns; the tables Rui makes on B count with it.
        limit = b.options.max_open_tables
        for _ in range(limit - 1):
            await said(b, rui, {"type": "create_table", "game": "kozyri",
                                "seats": ["human", "human"]})  # fmt: skip
            await next_of(rui, TableState)
        assert await a.store.open_tables(int(welcome.player_id)) == limit
        other, _ = await hello(a, "Rui", welcome.resume_token)  # the same player, on A
        await said(a, other, {"type": "play_computer", "game": "kozyri"})
        while True:
            raw = await other.outbox.get()
            assert raw is not None
            refused = decoded(raw)
            if isinstance(refused, Error):
                break
        assert refused.code == "rate_limited"

    run_cluster(body)


def test_a_process_not_yet_heard_again_after_redis_came_back_keeps_its_players() -> None:
    """Redis restarts empty: A is back first and scans at once, before B has beaten again.
    B's missing heartbeat is no death: Rui, on B, stays seated at A's table (he was told
    ``not_seated`` on his next resync, in CI, when A took it for one)."""

    async def body(a: Hub, b: Hub, store: SqlStore) -> None:
        assert isinstance(a.cluster, Cluster) and isinstance(b.cluster, Cluster)
        _, rui, _, table_id = await across(a, b)
        await a.cluster.bus.redis.delete(b.cluster.bus._alive_key("B"))  # Redis came back empty
        a.cluster._republish()  # A heard it first …
        await a.cluster.scan()  # … and scans before B beat again
        await said(b, rui, {"type": "resync", "table_id": table_id, "last_event": 0})
        while True:
            raw = await rui.outbox.get()
            assert raw is not None
            answer = decoded(raw)
            assert not isinstance(answer, Error), answer
            if isinstance(answer, TableState) and answer.table_id == table_id:
                break

    run_cluster(body)


def test_a_process_taken_for_dead_while_cut_off_sends_its_players_back_to_their_seats() -> None:
    """B alone lost Redis long enough for A to take it for dead: A unseated Rui (B's
    player).  When B is back it learns this and closes Rui's connection, so his client
    reconnects, and with his resume token he is seated again and can go on."""

    async def body(a: Hub, b: Hub, store: SqlStore) -> None:
        assert isinstance(a.cluster, Cluster) and isinstance(b.cluster, Cluster)
        _, rui, welcome, table_id = await across(a, b)
        await a.cluster.bus.redis.delete(b.cluster.bus._alive_key("B"))  # B's beat ran out …
        await a.cluster.scan()  # (one missing beat is no death) …
        assert ("B", rui.id) in a.cluster.bus._remotes  # Rui is still heard of
        a.cluster._silent_since["B"] -= ALIVE_TTL  # … and stays missing for ALIVE_TTL
        await a.cluster.scan()  # A takes B for dead
        b.cluster._republish()  # B is back
        while (await rui.outbox.get()) is not None:  # B closes Rui's connection
            pass
        again, back = await hello(b, "Rui", welcome.resume_token)
        assert back.tables == [table_id]
        state = await next_of(again, TableState)  # seated again (the welcome's join)
        while state.table_id != table_id:
            state = await next_of(again, TableState)
        assert state.seat == 1

    run_cluster(body)


def test_a_quick_match_wait_survives_redis_coming_back_empty() -> None:
    """Ana waits for a quick match on A; Redis restarts empty (her wait was only there).
    When A hears Redis is back it asks again for her, so Rui, asking on B, is paired."""

    async def body(a: Hub, b: Hub, _store: SqlStore) -> None:
        assert isinstance(a.cluster, Cluster)
        ana, _ = await hello(a, "Ana")
        rui, _ = await hello(b, "Rui")
        await said(a, ana, {"type": "quick_match", "game": "kozyri"})
        await next_of(ana, Waiting)
        redis = a.cluster.bus.redis
        async for key in redis.scan_iter(match=a.cluster.bus.prefix + "*"):
            await redis.delete(key)  # Redis came back empty (of this service's keys) …
        for hub in (a, b):  # each process beats again when it is back …
            assert isinstance(hub.cluster, Cluster)
            await hub.cluster.bus._beat_once()
        a.cluster._republish()  # … and A hears it
        await next_of(ana, Waiting)  # her wait is placed again
        await said(b, rui, {"type": "quick_match", "game": "kozyri"})
        mine = await next_of(rui, TableState)
        theirs = await next_of(ana, TableState)
        assert mine.table_id == theirs.table_id and {mine.seat, theirs.seat} == {0, 1}

    run_cluster(body)
