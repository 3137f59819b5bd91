"""End-to-end harness: a real ``trumps serve`` process and real WebSocket clients.

``ServerProc`` starts the server as users do (the ``trumps serve`` command in a subprocess,
on a free loopback port, with an SQLite file or a fresh PostgreSQL database) and can stop it
politely or with ``kill -9``.  ``Client`` is a protocol client over the ``websockets``
package that keeps every message it received, so tests can check whole games afterwards
(``hidden_cards_sent``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

from trumps.games import Game
from trumps.records import replay

TIMEOUT = 30.0  # seconds any single wait may take before the test fails
SECRET = "e2e-secret-0123456789abcdef"

Msg = dict[str, Any]


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test; dropped afterwards."""
    name = f"trumps_e2e_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+asyncpg://postgres@localhost/{name}"
    finally:
        asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _pg_admin(statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect("postgresql://postgres@localhost/test")
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


class ServerProc:
    """One ``trumps serve`` process."""

    def __init__(
        self,
        db: str,
        workdir: Path,
        *,
        seed: int | None = 1000,
        bot_time: float = 0.02,
        rate: tuple[int, int] = (10_000, 1_000_000),
        bot_workers: int = 0,
        bot_pace: str = "instant",  # tests of pacing ask for "normal"; the rest need no wait
        extra: tuple[str, ...] = (),
    ) -> None:
        self.db, self.workdir, self.seed, self.bot_time = db, workdir, seed, bot_time
        self.bot_pace = bot_pace
        self.rate, self.bot_workers, self.extra = rate, bot_workers, extra
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / f"server-{self.port}.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ServerProc:
        args = [
            sys.executable, "-m", "trumps", "serve",
            "--port", str(self.port), "--db", self.db,
            "--secret-file", str(self.workdir / "secret.key"),
            "--bot-time", str(self.bot_time), "--log-level", "warning",
            "--rate", str(self.rate[0]), "--rate-minute", str(self.rate[1]),
            "--bot-workers", str(self.bot_workers), "--bot-pace", self.bot_pace,
            "--sockets-per-address", "1000",  # every test client is one address
            "--creations-per-address", "1000", "--tables-per-address", "1000",
            "--hints-per-address", "100000", "--guests-per-address", "100000",
        ]  # fmt: skip
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        args += self.extra
        env = {**os.environ, "TRUMPS_DATA_DIR": str(self.workdir / "data")}
        env.pop("TRUMPS_SECRET", None)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + TIMEOUT
        while True:  # readiness: the health endpoint answers once migrations and resumes ran
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.http + "/healthz", timeout=1.0).status_code == 200:
                    return self
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not start:\n{self.log.read_text()}")
            time.sleep(0.05)

    def children(self) -> list[int]:
        """Live (not zombie) processes whose parent is the server."""
        assert self.proc is not None
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == self.proc.pid and fields[0] != "Z":
                    found.append(int(stat.parent.name))
        return found

    def kill9(self) -> list[int]:
        """``kill -9`` the server; returns the children it had (e.g. bot workers)."""
        assert self.proc is not None
        children = self.children()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=TIMEOUT)
        return children

    def pause(self) -> None:
        """Freeze the server (SIGSTOP), as a process stalled by its machine."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a frozen server cannot stop
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def deal_from(self, seed: int | None) -> None:
        """Deal the next table from ``seed`` (then seed + 1 …), as a fresh server given
        ``--seed`` would: the server's test-only ``POST /api/test/deals``.  A server that
        deals fairly (``seed`` None) is left as it is."""
        if seed is None:
            return
        answer = self.post("/api/test/deals", json={"seed": seed})
        assert answer.status_code == 204, answer.text

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.get(self.http + path, timeout=TIMEOUT, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.post(self.http + path, timeout=TIMEOUT, **kwargs)


class RedisProc:
    """A Redis server of the test's own on a free port (it can be stopped and started
    without touching the machine's Redis); it keeps nothing on disk."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProc:
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.workdir)]  # fmt: skip
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + TIMEOUT
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock,
            ):
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return self
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=TIMEOUT)


class Client:
    """A protocol client that records every message it receives."""

    def __init__(self, url: str, origin: str | None = None) -> None:
        self.url, self.origin = url, origin  # origin: as the page of that site would send
        self.ws: websockets.ClientConnection | None = None
        self.received: list[Msg] = []
        self._pending: list[Msg] = []
        self.player_id: str | None = None
        self.token: str | None = None
        self.last: dict[str, int] = {}  # table id -> last event number applied

    async def connect(self) -> Client:
        origin = None if self.origin is None else websockets.Origin(self.origin)
        self.ws = await websockets.connect(self.url, max_size=2**22, origin=origin)
        _OPEN.append(self)
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, msg: Msg | str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    async def recv(self) -> Msg:
        if self._pending:
            return self._pending.pop(0)
        assert self.ws is not None
        raw = await asyncio.wait_for(self.ws.recv(), TIMEOUT)
        assert isinstance(raw, str), "the server sends text frames"
        msg: Msg = json.loads(raw)
        self.received.append(msg)
        if msg["type"] == "event":
            self.last[msg["table_id"]] = msg["number"]
        elif msg["type"] == "table_state":
            self.last[msg["table_id"]] = msg["event"]
        return msg

    async def until(self, pred: Callable[[Msg], bool]) -> Msg:
        """Receive until a message matches; the ones before stay readable in ``received``."""
        while True:
            msg = await self.recv()
            if pred(msg):
                return msg

    async def expect(self, kind: str) -> Msg:
        """The next message, which must be a ``kind``; a ``spectators`` list (sent whenever
        someone starts or stops watching) is passed over unless it is the one asked for."""
        msg = await self.recv()
        while msg["type"] == "spectators" and kind != "spectators":
            msg = await self.recv()
        assert msg["type"] == kind, msg
        return msg

    async def act(self, table_id: str, action: str, expected: int) -> None:
        """Send an ``action`` answering event ``expected``."""
        await self.send(
            {"type": "action", "table_id": table_id, "action": action, "expected": expected}
        )

    async def hello(self, name: str, token: str | None = None) -> Msg:
        hello: Msg = {"type": "hello", "protocol": 1, "name": name}
        if token is not None:
            hello["resume_token"] = token
        await self.send(hello)
        welcome = await self.expect("welcome")
        self.player_id, self.token = welcome["player_id"], welcome["resume_token"]
        return welcome

    async def error(self, msg: Msg | str | bytes) -> Msg:
        """Send ``msg`` and return the error it earns."""
        await self.send(msg)
        return await self.expect("error")


_OPEN: list[Client] = []  # clients of the running ``run`` call, closed when it ends


def run(main: Callable[[], Awaitable[None]]) -> None:
    """Run an async test body; every client it opened is closed afterwards, however it ends."""

    async def body() -> None:
        try:
            await main()
        finally:
            while _OPEN:
                await _OPEN.pop().close()

    asyncio.run(body())


async def connected(url: str, name: str, token: str | None = None) -> Client:
    client = await Client(url).connect()
    await client.hello(name, token)
    return client


# ---------------------------------------------------------------- whole-game leak check


def strings_in(obj: Any) -> list[str]:
    """Every string inside a JSON-like value (where a card code could hide)."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in strings_in(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in strings_in(v)]
    return []


def positions_by_event(messages: list[Msg], table_id: str, record: Msg) -> dict[int, Game]:
    """The game after each event number of ``table_id``, rebuilt from its stored record.

    The client must have seen every event from 1 on, as an event or in a snapshot's log
    (it sat or watched from early on): events of kind ``action`` or ``timeout`` that carry an
    action advance the record by one.
    """
    events: dict[int, Msg] = {}
    for m in messages:
        if m.get("table_id") == table_id and m["type"] == "table_state":
            events.update({e["number"]: e for e in m["log"]})
    events.update(
        {m["number"]: m for m in messages if m.get("table_id") == table_id and m["type"] == "event"}
    )
    last = max(events, default=0)
    missing = [n for n in range(1, last + 1) if n not in events]
    assert not missing, f"events {missing[:5]} of {table_id} never arrived"
    game = replay({**record, "actions": [], "outcome": None, "finished": None})
    actions = iter(record["actions"])
    out = {0: game.clone()}
    for number in range(1, last + 1):
        event = events[number]
        if event["kind"] in ("action", "timeout") and event["action"]:
            game.play(next(actions))
        out[number] = game.clone()
    return out


def hidden_cards_sent(
    messages: list[Msg], table_id: str, seat: int | None, record: Msg
) -> list[str]:
    """Every message to ``seat`` (None: a spectator) that showed a card it may not know.

    A card is hidden from ``seat`` when it lies in another seat's hand and that seat's view
    does not list it as known; a spectator may know only public cards (``known``).
    """
    positions = positions_by_event(messages, table_id, record)
    # Before the start a committed game is not dealt (docs/fairness.md): no hand is shown.
    starts = [
        e["number"]
        for m in messages
        if m.get("table_id") == table_id
        for e in ([m] if m["type"] == "event" else m.get("log", []))
        if e.get("kind") == "start"
    ]
    committed = any(
        m.get("table_id") == table_id and m["type"] == "table_state" and m.get("commitment")
        for m in messages
    )  # a server without --seed: the game is dealt only as it starts
    start = min(starts, default=0) if committed else 0
    problems: list[str] = []
    for msg in messages:
        if msg.get("table_id") != table_id or msg["type"] not in ("event", "table_state"):
            continue
        number = msg["number"] if msg["type"] == "event" else msg["event"]
        if number not in positions:
            continue
        game = positions[number]
        hands = game.to_json()["hands"]
        data = json.loads(json.dumps(msg))
        # A card just played is public; a discard (``rob XX``, ``discard XX``) is the actor's
        # secret: every other recipient sees the action as the game shows it.
        entries = [*data.get("log", []), *([data] if msg["type"] == "event" else [])]
        for entry in entries:
            # What the move closed (finished tricks, a finished hand): public, and exactly
            # the game's own answer (the next deal may hold those cards again).
            closed = entry.pop("closed", None)
            at = positions.get(entry.get("number", number))
            if closed is not None and at is not None:
                expected = json.loads(json.dumps(at.closed()))
                if closed != expected:
                    problems.append(f"event {number}: 'closed' is not the game's: {closed}")
            action = entry.get("action") or ""
            if action and entry.get("seat") != seat and game.public_action(action, seat) != action:
                problems.append(f"event {number}: seat {seat} saw another seat's {action!r}")
            entry["action"] = None
        known: set[str] = set()
        view = data.get("view")
        if view is not None:
            shown = view.pop("hands")
            for s, hand in enumerate(shown):
                if s == seat and number < start:
                    if not isinstance(hand, dict) or hand["known"]:
                        problems.append(f"event {number}: seat {s} was shown cards before the deal")
                    continue
                if s == seat:
                    if sorted(hand) != sorted(hands[s]):
                        problems.append(f"event {number}: seat {s} was shown a wrong own hand")
                    continue
                if not isinstance(hand, dict):
                    problems.append(f"event {number}: seat {seat} was sent hand {s}: {hand}")
                    continue
                known |= set(hand["known"])
                if not set(hand["known"]) <= set(hands[s]):
                    problems.append(f"event {number}: known cards of seat {s} are wrong")
        hidden = {
            card for s, hand in enumerate(hands) if s != seat for card in hand if card not in known
        }
        leaked = hidden & set(strings_in(data))
        if leaked:
            problems.append(f"event {number}: seat {seat} was sent hidden cards {sorted(leaked)}")
    return problems
