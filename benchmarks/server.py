"""Server load: simulated players playing real games over WebSockets against ``trumps serve``.

Run: ``python benchmarks/server.py [--players 1000 --games 250 --game twentyfive --seats 4
--duration 30 --think 0.5]``.  Starts the server as users do (``trumps serve`` in a subprocess
on 127.0.0.1 with high rate limits, a fresh SQLite file in a temporary directory, or a fresh
database on the PostgreSQL server named by ``--db``), pins it to one core and this load
generator to another, and plays: each group of ``--seats`` players has one create a private
table of ``human`` seats which the others join by id; they play random legal moves after a
think time (``--think`` mean seconds, exponential or uniform jitter; 0 = as fast as possible)
and start another game when one ends.  Players beyond ``--games`` x ``--seats`` stay connected
in the lobby.  Connections ramp up at ``--ramp`` per second; the measured window of
``--duration`` seconds starts once every table has started its first game.

Figures: connections and concurrent tables held, moves/s, events delivered/s, the latency of
each move from sending its ``action`` to *every* seat at the table receiving the event that
carries it (p50/p90/p99/max), errors by code, the server's CPU (event-loop thread, live worker
threads, threads that came and went) and RSS from ``/proc``, its garbage-collection pauses
(the CLI is started through a small bootstrap that times them; ``--no-gc-stats`` runs plain
``python -m trumps serve``), the server's log warnings, and how busy the rest of the machine
was.  The reference, measured in the same run, is the ``ping`` → ``pong`` round trip on an
idle server before the load and on a spare connection during it: compare ratios across
machines, not absolute figures.  ``--profile`` runs the server under cProfile and prints where
its main thread's time went (by area and by function) after a clean SIGINT shutdown.

Target (issue): 1,000 connected players in 250 concurrent games, p99 under 100 ms, one process.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import os
import pstats
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

HOST: Final = "127.0.0.1"  # loopback only
MAX_PLAYERS: Final = 5000  # a bounded load, whatever the options say
TARGET_P99_MS: Final = 100.0
START_TIMEOUT: Final = 60.0  # seconds the server may take to answer /healthz
STOP_TIMEOUT: Final = 120.0  # seconds a clean shutdown (and writing a profile) may take
DRAIN_TIMEOUT: Final = 5.0  # seconds to wait for moves in flight after the window
CLK_TCK: Final = os.sysconf("SC_CLK_TCK")
EXCEPTION_LINE: Final = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b.*")

Msg = dict[str, Any]
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


# ---------------------------------------------------------------- small helpers


GC_BOOT: Final = """\
# Written by benchmarks/server.py: ``trumps serve`` with its garbage collections timed.
import atexit, gc, json, sys, time

if __name__ == "__main__":
    pauses = []
    started = [0.0, 0.0]

    def timed(phase, info):
        if phase == "start":
            started[:] = [time.time(), time.perf_counter()]
        else:
            pauses.append((started[0], info["generation"], 1000 * (time.perf_counter() - started[1])))

    def dump():
        with open({out!r}, "w") as f:
            json.dump(pauses, f)

    gc.callbacks.append(timed)
    atexit.register(dump)
    from trumps.cli import main

    main(sys.argv[1:])
"""


def percentiles(values: list[float]) -> dict[str, float | int | None]:
    """Count, p50, p90, p99, max and mean (nearest rank) of ``values`` in ms."""
    if not values:
        return {"count": 0, "p50": None, "p90": None, "p99": None, "max": None, "mean": None}
    ordered = sorted(values)
    n = len(ordered)

    def rank(q: float) -> float:
        return ordered[min(n - 1, max(0, int(q * n + 0.999999) - 1))]

    return {
        "count": n,
        "p50": rank(0.50),
        "p90": rank(0.90),
        "p99": rank(0.99),
        "max": ordered[-1],
        "mean": sum(ordered) / n,
    }


def _ms(value: float | int | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def proc_cpu(pid: int, tid: int | None = None) -> float | None:
    """CPU seconds (user + system) of a process, or of one of its threads."""
    path = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    try:
        text = Path(path).read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime


def machine_busy() -> float:
    """CPU seconds every core of the machine has been busy (not idle or waiting) since boot."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / CLK_TCK  # minus idle and iowait


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each live thread of a process, by thread id."""
    out: dict[int, float] = {}
    with contextlib.suppress(OSError):
        for entry in os.listdir(f"/proc/{pid}/task"):
            cpu = proc_cpu(pid, int(entry))
            if cpu is not None:
                out[int(entry)] = cpu
    return out


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid`` and by them (the server's bot workers)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                text = Path(f"/proc/{entry}/stat").read_text()
                children[int(text[text.rindex(")") + 2 :].split()[1])].append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def proc_status(pid: int) -> dict[str, int]:
    """RSS and peak RSS (kB) and the thread count of a process."""
    out: dict[str, int] = {}
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            out[key] = int(value.split()[0])
    return out


def self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def fresh_postgres(url: str) -> Iterator[str]:
    """A new, empty database on the PostgreSQL server of ``url``; dropped afterwards."""
    import asyncpg

    parts = urllib.parse.urlsplit(url)
    admin = urllib.parse.urlunsplit(parts._replace(scheme="postgresql"))
    name = f"trumps_bench_{uuid.uuid4().hex[:12]}"

    async def admin_run(statement: str) -> None:
        conn = await asyncpg.connect(admin)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(admin_run(f'CREATE DATABASE "{name}"'))
    try:
        yield urllib.parse.urlunsplit(parts._replace(path="/" + name))
    finally:
        asyncio.run(admin_run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# ---------------------------------------------------------------- the server process


@dataclass
class ServerProc:
    """One ``trumps serve`` subprocess, optionally under cProfile, pinned to one core."""

    db: str
    workdir: Path
    rate: tuple[int, int]
    cpu: int | None  # the core to pin it to, None: no pinning
    profile: Path | None = None
    gc_stats: bool = True
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.workdir / "server.log"

    @property
    def url(self) -> str:
        return f"ws://{HOST}:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def gc_file(self) -> Path:
        return self.workdir / "gc.json"

    def command(self) -> list[str]:
        prefix = [sys.executable]
        if self.profile is not None:
            prefix += ["-m", "cProfile", "-o", str(self.profile)]
        if self.gc_stats:  # the same CLI, with the collector's pauses written at exit
            boot = self.workdir / "serve_gc.py"
            boot.write_text(GC_BOOT.format(out=str(self.gc_file)))
            prefix.append(str(boot))
        else:
            prefix += ["-m", "trumps"]
        return [
            *prefix, "serve",
            "--host", HOST, "--port", str(self.port), "--db", self.db,
            "--secret-file", str(self.workdir / "secret.key"),
            "--rate", str(self.rate[0]), "--rate-minute", str(self.rate[1]),
            "--bot-time", "0.05", "--log-level", "warning",
        ]  # fmt: skip

    def start(self) -> None:
        env = {**os.environ, "TRUMPS_DATA_DIR": str(self.workdir / "data")}
        env.pop("TRUMPS_SECRET", None)
        mine = os.sched_getaffinity(0)
        if self.cpu is not None:  # the child inherits the affinity it is started with
            os.sched_setaffinity(0, {self.cpu})
        try:
            with self.log.open("ab") as out:
                self.proc = subprocess.Popen(
                    self.command(), stdout=out, stderr=subprocess.STDOUT, env=env
                )
        finally:
            os.sched_setaffinity(0, mine)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{self.log.read_text()}")
            with contextlib.suppress(OSError):
                self.health()
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")
            time.sleep(0.05)

    def health(self) -> Msg:
        with urllib.request.urlopen(f"http://{HOST}:{self.port}/healthz", timeout=5) as r:
            data: Msg = json.loads(r.read())
            return data

    def stop(self) -> tuple[float, int | None]:
        """SIGINT (uvicorn shuts down cleanly, cProfile writes its file); seconds, exit code."""
        if self.proc is None or self.proc.poll() is not None:
            return 0.0, None if self.proc is None else self.proc.returncode
        start = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = None
        return time.monotonic() - start, code

    def log_summary(self, limit: int = 6) -> dict[str, Any]:
        """Warnings and errors the server logged, counted by level, and the first few."""
        levels: collections.Counter[str] = collections.Counter()
        first: list[str] = []
        seen: set[str] = set()
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        exceptions: collections.Counter[str] = collections.Counter()
        for line in text.splitlines():
            if EXCEPTION_LINE.match(line):
                exceptions[line[:160]] += 1
            level = line.split(" ", 1)[0]
            if level in ("WARNING", "ERROR", "CRITICAL"):
                levels[level] += 1
                key = line[:90]
                if key not in seen and len(first) < limit:
                    seen.add(key)
                    first.append(line[:200])
        return {"by_level": dict(levels), "first": first, "exceptions": dict(exceptions)}


# ---------------------------------------------------------------- the simulated players


@dataclass
class Pending:
    """A move sent and not yet seen by every seat."""

    seat: int
    sent: float
    measured: bool
    left: int


@dataclass
class Player:
    index: int
    group: Group
    creator: bool
    ws: ClientConnection | None = None
    table: str | None = None
    seat: int | None = None
    last: int = 0  # the last event number applied at ``table``


@dataclass
class Group:
    """The players sharing one table at a time: one creates it, the others join by id."""

    index: int
    size: int
    players: list[Player] = field(default_factory=list)
    ids: dict[int, asyncio.Future[str | None]] = field(default_factory=dict)
    pending: dict[int, Pending] = field(default_factory=dict)  # event number -> move
    playing: bool = False
    last_move: float = 0.0
    over_left: int = 0
    games: int = 0

    def table_id(self, generation: int) -> asyncio.Future[str | None]:
        if generation not in self.ids:
            self.ids[generation] = asyncio.get_running_loop().create_future()
        return self.ids[generation]


class Load:
    """Every simulated player, the probe connection and the figures they collect."""

    def __init__(self, args: argparse.Namespace, url: str) -> None:
        self.args = args
        self.url = url
        self.rng = random.Random(args.seed)
        self.groups = [Group(g, args.seats) for g in range(args.games)]
        self.players: list[Player] = []
        for group in self.groups:
            for k in range(args.seats):
                player = Player(len(self.players), group, creator=k == 0)
                group.players.append(player)
                self.players.append(player)
        self.idle = [Player(len(self.players) + i, Group(-1, 0), False) for i in range(args.extra)]
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopping = False
        self.window: tuple[float, float] | None = None
        self.wall_window = (0.0, 0.0)  # the same window in time.time(), for the server's data
        self.started_games = 0
        self.active_tables = 0
        self.open_connections = 0
        self.latency: list[float] = []  # ms: action sent -> every seat has the event
        self.ack: list[float] = []  # ms: action sent -> the mover itself has the event
        self.over_latency: list[float] = []  # ms: last action sent -> every seat has game_over
        self.moves_sent = 0
        self.moves_done = 0
        self.games_finished = 0
        self.events = 0
        self.messages = 0
        self.gaps = 0
        self.errors: collections.Counter[str] = collections.Counter()
        self.samples: list[tuple[int, int]] = []  # (open connections, tables in play)
        self.lag: list[float] = []  # ms: how late this process's loop wakes up
        self.ping_load: list[float] = []
        self.gc_pauses: list[float] = []  # ms: this process's full collections in the window
        self._gc_start = 0.0

    def _gc_callback(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._gc_start = time.perf_counter()
        elif self.in_window(self._gc_start):
            self.gc_pauses.append((time.perf_counter() - self._gc_start) * 1000)

    # -- the window --------------------------------------------------------------------
    def in_window(self, t: float) -> bool:
        return self.window is not None and self.window[0] <= t < self.window[1]

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- one player --------------------------------------------------------------------
    async def _send(self, player: Player, msg: Msg) -> None:
        assert player.ws is not None
        await player.ws.send(_encode(msg).decode())

    async def _recv(self, player: Player) -> tuple[Msg, float]:
        assert player.ws is not None
        raw = await player.ws.recv()
        now = time.perf_counter()
        msg: Msg = _decode(raw)
        if self.in_window(now):
            self.messages += 1
        if msg["type"] == "error":
            self.errors[msg["code"]] += 1
        return msg, now

    async def _expect(self, player: Player, kind: str) -> Msg:
        while True:
            msg, now = await self._recv(player)
            if msg["type"] == kind:
                return msg
            if msg["type"] == "error":  # hello, create or join failed
                raise RuntimeError(f"player {player.index}: {msg['code']}: {msg['message']}")
            if msg["type"] == "event":
                self._event(player, msg, now)

    async def run_player(self, player: Player, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            player.ws = await connect(
                self.url,
                compression="deflate" if self.args.compression == "deflate" else None,
                max_size=2**22,
                ping_interval=None,
                open_timeout=60,
                close_timeout=5,
            )
        except (OSError, WebSocketException, TimeoutError) as e:
            self.errors[f"connect:{type(e).__name__}"] += 1
            return
        self.open_connections += 1
        group = player.group
        try:
            await self._send(player, {"type": "hello", "protocol": 1, "name": f"p{player.index}"})
            await self._expect(player, "welcome")
            if group.size == 0:  # an idle player: connected, in the lobby
                await player.ws.wait_closed()
                return
            generation = 0
            while not self.stopping:
                if player.creator:
                    await self._send(
                        player,
                        {
                            "type": "create_table",
                            "game": self.args.game,
                            "seats": ["human"] * group.size,
                            "private": True,
                        },
                    )
                    state = await self._expect(player, "table_state")
                    group.pending.clear()
                    group.table_id(generation).set_result(state["table_id"])
                else:
                    table_id = await group.table_id(generation)
                    if table_id is None:
                        return
                    await self._send(player, {"type": "join_table", "table_id": table_id})
                    state = await self._expect(player, "table_state")
                player.table, player.seat, player.last = (
                    state["table_id"],
                    state["seat"],
                    state["event"],
                )
                await self._play(player)
                generation += 1
        except ConnectionClosed:
            if not self.stopping:
                self.errors["connection_closed"] += 1
        except RuntimeError as e:
            self.errors["setup_failed"] += 1
            if self.errors["setup_failed"] <= 3:
                print(f"  ! {e}", file=sys.stderr)
        finally:
            if player.creator:
                for future in group.ids.values():
                    if not future.done():
                        future.set_result(None)
            self.open_connections -= 1

    async def _play(self, player: Player) -> None:
        """Play at ``player.table`` until its game is over."""
        while True:
            msg, now = await self._recv(player)
            kind = msg["type"]
            if msg.get("table_id") != player.table:
                continue
            if kind == "event":
                self._event(player, msg, now)
            elif kind == "game_over":
                self._game_over(player.group, now)
                return
            elif kind == "table_state":  # the answer to a resync
                player.last = msg["event"]
                self._maybe_move(player, msg["event"], msg["to_move"], msg["legal"])
            elif kind == "error" and msg["code"] in ("stale_event", "not_your_turn"):
                await self._send(
                    player, {"type": "resync", "table_id": player.table, "last_event": player.last}
                )

    def _event(self, player: Player, msg: Msg, now: float) -> None:
        if msg.get("table_id") != player.table:
            return
        group, number = player.group, msg["number"]
        if self.in_window(now):
            self.events += 1
        if number != player.last + 1:
            self.gaps += 1
            self._spawn(
                self._send(
                    player, {"type": "resync", "table_id": player.table, "last_event": player.last}
                )
            )
            return
        player.last = number
        if msg["kind"] == "start" and player.creator:
            group.playing = True
            group.over_left = group.size
            self.started_games += 1
            self.active_tables += 1
        pending = group.pending.get(number)
        if pending is not None and msg["kind"] == "action" and msg["seat"] == pending.seat:
            pending.left -= 1
            if player.seat == pending.seat and pending.measured:
                self.ack.append((now - pending.sent) * 1000)
            if pending.left == 0:
                del group.pending[number]
                if pending.measured:
                    self.latency.append((now - pending.sent) * 1000)
                    self.moves_done += 1
        self._maybe_move(player, number, msg["to_move"], msg["legal"])

    def _game_over(self, group: Group, now: float) -> None:
        group.over_left -= 1
        if group.over_left == 0 and group.playing:
            group.playing = False
            group.games += 1
            self.active_tables -= 1
            if self.in_window(now):
                self.games_finished += 1
                if self.in_window(group.last_move):
                    self.over_latency.append((now - group.last_move) * 1000)

    def _think(self) -> float:
        think: float = self.args.think
        if think <= 0:
            return 0.0
        if self.args.jitter == "uniform":
            return self.rng.uniform(0.0, 2 * think)
        return self.rng.expovariate(1.0 / think)

    def _maybe_move(
        self, player: Player, number: int, to_move: int | None, legal: list[str]
    ) -> None:
        if self.stopping or not legal or to_move != player.seat:
            return
        action = self.rng.choice(legal)
        delay = self._think()
        if delay <= 0:
            self._spawn(self._move(player, number, action))
        else:
            asyncio.get_running_loop().call_later(
                delay, lambda: self._spawn(self._move(player, number, action))
            )

    async def _move(self, player: Player, number: int, action: str) -> None:
        if self.stopping or player.last != number or player.ws is None:
            return
        sent = time.perf_counter()
        group = player.group
        assert player.seat is not None
        measured = self.in_window(sent)
        group.pending[number + 1] = Pending(player.seat, sent, measured, group.size)
        group.last_move = sent
        if measured:
            self.moves_sent += 1
        with contextlib.suppress(ConnectionClosed):
            await self._send(
                player,
                {"type": "action", "table_id": player.table, "action": action, "expected": number},
            )

    # -- the reference: ping round trips ------------------------------------------------
    async def probe(self) -> ClientConnection:
        ws = await connect(self.url, ping_interval=None, max_size=2**22)
        await ws.send(_encode({"type": "hello", "protocol": 1, "name": "probe"}).decode())
        while _decode(await ws.recv())["type"] != "welcome":
            pass
        return ws

    @staticmethod
    async def ping(ws: ClientConnection, nonce: int) -> float:
        start = time.perf_counter()
        await ws.send(_encode({"type": "ping", "nonce": nonce}).decode())
        while True:
            msg = _decode(await ws.recv())
            if msg["type"] == "pong" and msg.get("nonce") == nonce:
                return (time.perf_counter() - start) * 1000

    async def idle_pings(self, ws: ClientConnection, count: int) -> list[float]:
        out = []
        for nonce in range(count):
            out.append(await self.ping(ws, nonce))
            await asyncio.sleep(0.005)
        return out

    async def load_pings(self, ws: ClientConnection) -> None:
        nonce = 10**6
        while not self.stopping:
            nonce += 1
            rtt = await self.ping(ws, nonce)
            if self.window is not None and self.in_window(time.perf_counter()):
                self.ping_load.append(rtt)
            await asyncio.sleep(0.1)

    async def watch(self) -> None:
        """Sample connections and tables in play, and this process's own loop lag."""
        step = 0.05
        next_sample = time.perf_counter()
        while not self.stopping:
            before = time.perf_counter()
            await asyncio.sleep(step)
            now = time.perf_counter()
            if self.in_window(now):
                self.lag.append((now - before - step) * 1000)
                if now >= next_sample:
                    self.samples.append((self.open_connections, self.active_tables))
                    next_sample = now + 0.5

    # -- the whole run ------------------------------------------------------------------
    async def run(self, server: ServerProc) -> dict[str, Any]:
        args = self.args
        probe = await self.probe()
        idle = await self.idle_pings(probe, args.pings)
        watcher = asyncio.ensure_future(self.watch())
        gc.callbacks.append(self._gc_callback)
        everyone = self.players + self.idle
        ramp_start = time.perf_counter()
        players = [
            asyncio.ensure_future(self.run_player(p, i / args.ramp)) for i, p in enumerate(everyone)
        ]
        deadline = ramp_start + len(everyone) / args.ramp + 60
        while time.perf_counter() < deadline:
            groups_up = sum(1 for g in self.groups if g.games > 0 or g.playing)
            if groups_up == len(self.groups) and self.open_connections == len(everyone):
                break
            await asyncio.sleep(0.05)
        ramp = time.perf_counter() - ramp_start
        ramp_ok = self.open_connections == len(everyone) and self.active_tables == args.games

        # Keep this process's own full collections (every connection's objects scanned
        # again and again) out of the measured latencies.
        gc.collect()
        gc.freeze()
        pinger = asyncio.ensure_future(self.load_pings(probe))
        cpu0, threads0, mine0 = proc_cpu(server.pid), thread_cpu(server.pid), self_cpu()
        busy0 = machine_busy()
        kids = descendants(server.pid)
        kids0 = sum(proc_cpu(k) or 0.0 for k in kids)
        status0 = proc_status(server.pid)
        start = time.perf_counter()
        self.window = (start, start + args.duration)
        wall_start = time.time()
        await asyncio.sleep(args.duration)
        end = time.perf_counter()
        self.wall_window = (wall_start, time.time())
        cpu1, threads1, mine1 = proc_cpu(server.pid), thread_cpu(server.pid), self_cpu()
        busy1 = machine_busy()
        kids1 = sum(proc_cpu(k) or 0.0 for k in kids)
        kids_rss = sum(proc_status(k).get("VmRSS", 0) for k in kids) / 1024
        status1 = proc_status(server.pid)
        try:
            health: Msg | None = await asyncio.to_thread(server.health)
        except OSError:
            health = None
        held = self.open_connections
        tables_now = self.active_tables
        self.stopping = True
        drain_end = time.perf_counter() + DRAIN_TIMEOUT
        while any(p.measured for g in self.groups for p in g.pending.values()):
            if time.perf_counter() > drain_end:
                break
            await asyncio.sleep(0.02)
        lost = sum(1 for g in self.groups for p in g.pending.values() if p.measured)

        gc.callbacks.remove(self._gc_callback)
        for task in (pinger, watcher):
            task.cancel()
        closing = [p.ws.close() for p in everyone if p.ws is not None]
        await asyncio.gather(*closing, probe.close(), return_exceptions=True)
        for task in players:
            task.cancel()
        await asyncio.gather(*players, pinger, watcher, *self.tasks, return_exceptions=True)

        wall = end - start

        def share(a: float | None, b: float | None) -> float | None:
            return None if a is None or b is None else 100 * (b - a) / wall

        # The event loop runs on the main thread; the others are the database driver's and
        # the executor's workers (alive at the end) and short-lived ones (exited meanwhile).
        main0, main1 = threads0.get(server.pid), threads1.get(server.pid)
        workers = sum(
            cpu - threads0.get(tid, 0.0) for tid, cpu in threads1.items() if tid != server.pid
        )
        exited = None
        if None not in (cpu0, cpu1, main0, main1):
            exited = (cpu1 or 0) - (cpu0 or 0) - ((main1 or 0) - (main0 or 0)) - workers
        others = (busy1 - busy0) - ((cpu1 or 0) - (cpu0 or 0)) - (kids1 - kids0) - (mine1 - mine0)
        conns = [c for c, _ in self.samples] or [held]
        tables = [t for _, t in self.samples] or [tables_now]
        return {
            "ramp_s": ramp,
            "ramp_complete": ramp_ok,
            "window_s": wall,
            "connections_held": {"min": min(conns), "max": max(conns), "at_end": held},
            "tables_in_play": {
                "min": min(tables),
                "mean": sum(tables) / len(tables),
                "max": max(tables),
            },
            "server_view": health,
            "moves_sent": self.moves_sent,
            "moves_completed": self.moves_done,
            "moves_lost": lost,
            "moves_per_s": self.moves_done / wall,
            "events_delivered_per_s": self.events / wall,
            "messages_received_per_s": self.messages / wall,
            "games_started_total": self.started_games,
            "games_finished_in_window": self.games_finished,
            "event_gaps": self.gaps,
            "errors": dict(self.errors),
            "latency_ms": percentiles(self.latency),
            "mover_echo_ms": percentiles(self.ack),
            "game_over_ms": percentiles(self.over_latency),
            "reference": {
                "idle_ping_ms": percentiles(idle),
                "load_ping_ms": percentiles(self.ping_load),
            },
            "server": {
                "pid": server.pid,
                "cpu_percent": share(cpu0, cpu1),
                "loop_thread_cpu_percent": share(main0, main1),
                "live_worker_threads_cpu_percent": 100 * workers / wall,
                "exited_threads_cpu_percent": None if exited is None else 100 * exited / wall,
                "rss_mb_start": status0.get("VmRSS", 0) / 1024,
                "rss_mb_end": status1.get("VmRSS", 0) / 1024,
                "rss_mb_peak": status1.get("VmHWM", 0) / 1024,
                "threads_end": status1.get("Threads"),
                "child_processes": len(kids),
                "child_cpu_percent": 100 * (kids1 - kids0) / wall,
                "child_rss_mb": kids_rss,
            },
            "load_generator": {
                "cpu_percent": 100 * (mine1 - mine0) / wall,
                "loop_lag_ms": percentiles(self.lag),
                "full_gc_ms": percentiles(self.gc_pauses),
            },
            "machine": {
                "cores": os.cpu_count(),
                "other_processes_cpu_percent": 100 * others / wall,
                "loadavg_end": Path("/proc/loadavg").read_text().split()[:3],
            },
        }


def gc_summary(path: Path, window: tuple[float, float]) -> dict[str, Any]:
    """The server's collections that started in the window, by generation (ms)."""
    pauses: list[list[float]] = json.loads(path.read_text())
    inside = [(int(g), ms) for t, g, ms in pauses if window[0] <= t < window[1]]
    by_gen: dict[str, dict[str, float]] = {}
    for gen in (0, 1, 2):
        mine = [ms for g, ms in inside if g == gen]
        by_gen[str(gen)] = {
            "count": len(mine),
            "total_ms": sum(mine),
            "max_ms": max(mine, default=0.0),
        }
    total = sum(ms for _, ms in inside)
    return {
        "total_ms": total,
        "share_percent": 100 * total / 1000 / max(1e-9, window[1] - window[0]),
        "by_generation": by_gen,
    }


# ---------------------------------------------------------------- the profile


def _where(key: tuple[str, int, str]) -> str:
    path, line, name = key
    if path == "~":
        return name
    for marker in ("site-packages/", "/src/", "/lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{name}  ({path}:{line})"


AREAS: Final = (  # (area, substrings of a function's file or built-in name), first match wins
    (
        "database: SQLAlchemy, drivers",
        ("trumps/store", "sqlalchemy", "aiosqlite", "asyncpg", "sqlite3", "greenlet"),
    ),
    ("WebSocket transport: uvicorn, websockets, zlib", ("uvicorn", "websockets", "zlib")),
    ("ASGI framework: starlette", ("starlette",)),
    ("rate limiter: limits", ("limits/",)),
    (
        "game engine: trumps.games, cards, records",
        ("trumps/games", "trumps/cards", "records.py", "Core' objects"),
    ),
    ("server logic: trumps.server", ("trumps/server",)),
    ("JSON: msgspec, json", ("msgspec", "json/")),
    ("asyncio, uvloop, threads, queues", ("asyncio", "uvloop", "threading", "queue", "_thread")),
)


def _area(key: tuple[str, int, str]) -> str:
    where = key[0] if key[0] != "~" else key[2]
    for area, needles in AREAS:
        if any(needle in where for needle in needles):
            return area
    return "other"


def profile_top(path: Path, count: int = 20) -> dict[str, list[dict[str, Any]]]:
    """The top functions of a cProfile file, by cumulative and by own time."""
    stats = pstats.Stats(str(path))
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for _, _, tt, _, _ in raw.values()) or 1.0
    rows: list[dict[str, Any]] = [
        {
            "function": _where(key),
            "calls": nc,
            "own_s": tt,
            "cumulative_s": ct,
            "own_percent": 100 * tt / total,
        }
        for key, (_, nc, tt, ct, _) in raw.items()
    ]
    areas: dict[str, float] = collections.defaultdict(float)
    for key, (_, _, tt, _, _) in raw.items():
        areas[_area(key)] += tt
    return {
        "total_own_s": [{"seconds": total}],
        "areas": [
            {"area": area, "own_s": tt, "own_percent": 100 * tt / total}
            for area, tt in sorted(areas.items(), key=lambda item: -item[1])
        ],
        "cumulative": sorted(rows, key=lambda r: -r["cumulative_s"])[:count],
        "own": sorted(rows, key=lambda r: -r["own_s"])[:count],
    }


# ---------------------------------------------------------------- report


def report(args: argparse.Namespace, db_kind: str, fig: dict[str, Any], cpus: str) -> None:
    lat, ref = fig["latency_ms"], fig["reference"]
    idle, busy = ref["idle_ping_ms"], ref["load_ping_ms"]
    srv, gen = fig["server"], fig["load_generator"]
    print(
        f"trumps server load: {args.players} players, {args.games} tables of {args.seats} "
        f"({args.game}), think {args.think:g} s ({args.jitter}), {fig['window_s']:.1f} s window, "
        f"{db_kind}, compression {args.compression}, {cpus}"
        + (", UNDER cProfile (latencies inflated)" if args.profile else "")
    )
    conns, tables = fig["connections_held"], fig["tables_in_play"]
    print(
        f"  ramp                      {fig['ramp_s']:.1f} s"
        + ("" if fig["ramp_complete"] else "  (INCOMPLETE: not every player or table got up)")
    )
    print(f"  connections held          {conns['min']}-{conns['max']} (at end {conns['at_end']})")
    print(
        f"  tables in play            min {tables['min']}, mean {tables['mean']:.0f}, "
        f"max {tables['max']}"
    )
    sv = fig["server_view"]
    if sv:
        print(
            f"  server /healthz           {sv['connections']} connections, {sv['tables']} tables "
            f"({sv['running']} running)"
        )
    print(
        f"  moves/s                   {fig['moves_per_s']:,.1f}   ({fig['moves_completed']:,} "
        f"completed, {fig['moves_lost']} lost, {fig['games_finished_in_window']} games finished)"
    )
    print(f"  events delivered/s        {fig['events_delivered_per_s']:,.0f}")
    print(f"  messages received/s       {fig['messages_received_per_s']:,.0f}")
    met = lat["p99"] is not None and lat["p99"] < TARGET_P99_MS
    print(
        f"  move -> every seat, ms    p50 {_ms(lat['p50'])}  p90 {_ms(lat['p90'])}  "
        f"p99 {_ms(lat['p99'])}  max {_ms(lat['max'])}   "
        f"target p99 < {TARGET_P99_MS:.0f}: {'MET' if met else 'NOT MET'}"
    )
    echo, over = fig["mover_echo_ms"], fig["game_over_ms"]
    print(f"  move -> mover's echo, ms  p50 {_ms(echo['p50'])}  p99 {_ms(echo['p99'])}")
    print(
        f"  last move -> game_over    p50 {_ms(over['p50'])}  p99 {_ms(over['p99'])}  "
        f"(n={over['count']}; includes storing the record)"
    )
    errors = ", ".join(f"{k} {v}" for k, v in sorted(fig["errors"].items())) or "none"
    print(f"  errors                    {errors}; event gaps {fig['event_gaps']}")
    print(
        f"  server CPU                {_ms(srv['cpu_percent'])} % of a core "
        f"(event-loop thread {_ms(srv['loop_thread_cpu_percent'])} %, worker threads "
        f"{_ms(srv['live_worker_threads_cpu_percent'])} %, threads that exited meanwhile "
        f"{_ms(srv['exited_threads_cpu_percent'])} %), "
        f"RSS {srv['rss_mb_start']:.0f} -> {srv['rss_mb_end']:.0f} MB "
        f"(peak {srv['rss_mb_peak']:.0f}), {srv['threads_end']} threads"
    )
    if srv["child_processes"]:
        print(
            f"  server's child processes  {srv['child_processes']} (bot worker pool), "
            f"{srv['child_cpu_percent']:.1f} % of a core, RSS {srv['child_rss_mb']:.0f} MB"
        )
    gcs = fig.get("server_gc")
    if gcs:
        parts = [
            f"gen{g} {v['count']} x, max {v['max_ms']:.0f} ms"
            for g, v in sorted(gcs["by_generation"].items())
        ]
        print(
            f"  server GC pauses          {gcs['total_ms']:.0f} ms in the window "
            f"({gcs['share_percent']:.1f} %): " + "; ".join(parts)
        )
    lag = gen["loop_lag_ms"]
    print(
        f"  load generator CPU        {gen['cpu_percent']:.0f} % of a core, loop lag "
        f"p99 {_ms(lag['p99'])} ms max {_ms(lag['max'])} ms, {gen['full_gc_ms']['count']} full "
        f"collections (max {_ms(gen['full_gc_ms']['max'])} ms)"
    )
    machine = fig["machine"]
    print(
        f"  other processes here      {machine['other_processes_cpu_percent']:.0f} % of a core "
        f"busy meanwhile (load average {' '.join(machine['loadavg_end'])}; "
        f"{machine['cores']} cores)"
    )
    print("  reference: ping -> pong round trip on a spare connection")
    print(
        f"    idle, before the load   p50 {_ms(idle['p50'])}  p99 {_ms(idle['p99'])} ms "
        f"(n={idle['count']})"
    )
    print(
        f"    during the load         p50 {_ms(busy['p50'])}  p99 {_ms(busy['p99'])} ms "
        f"(n={busy['count']})"
    )
    if idle["p50"] and lat["p50"] is not None:
        print(
            f"    ratios to idle p50      move p50 x{lat['p50'] / idle['p50']:.1f}, move p99 "
            f"x{lat['p99'] / idle['p50']:.1f}, loaded ping p50 "
            f"x{(busy['p50'] or 0) / idle['p50']:.1f}"
        )
    logs = fig.get("server_log", {})
    if logs.get("by_level"):
        print(f"  server log                {logs['by_level']}")
        for line in logs["first"]:
            print(f"    {line}")
        for line, n in logs.get("exceptions", {}).items():
            print(f"    {n} x {line}")
    stop = fig.get("server_stop", {})
    print(
        f"  server stop               {stop.get('seconds', 0):.1f} s, exit code {stop.get('code')}"
    )


def print_profile(top: dict[str, list[dict[str, Any]]]) -> None:
    total = top["total_own_s"][0]["seconds"]
    print(f"  profile of the server's main thread ({total:.1f} s profiled), own time by area:")
    for row in top["areas"]:
        print(f"    {row['own_s']:8.2f} s {row['own_percent']:5.1f} %  {row['area']}")
    print(
        "  top by cumulative (coroutines resumed many times and greenlet switches make these "
        "overlap and overcount; own time is the reliable column):"
    )
    for row in top["cumulative"]:
        print(f"    {row['cumulative_s']:8.2f} s  {row['calls']:>9,}  {row['function']}")
    print("  top by own time:")
    for row in top["own"]:
        print(
            f"    {row['own_s']:8.2f} s {row['own_percent']:5.1f} %  {row['calls']:>9,}  "
            f"{row['function']}"
        )


# ---------------------------------------------------------------- main


def _pin() -> tuple[int | None, int | None, str]:
    """One core for the server, another for this process (when there are two)."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return None, None, f"{len(cores)} core, not pinned"
    return cores[0], cores[1], f"server on core {cores[0]}, players on core {cores[1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="connected players")
    parser.add_argument("--games", type=int, default=250, help="concurrent tables")
    parser.add_argument("--game", choices=["twentyfive", "kozyri"], default="twentyfive")
    parser.add_argument("--seats", type=int, default=4, help="seats per table (all people)")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time per move, s")
    parser.add_argument("--jitter", choices=["exp", "uniform"], default="exp")
    parser.add_argument("--ramp", type=float, default=200.0, help="new connections per second")
    parser.add_argument(
        "--db", help="a PostgreSQL URL (postgresql+asyncpg://...): a fresh database is made there"
    )
    parser.add_argument("--compression", choices=["deflate", "none"], default="deflate")
    parser.add_argument("--pings", type=int, default=200, help="idle pings for the reference")
    parser.add_argument("--seed", type=int, default=1, help="the players' random seed")
    parser.add_argument("--no-pin", action="store_true", help="do not pin processes to cores")
    parser.add_argument(
        "--no-gc-stats",
        action="store_true",
        help="run plain `python -m trumps serve` (default: the same CLI through a small "
        "bootstrap that times the server's garbage collections)",
    )
    parser.add_argument("--profile", nargs="?", const="", metavar="FILE", default=None)
    parser.add_argument("--json", metavar="FILE", help="write every figure to FILE")
    args = parser.parse_args()
    if not 2 <= args.seats <= 8:
        parser.error("--seats is 2-8")
    if args.games < 1 or args.players < args.games * args.seats:
        parser.error("--players must be at least --games x --seats")
    if args.players > MAX_PLAYERS:
        parser.error(f"at most {MAX_PLAYERS} players")
    if args.db is not None and not args.db.startswith("postgresql+asyncpg://"):
        parser.error("--db takes a postgresql+asyncpg:// URL (SQLite is the default)")
    args.extra = args.players - args.games * args.seats
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 2 * args.players + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    server_cpu, client_cpu, cpus = (None, None, "not pinned") if args.no_pin else _pin()
    with (
        tempfile.TemporaryDirectory(prefix="trumps-bench-") as tmp,
        contextlib.ExitStack() as stack,
    ):
        workdir = Path(tmp)
        if args.db is None:
            db, db_kind = f"sqlite+aiosqlite:///{workdir / 'bench.db'}", "SQLite"
        else:
            db, db_kind = stack.enter_context(fresh_postgres(args.db)), "PostgreSQL"
        profile = None
        if args.profile is not None:
            profile = Path(args.profile) if args.profile else workdir / "server.prof"
        server = ServerProc(
            db, workdir, (1000, 100_000), server_cpu, profile, gc_stats=not args.no_gc_stats
        )
        server.start()
        if client_cpu is not None:
            os.sched_setaffinity(0, {client_cpu})
        figures: dict[str, Any] = {}
        try:
            try:
                import uvloop

                runner: Any = uvloop.run
            except ImportError:
                runner = asyncio.run
            load = Load(args, server.url)
            figures = runner(load.run(server))
        finally:
            seconds, code = server.stop()
            figures["server_stop"] = {"seconds": seconds, "code": code}
            figures["server_log"] = server.log_summary()
            if server.gc_stats and server.gc_file.exists() and "window_s" in figures:
                figures["server_gc"] = gc_summary(server.gc_file, load.wall_window)
        figures["options"] = dict(vars(args))
        figures["db"] = db_kind
        figures["command"] = server.command()
        report(args, db_kind, figures, cpus)
        if profile is not None:
            if profile.exists():
                top = profile_top(profile)
                figures["profile"] = top
                print_profile(top)
            else:
                print("  (no profile was written: the server did not exit cleanly)")
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
