"""A service of two ``trumps serve`` processes (PostgreSQL + Redis) under faults, end to end.

Two processes A and B share a fresh PostgreSQL database and a Redis server of the test's
own.  Two people play one table — one connected to each process — while the owner is
frozen past its lease (SIGSTOP), killed (SIGKILL), or while Redis is stopped and started
again.  Afterwards every event anyone saw must match the stored game: a number never
changes its content, and the moves seen are the stored moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from server.clusterkit import RULES, Seat, consistent, event_number, play, started
from server.e2e import Client, Msg, RedisProc, ServerProc, connected, postgres_database, run
from server.redis_env import need_redis_server
from store.postgres import need_postgres
from trumps.store import SqlStore


class Service:
    def __init__(self, db: str, workdir: Path, redis: RedisProc) -> None:
        self.db, self.redis = db, redis
        self.procs = {
            node: ServerProc(
                db, workdir, seed=None, extra=("--redis", redis.url, "--node-id", node)
            )
            for node in ("A", "B")
        }

    async def owner(self, table_id: str) -> str | None:
        store = SqlStore(self.db)
        try:
            return (await store.table_owner(table_id))[1]
        finally:
            await store.close()

    async def stored(self, table_id: str) -> dict[str, Any]:
        store = SqlStore(self.db)
        try:
            running = [t for t in await store.running_tables() if t.table_id == table_id]
            if running:
                return running[0].record
            for summary in await store.finished_games():
                if summary.table_id == table_id:
                    return await store.get_game(summary.id)
            raise AssertionError(f"table {table_id} is not stored")
        finally:
            await store.close()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    need_postgres()
    need_redis_server()
    redis = RedisProc(tmp_path).start()
    try:
        with postgres_database() as db:
            svc = Service(db, tmp_path, redis)
            try:
                for proc in svc.procs.values():
                    proc.start()
                yield svc
            finally:
                for proc in svc.procs.values():
                    proc.stop()
    finally:
        redis.stop()


def test_a_frozen_owner_loses_its_table_and_cannot_write_to_it(service: Service) -> None:
    """A is frozen (SIGSTOP) past its lease: B takes the table over, both people play on at
    B; a move sent to the frozen A meanwhile changes nothing once A wakes up.

    The frozen move is not the one Ana makes again at B (the last legal move there, the
    first one here), so a move A stored or told after all would show: in the record at that
    ply, or as an event anyone received.  The clocks B shows are those before the freeze."""

    async def main() -> None:
        a, b = service.procs["A"], service.procs["B"]
        ana, rui = await _table_across(service, "A", clock=True)
        table_id = ana.table_id
        await play([ana, rui], 4)
        for _ in range(20):  # on to a position where Ana has a choice
            if len(ana.latest()["legal"]) > 1:
                break
            await play([ana, rui], 1)
        state = ana.latest()
        assert len(state["legal"]) > 1, "Ana never had a choice of moves"
        assert await service.owner(table_id) == "A"
        ply = len((await service.stored(table_id))["actions"])
        frozen_move, number = state["legal"][-1], event_number(state) + 1

        a.pause()
        frozen = time.monotonic()
        await ana.now.act(table_id, frozen_move, event_number(state))  # waits in A's socket
        # B takes over and seats Rui again: a snapshot from the new owner.
        taken = await rui.now.until(
            lambda m: m["type"] == "table_state" and m["table_id"] == table_id
        )
        took = time.monotonic() - frozen
        assert await service.owner(table_id) == "B"
        assert taken["event"] == number - 1, "the frozen move reached the new owner"
        assert _clocks_kept(state["clocks"], taken["clocks"]), (state, taken["clocks"])
        old = ana.now
        again = await ana.move_to(b)
        assert again["legal"] == state["legal"]
        await play([ana, rui], 4)  # Ana plays legal[0] where she had sent legal[-1]
        a.resume()  # A wakes up: its lease is gone, its writes are fenced
        await play([ana, rui], 4)
        await _drain(old)  # everything A sent the old connection, read
        ana.clients.insert(0, old)  # what the frozen owner said counts too
        record = await service.stored(table_id)
        assert record["actions"][ply] == state["legal"][0] != frozen_move
        for seat in (ana, rui):
            for client in seat.clients:
                told = [
                    e
                    for m in client.received
                    if m.get("table_id") == table_id
                    for e in (m["log"] if m["type"] == "table_state" else [m])
                    if m["type"] in ("event", "table_state") and e["number"] == number
                ]
                assert all(e["action"] != frozen_move for e in told), (seat.name, told)
        consistent([ana, rui], record)
        assert took < 10, f"the takeover took {took:.1f} s"

    run(main)


async def _drain(client: Client) -> None:
    """Read all that was sent to ``client`` so far: up to the answer to a ping sent now (or
    to the end, if the server closed the connection)."""
    with contextlib.suppress(websockets.ConnectionClosed):
        await client.send({"type": "ping", "nonce": 10})
        await client.until(lambda m: m["type"] == "pong" and m.get("nonce") == 10)


def _clocks_kept(before: list[float | None], after: list[float | None]) -> bool:
    """Each clock stands where it stood (within half a second)."""
    return all(
        (x is None and y is None) or (x is not None and y is not None and abs(x - y) < 0.5)
        for x, y in zip(before, after, strict=True)
    )


def test_the_owner_killed_the_time_without_an_owner_is_charged_to_nobody(
    service: Service,
) -> None:
    """A timed table's owner B is killed (SIGKILL): the table has no owner until its lease
    runs out and A takes it over, seconds later.  The clocks A shows (to the person on A at
    once, to the person from B once back) are those of the last event before the kill: the
    time nobody could move is not charged to the person whose turn it was."""

    async def main() -> None:
        a, b = service.procs["A"], service.procs["B"]
        ana, rui = await _table_across(service, "B", clock=True)
        table_id = ana.table_id
        await play([ana, rui], 3)
        last = ana.latest()
        assert last["type"] == "event" and rui.latest()["number"] == last["number"]
        clocks = last["clocks"]
        assert clocks is not None and all(c is not None for c in clocks), clocks
        b.kill9()
        killed = time.monotonic()
        state = await ana.now.until(
            lambda m: m["type"] == "table_state" and m["table_id"] == table_id
        )
        ownerless = time.monotonic() - killed
        assert await service.owner(table_id) == "A"
        assert state["event"] == last["number"], (state["event"], last["number"])
        assert _clocks_kept(clocks, state["clocks"]), (ownerless, clocks, state["clocks"])
        back = await rui.move_to(a)
        assert _clocks_kept(clocks, back["clocks"]), (ownerless, clocks, back["clocks"])
        # The test means something only if charging the gap would show.
        assert ownerless > 1.0, f"the table had no owner for {ownerless:.1f} s only"
        await play([ana, rui], 3)
        consistent([ana, rui], await service.stored(table_id))

    run(main)


def test_the_owner_killed_its_tables_move_and_play_on(service: Service) -> None:
    """B owns the table and is killed (SIGKILL): A takes the table over from the store, the
    person who was on B reconnects to A, and the game is played to its end."""

    async def main() -> None:
        a, b = service.procs["A"], service.procs["B"]
        ana, rui = await _table_across(service, "B")
        table_id = ana.table_id
        await play([ana, rui], 5)
        b.kill9()
        killed = time.monotonic()
        await ana.now.until(lambda m: m["type"] == "table_state" and m["table_id"] == table_id)
        took = time.monotonic() - killed
        await rui.move_to(a)
        await play([ana, rui], 200)
        if not ana.over():
            await ana.now.until(lambda m: m["type"] == "game_over")
        record = await service.stored(table_id)
        assert record["outcome"] is not None
        consistent([ana, rui], record)
        assert took < 10, f"the takeover took {took:.1f} s"

    run(main)


async def _table_across(service: Service, owner: str, clock: bool = False) -> tuple[Seat, Seat]:
    """Ana on A and Rui on B at a started table made on ``owner``'s process."""
    a, b = service.procs["A"], service.procs["B"]
    ana = Seat(await connected(a.ws, "Ana"), "Ana")
    rui = Seat(await connected(b.ws, "Rui"), "Rui")
    maker, joiner = (ana, rui) if owner == "A" else (rui, ana)
    create: Msg = {"type": "create_table", "game": "kozyri", "rules": RULES,
                   "seats": ["human", "human"], "grace": 600}  # fmt: skip
    if clock:
        create["time_control"] = {"base": 300, "increment": 0}
    await maker.now.send(create)
    state = await maker.now.expect("table_state")
    ana.table_id = rui.table_id = state["table_id"]
    await joiner.now.send({"type": "join_table", "table_id": ana.table_id})
    for seat in (ana, rui):  # (a snapshot after the start: the table moved, under load)
        await seat.now.until(started)
    return ana, rui


async def _ready(proc: ServerProc, want: bool) -> None:
    """Wait until ``/readyz`` says ``want`` (it follows Redis and the store)."""
    deadline = time.monotonic() + 20
    while (await asyncio.to_thread(proc.get, "/readyz")).status_code != (200 if want else 503):
        assert time.monotonic() < deadline, f"/readyz never became {want}"
        await asyncio.sleep(0.1)


def test_redis_stopped_refuses_requests_and_the_service_resumes_by_itself(
    service: Service,
) -> None:
    """Redis stops: requests get ``unavailable`` and the table keeps its last stored state;
    Redis starts again (empty): the same connections carry on, lobby rows come back."""

    async def main() -> None:
        ana, rui = await _table_across(service, "A")
        await play([ana, rui], 3)
        before = await service.stored(ana.table_id)
        service.redis.stop()
        await _ready(service.procs["B"], False)
        state = rui.latest()
        await rui.now.send({"type": "resync", "table_id": rui.table_id, "last_event": 0})
        refused = await rui.now.until(lambda m: m["type"] == "error")
        assert refused["code"] == "unavailable", refused
        if state["legal"]:
            await rui.now.act(rui.table_id, state["legal"][0], event_number(state))
            refused = await rui.now.until(lambda m: m["type"] == "error")
            assert refused["code"] == "unavailable", refused
        assert (await service.stored(ana.table_id))["actions"] == before["actions"]
        service.redis.start()
        for proc in service.procs.values():
            await _ready(proc, True)
        for seat in (ana, rui):  # both resync and play on, across the processes again
            await seat.now.send({"type": "resync", "table_id": seat.table_id, "last_event": 0})
            await seat.now.until(lambda m: m["type"] == "table_state")
        await play([ana, rui], 4)
        consistent([ana, rui], await service.stored(ana.table_id))
        # The lobby rows of both processes are published again in the emptied Redis.
        await ana.now.send({"type": "create_table", "game": "twentyfive",
                            "seats": ["human", "human", "easy"]})  # fmt: skip
        made = await ana.now.until(lambda m: m["type"] == "table_state")
        await rui.now.send({"type": "list_tables"})
        listed = await rui.now.until(
            lambda m: (
                m["type"] == "table_list"
                and made["table_id"] in [t["table_id"] for t in m["tables"]]
            )
        )
        assert listed

    run(main)


def test_a_clean_stop_hands_the_tables_over_at_once_and_freezes_no_clock(
    service: Service,
) -> None:
    """A stops (SIGTERM): it stores its tables and gives up their leases, so B takes them
    over at once rather than when the lease would run out; the clock of the person to
    move comes back with the time it had, not charged for the handover."""

    async def main() -> None:
        ana, rui = await _table_across(service, "A", clock=True)
        await play([ana, rui], 3)
        clocks = rui.latest()["clocks"]
        stopped = time.monotonic()
        await asyncio.to_thread(service.procs["A"].stop)
        state = await rui.now.until(
            lambda m: m["type"] == "table_state" and m["table_id"] == rui.table_id
        )
        took = time.monotonic() - stopped
        assert await service.owner(rui.table_id) == "B"
        # The handover is not charged: each clock is where it stood (within a second).
        assert all(abs(x - y) < 1.0 for x, y in zip(state["clocks"], clocks, strict=True)), (
            clocks,
            state["clocks"],
        )
        await ana.move_to(service.procs["B"])
        await play([ana, rui], 3)
        consistent([ana, rui], await service.stored(ana.table_id))
        assert took < 3.0, f"the handover took {took:.1f} s: as long as a lease"

    run(main)


def test_a_player_whose_process_dies_is_shown_gone_at_a_table_elsewhere(
    service: Service,
) -> None:
    """Rui is connected to B, the table is owned by A: B is killed, and A — hearing B's
    heartbeat stop — marks Rui's seat as left (the grace period starts), as for a lost
    connection on A itself; Rui comes back through A and has the seat again."""

    async def main() -> None:
        ana, rui = await _table_across(service, "A")
        await play([ana, rui], 2)
        rui_seat = rui.latest()["seat"] if rui.latest()["type"] == "table_state" else None
        service.procs["B"].kill9()
        left = await ana.now.until(lambda m: m["type"] == "event" and m["kind"] == "disconnect")
        assert rui_seat is None or left["seat"] == rui_seat
        await rui.move_to(service.procs["A"])
        back = await ana.now.until(lambda m: m["type"] == "event" and m["kind"] == "return")
        assert back["seat"] == left["seat"]
        await play([ana, rui], 2)
        consistent([ana, rui], await service.stored(ana.table_id))

    run(main)
