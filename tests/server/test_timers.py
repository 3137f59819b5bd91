"""Clocks, grace periods and takeovers on manual time: exact and instant.

The table reads its time from a ``ManualTime`` that moves only on ``advance``; each test
then waits for the table to settle (``Table.settled``), so nothing here sleeps.  One
end-to-end test of each behaviour stays in ``test_e2e_seats.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from server.hubkit import hello, next_of, said
from server.outage import UnreachableStore
from trumps.games import new_game
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.tables.clock import TIMEOUT_FLOOR, FischerClocks
from trumps.server.tables.table import Act, Disconnect, Join, Leave, ResyncCmd, Table, TableConfig
from trumps.server.tables.timing import ManualTime
from trumps.server.tasks import stop_tasks, wait_event
from trumps.server.wire.protocol import (
    Error,
    Event,
    GameOver,
    ServerMessage,
    TableState,
    TimeControl,
)


def run(main: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(main(), timeout=30))


class Inbox(asyncio.Queue[ServerMessage]):
    """A subscriber; ``drain`` takes what has arrived."""

    def drain(self) -> list[ServerMessage]:
        return [self.get_nowait() for _ in range(self.qsize())]

    def events(self) -> list[Event]:
        return [m for m in self.drain() if isinstance(m, Event)]


# ---------------------------------------------------------------- the time sources


def test_manual_time_fires_due_timers_in_order_at_their_moment() -> None:
    time = ManualTime(start=0.0)
    fired: list[tuple[str, float]] = []
    time.call_later(2.0, lambda: fired.append(("b", time.now())))
    time.call_later(1.0, lambda: fired.append(("a", time.now())))
    dropped = time.call_later(1.5, lambda: fired.append(("x", time.now())))
    time.call_later(2.0, lambda: fired.append(("c", time.now())))  # same moment: set order
    dropped.cancel()
    assert time.pending() == [1.0, 2.0, 2.0]
    assert time.advance(0.999) == 0 and fired == []
    assert time.advance(5.0) == 3
    assert fired == [("a", 1.0), ("b", 2.0), ("c", 2.0)]
    assert time.now() == pytest.approx(5.999) and time.pending() == []
    with pytest.raises(ValueError, match="back"):
        time.advance(-1)


def test_fischer_clocks_charge_the_time_used_and_add_the_increment() -> None:
    time = ManualTime(start=0.0)
    clocks = FischerClocks(TimeControl(base=60, increment=2), [True, False, True], time.now)
    assert clocks.snapshot() == [60, None, 60]
    assert clocks.start(0) == 60
    time.advance(10.5)
    assert clocks.snapshot() == [49.5, None, 60]  # a running clock shows the time left now
    assert clocks.stop(moved=True) == 0
    assert clocks.left[0] == pytest.approx(51.5) and clocks.running is None
    clocks.start(2)
    time.advance(100)
    assert clocks.snapshot() == [51.5, None, 0.0]  # never below zero
    clocks.stop(moved=False)  # a resignation or a timeout: no increment
    assert clocks.left[2] == 0.0
    clocks.ran_out(2)  # after a default move: the floor from now on
    assert clocks.left[2] == TIMEOUT_FLOOR
    clocks.start(2)
    time.advance(9)
    clocks.stop(moved=True)  # 1 s left + 2 s increment, raised to the floor
    assert clocks.left[2] == TIMEOUT_FLOOR
    assert clocks.stop(moved=True) is None  # nothing runs
    assert FischerClocks(None, [True], time.now).snapshot() is None


# ---------------------------------------------------------------- a table on manual time


async def seated_pair(
    config: TableConfig, time: ManualTime, seed: int = 3
) -> tuple[Table, Inbox, Inbox]:
    """A started two-person Svoi Kozyri table on ``time``; both inboxes drained."""
    game = new_game("kozyri", players=2, seed=seed)
    table = Table("t-time", game, [None, None], config=config, time=time, bot_seed=1)
    a, b = Inbox(), Inbox()
    table.submit(Join(a, seat=0, name="A", player=1))
    table.submit(Join(b, seat=1, name="B", player=2))
    table.launch()
    await table.settled()
    assert table.started
    a.drain()
    b.drain()
    return table, a, b


def test_a_clock_at_zero_plays_the_default_move_then_gives_the_floor() -> None:
    async def main() -> None:
        time = ManualTime()
        tc = TimeControl(base=30, increment=1)
        table, a, b = await seated_pair(TableConfig(time_control=tc), time)
        mover = table.game.current_player
        assert mover is not None and table.clocks() == [30, 30]
        time.advance(29.9)
        await table.settled()
        assert a.empty() and b.empty() and table.game.history == []
        assert table.clocks()[mover] == pytest.approx(0.1)  # type: ignore[index]
        time.advance(0.1)
        await table.settled()
        (timed,) = a.events()
        assert timed.kind == "timeout" and timed.seat == mover and timed.by_bot
        assert timed.action == table.game.history[-1]  # the move played, a legal one
        assert timed.clocks is not None and timed.clocks[mover] == TIMEOUT_FLOOR
        assert [e.kind for e in b.events()] == ["timeout"]
        # Now the other seat's clock runs, with its full time.
        other = table.game.current_player
        assert other == 1 - mover
        assert time.pending() == [30.0]
        await table.stop()

    run(main)


def test_a_clock_at_zero_forfeits_when_the_table_says_so() -> None:
    async def main() -> None:
        time = ManualTime()
        config = TableConfig(time_control=TimeControl(base=5), on_timeout="forfeit")
        table, a, _b = await seated_pair(config, time)
        mover = table.game.current_player
        time.advance(5)
        await table.settled()
        got = a.drain()
        assert isinstance(got[-1], GameOver)
        assert got[-1].outcome.reason == "timeout" and got[-1].outcome.losers == [mover]
        timed = [m for m in got if isinstance(m, Event)]
        assert [(e.kind, e.seat, e.action) for e in timed] == [("timeout", mover, None)]
        assert time.pending() == []  # the end cancels every timer
        await table.stop()

    run(main)


def test_a_move_in_time_stops_the_clock_and_the_old_timer_is_harmless() -> None:
    async def main() -> None:
        time = ManualTime()
        tc = TimeControl(base=10, increment=3)
        table, a, b = await seated_pair(TableConfig(time_control=tc), time)
        mover = table.game.current_player
        assert mover is not None
        inbox = (a, b)[mover]
        time.advance(4)
        table.submit(Act(inbox, table.game.legal_actions()[0], table.number))
        await table.settled()
        assert table.clocks()[mover] == pytest.approx(9.0)  # type: ignore[index]
        time.advance(6.5)  # past the first timer's moment: it was cancelled
        await table.settled()
        kinds = [e.kind for e in (a, b)[1 - mover].events()]
        assert kinds == ["action"] and table.clocks()[mover] == pytest.approx(9.0)  # type: ignore[index]
        await table.stop()

    run(main)


def test_grace_then_takeover_then_return() -> None:
    """A dropped seat waits exactly ``grace`` seconds; then a bot plays for it (``takeover``,
    its moves ``by_bot``); the owner joining again takes it back (``return``)."""

    async def main() -> None:
        time = ManualTime()
        config = TableConfig(grace=20, takeover="random")
        table, a, b = await seated_pair(config, time)
        if table.game.current_player == 0:  # let seat 1 be to move when seat 0 drops
            table.submit(Act(a, table.game.legal_actions()[0], table.number))
        table.submit(Disconnect(a))
        await table.settled()
        assert [e.kind for e in b.events()][-1] == "disconnect"
        time.advance(19.99)
        await table.settled()
        assert b.empty() and not table.seats[0].away
        time.advance(0.01)
        await table.settled()
        assert [e.kind for e in b.events()] == ["takeover"] and table.seats[0].away
        for _ in range(3):  # B plays; the bot answers at once for seat 0
            assert table.game.current_player == 1 and not table.over
            table.submit(Act(b, table.game.legal_actions()[0], table.number))
            await table.settled()
        answered = [e for e in b.events() if e.kind == "action" and e.seat == 0]
        assert answered and all(e.by_bot for e in answered)
        again = Inbox()
        table.submit(Join(again, name="A", player=1))
        await table.settled()
        snap = again.get_nowait()
        assert isinstance(snap, TableState) and snap.seat == 0
        assert [e.kind for e in b.events()] == ["return"] and not table.seats[0].away
        await table.stop()

    run(main)


def test_a_resume_within_the_grace_period_is_a_return_and_cancels_the_takeover() -> None:
    async def main() -> None:
        time = ManualTime()
        table, a, b = await seated_pair(TableConfig(grace=20), time)
        table.submit(Disconnect(a))
        await table.settled()
        time.advance(10)
        again = Inbox()
        table.submit(Join(again, name="A", player=1))
        await table.settled()
        assert [e.kind for e in b.events()] == ["disconnect", "return"]  # the owner is back
        time.advance(100)  # the old grace timer is gone
        await table.settled()
        assert b.empty() and not table.seats[0].away and time.pending() == []
        await table.stop()

    run(main)


def test_a_newcomer_in_a_seat_given_up_is_a_join_and_the_bot_stops() -> None:
    """Leaving on purpose gives the seat up (``leave``, ``takeover``); whoever sits there
    next is a newcomer (``join``, with the seats showing the bot gone), not a ``return``."""

    async def main() -> None:
        time = ManualTime()
        table, a, b = await seated_pair(TableConfig(takeover="random"), time)
        table.submit(Leave(a))
        await table.settled()
        assert [e.kind for e in b.events() if e.seat == 0][:2] == ["leave", "takeover"]
        assert table.open_seats() == [0] and table.seats[0].away
        c = Inbox()
        table.submit(Join(c, seat=0, name="C", player=3))
        await table.settled()
        seat_events = [e for e in b.events() if e.kind not in ("action",)]
        assert [e.kind for e in seat_events] == ["join"]
        assert seat_events[0].seats is not None and seat_events[0].seats[0].away is False
        assert seat_events[0].seats[0].name == "C" and not table.seats[0].away
        await table.stop()

    run(main)


def test_a_player_gone_before_the_start_frees_the_seat_after_the_grace_period() -> None:
    async def main() -> None:
        time = ManualTime()
        game = new_game("kozyri", players=2, seed=1)
        table = Table("t-pre", game, [None, None], config=TableConfig(grace=5), time=time)
        a, watcher = Inbox(), Inbox()
        table.submit(Join(a, seat=0, name="A", player=1))
        table.submit(Join(watcher, spectate=True))
        table.submit(Disconnect(a))
        table.launch()
        await table.settled()
        watcher.drain()
        time.advance(5)
        await table.settled()
        (left,) = watcher.events()
        assert left.kind == "leave" and left.seat == 0
        assert table.open_seats() == [0, 1] and table.names == [None, None]
        table.submit(Leave(watcher))
        table.submit(ResyncCmd(watcher))
        await table.settled()
        refused = watcher.get_nowait()
        assert isinstance(refused, Error) and refused.code == "not_seated"
        await table.stop()

    run(main)


def test_a_default_move_is_made_even_when_the_bot_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock's default move never leaves a seat stuck: if the bot that chooses it
    raises (the joker-discard crash did), a legal move is still made and the clocks go on."""

    class Broken:
        def decide(self, *args: object) -> object:
            raise AttributeError("a bot bug")

    async def main() -> None:
        import trumps.server.tables.table as table_module

        monkeypatch.setattr(table_module, "make_bot", lambda level, game: Broken())
        time = ManualTime()
        tc = TimeControl(base=5, increment=0)
        table, a, _ = await seated_pair(TableConfig(time_control=tc), time)
        mover = table.game.current_player
        legal = table.game.legal_actions()
        time.advance(5)
        await table.settled()
        (timed,) = a.events()
        assert timed.kind == "timeout" and timed.seat == mover
        assert table.game.history == [timed.action] and timed.action in legal
        assert time.pending(), "the next seat's clock must run"
        await table.stop()

    run(main)


def test_a_held_clock_charges_nothing_and_runs_on_from_where_it_was() -> None:
    """While the service cannot take moves the hub holds the clocks: the seat to move is
    charged nothing and cannot run out; released, its clock goes on with the time it had.
    A move made while held (one queued before) gets its increment, and the next seat's
    clock waits for the release."""

    async def main() -> None:
        time = ManualTime()
        tc = TimeControl(base=30, increment=2)
        table, a, b = await seated_pair(TableConfig(time_control=tc), time)
        mover = table.game.current_player
        assert mover is not None
        time.advance(10)
        table.hold_clock()
        assert time.pending() == []  # no timer can fire while held
        time.advance(1000)
        await table.settled()
        assert a.empty() and b.empty() and table.game.history == []
        assert table.clocks()[mover] == pytest.approx(20)  # type: ignore[index]
        table.release_clock()
        assert time.pending() == [pytest.approx(20)]
        time.advance(5)
        assert table.clocks()[mover] == pytest.approx(15)  # type: ignore[index]
        table.hold_clock()
        time.advance(50)
        table.submit(Act((a, b)[mover], table.game.legal_actions()[0], table.number))
        await table.settled()
        assert table.clocks() is not None
        assert table.clocks()[mover] == pytest.approx(17)  # type: ignore[index]  # 15 + 2
        other = table.game.current_player
        assert other == 1 - mover and time.pending() == []
        time.advance(100)
        assert table.clocks()[other] == pytest.approx(30)  # type: ignore[index]
        table.release_clock()
        assert time.pending() == [pytest.approx(30)]
        time.advance(30)
        await table.settled()
        assert [e.kind for e in (a, b)[mover].events()] == ["action", "timeout"]
        await table.stop()

    run(main)


def test_the_hub_holds_the_clocks_while_its_store_cannot_be_reached(tmp_path: Path) -> None:
    """The store goes away during a timed game: the move of the seat to move is refused
    (``unavailable``), and however long the outage, that seat is not charged for it and
    does not lose on time; when the store is back the clock goes on from where it stood
    and the seat plays on."""

    async def main() -> None:
        store = UnreachableStore(f"sqlite+aiosqlite:///{tmp_path / 'clock.db'}")
        await store.create()
        time = ManualTime()
        options = HubOptions(bot_time=0.01, seed=1, time=time, probe_every=0.02)
        hub = Hub(store, Sessions(store, "timers-test-secret-0123456789"), options)
        await hub.start()
        try:
            a, _ = await hello(hub, "Ana")
            b, _ = await hello(hub, "Rui")
            create = {"type": "create_table", "game": "kozyri", "seats": ["human", "human"],
                      "time_control": {"base": 60, "increment": 0}}  # fmt: skip
            await said(hub, a, create)
            table_id = (await next_of(a, TableState)).table_id
            await said(hub, b, {"type": "join_table", "table_id": table_id})
            table = hub.tables[table_id].table
            await table.settled()
            assert table.started
            mover = table.game.current_player
            assert mover is not None
            conn = (a, b)[mover]
            time.advance(15)

            store.down = True
            deadline = asyncio.get_running_loop().time() + 10
            while hub.availability.ready()[0]:  # the hub finds out by itself (its probe)
                assert asyncio.get_running_loop().time() < deadline, "never noticed"
                await asyncio.sleep(0.01)
            await drain(conn)
            move = {"type": "action", "table_id": table_id,
                    "action": table.game.legal_actions()[0], "expected": table.number}  # fmt: skip
            await said(hub, conn, move)
            refused = await conn.outbox.get()
            assert isinstance(refused, Error) and refused.code == "unavailable", refused
            time.advance(3600)  # an hour without a store
            await table.settled()
            assert table.game.history == [], "the seat lost on time while it could not move"
            assert table.clocks()[mover] == pytest.approx(45)  # type: ignore[index]

            store.down = False
            while not hub.availability.ready()[0]:
                assert asyncio.get_running_loop().time() < deadline, "never back"
                await asyncio.sleep(0.01)
            assert time.pending() == [pytest.approx(45)]
            time.advance(5)
            await said(hub, conn, move)
            moved = await next_of(conn, Event)
            assert moved.kind == "action" and moved.seat == mover and not moved.by_bot
            assert moved.clocks is not None and moved.clocks[mover] == pytest.approx(40)
        finally:
            store.down = False
            await hub.stop()
            await store.close()

    run(main)


async def drain(conn: Connection) -> None:
    while not conn.outbox.empty():
        conn.outbox.get_nowait()


# ---------------------------------------------------------------- background loops (tasks.py)


def test_a_loop_waiting_for_a_wake_up_stops_when_cancelled_as_the_wake_up_comes() -> None:
    """The lease loop of ``trumps serve --redis`` waits for "scan now" or a second.  Python
    3.11's ``asyncio.wait_for`` swallows a cancel that lands together with the wake-up, and
    the loop then ran for ever (a hub that never stopped, in CI); ``wait_event`` does not."""

    async def main() -> None:
        wake = asyncio.Event()
        rounds = 0

        async def loop() -> None:
            nonlocal rounds
            while True:
                await wait_event(wake, 60.0)
                wake.clear()
                rounds += 1

        task = asyncio.create_task(loop())
        while not wake._waiters:  # the loop is waiting
            await asyncio.sleep(0)
        wake.set()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 2.0)
        assert rounds == 0

    run(main)


def test_wait_event_says_whether_the_event_came_or_the_time_ran_out() -> None:
    async def main() -> None:
        wake = asyncio.Event()
        assert await wait_event(wake, 0.001) is False
        wake.set()
        assert await wait_event(wake, 60.0) is True

    run(main)


def test_stop_tasks_ends_a_loop_that_swallows_a_cancel() -> None:
    """A library call inside a loop swallowed the cancel that should have stopped it (redis-
    py's ``mget`` did, and ``hub.stop()`` then waited for ever): ``stop_tasks`` cancels
    again until the loop ends."""

    async def main() -> None:
        swallowed = 0

        async def stubborn_call() -> None:
            nonlocal swallowed
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                swallowed += 1
                asyncio.current_task().uncancel()  # type: ignore[union-attr]

        async def loop() -> None:
            while True:
                await stubborn_call()
                await wait_event(asyncio.Event(), 60.0)

        task = asyncio.create_task(loop())
        await asyncio.sleep(0)
        await asyncio.wait_for(stop_tasks([task], every=0.01), 2.0)
        assert task.cancelled() and swallowed == 1

    run(main)


def test_stop_tasks_gives_up_on_a_task_that_never_stops(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        deaf_for_now = True

        async def deaf() -> None:
            while deaf_for_now:
                try:
                    await asyncio.Event().wait()
                except asyncio.CancelledError:
                    continue

        task = asyncio.create_task(deaf(), name="deaf")
        await asyncio.sleep(0)
        await stop_tasks([task], every=0.01, within=0.05)
        assert not task.done()
        assert "task deaf did not stop" in caplog.text
        deaf_for_now = False
        task.cancel()
        await asyncio.wait([task])

    run(main)
