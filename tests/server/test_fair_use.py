"""Fair use of a hub (issue 17 §1): one hint in flight per seat, hint budgets per player
and per address, table caps per address, idle tables ended (bots only, or started tables
whose people all left or stayed away).  The hub runs without a network; a slow fake bot
holds a hint while the test asks again."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from server.hubkit import create, decoded, hint, my_turn, next_of, said
from trumps.ai.base import Decision
from trumps.games import new_game
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.limits.quota import FairUse
from trumps.server.matchmaking.lobby import LOBBY_PAGE
from trumps.server.tables.botplay import BOTS_IDLE_END, HINT_LEVEL, UNSTARTED_END
from trumps.server.tables.bots import BotRequest, BotRunner, Kind
from trumps.server.tables.timing import ManualTime
from trumps.server.wire.protocol import (
    Error,
    Event,
    Hint,
    TableClosed,
    TableList,
    TableState,
    Welcome,
)
from trumps.store import SqlStore

SECRET = "fair-test-secret-0123456789"


class HeldHints:
    """Bots move at once; a hint thinks until ``release`` is set."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, request: BotRequest) -> Decision:
        if request.level == HINT_LEVEL:
            assert self.release.wait(30), "never released"
        return Decision(request.legal[0], "held")


def run(
    tmp_path: Path,
    body: Callable[[Hub], Awaitable[None]],
    *,
    think: Callable[[BotRequest], Decision] | None = None,
    runner: BotRunner | None = None,
    **options: Any,
) -> None:
    async def main() -> None:
        store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}")
        await store.create()
        bots = BotRunner(0, think=think) if think is not None else runner
        settings = HubOptions(bot_time=0.01, seed=1, **options)
        hub = Hub(store, Sessions(store, SECRET), settings, runner=bots)
        await hub.start()
        try:
            await asyncio.wait_for(body(hub), 60)
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())


async def guest(hub: Hub, name: str, address: str = "198.51.100.7") -> Connection:
    conn = hub.connect(address)
    await said(hub, conn, {"type": "hello", "protocol": 1, "name": name})
    await next_of(conn, Welcome)
    return conn


async def refusal(conn: Connection) -> Error:
    """The next error (other messages before it are skipped)."""
    while True:
        raw = await conn.outbox.get()
        assert raw is not None, "the connection was closed"
        msg = decoded(raw)
        if isinstance(msg, Error):
            return msg


def test_a_second_hint_while_one_is_thought_is_refused(tmp_path: Path) -> None:
    held = HeldHints()

    async def body(hub: Hub) -> None:
        me = await guest(hub, "Me")
        table_id = await my_turn(hub, me)
        await said(hub, me, {"type": "hint", "table_id": table_id})
        second = await hint(hub, me, table_id)
        assert isinstance(second, Error) and second.code == "hint_pending", second
        assert second.table_id == table_id
        held.release.set()
        first = await next_of(me, Hint)
        assert first.table_id == table_id
        third = await hint(hub, me, table_id)  # the first one answered: another may come
        assert isinstance(third, Hint)

    run(tmp_path, body, think=held)


def test_hints_have_a_budget_per_player_and_per_address(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        ana = await guest(hub, "Ana")
        table_id = await my_turn(hub, ana)
        for _ in range(3):
            assert isinstance(await hint(hub, ana, table_id), Hint)
        refused = await hint(hub, ana, table_id)
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "3 hints" in refused.message
        # A fresh guest from the same address gets what is left of the address's five.
        bea = await guest(hub, "Bea")
        other = await my_turn(hub, bea)
        assert isinstance(await hint(hub, bea, other), Hint)
        assert isinstance(await hint(hub, bea, other), Hint)
        refused = await hint(hub, bea, other)
        assert isinstance(refused, Error) and refused.code == "rate_limited"
        assert "your address" in refused.message
        # Another address is not charged for them.
        cid = await guest(hub, "Cid", address="203.0.113.9")
        assert isinstance(await hint(hub, cid, await my_turn(hub, cid)), Hint)

    run(tmp_path, body, fair=FairUse(hints_per_player=3, hints_per_address=5))


def test_an_address_has_a_cap_of_unfinished_tables_whatever_guests_it_uses(
    tmp_path: Path,
) -> None:
    async def body(hub: Hub) -> None:
        guests = [await guest(hub, f"G{i}") for i in range(3)]
        made = [await create(hub, guests[i % 3]) for i in range(4)]
        assert all(isinstance(m, TableState) for m in made), made
        refused = await create(hub, await guest(hub, "G4"))  # a fresh identity: no matter
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "4 unfinished tables" in refused.message
        assert len(hub.tables) == 4
        elsewhere = await guest(hub, "Far", address="203.0.113.9")
        assert isinstance(await create(hub, elsewhere), TableState)
        # A table given up before its start no longer counts.
        first = made[0]
        assert isinstance(first, TableState)
        await said(hub, guests[0], {"type": "leave_table", "table_id": first.table_id})
        await hub.tables[first.table_id].table.settled()
        assert first.table_id not in hub.tables
        await hub._background.idle()
        assert isinstance(await create(hub, guests[1]), TableState)

    run(tmp_path, body, fair=FairUse(tables_per_address=4, creations_per_address=100))


def test_an_address_may_create_only_so_many_tables_a_minute(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        for i in range(3):
            conn = await guest(hub, f"G{i}")
            made = await create(hub, conn)
            assert isinstance(made, TableState)
            await said(hub, conn, {"type": "leave_table", "table_id": made.table_id})
        refused = await create(hub, await guest(hub, "G3"))
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "3 tables this minute" in refused.message

    run(tmp_path, body, fair=FairUse(tables_per_address=100, creations_per_address=3))


class GatedBots:
    """Each bot move waits for one ``let(n)`` permit (none while ``opened`` is set)."""

    def __init__(self) -> None:
        self.permits = threading.Semaphore(0)
        self.opened = threading.Event()

    def let(self, moves: int) -> None:
        self.permits.release(moves)

    def __call__(self, request: BotRequest) -> Decision:
        if not self.opened.is_set():
            assert self.permits.acquire(timeout=30), "never let"
        return Decision(request.legal[0], "gated")


class AskedRunner(BotRunner):
    """A runner (threads) that notes what each bot move was asked for: its table and kind."""

    def __init__(self, think: Callable[[BotRequest], Decision]) -> None:
        super().__init__(0, think=think)
        self.asked: list[tuple[str, Kind]] = []

    def submit(
        self, request: BotRequest, *, table: str = "", kind: Kind = "people"
    ) -> asyncio.Future[Decision]:
        self.asked.append((table, kind))
        return super().submit(request, table=table, kind=kind)


async def closed(conn: Connection) -> TableClosed:
    return await next_of(conn, TableClosed)  # type: ignore[no-any-return]


def test_a_table_of_bots_nobody_watches_stops_and_is_given_up(tmp_path: Path) -> None:
    time = ManualTime()
    gate = GatedBots()

    async def body(hub: Hub) -> None:
        try:
            await unwatched(hub)
        finally:
            gate.let(1000)  # no bot thread left waiting

    async def unwatched(hub: Hub) -> None:
        me = await guest(hub, "Me")
        await said(hub, me, {"type": "create_table", "game": "kozyri", "seats": ["easy", "easy"]})
        table_id = (await next_of(me, TableState)).table_id
        table = hub.tables[table_id].table
        assert [s.table_id for s in hub.lobby.summaries()] == [table_id]
        await said(hub, me, {"type": "leave_table", "table_id": table_id})
        gate.let(1)  # the move being thought is dropped; no other is asked for
        await table.settled()
        assert len(table.game.history) == 0
        time.advance(BOTS_IDLE_END - 1)
        await table.settled()
        assert len(table.game.history) == 0 and table_id in hub.tables
        # Somebody watches: the bots go on, and the end is off.
        watcher = await guest(hub, "Watcher", address="203.0.113.9")
        await said(hub, watcher, {"type": "spectate", "table_id": table_id})
        await next_of(watcher, TableState)
        gate.let(1)
        while (await next_of(watcher, Event)).kind != "action":
            pass
        assert len(table.game.history) == 1
        await said(hub, watcher, {"type": "leave_table", "table_id": table_id})
        gate.let(1)
        await table.settled()
        assert len(table.game.history) == 1 and not table.over
        time.advance(BOTS_IDLE_END - 1)  # counted from the last watcher's leaving
        await table.settled()
        assert table_id in hub.tables
        time.advance(1)
        await table.settled()
        told = await closed(me)  # its creator is told, though no longer at the table
        assert (told.table_id, told.reason) == (table_id, "idle")
        assert table_id not in hub.tables and hub.lobby.summaries() == []
        await said(hub, me, {"type": "spectate", "table_id": table_id})
        assert (await refusal(me)).code == "no_such_table"

    run(tmp_path, body, think=gate, time=time)


async def my_move(hub: Hub, conn: Connection, table_id: str) -> None:
    """``conn``'s seat plays its first legal action (it is its turn)."""
    table = hub.tables[table_id].table
    legal = table.game.legal_actions()
    move = {"type": "action", "table_id": table_id, "action": legal[0], "expected": table.number}
    await said(hub, conn, move)


def test_a_table_whose_person_left_is_played_like_bots_only(tmp_path: Path) -> None:
    """play_computer at expert, then leave_table: the takeover bot plays the seat, but
    nobody is at the table, so it is scheduled, paused and given up as bots only."""
    time = ManualTime()
    gate = GatedBots()
    runner = AskedRunner(gate)

    async def body(hub: Hub) -> None:
        try:
            await left(hub)
        finally:
            gate.opened.set()  # no bot thread left waiting
            gate.let(1000)

    async def left(hub: Hub) -> None:
        me = await guest(hub, "Me")
        gate.opened.set()  # the bot answers at once until the person is gone
        await said(hub, me, {"type": "play_computer", "game": "kozyri", "level": "expert"})
        table_id = (await next_of(me, TableState)).table_id
        table = hub.tables[table_id].table
        await table.settled()
        assert table.started and table.game.current_player == 0  # my turn
        await my_move(hub, me, table_id)
        await table.settled()
        assert runner.asked and set(runner.asked) == {(table_id, "people")}
        before, moves = len(runner.asked), len(table.game.history)
        await said(hub, me, {"type": "leave_table", "table_id": table_id})
        await table.settled()
        # Nobody sits or watches: the takeover bot is not even asked.
        assert runner.asked[before:] == [], "an unwatched takeover table kept playing"
        assert len(table.game.history) == moves and not table.over
        gate.opened.clear()
        time.advance(BOTS_IDLE_END - 1)
        await table.settled()
        assert table_id in hub.tables and runner.asked[before:] == []
        # Somebody watches: it plays on, its moves after everyone's, and the end is off.
        watcher = await guest(hub, "Watcher", address="203.0.113.9")
        await said(hub, watcher, {"type": "spectate", "table_id": table_id})
        await next_of(watcher, TableState)
        gate.let(1)
        while (await next_of(watcher, Event)).kind != "action":
            pass
        assert len(table.game.history) == moves + 1
        assert runner.asked[before:] and set(runner.asked[before:]) == {(table_id, "bots")}
        await said(hub, watcher, {"type": "leave_table", "table_id": table_id})
        gate.let(1)  # the move being thought is dropped
        await table.settled()
        assert len(table.game.history) == moves + 1 and not table.over
        time.advance(BOTS_IDLE_END - 1)  # counted from the last watcher's leaving
        await table.settled()
        assert table_id in hub.tables
        time.advance(1)
        await table.settled()
        told = await closed(me)  # its creator is told, though no longer at the table
        assert (told.table_id, told.reason) == (table_id, "idle")
        assert table_id not in hub.tables and hub.lobby.summaries() == []
        await hub._background.idle()
        assert await hub.store.running_tables() == []  # given up like bots only: no row left

    run(tmp_path, body, runner=runner, time=time)


def test_a_person_away_for_a_moment_keeps_the_table_playing_at_people_priority(
    tmp_path: Path,
) -> None:
    """Within the grace period a person is expected back: nothing pauses and the bot keeps
    the people's priority.  After it, the takeover table waits like bots only, until the
    person comes back: then at the people's priority again, and never given up."""
    time = ManualTime()
    gate = GatedBots()
    runner = AskedRunner(gate)

    async def body(hub: Hub) -> None:
        try:
            await away(hub)
        finally:
            gate.opened.set()  # no bot thread left waiting
            gate.let(1000)

    async def away(hub: Hub) -> None:
        me = hub.connect("198.51.100.7")
        await said(hub, me, {"type": "hello", "protocol": 1, "name": "Me"})
        token = (await next_of(me, Welcome)).resume_token
        await said(hub, me, {"type": "play_computer", "game": "kozyri", "level": "expert"})
        table_id = (await next_of(me, TableState)).table_id
        table = hub.tables[table_id].table
        grace = table.config.grace

        async def answered() -> None:
            """The bot plays (at once) until it is my turn."""
            gate.opened.set()
            gate.let(1)  # the one already waiting
            await table.settled()
            gate.opened.clear()
            while gate.permits.acquire(blocking=False):  # none left over for later
                pass
            assert table.game.current_player == 0 and not table.over

        async def to_the_bot(conn: Connection) -> int:
            """I play until the bot is to move (it thinks, held): the moves so far."""
            for _ in range(30):
                await my_move(hub, conn, table_id)
                await table.commands.join()
                if table.game.current_player != 0:
                    return len(table.game.history)
            raise AssertionError("never the bot's turn")

        async def back() -> Connection:
            conn = hub.connect("198.51.100.7")
            await said(hub, conn, {"type": "hello", "protocol": 1, "name": "Me",
                                   "resume_token": token})  # fmt: skip
            assert table_id in (await next_of(conn, Welcome)).tables
            assert (await next_of(conn, TableState)).table_id == table_id
            await table.commands.join()
            return conn

        await answered()
        # A dropped connection while the bot thinks: its move comes all the same.
        moves = await to_the_bot(me)
        hub.disconnect(me)
        await answered()
        assert len(table.game.history) > moves, "the bot did not answer"
        assert not table.seats[0].away
        time.advance(grace - 1)
        await table.settled()
        assert not table.seats[0].away and table_id in hub.tables
        me = await back()
        moves = await to_the_bot(me)
        await answered()
        assert len(table.game.history) > moves
        assert set(runner.asked) == {(table_id, "people")}, "a person's table lost its place"
        time.advance(2 * BOTS_IDLE_END)  # no idle end for a table a person sits at
        await table.settled()
        assert table_id in hub.tables
        # Away past the grace period: the takeover bot would play to nobody; it waits.
        asked, moves = len(runner.asked), len(table.game.history)
        hub.disconnect(me)
        await table.settled()
        gate.opened.set()
        time.advance(grace)
        await table.settled()
        gate.opened.clear()
        assert table.seats[0].away
        assert runner.asked[asked:] == [], "an unwatched takeover table kept playing"
        assert len(table.game.history) == moves
        time.advance(BOTS_IDLE_END - 1)
        await table.settled()
        assert table_id in hub.tables
        me = await back()  # back in time: the person's seat, the people's priority
        assert not table.seats[0].away
        moves = await to_the_bot(me)
        await answered()
        assert len(table.game.history) > moves
        assert runner.asked[asked:] and set(runner.asked[asked:]) == {(table_id, "people")}
        time.advance(2 * BOTS_IDLE_END)
        await table.settled()
        assert table_id in hub.tables and not table.over

    run(tmp_path, body, runner=runner, time=time)


def test_a_waiting_bot_move_follows_its_table_when_people_come_or_go() -> None:
    """A move queued as bots only goes before the hints once its person is back (and the
    other way round), as ``BotPlay`` asks through ``requeue`` at a return or a leave."""

    async def main() -> None:
        started: list[int] = []
        let = threading.Event()

        def think(request: BotRequest) -> Decision:
            if request.seed == 0:
                assert let.wait(30), "never let"  # holds the only slot
            started.append(request.seed)
            return Decision(request.legal[0], "queued")

        def ask(seed: int, table: str, kind: Kind) -> asyncio.Future[Decision]:
            view = new_game("kozyri", seed=0).view(0)  # carried, never read by ``think``
            return runner.submit(
                BotRequest("expert", "kozyri", view, ["a"], None, seed), table=table, kind=kind
            )

        runner = BotRunner(0, slots=1, think=think)
        try:
            asked = [
                ask(0, "t-busy", "people"),
                ask(1, "t-hints", "hint"),
                ask(2, "t-back", "bots"),
                ask(3, "t-gone", "people"),
            ]
            runner.requeue("t-back", "people")  # its person came back
            runner.requeue("t-gone", "bots")  # its person left
            runner.requeue("t-none", "people")  # nothing queued: nothing happens
            let.set()
            await asyncio.gather(*asked)
            assert started == [0, 2, 1, 3]
        finally:
            let.set()
            runner.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_table_that_never_starts_is_given_up_after_half_an_hour(tmp_path: Path) -> None:
    time = ManualTime()

    async def body(hub: Hub) -> None:
        me = await guest(hub, "Me")
        made = await create(hub, me)
        assert isinstance(made, TableState)
        table = hub.tables[made.table_id].table
        watcher = await guest(hub, "Watcher")
        await said(hub, watcher, {"type": "spectate", "table_id": made.table_id})
        await next_of(watcher, TableState)
        time.advance(UNSTARTED_END - 1)
        await table.settled()
        assert made.table_id in hub.tables
        time.advance(1)
        await table.settled()
        for conn in (me, watcher):
            told = await closed(conn)
            assert (told.table_id, told.reason) == (made.table_id, "not_started")
        assert made.table_id not in hub.tables and hub.lobby.summaries() == []
        await hub._background.idle()
        assert await hub.store.running_tables() == []  # its row is gone too

    run(tmp_path, body, time=time)


def test_the_lobby_list_is_sent_in_pages(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        makers = [await guest(hub, f"M{i}", address=f"192.0.2.{i}") for i in range(6)]
        made = []
        for conn in makers:
            for _ in range(9):  # more than one page in all
                state = await create(hub, conn)
                assert isinstance(state, TableState), state
                made.append(state.table_id)
        assert len(made) > LOBBY_PAGE
        await hub.lobby.idle()  # the pushes of those changes are out
        reader = await guest(hub, "Reader")
        await said(hub, reader, {"type": "list_tables"})  # as an older client asks
        first = await next_of(reader, TableList)
        assert len(first.tables) == LOBBY_PAGE and first.offset == 0
        assert first.total == len(made)
        await said(hub, reader, {"type": "list_tables", "offset": LOBBY_PAGE})
        second = await next_of(reader, TableList)
        assert second.offset == LOBBY_PAGE
        assert [t.table_id for t in first.tables + second.tables] == made
        # The pushes keep to the page the connection asked for.
        await create(hub, makers[0])
        pushed = await next_of(reader, TableList)
        assert pushed.offset == LOBBY_PAGE and pushed.total == len(made) + 1
        assert len(pushed.tables) == len(made) + 1 - LOBBY_PAGE
        await said(hub, reader, {"type": "list_tables", "offset": -1})
        assert (await refusal(reader)).code == "bad_field"
        # GET /api/tables gives the same list a page at a time, with its size.
        rows, total = hub.public_tables(offset=LOBBY_PAGE)
        assert total == len(made) + 1 and len(rows) == len(made) + 1 - LOBBY_PAGE
        rows, total = hub.public_tables()
        assert len(rows) == LOBBY_PAGE and [r["table_id"] for r in rows] == made[:LOBBY_PAGE]
        rows, _ = hub.public_tables(offset=3, limit=2)
        assert [r["table_id"] for r in rows] == made[3:5]

    run(tmp_path, body, fair=FairUse(tables_per_address=100, creations_per_address=100))
