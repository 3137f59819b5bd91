"""The hub without a network: connections are outboxes, the store an SQLite file.

Faster and more exact than the end-to-end tests for the hub's own rules: the table limit,
resuming from the store, write-behind, and what a restart does to clocks and takeovers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from server.hubkit import SECRET, hello, next_of, run_hub, said, to_move
from trumps.server.hub import Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.wire.protocol import (
    Error,
    Event,
    GameOver,
    Hint,
    Rematch,
    TableState,
)
from trumps.store import SqlStore


def run(tmp_path: Path, body: Callable[[Hub, SqlStore], Awaitable[None]]) -> None:
    run_hub(tmp_path / "hub.db", body)


def test_a_player_may_have_ten_unfinished_tables(tmp_path: Path) -> None:
    """Creating tables costs the server: the eleventh unfinished table is refused with
    ``rate_limited`` and creates nothing."""

    async def body(hub: Hub, _store: SqlStore) -> None:
        conn, _ = await hello(hub, "Busy")
        for _ in range(10):
            await said(
                hub, conn, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
            )
            await next_of(conn, TableState)
        await said(
            hub, conn, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
        )
        refused = await conn.outbox.get()
        while isinstance(refused, Event):  # the joins of the tables made before
            refused = await conn.outbox.get()
        assert isinstance(refused, Error) and refused.code == "rate_limited"
        assert len(hub.tables) == 10
        other, _ = await hello(hub, "Other")
        await said(hub, other, {"type": "play_computer", "game": "kozyri"})
        assert isinstance(await next_of(other, TableState), TableState)

    run(tmp_path, body)


def test_write_behind_then_resume_with_clocks_and_takeover(tmp_path: Path) -> None:
    """A running table is stored with its settings (clocks, who is away); a new hub on the
    same store resumes it: the player's seat, clock and view come back, and a seat whose
    player does not return within the grace period is taken over by a bot."""

    kept: dict[str, Any] = {}

    async def first(hub: Hub, store: SqlStore) -> None:
        a, wa = await hello(hub, "A")
        b, wb = await hello(hub, "B")
        await said(
            hub,
            a,
            {
                "type": "create_table",
                "game": "twentyfive",
                "seats": ["human", "human"],
                "time_control": {"base": 600, "increment": 2},
                "grace": 0.2,
            },
        )
        state = await next_of(a, TableState)
        await said(hub, b, {"type": "join_table", "table_id": state.table_id})
        await next_of(b, TableState)
        while True:  # up to the start, in A's messages
            event = await next_of(a, Event)
            if event.kind == "start":
                break
        mover, conn = (a, "a") if event.to_move == 0 else (b, "b")
        last = event
        if conn == "b":  # B's own start event carries B's legal actions
            last = await next_of(b, Event)
            while last.kind != "start":
                last = await next_of(b, Event)
        await said(
            hub,
            mover,
            {
                "type": "action",
                "table_id": state.table_id,
                "action": last.legal[0],
                "expected": last.number,
            },
        )
        moved = await next_of(mover, Event)
        assert moved.kind == "action"
        # Stored before the event was sent (group commit): no flush to wait for.
        running = {t.table_id: t for t in await store.running_tables()}[state.table_id]
        assert running.record["actions"] == [last.legal[0]]
        assert running.meta is not None and running.meta["time_control"]["base"] == 600
        assert running.meta["clocks"][moved.seat] >= 600  # the increment was added
        kept.update(
            table=state.table_id, a=wa.resume_token, b=wb.resume_token, view_a=None, moved=moved
        )

    run(tmp_path, first)

    async def second(hub: Hub, _store: SqlStore) -> None:
        assert kept["table"] in hub.tables  # resumed on start
        a, welcome = await hello(hub, "A", kept["a"])
        assert welcome.tables == [kept["table"]]
        snap = await next_of(a, TableState)
        assert snap.seat == 0 and snap.clocks is not None and snap.time_control is not None
        assert snap.clocks[kept["moved"].seat] >= 600
        # B never comes back: after the grace period a bot plays seat 1.
        took = await next_of(a, Event)
        while took.kind != "takeover":
            took = await next_of(a, Event)
        assert took.seat == 1
        await said(hub, a, {"type": "resync", "table_id": kept["table"], "last_event": 0})
        assert (await next_of(a, TableState)).seats[1].away is True

    run(tmp_path, second)


def test_hints_only_against_the_computer_and_only_on_your_turn(tmp_path: Path) -> None:
    """A hint is the strongest bot's move from the player's own view, at event numbered."""

    async def body(hub: Hub, _store: SqlStore) -> None:
        me, _ = await hello(hub, "Me")
        await said(hub, me, {"type": "play_computer", "game": "kozyri", "level": "random"})
        table_id = (await next_of(me, TableState)).table_id
        mine = await to_move(me, table_id)
        number = mine.number if isinstance(mine, Event) else mine.event
        await said(hub, me, {"type": "hint", "table_id": table_id})
        hint = await next_of(me, Hint)
        assert hint.action in mine.legal and hint.reasoning and hint.event == number
        # The reason for people is structured (docs/protocol.md#hint): the duel solver, or
        # the trump choice (K3) before the deal.
        assert hint.why is not None
        assert hint.why.code in (
            "neutral_trump",
            "only_move",
            "solved_win",
            "solved_loss",
            "solved_draw",
            "searched",
        )

        a, _ = await hello(hub, "A")
        b, _ = await hello(hub, "B")
        await said(hub, a, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        people = (await next_of(a, TableState)).table_id
        await said(hub, b, {"type": "join_table", "table_id": people})
        await said(hub, a, {"type": "hint", "table_id": people})
        refused = await a.outbox.get()
        while not isinstance(refused, Error):
            refused = await a.outbox.get()
        assert refused.code == "not_allowed"

    run(tmp_path, body)


def test_rematch_makes_the_same_table_again_and_tells_the_other_player(tmp_path: Path) -> None:
    async def body(hub: Hub, _store: SqlStore) -> None:
        a, _ = await hello(hub, "A")
        b, _ = await hello(hub, "B")
        create = {
            "type": "create_table",
            "game": "twentyfive",
            "seats": ["human", "human", "easy"],
            "time_control": {"base": 120, "increment": 1},
            "on_timeout": "forfeit",
        }
        await said(hub, a, create)
        old = await next_of(a, TableState)
        await said(hub, a, {"type": "rematch", "table_id": old.table_id})
        refused = await a.outbox.get()
        while not isinstance(refused, Error):
            refused = await a.outbox.get()
        assert refused.code == "not_allowed"  # not before the end
        await said(hub, b, {"type": "join_table", "table_id": old.table_id})
        await next_of(b, TableState)
        await said(hub, b, {"type": "resign", "table_id": old.table_id})
        await next_of(a, GameOver)
        await said(hub, a, {"type": "rematch", "table_id": old.table_id})
        new = await next_of(a, TableState)
        assert new.table_id != old.table_id and new.seat == 0
        assert [s.bot for s in new.seats] == [None, None, "easy"]
        assert new.time_control == old.time_control and new.rules == old.rules
        offer = await next_of(b, Rematch)
        assert (offer.table_id, offer.new_table_id, offer.by) == (old.table_id, new.table_id, "A")
        await said(hub, b, {"type": "rematch", "table_id": old.table_id})  # b asks too: joins
        joined = await next_of(b, TableState)
        assert joined.table_id == new.table_id and joined.seat == 1
        started = await next_of(a, Event)
        while started.kind != "start":
            started = await next_of(a, Event)

    run(tmp_path, body)


def test_a_ten_seat_twentyfive_table_of_bots_plays_to_the_end(tmp_path: Path) -> None:
    """The largest table there is (Twenty-Five for 10) is created and played by bots."""

    async def body(hub: Hub, _store: SqlStore) -> None:
        me, _ = await hello(hub, "Watcher")
        seats = ["random"] * 10
        await said(hub, me, {"type": "create_table", "game": "twentyfive", "seats": seats})
        state = await next_of(me, TableState)
        assert state.seat is None and len(state.seats) == 10 and len(state.view["hands"]) == 10
        over = await next_of(me, GameOver)
        assert over.table_id == state.table_id and over.record_id is not None

    run(tmp_path, body)


def test_a_seat_the_table_does_not_have_is_a_bad_field(tmp_path: Path) -> None:
    """``join_table`` at a four-seat table: seat 8 (a number the protocol allows, as some
    table may have it) is not a seat of this table: ``bad_field``, naming the seats it has;
    a bot's seat is ``table_full``; an open seat seats the player."""

    async def body(hub: Hub, _store: SqlStore) -> None:
        host, _ = await hello(hub, "Host")
        seats = ["human", "human", "medium", "medium"]
        await said(hub, host, {"type": "create_table", "game": "twentyfive", "seats": seats})
        table_id = (await next_of(host, TableState)).table_id
        guest, _ = await hello(hub, "Guest")
        for seat, code, words in ((8, "bad_field", "seats 0–3"), (2, "table_full", "seat 2")):
            await said(hub, guest, {"type": "join_table", "table_id": table_id, "seat": seat})
            refused = await next_of(guest, Error)
            assert (refused.code, refused.table_id) == (code, table_id), refused
            assert words in refused.message, refused.message
        assert hub.tables[table_id].table.seat_of_owner(guest.player) is None  # nothing changed
        await said(hub, guest, {"type": "join_table", "table_id": table_id, "seat": 1})
        assert (await next_of(guest, TableState)).seat == 1

    run_hub(tmp_path / "seats.db", body)


class SlowTouch(SqlStore):
    """A store whose note of a session's last use takes a while (a busy database)."""

    touched: list[int]

    async def touch_session(self, session_id: int, when: float) -> None:
        await asyncio.sleep(0.2)
        await super().touch_session(session_id, when)
        SlowTouch.touched.append(session_id)


def test_a_stopped_hub_leaves_no_store_write_running(tmp_path: Path) -> None:
    """``Hub.stop`` waits for the writes it started in the background (here a session's
    last use) before it returns: none is cut off, and none is left running against a store
    about to close (its database thread would answer an event loop that is gone)."""
    SlowTouch.touched = []

    async def main() -> None:
        store = SlowTouch(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}")
        await store.create()
        sessions = Sessions(store, SECRET, touch_every=0.0)
        hub = Hub(store, sessions, HubOptions(bot_time=0.01, seed=1))
        await hub.start()
        try:
            player = await store.add_player("Ana", "x", login="ana")
            token, _ = await sessions.open(player)
            conn, _ = await hello(hub, "Ana", token)
            await said(hub, conn, {"type": "list_tables"})  # a message: its use is noted
        finally:
            await hub.stop()
        left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        assert left == [] and len(SlowTouch.touched) >= 1
        await store.close()

    asyncio.run(main())
