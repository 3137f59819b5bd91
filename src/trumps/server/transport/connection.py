"""One client connection of the server: its identity and its outbox of messages.

No socket here: the transport (``trumps.server.transport.app``) drains ``outbox`` onto the WebSocket,
so the hub and the tables are tested with plain ``Connection`` objects.

A client that stops reading is not buffered forever: once more than ``MAX_BACKLOG``
messages or ``MAX_BACKLOG_BYTES`` bytes of JSON wait for it, what waits is let go and the
connection is closed (the client resyncs when it comes back).  Each message is encoded once,
when it is queued (so its size is known), and that text is what the transport sends.

Two kinds of message are whole pictures, so an unsent one is only old once a newer one is
queued: the lobby's ``table_list`` (pushed up to five times a second), and a table's
``table_state``.  A newer snapshot of a table replaces the unsent older one together with
the table's events between them, which it covers (their numbers are at most its ``event``):
a client that asks for ``resync`` again and again without reading holds one snapshot, and
still reads, per table, a snapshot and then exactly the events after its number
(docs/protocol.md#event-numbering-and-resync).  If anything else about that table was queued
after the older snapshot (chat, an error, a rematch offer, an event it does not cover, text
from another process naming it), nothing is merged: the byte cap still holds.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import msgspec

from trumps.server.limits.ratelimit import Buckets
from trumps.server.wire.protocol import (
    Event,
    QuickMatch,
    ServerMessage,
    TableList,
    TableState,
    encode,
)

__all__ = ["MAX_BACKLOG", "MAX_BACKLOG_BYTES", "Connection", "Outbox"]

log = logging.getLogger("trumps.server.hub")

MAX_BACKLOG: Final = 4096  # messages queued for a connection before it counts as dead
# Bytes of JSON queued for a connection before it counts as dead.  Measured (issue 17): an
# event is 0.7–1.6 KB, a snapshot 1–42 KB (10 seats, 300 log entries), a lobby page up to
# ~25 KB; a table of bots watched at full speed sends ~15 KB/s, a people's table ~1 KB/s.
# A mebibyte is a minute of the fastest table, some 25 of the largest snapshots at once
# (a reconnect resyncing every table), and far more than a reader that keeps up ever holds;
# 32 sockets of one address hold at most 32 MiB (4096 snapshots were 150 MB for one).
MAX_BACKLOG_BYTES: Final = 1 << 20

# The head of a message another process encoded: msgspec writes the tag first, then the
# fields in order (``table_id`` first in ``table_state`` and ``event``, ``number`` next).
_HEAD: Final = re.compile(
    r'\{"type":"(table_state|event|table_list)"'
    r'(?:,"table_id":"([A-Za-z0-9_-]+)"(?:,"number":(\d+))?)?'
)


class _SnapshotHead(msgspec.Struct):
    event: int = 0


_snapshot_head: Final = msgspec.json.Decoder(_SnapshotHead)


@dataclass(slots=True)
class _Queued:
    """A message waiting in an outbox, with its text and what it is about."""

    item: ServerMessage | str | None
    text: str | None  # what is sent (None: the close)
    size: int  # its bytes
    kind: str = ""  # "table_state", "event", "table_list", or "" for any other
    table: str | None = None  # of a snapshot or an event
    number: int = 0  # a snapshot's ``event``, an event's ``number``

    def news_of(self, table: str, upto: int) -> bool:
        """Whether this, queued after a snapshot of ``table``, keeps a newer snapshot (one of
        event ``upto``) from replacing it: it tells something of ``table`` the newer one
        does not stand for."""
        if self.kind in ("table_state", "event") and self.table is not None:
            return self.table == table and (self.kind != "event" or self.number > upto)
        if isinstance(self.item, str):  # another process's: does it name the table?
            return f'"{table}"' in self.item
        if self.item is None:
            return True
        return table in (
            getattr(self.item, "table_id", None),
            getattr(self.item, "new_table_id", None),
        )


def _queued(item: ServerMessage | str | None) -> _Queued:
    if item is None:
        return _Queued(None, None, 0)
    if isinstance(item, str):
        size = len(item) if item.isascii() else len(item.encode())
        queued = _Queued(item, item, size)
        head = _HEAD.match(item)
        if head is not None:
            queued.kind, queued.table = head[1], head[2]
            if head[1] == "event":
                if head[3] is None:  # not as msgspec writes it: only looked through
                    queued.kind = ""
                else:
                    queued.number = int(head[3])
            elif head[1] == "table_state":
                try:
                    queued.number = _snapshot_head.decode(item).event
                except msgspec.DecodeError:
                    queued.kind = ""
        return queued
    raw = encode(item)
    queued = _Queued(item, raw.decode(), len(raw))
    if isinstance(item, TableState):
        queued.kind, queued.table, queued.number = "table_state", item.table_id, item.event
    elif isinstance(item, Event):
        queued.kind, queued.table, queued.number = "event", item.table_id, item.number
    elif isinstance(item, TableList):
        queued.kind = "table_list"
    return queued


class Outbox(asyncio.Queue[ServerMessage | str | None]):
    """A connection's queue of messages (a None last asks the transport to close), holding
    each message's JSON text beside it and the bytes of them all (``bytes``)."""

    def _init(self, maxsize: int) -> None:
        self._queue: collections.deque[_Queued] = collections.deque()
        self.bytes = 0  # of JSON waiting
        self.sent: str | None = None  # the text of the message ``get`` gave last
        self._snapshots: collections.Counter[str] = collections.Counter()  # waiting, by table
        self._lists = 0  # table lists waiting

    def _put(self, item: ServerMessage | str | None) -> None:
        queued = _queued(item)
        if queued.kind == "table_list" and self._lists:
            self._drop(lambda q: q.kind == "table_list")
        elif queued.kind == "table_state" and queued.table and self._snapshots[queued.table]:
            self._merge(queued)
        self._add(queued)

    def _get(self) -> ServerMessage | str | None:
        queued = self._queue.popleft()
        self._forget(queued)
        self.sent = queued.text
        return queued.item

    def clear(self) -> None:
        """Let everything waiting go."""
        self._queue.clear()
        self.bytes, self._lists = 0, 0
        self._snapshots.clear()

    def _add(self, queued: _Queued) -> None:
        self._queue.append(queued)
        self.bytes += queued.size
        if queued.kind == "table_list":
            self._lists += 1
        elif queued.kind == "table_state" and queued.table:
            self._snapshots[queued.table] += 1

    def _forget(self, queued: _Queued) -> None:
        self.bytes -= queued.size
        if queued.kind == "table_list":
            self._lists -= 1
        elif queued.kind == "table_state" and queued.table:
            self._snapshots[queued.table] -= 1
            if not self._snapshots[queued.table]:
                del self._snapshots[queued.table]

    def _drop(self, unsent: Callable[[_Queued], bool]) -> None:
        kept = collections.deque[_Queued]()
        for queued in self._queue:
            if unsent(queued):
                self._forget(queued)
            else:
                kept.append(queued)
        self._queue = kept

    def _merge(self, newer: _Queued) -> None:
        """Let the newest waiting snapshot of ``newer``'s table go, with the table's events
        after it, if nothing else about the table came after it and ``newer`` covers them."""
        table, queue = newer.table, self._queue
        assert table is not None
        at = len(queue) - 1
        while at >= 0:
            queued = queue[at]
            if queued.kind == "table_state" and queued.table == table:
                break
            if queued.news_of(table, newer.number):
                return
            at -= 1
        if at < 0 or queue[at].number > newer.number:
            return
        after = [queue.pop() for _ in range(len(queue) - at)][::-1]
        for queued in after:
            if queued.table == table and queued.kind in ("table_state", "event"):
                self._forget(queued)
            else:
                queue.append(queued)


class Connection:
    """One client: its identity once it said ``hello`` and its outbox of messages."""

    _ids = itertools.count(1)

    def __init__(self) -> None:
        self.id = next(self._ids)
        # Messages, or JSON text another process already encoded (``trumps.server.service.bus``).
        self.outbox = Outbox()
        self.player: int | None = None
        self.name: str | None = None  # None: the player chose no name (hello)
        self.contributes = False  # it promised a contribution to each deal (fairdeal)
        self.account: str | None = None
        self.address: str | None = None  # the client's IP address, for its budgets (quota)
        self.tables: set[str] = set()
        self.watching: set[str] = set()  # of ``tables``, those it only watches
        # Watching the list, of a game, from this row (a page: lobby.LOBBY_PAGE).
        self.lobby: tuple[bool, str | None, int] = (False, None, 0)
        self.closed = False
        self.close_reason = ""  # the WebSocket close reason, when the server closes it
        # Its session (``trumps.server.identity.sessions``), and when its last use was noted; a
        # guest not stored yet has a token but no session.
        self.session: int | None = None
        self.token: str | None = None
        self.touched = 0.0
        self.pending = False  # a guest with an id and a token, not stored until it acts
        self.label = ""  # the client, for the list of sessions (its User-Agent, short)
        self.budget: Buckets | None = None  # its rate limit, from the first message on
        self.match_key: str | None = None  # where it waits for a quick match (several processes)
        self.match_request: QuickMatch | None = (
            None  # that quick match, asked again if Redis empties
        )

    def put_nowait(self, item: ServerMessage | str, /) -> None:
        """Queue a message; a client that stops reading is cut off, not buffered forever:
        past ``MAX_BACKLOG`` messages or ``MAX_BACKLOG_BYTES`` bytes, what waits is let go
        and the connection closes."""
        if self.closed:
            return
        outbox = self.outbox
        outbox.put_nowait(item)
        if outbox.qsize() > MAX_BACKLOG or outbox.bytes > MAX_BACKLOG_BYTES:
            log.warning(
                "connection %d stopped reading (%d messages, %d bytes waiting); closing it",
                self.id,
                outbox.qsize(),
                outbox.bytes,
            )
            outbox.clear()
            self.close()

    async def next_frame(self) -> str | None:
        """The JSON text of the next message to send (waiting for one); None: close."""
        await self.outbox.get()
        return self.outbox.sent  # set by that get: nothing ran in between

    def close(self, reason: str = "") -> None:
        """Ask the transport to close (a None in the outbox), with ``reason``."""
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            self.outbox.put_nowait(None)
