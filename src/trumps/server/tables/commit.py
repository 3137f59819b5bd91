"""Group commit: the writes of every table, a few milliseconds' worth, in one transaction.

A table hands its pending write (``trumps.server.tables.persist``) to ``GroupCommit.write`` and
waits; writes that arrive while a transaction is being committed, or within ``window``
seconds of the first, go into the next one together — one commit for many moves at many
tables, so storing each move before anyone hears of it stays cheap.

A store that fails (the database unreachable, a lost connection) is retried with backoff
until it answers; meanwhile ``available`` is false, so the server can refuse new requests
with a clear code, and the waiting tables tell nobody anything.  Retrying is safe: the
store keys each table's events and chat by number, so a write whose answer was lost is not
stored twice.  A write the store rejects as invalid fails alone, not its whole batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Final

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from trumps.errors import TrumpsError
from trumps.store import Fenced, Store, TableWrite

__all__ = ["UNREACHABLE", "CommitClosed", "GroupCommit", "one_line", "unreachable"]

log = logging.getLogger("trumps.server.tables.commit")

RETRY_FIRST: Final = 0.05  # seconds before the first retry of a failed transaction …
RETRY_MAX: Final = 2.0  # … doubling up to this


def _driver_errors() -> tuple[type[BaseException], ...]:
    try:
        from asyncpg.exceptions import InterfaceError as PgInterfaceError
        from asyncpg.exceptions import PostgresConnectionError
    except ImportError:  # SQLite only
        return ()
    return (PostgresConnectionError, PgInterfaceError)


# What a store that cannot be reached raises: the socket's own errors (refused, reset, timed
# out: ``OSError``, ``TimeoutError``), SQLAlchemy's wrapping of the driver's connection
# errors, its pool's timeout, and asyncpg's connection errors when they come through bare.
UNREACHABLE: Final[tuple[type[BaseException], ...]] = (
    OSError,
    TimeoutError,
    OperationalError,
    InterfaceError,
    PoolTimeout,
    *_driver_errors(),
)


# Errors of files, not of sockets: an ``OSError`` of these is no news about the store.
_FILES: Final = (FileNotFoundError, FileExistsError, IsADirectoryError, NotADirectoryError)


def unreachable(e: BaseException) -> bool:
    """Whether ``e`` says the store cannot be reached (not that a request was wrong)."""
    if isinstance(e, _FILES):
        return False
    if isinstance(e, UNREACHABLE):
        return True
    return isinstance(e, DBAPIError) and bool(e.connection_invalidated)


class CommitClosed(RuntimeError):
    """The server is stopping: this write was not stored (and nobody was told of it)."""


_Item = tuple[TableWrite, "asyncio.Future[int | Fenced]"]


class GroupCommit:
    """Stores table writes in shared transactions; ``write`` returns once durable."""

    def __init__(self, store: Store, window: float = 0.002) -> None:
        self.store = store
        self.window = window
        self.available = True  # the last transaction succeeded
        self.on_change: Callable[[], None] | None = None  # told when ``available`` changes
        self.transactions = 0  # committed so far (for stats)
        self.writes = 0
        self._pending: list[_Item] = []
        self._committing = 0  # writes in the transaction under way
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    async def write(self, write: TableWrite) -> int | Fenced:
        """Store ``write`` with the others of its moment; its game id, or ``Fenced``."""
        if self._closed and not self.available:
            raise CommitClosed("the server is stopping and the store is unreachable")
        future: asyncio.Future[int | Fenced] = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="group-commit")
        return await future

    async def _run(self) -> None:
        while self._pending:
            if self.window > 0:
                await asyncio.sleep(self.window)  # gather the writes of this moment
            batch, self._pending = self._pending, []
            self._committing = len(batch)
            try:
                await self._commit(batch)
            except asyncio.CancelledError:
                self._fail(batch, CommitClosed("the server stopped before this was stored"))
                raise
            finally:
                self._committing = 0

    @property
    def queued(self) -> int:
        """Writes waiting to be stored: gathering, or in the transaction under way."""
        return len(self._pending) + self._committing

    async def _commit(self, batch: list[_Item]) -> None:
        delay = RETRY_FIRST
        while True:
            try:
                results = await self.store.commit_tables([w for w, _ in batch])
            except (TrumpsError, ValueError) as e:  # an invalid write: find it, store the rest
                if len(batch) == 1:
                    self._fail(batch, e)
                    return
                for item in batch:
                    await self._commit([item])
                return
            except Exception as e:
                if self._closed:
                    self._fail(batch, CommitClosed(f"the store failed while stopping: {e}"))
                    return
                if self.available:
                    log.error("the store failed (%s); retrying until it is back", one_line(e))
                    self._set_available(False)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)
                continue
            if not self.available:
                log.warning("the store is back")
                self._set_available(True)
            self.transactions += 1
            self.writes += len(batch)
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)
            return

    def _set_available(self, available: bool) -> None:
        self.available = available
        if self.on_change is not None:
            self.on_change()

    @staticmethod
    def _fail(batch: list[_Item], error: BaseException) -> None:
        for _, future in batch:
            if not future.done():
                future.set_exception(error)

    def stopping(self) -> None:
        """The server is stopping: a failing store is no longer retried (what is pending
        fails at its next error instead of waiting for the store forever)."""
        self._closed = True

    async def close(self, timeout: float = 5.0) -> None:
        """Store what is pending (the last moves before a stop), waiting at most ``timeout``
        seconds for a failing store; then refuse further writes."""
        self._closed = True
        self.available = False  # no write after this one
        task = self._task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout)
            except (TimeoutError, Exception):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._fail(self._pending, CommitClosed("the server stopped before this was stored"))
        self._pending = []


def one_line(e: BaseException) -> str:
    """``e`` in one line (a driver's message may run over several)."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:300]
