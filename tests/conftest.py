"""What every test shares: an SQLite connection's worker thread ends with the test that
opened it.

aiosqlite runs each connection in a thread of its own that hands every result back to the
event loop that asked.  A test whose loop closed while a query was still running leaves
that thread to fail later ("Event loop is closed") — reported, with ``filterwarnings =
error``, on whichever test the worker runs then.  Joining those threads as each test ends
makes such a failure the failing test's own.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

import pytest

JOIN_SECONDS = 5.0  # a thread that is only closing ends well within this, even under load
_lasting: set[int] = set()  # threads that outlived a join: held open on purpose, not waited for


@pytest.fixture(autouse=True)
def _database_threads_end_with_their_test() -> Iterator[None]:
    yield
    aiosqlite = sys.modules.get("aiosqlite")
    if aiosqlite is None:
        return
    for thread in threading.enumerate():
        if isinstance(thread, aiosqlite.Connection) and thread.ident not in _lasting:
            thread.join(timeout=JOIN_SECONDS)
            if thread.is_alive() and thread.ident is not None:
                _lasting.add(thread.ident)
