"""The lobby of a server: the public table list, its live pushes, and quick matching.

``Lobby`` keeps each table's summary row (rebuilt when the table changes) and pushes the
list to the connections watching it, debounced: many changes in ``LOBBY_DEBOUNCE`` seconds
make one push.  A table is listed only once its first write is stored (``stored``).
``QuickMatches`` pairs people asking for the same game and rules, however they spelled the
rules (a preset name or the options it stands for).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from trumps.server.tables.table import Table
from trumps.server.tasks import stop_tasks
from trumps.server.transport.connection import Connection
from trumps.server.wire.protocol import TableList, TableSummary

__all__ = ["LOBBY_DEBOUNCE", "LOBBY_PAGE", "LiveTable", "Lobby", "QuickMatches"]

LOBBY_DEBOUNCE: Final = 0.2  # seconds between live table-list pushes
#: Tables in one ``table_list``: the list pushed to everyone stays bounded however many
#: tables there are; a client asks for the next page with ``list_tables``'s ``offset``.
LOBBY_PAGE: Final = 50


@dataclass
class LiveTable:
    """Bookkeeping the hub keeps beside a table."""

    table: Table
    summary: TableSummary | None = None
    rules_name: str | dict[str, Any] | None = None
    expires: asyncio.TimerHandle | None = None
    creator: int | None = None
    rematch: str | None = None  # the table made for a rematch of this one
    address: str | None = None  # its creator's address (hashed) while it is unfinished


class Lobby:
    """The public list of ``tables`` and its pushes to the ``connections()`` watching it."""

    def __init__(
        self, tables: Mapping[str, LiveTable], connections: Callable[[], Iterable[Connection]]
    ) -> None:
        self.tables = tables
        self.connections = connections
        self._task: asyncio.Task[None] | None = None
        # In a service of several processes: the rows of tables other processes own, and
        # where this process's own rows go (``trumps.server.service.cluster``).
        self.remote_rows: dict[str, TableSummary] = {}
        self.on_row: Callable[[str, TableSummary | None], None] | None = None
        self.published: set[str] = set()

    @staticmethod
    def summary(live: LiveTable) -> TableSummary:
        table = live.table
        return TableSummary(
            table_id=table.table_id,
            game=table.game.game_id,  # type: ignore[arg-type]
            rules=live.rules_name if live.rules_name is not None else table.game.rules,
            seats=table.projection.seat_infos(),
            open_seats=len(table.open_seats()),
            started=table.started,
            time_control=table.config.time_control,
            rated=table.config.rated,
        )

    def summaries(self, game: str | None = None) -> list[TableSummary]:
        """The public, unfinished tables (of ``game``) that are stored, each row cached until
        it changes; then those of the other processes."""
        out = []
        for live in self.tables.values():
            table = live.table
            if table.config.private or table.over or not stored(live):
                continue
            if game is None or table.game.game_id == game:
                if live.summary is None:
                    live.summary = self.summary(live)
                out.append(live.summary)
        for table_id, row in self.remote_rows.items():
            if table_id not in self.tables and (game is None or row.game == game):
                out.append(row)
        return out

    def page(self, game: str | None = None, offset: int = 0) -> TableList:
        """The ``LOBBY_PAGE`` rows from ``offset`` of the list (of ``game``), and its size."""
        rows = self.summaries(game)
        return TableList(tables=rows[offset : offset + LOBBY_PAGE], offset=offset, total=len(rows))

    def table_changed(self, live: LiveTable) -> None:
        """``live``'s table changed: push the list if its row did."""
        if live.table.config.private or not stored(live):
            return
        summary = self.summary(live)
        if summary != live.summary:
            live.summary = summary
            if self.on_row is not None:
                listed = not live.table.over
                self.on_row(live.table.table_id, summary if listed else None)
                (self.published.add if listed else self.published.discard)(live.table.table_id)
            self.changed()

    def forget(self, table_id: str) -> None:
        """A table of this process is gone: its row leaves the list everywhere."""
        if self.on_row is not None and table_id in self.published:
            self.published.discard(table_id)
            self.on_row(table_id, None)

    def changed(self) -> None:
        """The list changed: push it soon (one push for the changes of a short while)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._push())

    async def _push(self) -> None:
        await asyncio.sleep(LOBBY_DEBOUNCE)  # debounce: many changes, one push
        lists: dict[tuple[str | None, int], TableList] = {}
        for conn in list(self.connections()):
            watching, game, offset = conn.lobby
            if watching:
                if (game, offset) not in lists:
                    lists[game, offset] = self.page(game, offset)
                conn.put_nowait(lists[game, offset])

    async def idle(self) -> None:
        """Wait until the push due is sent (for tests)."""
        if self._task is not None:
            await self._task

    async def close(self) -> None:
        """Drop the push due, and wait until it is gone (no task is left to a closed loop)."""
        if self._task is not None:
            await stop_tasks([self._task])


def stored(live: LiveTable) -> bool:
    """Whether ``live``'s table has its row in the store.  Until its first write is stored
    it is listed nowhere: a crash then would lose a table that players had seen."""
    return live.table.stored.row is not None


def rules_key(game: str, rules: object) -> str:
    """One string per game and resolved rules: the same rules in other words match."""
    return json.dumps([game, rules], sort_keys=True)


def unfinished_tables(tables: Mapping[str, LiveTable], player: int | None) -> int:
    """How many of ``tables`` are unfinished and were created by ``player`` or seat it."""
    return sum(
        1
        for live in tables.values()
        if not live.table.over
        and (live.creator == player or live.table.seat_of_owner(player) is not None)
    )


class QuickMatches:
    """Who waits for a quick match, per game and rules (one person per key)."""

    def __init__(self) -> None:
        self._waiting: dict[str, Connection] = {}

    def cancel(self, conn: Connection) -> None:
        """``conn`` stops waiting (it asked, or it is gone)."""
        for key, waiting in list(self._waiting.items()):
            if waiting is conn:
                del self._waiting[key]

    def pair(self, conn: Connection, key: str) -> Connection | None:
        """``conn`` asks for ``key``: the person to play (no longer waiting), or None when
        ``conn`` now waits (a second ask by the same player keeps its place)."""
        other = self._waiting.get(key)
        if other is not None and other.player == conn.player:
            return None
        if other is None or other.closed:
            self.cancel(conn)
            self._waiting[key] = conn
            return None
        del self._waiting[key]
        return other
