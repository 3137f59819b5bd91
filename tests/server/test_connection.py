"""A connection's outbox: closing it asks the transport to close the socket (a None last)."""

from __future__ import annotations

from trumps.server.connection import MAX_BACKLOG, Connection
from trumps.server.protocol import Error


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
    for _ in range(MAX_BACKLOG + 1):
        conn.put_nowait(Error(code="bad_json", message="x"))
    assert conn.closed
    items = [conn.outbox.get_nowait() for _ in range(conn.outbox.qsize())]
    assert len(items) == MAX_BACKLOG + 1 and items[-1] is None
