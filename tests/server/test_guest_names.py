"""A name the player never chose is a default, worded in each viewer's language (issue 26,
"Persian leftovers"): a ``hello`` without a name stores none, and every view carries
``name: null`` for that person — with ``taken`` telling their seat from an open one — so
that each client words it ("Guest", "مهمان") instead of everyone seeing the word of the
language the guest first came in."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server.hubkit import next_of, run_hub, said
from trumps.server.hub import Connection, Hub
from trumps.server.wire.protocol import (
    ChatPosted,
    Error,
    GameOver,
    Spectators,
    TableList,
    TableState,
    Welcome,
    decode_client,
)


async def greet(
    hub: Hub, name: str | None = None, token: str | None = None
) -> tuple[Connection, Welcome]:
    """A ``hello`` that carries ``name`` only when one is given."""
    conn = hub.connect()
    msg: dict[str, Any] = {"type": "hello", "protocol": 1}
    if name is not None:
        msg["name"] = name
    if token is not None:
        msg["resume_token"] = token
    await said(hub, conn, msg)
    return conn, await next_of(conn, Welcome)


async def first_error(conn: Connection) -> Error:
    while True:
        raw = await conn.outbox.get()
        assert raw is not None
        if isinstance(raw, Error):
            return raw


async def listed_row(hub: Hub, conn: Connection, table_id: str) -> Any:
    """``table_id``'s row of the public list, asked for until the table is stored."""
    for _ in range(200):
        await said(hub, conn, {"type": "list_tables"})
        page = await next_of(conn, TableList)
        rows = [r for r in page.tables if r.table_id == table_id]
        if rows:
            return rows[0]
        await asyncio.sleep(0.02)
    raise AssertionError(f"table {table_id} never listed")


def test_a_guest_without_a_name_is_carried_as_none_and_its_seat_as_taken(
    tmp_path: Path,
) -> None:
    async def body(hub: Hub, store: Any) -> None:
        guest, welcome = await greet(hub)
        assert welcome.name is None
        await said(hub, guest, {"type": "play_computer", "game": "kozyri", "level": "random"})
        mine = await next_of(guest, TableState)
        me, bot = mine.seats
        assert (me.name, me.taken, me.bot) == (None, True, None)
        assert (bot.name, bot.taken, bot.bot) == ("random bot", True, "random")

        viewer, _ = await greet(hub, "Ana")
        row = await listed_row(hub, viewer, mine.table_id)
        assert [(s.name, s.taken) for s in row.seats] == [(None, True), ("random bot", True)]
        await said(hub, viewer, {"type": "spectate", "table_id": mine.table_id})
        seen = await next_of(viewer, TableState)
        assert [(s.name, s.taken) for s in seen.seats] == [(None, True), ("random bot", True)]

        # A watcher without a name, and a line said by the unnamed guest: no name either.
        watcher, _ = await greet(hub)
        await said(hub, watcher, {"type": "spectate", "table_id": mine.table_id})
        watched = await next_of(watcher, TableState)
        assert (watched.spectators.count, watched.spectators.names) == (2, ["Ana", None])
        told = await next_of(guest, Spectators)
        while told.count < 2:
            told = await next_of(guest, Spectators)
        assert told.names == ["Ana", None]
        await said(hub, guest, {"type": "chat", "table_id": mine.table_id, "text": "hi"})
        line = await next_of(viewer, ChatPosted)
        assert (line.seat, line.name, line.text) == (0, None, "hi")
        await said(hub, watcher, {"type": "chat", "table_id": mine.table_id, "text": "yo"})
        line = await next_of(viewer, ChatPosted)
        while line.text != "yo":
            line = await next_of(viewer, ChatPosted)
        assert (line.seat, line.name) == (None, None)
        late, _ = await greet(hub, "Rui")  # the chat a snapshot carries says so too
        await said(hub, late, {"type": "spectate", "table_id": mine.table_id})
        snap = await next_of(late, TableState)
        assert [(c.seat, c.name, c.text) for c in snap.chat] == [
            (0, None, "hi"),
            (None, None, "yo"),
        ]

        # Stored records stay as they were: the unnamed person is "Guest" there.
        await said(hub, guest, {"type": "resign", "table_id": mine.table_id})
        over = await next_of(guest, GameOver)
        assert over.record_id is not None
        record = await store.get_game(over.record_id)
        assert record["players"] == ["Guest", "random bot"]

    run_hub(tmp_path / "g.db", body)


def test_an_open_seat_is_not_taken_and_a_named_guest_shows_its_name(tmp_path: Path) -> None:
    async def body(hub: Hub, store: Any) -> None:
        guest, _ = await greet(hub)
        await said(
            hub, guest, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
        )
        state = await next_of(guest, TableState)
        assert [(s.name, s.taken) for s in state.seats] == [(None, True), (None, False)]
        sara, welcome = await greet(hub, "Sara")
        assert welcome.name == "Sara"
        await said(hub, sara, {"type": "join_table", "table_id": state.table_id})
        joined = await next_of(sara, TableState)
        assert [(s.name, s.taken) for s in joined.seats] == [(None, True), ("Sara", True)]

    run_hub(tmp_path / "o.db", body)


def test_a_resumed_guest_sending_no_name_keeps_the_one_it_chose(tmp_path: Path) -> None:
    async def body(hub: Hub, store: Any) -> None:
        sara, welcome = await greet(hub, "Sara")
        await said(hub, sara, {"type": "play_computer", "game": "kozyri", "level": "random"})
        state = await next_of(sara, TableState)
        back, again = await greet(hub, token=welcome.resume_token)
        assert again.name == "Sara" and again.player_id == welcome.player_id
        assert again.tables == [state.table_id]
        seated = await next_of(back, TableState)
        assert (seated.seats[0].name, seated.seats[0].taken) == ("Sara", True)
        # One who never chose a name comes back unnamed; choosing one later names it.
        nobody, first = await greet(hub)
        await said(hub, nobody, {"type": "play_computer", "game": "kozyri", "level": "random"})
        await next_of(nobody, TableState)
        _, second = await greet(hub, token=first.resume_token)
        assert second.name is None
        player = await store.get_player(int(first.player_id))
        assert player.name == ""  # the store's column holds no NULL: empty is "no name"
        _, third = await greet(hub, "Lena", token=first.resume_token)
        assert third.name == "Lena"
        _, fourth = await greet(hub, token=first.resume_token)
        assert fourth.name == "Lena"

    run_hub(tmp_path / "r.db", body)


def test_an_empty_or_blank_name_is_still_a_bad_field(tmp_path: Path) -> None:
    async def body(hub: Hub, store: Any) -> None:
        for name in ("", "   ", "\u200b"):
            conn = hub.connect()
            await said(hub, conn, {"type": "hello", "protocol": 1, "name": name})
            error = await first_error(conn)
            assert error.code == "bad_field", (name, error)
        conn = hub.connect()  # an explicit null is no name, as leaving it out is
        await said(hub, conn, {"type": "hello", "protocol": 1, "name": None})
        assert (await next_of(conn, Welcome)).name is None

    run_hub(tmp_path / "b.db", body)


def test_hello_decodes_without_a_name() -> None:
    hello = decode_client('{"type": "hello", "protocol": 1}')
    assert getattr(hello, "name", "missing") is None
