"""Shared parts of the server benchmarks (``benchmarks/server.py``): figures, ``/proc``
readings, a fresh PostgreSQL database, the ``trumps serve`` and ``redis-server`` processes,
the server's GC pauses and its cProfile summary.  Nothing here imports the tests."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import pstats
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

HOST: Final = "127.0.0.1"  # loopback only
START_TIMEOUT: Final = 60.0  # seconds the server may take to answer /healthz
STOP_TIMEOUT: Final = 120.0  # seconds a clean shutdown (and writing a profile) may take
CLK_TCK: Final = os.sysconf("SC_CLK_TCK")
EXCEPTION_LINE: Final = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b.*")

Msg = dict[str, Any]


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


def ms(value: float | int | None) -> str:
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
    extra: tuple[str, ...] = ()  # more ``trumps serve`` options (--redis, --node-id)
    name: str = "server"  # names its log and GC files
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.workdir / f"{self.name}.log"

    @property
    def url(self) -> str:
        return f"ws://{HOST}:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def gc_file(self) -> Path:
        return self.workdir / f"{self.name}-gc.json"

    def command(self) -> list[str]:
        prefix = [sys.executable]
        if self.profile is not None:
            prefix += ["-m", "cProfile", "-o", str(self.profile)]
        if self.gc_stats:  # the same CLI, with the collector's pauses written at exit
            boot = self.workdir / f"{self.name}_gc.py"
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
            # Every simulated player connects from this one address.
            "--sockets-per-address", "1000000", *self.extra,
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

    def kill(self) -> None:
        """SIGKILL: no shutdown at all, as when a machine dies."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

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


@dataclass
class RedisProc:
    """A private ``redis-server`` on a free loopback port, without persistence."""

    workdir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self) -> RedisProc:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: give --redis URL")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", HOST, "--save", "", "--appendonly",
             "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 1):
                return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def postgres_pids(database: str | None = None) -> list[int]:
    """The PostgreSQL server's processes on this machine (to read their CPU): the postmaster
    and its shared helpers (WAL writer, checkpointer …), and of the backends (one per
    connection, named ``postgres: USER DATABASE …``) only those serving ``database`` — a
    backend is forked when a connection opens, so list them once the servers are connected;
    other databases' backends are other work on the machine."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if Path(f"/proc/{entry}/comm").read_text().strip() not in (
                    "postgres",
                    "postmaster",
                ):
                    continue
                words = Path(f"/proc/{entry}/cmdline").read_bytes().decode().split()
                backend = len(words) >= 3 and words[0] == "postgres:" and ":" not in words[1]
                if not backend or (database is not None and words[2] == database):
                    out.append(int(entry))
    return out


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds of each process that still exists."""
    out = {}
    for pid in pids:
        cpu = proc_cpu(pid)
        if cpu is not None:
            out[pid] = cpu
    return out


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
