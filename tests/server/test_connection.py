"""A connection's outbox: closing it asks the transport to close the socket (a None last);
a client that stops reading is cut off by the messages *and the bytes* queued for it; an
unsent snapshot of a table gives way to a newer one, with the events it covers, so a
client that asks for snapshots without reading them holds one (issue 17, held-up
behaviours: slow readers dropped, flat memory)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from server.hubkit import decoded, next_of, said
from trumps.server.hub import Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.transport.connection import MAX_BACKLOG, MAX_BACKLOG_BYTES, Connection
from trumps.server.wire.protocol import (
    ChatPosted,
    Error,
    Event,
    Rematch,
    ServerMessage,
    TableList,
    TableState,
    Welcome,
    encode,
)
from trumps.store import SqlStore

SECRET = "connection-test-secret-0123456789"


def snapshot(table: str, event: int, pad: int = 0) -> TableState:
    return TableState(
        table_id=table,
        game="kozyri",
        rules={},
        seats=[],
        seat=None,
        event=event,
        view={"pad": "x" * pad},
        legal=[],
        to_move=None,
    )


def event(table: str, number: int) -> Event:
    return Event(table_id=table, number=number, kind="action", view={}, legal=[], to_move=None)


def chat(table: str, text: str = "hi") -> ChatPosted:
    return ChatPosted(table_id=table, seat=0, name="Ana", text=text)


def text(msg: ServerMessage) -> str:
    """``msg`` as another process sends it (JSON text)."""
    return encode(msg).decode()


def drain(conn: Connection) -> list[ServerMessage | str | None]:
    return [conn.outbox.get_nowait() for _ in range(conn.outbox.qsize())]


def size(items: list[ServerMessage | str | None]) -> int:
    """The bytes of JSON ``items`` are sent as (measured here, not asked of the outbox)."""
    return sum(
        len(m.encode()) if isinstance(m, str) else len(encode(m)) for m in items if m is not None
    )


def queue(*items: ServerMessage | str) -> list[ServerMessage | str | None]:
    conn = Connection()
    for item in items:
        conn.put_nowait(item)
    assert not conn.closed
    return drain(conn)


def test_close_puts_one_none_after_what_was_queued() -> None:
    conn = Connection()
    conn.put_nowait(Error(code="bad_json", message="one"))
    conn.close()
    conn.close()  # a second close asks nothing more
    conn.put_nowait(Error(code="bad_json", message="after"))  # dropped: it is closed
    assert conn.closed
    assert isinstance(conn.outbox.get_nowait(), Error)
    assert conn.outbox.get_nowait() is None
    assert conn.outbox.empty()


def test_a_client_that_stops_reading_is_cut_off() -> None:
    conn = Connection()
    for _ in range(MAX_BACKLOG):
        conn.put_nowait(Error(code="bad_json", message="x"))
    assert not conn.closed
    conn.put_nowait(Error(code="bad_json", message="x"))
    assert conn.closed
    # What was queued is let go at once (the client will not read it): only the close is left.
    assert drain(conn) == [None]


def test_a_few_large_messages_past_the_byte_cap_cut_the_client_off() -> None:
    """4096 messages of 40 KB were 160 MB for one connection: now a mebibyte is the most."""
    conn = Connection()
    big = [snapshot(f"t-{n:02}", 1, pad=40_000) for n in range(64)]  # other tables: no merging
    one = len(encode(big[0]))
    for n, msg in enumerate(big):
        conn.put_nowait(msg)
        if conn.closed:
            break
        assert conn.outbox.bytes == one * (n + 1) <= MAX_BACKLOG_BYTES
    assert conn.closed, f"{len(big)} snapshots of {one} bytes queued and still open"
    assert n + 1 == MAX_BACKLOG_BYTES // one + 1  # the one that passed the cap closed it
    assert drain(conn) == [None] and conn.outbox.bytes == 0


def test_a_newer_snapshot_replaces_an_unsent_one_with_the_events_it_covers() -> None:
    other = event("u", 3)
    items = queue(snapshot("t", 5), event("t", 6), other, event("t", 7), snapshot("t", 7))
    assert items == [other, snapshot("t", 7)]
    # Taken in turn, what is left is as the client would have it: a snapshot, events after it.
    more = queue(snapshot("t", 5), event("t", 6), snapshot("t", 6), event("t", 7))
    assert more == [snapshot("t", 6), event("t", 7)]


def test_a_snapshot_is_not_merged_past_other_news_of_its_table() -> None:
    """Chat, a rematch offer, an error about the table, or an event the new snapshot does not
    cover: the older snapshot stays where it was (the bytes are bounded all the same)."""
    for between in (
        chat("t"),
        Rematch(table_id="old", new_table_id="t", by="Ana"),
        Error(code="stale_event", message="x", table_id="t"),
        event("t", 9),
        text(chat("t")),
    ):
        items = queue(snapshot("t", 5), between, snapshot("t", 7))
        assert items == [snapshot("t", 5), between, snapshot("t", 7)], between
    # … and an older snapshot after a newer one is no replacement.
    assert queue(snapshot("t", 7), snapshot("t", 5)) == [snapshot("t", 7), snapshot("t", 5)]


def test_snapshots_from_another_process_merge_as_text() -> None:
    """A table owned by another process sends its messages as JSON text."""
    other = text(chat("u", 'the table "t" is fun'))  # names t, but is news of u: it stays
    items = queue(text(snapshot("t", 5)), text(event("t", 6)), other, text(snapshot("t", 6)))
    assert items == [other, text(snapshot("t", 6))]
    items = queue(text(snapshot("t", 5)), text(chat("t")), text(snapshot("t", 6)))
    assert len(items) == 3


def test_a_newer_table_list_replaces_an_unsent_one() -> None:
    """The lobby is pushed up to five times a second: a page nobody read is only old."""
    first, second = TableList(tables=[], offset=0), TableList(tables=[], offset=50)
    assert queue(first, Welcome(player_id="1", name="A", resume_token="x"), second)[-1] is second
    assert first not in queue(first, second)


def test_what_is_sent_is_the_message_encoded_once() -> None:
    conn = Connection()
    msg, remote = snapshot("t", 3), text(event("u", 1))
    conn.put_nowait(msg)
    conn.put_nowait(remote)
    conn.close()

    async def frames() -> list[str | None]:
        return [await conn.next_frame() for _ in range(3)]

    assert asyncio.run(frames()) == [encode(msg).decode(), remote, None]
    assert conn.outbox.bytes == 0


class _Client:
    """A client as docs/protocol.md asks: a snapshot sets a table's number; an event is
    applied if it is the next number, else the client would have to resync."""

    def __init__(self) -> None:
        self.last: dict[str, int] = {}
        self.chat: dict[str, int] = {}
        self.resyncs = 0

    def read(self, items: list[Any]) -> _Client:
        for raw in items:
            msg = decoded(raw)
            if isinstance(msg, TableState):
                self.last[msg.table_id] = msg.event
            elif isinstance(msg, Event) and msg.table_id in self.last:
                if msg.number == self.last[msg.table_id] + 1:
                    self.last[msg.table_id] = msg.number
                else:
                    self.resyncs += 1
            elif isinstance(msg, ChatPosted) and msg.table_id in self.last:
                self.chat[msg.table_id] = self.chat.get(msg.table_id, 0) + 1
        return self


def test_merged_snapshots_leave_a_client_no_gap_whatever_the_order() -> None:
    """Random runs of what two tables send (events, resync snapshots, chat, as JSON text or
    not): the client reading the merged outbox ends where the one reading all of it does,
    and never meets an event out of turn."""
    rng = random.Random(17)
    let_go = 0
    for _ in range(300):
        number = {"t": 0, "u": 0}
        sent: list[ServerMessage | str] = [snapshot(t, 0) for t in number]
        for _ in range(rng.randrange(1, 40)):
            table, roll = rng.choice("tu"), rng.random()
            if roll < 0.5:
                number[table] += 1
                msg: ServerMessage = event(table, number[table])
            elif roll < 0.85:
                msg = snapshot(table, number[table])
            else:
                msg = chat(table)
            sent.append(text(msg) if rng.random() < 0.3 else msg)
        left = queue(*sent)
        let_go += len(sent) - len(left)
        whole, merged = _Client().read(list(sent)), _Client().read(left)
        assert whole.resyncs == merged.resyncs == 0
        assert merged.last == whole.last == number
        assert merged.chat == whole.chat
    assert let_go > 1000  # the runs did merge


def test_asking_for_snapshots_without_reading_holds_one(tmp_path: Path) -> None:
    """A client that sends ``resync`` again and again and reads nothing: each snapshot was
    queued (a 33 KB one at a 10-seat table, 4096 of them allowed); now the newest replaces
    the unsent one, and the queued bytes stay flat."""

    async def main(tmp: Path) -> None:
        store = SqlStore(f"sqlite+aiosqlite:///{tmp / 'hub.db'}")
        await store.create()
        options = HubOptions(bot_time=0.01, seed=1, per_second=10**6, per_minute=10**7)
        hub = Hub(store, Sessions(store, SECRET), options)
        await hub.start()
        try:
            me = hub.connect("198.51.100.9")
            await said(hub, me, {"type": "hello", "protocol": 1, "name": "Me"})
            await next_of(me, Welcome)
            await said(hub, me, {"type": "play_computer", "game": "kozyri", "level": "random"})
            table_id = (await next_of(me, TableState)).table_id
            table = hub.tables[table_id].table
            for _ in range(40):  # chat makes the snapshot larger (its last 50 lines)
                await said(hub, me, {"type": "chat", "table_id": table_id, "text": "w" * 290})
            await table.settled()
            drain(me)
            resync = {"type": "resync", "table_id": table_id, "last_event": 0}
            await said(hub, me, resync)
            await table.settled()
            one = size(drain(me))
            assert one > 10_000, one
            peak = 0
            times = 2 * MAX_BACKLOG_BYTES // one  # twice what the cap holds
            for n in range(times):
                await said(hub, me, resync)
                if n % 10 == 0:
                    await table.settled()
                    peak = max(peak, me.outbox.bytes)
            await table.settled()
            assert not me.closed
            assert peak <= MAX_BACKLOG_BYTES, peak
            items = drain(me)
            snapshots = [m for m in items if m is not None and isinstance(decoded(m), TableState)]
            assert len(snapshots) == 1, f"{len(snapshots)} snapshots queued of {times}"
            assert size(items) < 2 * one
            assert _Client().read(items).resyncs == 0
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(asyncio.wait_for(main(tmp_path), 60))
