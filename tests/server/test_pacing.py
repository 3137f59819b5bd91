"""Bots paced for people (docs/protocol.md#pacing), on manual time: nothing here sleeps.

Where a person plays, a bot's move is sent no sooner than the table's pace after the latest
move, and after a longer hold when that move closed a trick or a hand; a table of bots
only, and a table at ``bot_pace="instant"``, never wait.  The table reads its time from a
``ManualTime``; ``Table.settled`` waits until only time could make anything happen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.hubkit import hello, next_of, said
from trumps.games import new_game
from trumps.games.viewtypes import twentyfive_view
from trumps.host.pacing import HAND_WAIT, PACES
from trumps.server.hub import Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.tables.table import Act, ContinueCmd, Join, Table, TableConfig
from trumps.server.tables.timing import ManualTime
from trumps.server.wire.protocol import Error, Event, ServerMessage, TableState
from trumps.store import SqlStore

STEP = 0.05  # seconds manual time moves per look


def run(main: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(main(), timeout=60))


class Inbox(asyncio.Queue[ServerMessage]):
    def events(self) -> list[Event]:
        return [m for m in (self.get_nowait() for _ in range(self.qsize())) if isinstance(m, Event)]


async def person_and_bots(pace: str, time: ManualTime, seed: int = 11) -> tuple[Table, Inbox]:
    """A started Twenty-Five table: a person at seat 0, three random bots."""
    game = new_game("twentyfive", players=4, seed=seed, rules={"rob": "off"})
    config = TableConfig(bot_pace=pace)  # type: ignore[arg-type]
    table = Table("t-pace", game, [None, "random", "random", "random"], config=config, time=time)
    me = Inbox()
    table.submit(Join(me, seat=0, name="Ana", player=1))
    table.launch()
    await table.settled()
    assert table.started
    return table, me


async def my_move(table: Table, me: Inbox) -> None:
    """Play the person's first legal card now."""
    table.submit(Act(me, table.game.legal_actions()[0], table.number))
    await table.settled()


async def play_or_wait(table: Table, me: Inbox, time: ManualTime) -> None:
    """My move if it is my turn, else a STEP of manual time for the bots."""
    if table.game.current_player == 0:
        await my_move(table, me)
    else:
        time.advance(STEP)
        await table.settled()


def test_a_bot_move_at_a_table_with_a_person_waits_for_the_pace() -> None:
    """The person and a spectator get the bot's move at the same moment, once it is due."""

    async def main() -> None:
        time = ManualTime()
        table, me = await person_and_bots("normal", time)
        watcher = Inbox()
        table.submit(Join(watcher, spectate=True))
        await table.settled()
        me.events()
        if table.game.current_player == 0:
            await my_move(table, me)
            assert [e.seat for e in me.events()] == [0]
        assert table.game.current_player != 0
        pace = PACES["normal"]
        # The bot has chosen (settled), but its move waits: nothing is sent yet.
        assert me.events() == []
        watcher.events()  # the snapshot, and my move if I led
        (wait,) = time.pending()
        assert pace.least <= wait <= pace.most
        time.advance(wait - 0.01)
        await table.settled()
        assert me.events() == [] and watcher.events() == []
        time.advance(0.01)
        await table.settled()
        (moved,) = me.events()
        assert moved.kind == "action" and moved.by_bot and moved.seat != 0
        assert [(e.number, e.action) for e in watcher.events()] == [(moved.number, moved.action)]
        await table.stop()

    run(main)


def test_a_trick_and_a_hand_are_held_before_the_next_bot_move() -> None:
    """One whole hand against three bots: every bot move comes at least the pace after the
    move before it, the longer hold after a finished trick and hand; each event that
    finished a trick says which (cards and winner), the hand's last one the hand too."""

    async def main() -> None:
        time = ManualTime()
        table, me = await person_and_bots("normal", time)
        pace = PACES["normal"]
        me.events()
        last_at, last_closed = time.now(), None
        gaps: list[tuple[float, Any]] = []
        closed: list[dict[str, Any]] = []
        while not closed or "hand" not in closed[-1]:
            await play_or_wait(table, me, time)
            for e in me.events():
                if e.kind != "action":
                    continue
                if e.seat != 0:
                    gaps.append((time.now() - last_at, last_closed))
                last_at, last_closed = time.now(), e.closed
                if e.closed is not None:
                    closed.append(e.closed)
        assert len(gaps) >= 14  # three bots in five tricks
        for gap, before in gaps:
            least = pace.least if before is None else pace.hand if "hand" in before else pace.trick
            assert gap >= least - 1e-9, (gap, before)
            assert gap <= max(pace.most, least) + STEP + 1e-9, (gap, before)
        assert len(closed) == 5 and all("hand" not in c for c in closed[:4])
        hand = closed[-1]["hand"]
        assert [c["trick"] for c in closed] == hand["tricks"]
        assert hand["hand"] == 1 and table.game.view(None)["hand"] == 2
        assert all(len(t["cards"]) == 4 for t in hand["tricks"])
        assert sum(hand["won"]) == 5 and hand["turnup"] and hand["trump"] == hand["turnup"][1]
        assert hand["scores"] == twentyfive_view(table.game.view(None))["scores"]
        await table.stop()

    run(main)


def test_a_table_of_bots_only_never_waits() -> None:
    async def main() -> None:
        time = ManualTime()
        game = new_game("twentyfive", players=4, seed=5)
        config = TableConfig(bot_pace="normal")
        table = Table("t-bots", game, ["random"] * 4, config=config, time=time)
        watcher = Inbox()
        table.submit(Join(watcher, spectate=True))
        table.start()
        table.launch()
        await table.settled()
        assert table.over  # the whole game, while the time stood still
        assert time.pending() == []
        await table.stop()

    run(main)


def test_instant_pace_sends_a_bot_move_at_once() -> None:
    async def main() -> None:
        time = ManualTime()
        table, me = await person_and_bots("instant", time)
        assert table.game.current_player == 0  # the bots before me moved without waiting
        await my_move(table, me)
        assert table.game.current_player == 0 or table.over  # all three answered at once
        assert time.pending() == []
        await table.stop()

    run(main)


def test_create_table_takes_a_pace_and_refuses_a_bad_one(tmp_path: Path) -> None:
    async def main() -> None:
        store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'pace.db'}")
        await store.create()
        hub = Hub(
            store, Sessions(store, "pace-test-secret-0123456789"), HubOptions(bot_pace="fast")
        )
        await hub.start()
        try:
            conn, _ = await hello(hub, "Ana")
            create = {"type": "create_table", "game": "twentyfive", "seats": ["human", "easy"]}
            await said(hub, conn, {**create, "bot_pace": "slow"})
            error = await next_of(conn, Error)
            assert error.code == "bad_field" and "bot_pace" in error.message
            assert "\n" not in error.message and not hub.tables
            await said(hub, conn, {**create, "bot_pace": "instant"})
            chosen = await next_of(conn, TableState)
            await said(hub, conn, create)
            default = await next_of(conn, TableState)
            computer = {"type": "play_computer", "game": "twentyfive", "players": 4}
            await said(hub, conn, {**computer, "bot_pace": "normal"})
            against = await next_of(conn, TableState)
            await said(hub, conn, {**computer, "bot_pace": "never"})
            error = await next_of(conn, Error)
            assert error.code == "bad_field" and "bot_pace" in error.message
            paces = {t: hub.tables[t].table.config.bot_pace for t in hub.tables}
            assert paces == {
                chosen.table_id: "instant",
                default.table_id: "fast",
                against.table_id: "normal",
            }
        finally:
            await hub.stop()
            await store.close()

    run(main)


@pytest.mark.parametrize("pace", ["normal", "fast", "instant"])
def test_a_table_s_pace_is_stored_with_it(pace: str) -> None:
    config = TableConfig(bot_pace=pace)  # type: ignore[arg-type]
    assert TableConfig.from_json(config.to_json()).bot_pace == pace
    assert TableConfig.from_json({}).bot_pace == "normal"  # a table stored before paces


async def to_the_end_of_a_hand(table: Table, me: Inbox, time: ManualTime) -> dict[str, Any]:
    """Play on (my first legal card, the bots at their pace) until a hand ends; its
    ``closed``."""
    while True:
        await play_or_wait(table, me, time)
        for e in me.events():
            if e.kind == "action" and e.closed is not None and "hand" in e.closed:
                return e.closed


async def a_hand_ended(pace: str) -> tuple[Table, Inbox, ManualTime]:
    """A table just past the end of its first hand, the game going on and a bot to lead
    the next hand (the random bots' play differs from run to run: deals are tried until
    one is so)."""
    for seed in range(12, 40):
        time = ManualTime()
        table, me = await person_and_bots(pace, time, seed=seed)
        me.events()
        closed = await to_the_end_of_a_hand(table, me, time)
        assert closed["hand"]["hand"] == 1
        if not table.over and (pace == "instant" or table.game.current_player not in (None, 0)):
            return table, me, time
        await table.stop()
    raise AssertionError("no deal had a bot lead a second hand")


def test_the_next_hand_waits_until_the_person_has_read_the_summary() -> None:
    """After a hand the bots wait for the person's ``continue`` (not merely the pace); once
    it comes, the next move is sent as soon as the pace allows; a ``continue`` for another
    hand does not count."""

    async def main() -> None:
        table, me, time = await a_hand_ended("normal")
        time.advance(PACES["normal"].hand + 1)  # the pace alone no longer lets it go
        await table.settled()
        assert me.events() == []
        table.submit(ContinueCmd(me, 2))  # not the hand that ended
        await table.settled()
        assert me.events() == []
        table.submit(ContinueCmd(me, 1))
        await table.settled()
        (moved,) = me.events()
        assert moved.by_bot and moved.kind == "action"
        await table.stop()

    run(main)


def test_the_next_hand_starts_anyway_after_the_longest_wait() -> None:
    """A person who does not answer holds the next hand back for HAND_WAIT seconds, no more;
    at the instant pace nothing waits."""

    async def main() -> None:
        table, me, time = await a_hand_ended("normal")
        time.advance(HAND_WAIT - 0.1)  # (the hand ended up to a STEP before now)
        await table.settled()
        assert me.events() == []
        time.advance(STEP + 0.1)
        await table.settled()
        assert [e.by_bot for e in me.events()][:1] == [True]
        await table.stop()

        table, me, time = await a_hand_ended("instant")
        # the bots went on at once: nothing waits on time
        assert time.pending() == []
        await table.stop()

    run(main)
