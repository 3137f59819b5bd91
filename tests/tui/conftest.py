"""Fixtures of the ``trumps connect`` tests: ``server``, one ``trumps serve`` per module (an
SQLite file, bots thinking 0.02 s, tables dealt at random)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.e2e import ServerProc


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    work = tmp_path_factory.mktemp("connect")
    proc = ServerProc(f"sqlite+aiosqlite:///{work / 'trumps.db'}", work, bot_time=0.02)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()
