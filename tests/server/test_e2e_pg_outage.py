"""PostgreSQL goes away during a game and comes back: a real ``trumps serve``, end to end.

The server's ``--db`` points at a small TCP proxy of the test's own in front of the real
PostgreSQL on localhost (``PgProxy``).  Two people play a timed game on real WebSockets;
the test cuts the proxy (every connection to the database closed, new ones refused) for a
few seconds, as a database server that crashed or a network that broke.  Meanwhile a move
is answered ``unavailable`` or held and told only once it is stored (docs/protocol.md:
nobody is told of a move that is not stored), ``/readyz`` answers 503, the HTTP API answers
503 ``unavailable``, a new player is refused with ``unavailable``, the stored game is what
the players were told, and the clock of the person to move is not charged for the outage.
The proxy is restored: ``/readyz`` is 200 again by itself, the game is played to its end,
and every event anyone received matches the stored game.

Without PostgreSQL on localhost the test is skipped (failed where
``TRUMPS_REQUIRE_POSTGRES`` is set).  No sleeps as synchronisation: every wait polls with
a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from server.clusterkit import RULES, Seat, consistent, event_number, play, started
from server.e2e import (
    TIMEOUT,
    Client,
    Msg,
    ServerProc,
    connected,
    free_port,
    postgres_database,
    run,
)
from store.postgres import need_postgres
from trumps.store import SqlStore

T = TypeVar("T")

PG = ("127.0.0.1", 5432)
OUTAGE = 3.0  # seconds the database stays away (at least), once the server has noticed


class PgProxy:
    """A TCP proxy from a free loopback port to PostgreSQL, run in a thread of its own (the
    test's loop may block on a subprocess).  ``cut`` closes every connection through it
    and refuses new ones; ``restore`` listens again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.up = False
        self.connections = 0  # made through the proxy, ever
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()

    def url(self, db: str) -> str:
        """``db`` (a URL on localhost's PostgreSQL) reached through the proxy."""
        assert "@localhost/" in db, db
        return db.replace("@localhost/", f"@127.0.0.1:{self.port}/")

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(TIMEOUT)

    def start(self) -> PgProxy:
        self._thread.start()
        self.restore()
        return self

    def restore(self) -> None:
        self._call(self._listen())

    def cut(self) -> None:
        self._call(self._cut())

    def close(self) -> None:
        if self._thread.is_alive():
            self.cut()
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(TIMEOUT)
        if not self._thread.is_alive():
            self._loop.close()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(
            self._client, "127.0.0.1", self.port, reuse_address=True
        )
        self.up = True

    async def _cut(self) -> None:
        self.up = False
        if self._server is not None:
            self._server.close()  # new connections are refused from now on
            await self._server.wait_closed()
            self._server = None
        for writer in list(self._open):
            writer.transport.abort()  # a reset, as from a database that died
        self._open.clear()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*PG)
        except OSError:
            writer.transport.abort()
            return
        if not self.up:  # cut while connecting
            writer.transport.abort()
            up_writer.transport.abort()
            return
        self.connections += 1
        pair = {writer, up_writer}
        self._open |= pair
        try:
            await asyncio.gather(
                _pump(reader, up_writer), _pump(up_reader, writer), return_exceptions=True
            )
        finally:
            self._open -= pair
            for w in pair:
                w.transport.abort()


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while data := await reader.read(65536):
        writer.write(data)
        await writer.drain()
    writer.transport.abort()  # one side ended: so does the other


@pytest.fixture
def outage(tmp_path: Path) -> Iterator[tuple[PgProxy, ServerProc, str]]:
    """A proxy, a fresh database, and one ``trumps serve`` reaching it through the proxy
    (not started yet: the test starts it off its event loop)."""
    need_postgres()
    proxy = PgProxy().start()
    try:
        with postgres_database() as db:
            proc = ServerProc(proxy.url(db), tmp_path, seed=None)
            try:
                yield proxy, proc, db
            finally:
                proc.stop()
    finally:
        proxy.close()


async def _get(proc: ServerProc, path: str) -> httpx.Response:
    return await asyncio.to_thread(proc.get, path)


async def _ready(proc: ServerProc, want: bool, within: float = 20.0) -> float:
    """Poll ``/readyz`` until it says ``want``; the seconds it took."""
    began = time.monotonic()
    while (answer := await _get(proc, "/readyz")).status_code != (200 if want else 503):
        assert time.monotonic() - began < within, f"/readyz stayed {answer.text} for {within} s"
        await asyncio.sleep(0.05)
    return time.monotonic() - began


async def _stored(db: str, table_id: str) -> dict[str, Any]:
    """The table's record, read from PostgreSQL directly (not through the proxy)."""
    store = SqlStore(db)
    try:
        for running in await store.running_tables():
            if running.table_id == table_id:
                return running.record
        for summary in await store.finished_games():
            if summary.table_id == table_id:
                return await store.get_game(summary.id)
        raise AssertionError(f"table {table_id} is not stored")
    finally:
        await store.close()


async def _arrived(seat: Seat, within: float = 0.3) -> list[Msg]:
    """What reached ``seat`` within ``within`` seconds (a bounded look, not a wait for
    something: the test asserts that nothing of the kind came)."""
    got: list[Msg] = []
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(within):
            while True:
                got.append(await seat.now.recv())
    return got


def _moved_after(top: int) -> Any:
    return lambda m: (
        (m["type"] == "event" and m["number"] > top and m["kind"] in ("action", "timeout"))
        or m["type"] == "error"
    )


def test_postgresql_away_refuses_new_requests_loses_nothing_and_comes_back_by_itself(
    outage: tuple[PgProxy, ServerProc, str],
) -> None:
    proxy, proc, db = outage

    async def main() -> None:
        await asyncio.to_thread(proc.start)
        ana = Seat(await connected(proc.ws, "Ana"), "Ana")
        rui = Seat(await connected(proc.ws, "Rui"), "Rui")
        await ana.now.send({"type": "create_table", "game": "kozyri", "rules": RULES,
                            "seats": ["human", "human"], "grace": 600,
                            "time_control": {"base": 300, "increment": 0}})  # fmt: skip
        state = await ana.now.expect("table_state")
        ana.table_id = rui.table_id = state["table_id"]
        await rui.now.send({"type": "join_table", "table_id": ana.table_id})
        for seat in (ana, rui):
            await seat.now.until(started)
        await play([ana, rui], 4)
        assert (await _get(proc, "/readyz")).status_code == 200

        # Who is to move, and their clock when they were told it is their turn.
        [mover] = [s for s in (ana, rui) if s.latest()["legal"]]
        other = ana if mover is rui else rui
        told = mover.latest()
        top, seat_no = event_number(told), told["to_move"]
        clock_before, clock_at = told["clocks"][seat_no], time.monotonic()
        before = await _stored(db, ana.table_id)

        proxy.cut()
        # Said at once, before the server can know: refused, or held until it is stored.
        await other.now.send({"type": "chat", "table_id": other.table_id, "text": "still there?"})
        await _ready(proc, False)
        down_at = time.monotonic()
        reason = (await _get(proc, "/readyz")).json()
        assert reason == {"ready": False, "reason": "the game store cannot be reached"}
        assert (await _get(proc, "/healthz")).status_code == 200  # alive all the same
        games = await _get(proc, "/api/games")
        assert games.status_code == 503, games.text
        assert games.json()["error"] == "unavailable", games.text
        newcomer = await Client(proc.ws).connect()
        refused = await newcomer.error({"type": "hello", "protocol": 1, "name": "Newcomer"})
        assert refused["code"] == "unavailable", refused
        # The person to move cannot move now: refused, and the move changed nothing.
        await mover.now.act(mover.table_id, told["legal"][0], top)
        refused = await mover.now.until(_moved_after(top))
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        while time.monotonic() < down_at + OUTAGE:  # it stays so while the database is away
            assert (await _get(proc, "/readyz")).status_code == 503
            await asyncio.sleep(0.1)
        for seat in (ana, rui):
            seen = await _arrived(seat)
            news = [m for m in seen if m["type"] in ("event", "chat", "table_state")]
            assert not news, f"told while it could not be stored: {news}"
        chat_refused = [m for m in other.now.received if m["type"] == "error"]
        assert all(m["code"] == "unavailable" for m in chat_refused), chat_refused
        stored = await _stored(db, ana.table_id)
        assert stored["actions"] == before["actions"], "the stored game changed while away"
        held_for = time.monotonic() - down_at  # the server knew it was down all this time

        proxy.restore()
        back_in = await _ready(proc, True)
        assert back_in < 10, f"ready again only after {back_in:.1f} s"
        assert (await _get(proc, "/api/games")).status_code == 200
        if not chat_refused:  # held while it could not be stored: told now, to both
            for seat in (ana, rui):
                said = await seat.now.until(lambda m: m["type"] == "chat")
                assert said["text"] == "still there?"
        await mover.now.send({"type": "resync", "table_id": mover.table_id, "last_event": 0})
        state = await mover.now.until(lambda m: m["type"] == "table_state")
        assert event_number(state) == top and state["legal"], state
        await mover.now.act(mover.table_id, state["legal"][0], top)
        got = await mover.now.until(_moved_after(top))
        assert got["type"] == "event" and got["kind"] == "action", got
        assert got["seat"] == seat_no and not got["by_bot"], "not the player's own move"
        # Not charged for the outage: at most the time outside it (and a second's slack).
        charged = clock_before - got["clocks"][seat_no]
        outside = time.monotonic() - clock_at - held_for
        assert charged <= outside + 1.0, (
            f"the clock lost {charged:.1f} s; only {outside:.1f} s were outside the outage"
        )

        await other.now.until(lambda m: m["type"] == "event" and m["number"] >= got["number"])
        await play([ana, rui], 200)
        for seat in (ana, rui):
            if not seat.over():
                await seat.now.until(lambda m: m["type"] == "game_over")
        record = await _stored(db, ana.table_id)
        assert record["outcome"] is not None
        consistent([ana, rui], record)
        assert proxy.connections > 1  # the server reached the database again, anew

    run(main)
