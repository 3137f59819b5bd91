"""One client connection of the server: its identity and its outbox of messages.

No socket here: the transport (``trumps.server.app``) drains ``outbox`` onto the WebSocket,
so the hub and the tables are tested with plain ``Connection`` objects.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Final

from trumps.server.protocol import QuickMatch, ServerMessage
from trumps.server.ratelimit import Buckets

__all__ = ["MAX_BACKLOG", "Connection"]

log = logging.getLogger("trumps.server.hub")

MAX_BACKLOG: Final = 4096  # messages queued for a connection before it counts as dead


class Connection:
    """One client: its identity once it said ``hello`` and its outbox of messages."""

    _ids = itertools.count(1)

    def __init__(self) -> None:
        self.id = next(self._ids)
        # Messages, or JSON text another process already encoded (``trumps.server.bus``).
        self.outbox: asyncio.Queue[ServerMessage | str | None] = asyncio.Queue()
        self.player: int | None = None
        self.name = ""
        self.account: str | None = None
        self.address: str | None = None  # the client's IP address, for its budgets (quota)
        self.tables: set[str] = set()
        self.watching: set[str] = set()  # of ``tables``, those it only watches
        # Watching the list, of a game, from this row (a page: lobby.LOBBY_PAGE).
        self.lobby: tuple[bool, str | None, int] = (False, None, 0)
        self.closed = False
        self.close_reason = ""  # the WebSocket close reason, when the server closes it
        # Its session (``trumps.server.sessions``), and when its last use was noted; a
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
        """Queue a message; a client that stops reading is cut off, not buffered forever."""
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_BACKLOG:
            log.warning("connection %d stopped reading; closing it", self.id)
            self.close()
            return
        self.outbox.put_nowait(item)

    def close(self, reason: str = "") -> None:
        """Ask the transport to close (a None in the outbox), with ``reason``."""
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            self.outbox.put_nowait(None)
