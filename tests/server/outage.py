"""A store that can become unreachable, as a database whose server went away.

``UnreachableStore`` is an SQLite store that opens a new connection for every operation
(``NullPool``); while ``down`` is set, opening one fails as a refused TCP connection does
(``ConnectionRefusedError``), so every read and write fails — the probe, the group commit,
a login — and none of them knows it is being tested.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.pool import NullPool

from trumps.store import SqlStore


class UnreachableStore(SqlStore):
    """An SQL store that cannot be reached while ``down``; ``refused`` counts the tries."""

    def __init__(self, url: str) -> None:
        super().__init__(url, poolclass=NullPool)
        self.down = False
        self.refused = 0
        event.listen(self._engine.sync_engine, "do_connect", self._connect)

    def _connect(self, *_args: Any) -> None:
        if self.down:
            self.refused += 1
            raise ConnectionRefusedError(111, "Connection refused (the test's database is down)")
