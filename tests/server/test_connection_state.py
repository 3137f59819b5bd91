"""Connection and tab state is never silent (issue 11, part 2), at the hub: a second
connection of the same player takes the seat and the first is told (``replaced``), on one
process and across two; and the seat events say what happened (a lost connection is
``disconnect``, leaving on purpose ``leave`` with the seat ``left`` to a bot for good)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from server.hubkit import decoded, hello, next_of, run_cluster, said
from trumps.server.hub import Connection, Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.wire.protocol import ChatPosted, Error, Event, GameOver, Replaced, TableState
from trumps.store import SqlStore

SECRET = "replaced-test-secret-0123456789"


def run(tmp_path: Path, body: Callable[[Hub], Awaitable[None]]) -> None:
    async def main() -> None:
        store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}")
        await store.create()
        hub = Hub(store, Sessions(store, SECRET), HubOptions(bot_time=0.01, seed=1))
        await hub.start()
        try:
            await asyncio.wait_for(body(hub), 60)
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())


def pending(conn: Connection) -> list[Any]:
    """Everything already in ``conn``'s outbox, decoded, without waiting."""
    out = []
    while not conn.outbox.empty():
        raw = conn.outbox.get_nowait()
        assert raw is not None, "the connection was closed"
        out.append(decoded(raw))
    return out


async def error_of(conn: Connection) -> Error:
    while True:
        raw = await conn.outbox.get()
        assert raw is not None, "the connection was closed"
        msg = decoded(raw)
        if isinstance(msg, Error):
            return msg


async def event_of(conn: Connection, kind: str) -> Event:
    while True:
        event: Event = await next_of(conn, Event)
        if event.kind == kind:
            return event


def test_a_second_tab_takes_the_seat_and_the_first_is_told(tmp_path: Path) -> None:
    """Tab 2 (same token) takes the seat: tab 1 gets ``replaced`` and hears nothing more
    of the table, its moves are refused; its "play here" (``join_table``) takes the seat
    back, and now tab 2 is the one told."""

    async def body(hub: Hub) -> None:
        tab1, welcome = await hello(hub, "Ana")
        await said(hub, tab1, {"type": "play_computer", "game": "kozyri", "level": "random"})
        table_id = (await next_of(tab1, TableState)).table_id
        tab2, again = await hello(hub, "Ana", welcome.resume_token)
        assert again.tables == [table_id]
        assert (await next_of(tab2, TableState)).seat == 0
        told = await next_of(tab1, Replaced)
        assert (told.table_id, told.seat) == (table_id, 0)
        # Tab 1 hears no more of the table: tab 2's chat reaches tab 2 only.
        pending(tab1)
        await said(hub, tab2, {"type": "chat", "table_id": table_id, "text": "here now"})
        await next_of(tab2, ChatPosted)
        assert not [m for m in pending(tab1) if getattr(m, "table_id", None) == table_id]
        await said(hub, tab1, {"type": "resign", "table_id": table_id})
        assert (await error_of(tab1)).code == "not_seated"
        # "Play here": tab 1 takes the seat back; tab 2 is told in turn.
        await said(hub, tab1, {"type": "join_table", "table_id": table_id})
        back = await next_of(tab1, TableState)
        assert back.seat == 0 and back.table_id == table_id
        assert (await next_of(tab2, Replaced)).table_id == table_id

    run(tmp_path, body)


def test_seat_events_say_whether_the_player_lost_the_connection_or_left(
    tmp_path: Path,
) -> None:
    """A dropped connection is ``disconnect`` (the seat stays the player's, not ``left``),
    coming back is ``return``; leaving on purpose is ``leave`` then ``takeover`` with the
    seat ``left`` (a bot plays it for good)."""

    async def body(hub: Hub) -> None:
        ana, _ = await hello(hub, "Ana")
        rui, welcome = await hello(hub, "Rui")
        await said(
            hub, ana, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
        )
        table_id = (await next_of(ana, TableState)).table_id
        await said(hub, rui, {"type": "join_table", "table_id": table_id})
        await event_of(ana, "start")
        hub.disconnect(rui)
        lost = await next_of(ana, Event)
        assert (lost.kind, lost.seat) == ("disconnect", 1)
        assert lost.seats is not None and not lost.seats[1].connected
        assert not lost.seats[1].left and lost.seats[1].name == "Rui"
        rui, _ = await hello(hub, "Rui", welcome.resume_token)
        assert (await next_of(ana, Event)).kind == "return"
        await next_of(rui, TableState)
        await said(hub, rui, {"type": "leave_table", "table_id": table_id})
        left = await next_of(ana, Event)
        assert (left.kind, left.seat) == ("leave", 1)
        took = await next_of(ana, Event)
        assert (took.kind, took.seat) == ("takeover", 1)
        assert took.seats is not None and took.seats[1].left and took.seats[1].away

    run(tmp_path, body)


def test_the_replaced_message_crosses_between_processes() -> None:
    """Ana's table is owned by A; her second tab is connected to B and takes the seat
    (tab 1 on A is told); tab 1 takes it back, and tab 2 on B is told over the bus."""

    async def body(a: Hub, b: Hub, _store: SqlStore) -> None:
        tab1, welcome = await hello(a, "Ana")
        await said(a, tab1, {"type": "play_computer", "game": "kozyri", "level": "random"})
        table_id = (await next_of(tab1, TableState)).table_id
        assert table_id in a.tables and table_id not in b.tables
        tab2, again = await hello(b, "Ana", welcome.resume_token)
        assert again.tables == [table_id]
        assert (await next_of(tab2, TableState)).seat == 0
        assert (await next_of(tab1, Replaced)).table_id == table_id
        await said(a, tab1, {"type": "join_table", "table_id": table_id})
        assert (await next_of(tab1, TableState)).seat == 0
        told = await next_of(tab2, Replaced)  # sent by A to the RemoteConn, over Redis
        assert (told.table_id, told.seat) == (table_id, 0)

    run_cluster(body)


def test_a_game_a_takeover_bot_finished_is_not_counted_as_the_leavers(tmp_path: Path) -> None:
    """Ana never comes back after losing the connection: the takeover bot finishes her
    game, and the stored game says so (``by_bot``), so her history can say it was not her
    win or loss; a game she played to the end herself has none."""

    async def body(hub: Hub) -> None:
        ana, _ = await hello(hub, "Ana")
        watcher, _ = await hello(hub, "Watcher")
        await said(
            hub,
            ana,
            {"type": "create_table", "game": "kozyri", "seats": ["human", "random"], "grace": 0},
        )
        table_id = (await next_of(ana, TableState)).table_id
        await said(hub, watcher, {"type": "spectate", "table_id": table_id})
        await next_of(watcher, TableState)
        hub.disconnect(ana)
        await event_of(watcher, "takeover")
        over = await next_of(watcher, GameOver)
        [game] = await hub.store.finished_games(player=int(_player_of(ana)))
        assert game.id == over.record_id and game.by_bot == [0]

        ruth, welcome = await hello(hub, "Ruth")
        await said(hub, ruth, {"type": "play_computer", "game": "kozyri", "level": "random"})
        table_id = (await next_of(ruth, TableState)).table_id
        await said(hub, ruth, {"type": "resign", "table_id": table_id})
        await next_of(ruth, GameOver)
        [mine] = await hub.store.finished_games(player=int(welcome.player_id))
        assert mine.by_bot == []

    run(tmp_path, body)


def _player_of(conn: Connection) -> int:
    assert conn.player is not None
    return int(conn.player)
