"""The simulated players of ``benchmarks/server.py`` and the figures they collect.

Each group of ``--seats`` players shares one table at a time: one creates a private table of
``human`` seats, the others join it by id; they play random legal moves after a think time
and start another game when one ends.  Players beyond the tables stay connected in the
lobby.  With several server processes, the players are spread over them so that the seats
of one table sit on different processes (every move and event crosses the bus).

A ``Load`` is ramped up once (``start``), measured in one or more windows (``measure``; the
think time may change between windows) and closed (``close``).  ``reconnect`` makes a player
whose process died connect again, with its resume token, to a live one (the failover run);
``verify`` keeps every event received so that ``check_store`` can compare them with the
stored games afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import os
import random
import time
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from benchmarks.server_common import (
    Msg,
    ServerProc,
    cpu_of,
    descendants,
    machine_busy,
    percentiles,
    proc_cpu,
    proc_status,
    self_cpu,
    thread_cpu,
)

DRAIN_TIMEOUT: Final = 5.0  # seconds to wait for moves in flight after the window
RECONNECT_EVERY: Final = 0.2  # seconds between a dead player's attempts to come back
SETUP_TIMEOUT: Final = 30.0  # seconds a create or join may take while processes die

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


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
    home: int = 0  # the server process it connects to (an index into the URLs)
    ws: ClientConnection | None = None
    token: str | None = None
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
    table: str | None = None  # the table of the current game
    owner: int = 0  # the process its creator was on when it created it

    def table_id(self, generation: int) -> asyncio.Future[str | None]:
        if generation not in self.ids:
            self.ids[generation] = asyncio.get_running_loop().create_future()
        return self.ids[generation]


@dataclass
class Affected:
    """A table whose owner was killed: when it was seated again and moved again."""

    group: Group
    reseated: float | None = None  # a table_state from the new owner, after the kill
    moved: float | None = None  # the first move event after that
    seated: set[int] = field(default_factory=set)  # players given a table_state since


class Load:
    """Every simulated player, the probe connection and the figures they collect."""

    def __init__(
        self,
        args: argparse.Namespace,
        urls: Sequence[str],
        *,
        reconnect: bool = False,
        verify: bool = False,
    ) -> None:
        self.args = args
        self.urls = list(urls)
        self.think = float(args.think)
        self.reconnect = reconnect
        self.verify = verify
        self.dead: set[int] = set()  # processes killed
        self.rng = random.Random(args.seed)
        self.groups = [Group(g, args.seats) for g in range(args.games)]
        self.players: list[Player] = []
        n = len(self.urls)
        for group in self.groups:
            for k in range(args.seats):
                player = Player(len(self.players), group, creator=k == 0)
                player.home = (group.index + k) % n  # creators alternate; seats alternate
                group.players.append(player)
                self.players.append(player)
        self.idle = [
            Player(len(self.players) + i, Group(-1, 0), False, home=i % n)
            for i in range(args.extra)
        ]
        self.tasks: set[asyncio.Task[None]] = set()
        self.player_tasks: list[asyncio.Task[None]] = []
        self.stopping = False
        self.window: tuple[float, float] | None = None
        self.started_games = 0
        self.active_tables = 0
        self.open_connections = 0
        self.ramp = 0.0
        self.ramp_ok = False
        self.idle_pings: list[float] = []
        self.probe_ws: ClientConnection | None = None
        self._background: list[asyncio.Task[None]] = []
        # What every client received, by table: event number -> (kind, seat, action).
        self.seen: dict[str, dict[int, tuple[str, int | None, str | None]]] = {}
        self.conflicts = 0  # an event number received with two different contents
        self.killed_at: float | None = None
        self.affected: dict[str, Affected] = {}
        self.reconnects = 0
        self.came_back: set[int] = set()  # players that reconnected after a kill
        self.reset()

    def reset(self) -> None:
        """Empty the figures of one window."""
        self.latency: list[float] = []  # ms: action sent -> every seat has the event
        self.latency_at: list[float] = []  # when each of those completed
        self.ack: list[float] = []  # ms: action sent -> the mover itself has the event
        self.over_latency: list[float] = []  # ms: last action sent -> every seat has game_over
        self.moves_sent = 0
        self.moves_done = 0
        self.games_finished = 0
        self.events = 0
        self.messages = 0
        self.bytes = 0
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
        if player.ws is None:
            return
        try:
            await player.ws.send(_encode(msg).decode())
        except ConnectionClosed:
            if not self.reconnect:
                raise  # else: lost with its process, as a real client's would be

    async def _open(self, player: Player) -> None:
        """Connect (again) to the player's process and say hello (with its token)."""
        player.ws = await connect(
            self.urls[player.home],
            compression="deflate" if self.args.compression == "deflate" else None,
            max_size=2**22,
            ping_interval=None,
            open_timeout=60,
            close_timeout=5,
        )
        hello: Msg = {"type": "hello", "protocol": 1, "name": f"p{player.index}"}
        if player.token is not None:
            hello["resume_token"] = player.token
        await player.ws.send(_encode(hello).decode())

    async def _come_back(self, player: Player) -> None:
        """The player's process died: connect to a live one with the resume token."""
        live = [i for i in range(len(self.urls)) if i not in self.dead]
        player.home = live[player.index % len(live)]
        while not self.stopping:
            try:
                await self._open(player)
                self.reconnects += 1
                self.came_back.add(player.index)
                return
            except (OSError, WebSocketException, TimeoutError):
                await asyncio.sleep(RECONNECT_EVERY)

    async def _recv(self, player: Player) -> tuple[Msg, float]:
        while True:
            assert player.ws is not None
            try:
                raw = await player.ws.recv(decode=False)
            except ConnectionClosed:
                if not self.reconnect or self.stopping or player.home not in self.dead:
                    raise
                await self._come_back(player)
                continue
            now = time.perf_counter()
            msg: Msg = _decode(raw)
            if self.in_window(now):
                self.messages += 1
                self.bytes += len(raw)
            kind = msg["type"]
            if kind == "error":
                self.errors[msg["code"]] += 1
            elif kind == "welcome":
                player.token = msg["resume_token"]
            elif kind == "table_state" and self.killed_at is not None:
                hit = self.affected.get(msg["table_id"])
                if hit is not None and player.home not in self.dead:
                    hit.seated.add(player.index)
                    if hit.reseated is None:
                        hit.reseated = now
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

    async def _setup(self, player: Player, kind: str) -> Msg:
        """``_expect``, bounded while processes are being killed (a lost create or join)."""
        if not self.reconnect:
            return await self._expect(player, kind)
        return await asyncio.wait_for(self._expect(player, kind), SETUP_TIMEOUT)

    async def run_player(self, player: Player, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self._open(player)
        except (OSError, WebSocketException, TimeoutError) as e:
            self.errors[f"connect:{type(e).__name__}"] += 1
            return
        self.open_connections += 1
        group = player.group
        try:
            await self._expect(player, "welcome")
            if group.size == 0:  # an idle player: connected, in the lobby
                while True:  # (and back after its process died, in the failover run)
                    await self._recv(player)
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
                    state = await self._setup(player, "table_state")
                    group.pending.clear()
                    group.table, group.owner = state["table_id"], player.home
                    group.table_id(generation).set_result(state["table_id"])
                else:
                    table_id = await group.table_id(generation)
                    if table_id is None:
                        return
                    await self._send(player, {"type": "join_table", "table_id": table_id})
                    state = await self._setup(player, "table_state")
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
        except (RuntimeError, TimeoutError) as e:
            self.errors["setup_failed"] += 1
            if self.errors["setup_failed"] <= 3:
                print(f"  ! player {player.index}: {str(e) or type(e).__name__}")
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
            elif kind == "table_state":  # the answer to a resync, or seated again
                player.last = msg["event"]
                if self.killed_at is not None:  # moves sent to a dead owner are gone
                    player.group.pending.clear()
                self._maybe_move(player, msg["event"], msg["to_move"], msg["legal"])
            elif kind == "error" and msg["code"] in ("stale_event", "not_your_turn"):
                await self._send(
                    player, {"type": "resync", "table_id": player.table, "last_event": player.last}
                )

    def _event(self, player: Player, msg: Msg, now: float) -> None:
        if msg.get("table_id") != player.table:
            return
        group, number = player.group, msg["number"]
        if self.verify:
            self._seen(msg)
        if self.in_window(now):
            self.events += 1
        if msg["kind"] in ("action", "timeout") and self.killed_at is not None:
            hit = self.affected.get(msg["table_id"])
            if hit is not None and hit.reseated is not None and hit.moved is None:
                hit.moved = now
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
                    self.latency_at.append(now)
                    self.moves_done += 1
        self._maybe_move(player, number, msg["to_move"], msg["legal"])

    def _seen(self, msg: Msg) -> None:
        """Keep an event for ``check_store``; the same number must carry the same move
        wherever it was received (only the mover sees a hidden card: "rob TS", the others
        "rob")."""
        key = (msg["kind"], msg.get("seat"), msg.get("action"))
        table = self.seen.setdefault(msg["table_id"], {})
        old = table.setdefault(msg["number"], key)
        if old == key:
            return
        if old[:2] == key[:2] and same_move(old[2], key[2]):
            if len(key[2] or "") > len(old[2] or ""):
                table[msg["number"]] = key  # the mover's own, fuller text
            return
        self.conflicts += 1

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
        think = self.think
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
        ws = await connect(self.urls[0], ping_interval=None, max_size=2**22)
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

    async def _idle_pings(self, ws: ClientConnection, count: int) -> list[float]:
        out = []
        for nonce in range(count):
            out.append(await self.ping(ws, nonce))
            await asyncio.sleep(0.005)
        return out

    async def load_pings(self, ws: ClientConnection) -> None:
        nonce = 10**6
        with contextlib.suppress(ConnectionClosed):
            while not self.stopping:
                nonce += 1
                rtt = await self.ping(ws, nonce)
                if self.in_window(time.perf_counter()):
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

    # -- the run --------------------------------------------------------------------------
    @property
    def everyone(self) -> list[Player]:
        return self.players + self.idle

    async def start(self) -> None:
        """The reference pings, then every player connected and every table playing."""
        args = self.args
        self.probe_ws = await self.probe()
        self.idle_pings = await self._idle_pings(self.probe_ws, args.pings)
        self._background.append(asyncio.ensure_future(self.watch()))
        gc.callbacks.append(self._gc_callback)
        everyone = self.everyone
        ramp_start = time.perf_counter()
        self.player_tasks = [
            asyncio.ensure_future(self.run_player(p, i / args.ramp)) for i, p in enumerate(everyone)
        ]
        deadline = ramp_start + len(everyone) / args.ramp + 60
        while time.perf_counter() < deadline:
            groups_up = sum(1 for g in self.groups if g.games > 0 or g.playing)
            if groups_up == len(self.groups) and self.open_connections == len(everyone):
                break
            await asyncio.sleep(0.05)
        self.ramp = time.perf_counter() - ramp_start
        self.ramp_ok = self.open_connections == len(everyone) and self.active_tables == args.games
        # Keep this process's own full collections (every connection's objects scanned
        # again and again) out of the measured latencies.
        gc.collect()
        gc.freeze()
        self._background.append(asyncio.ensure_future(self.load_pings(self.probe_ws)))

    async def measure(
        self,
        servers: Sequence[ServerProc],
        duration: float,
        *,
        helpers: Sequence[int] = (),
        sample_every: float = 0.0,
    ) -> dict[str, Any]:
        """One window of ``duration`` seconds: its figures.  ``helpers`` are other processes
        the service needs (Redis, PostgreSQL) whose CPU counts too; ``sample_every`` > 0
        samples each server's RSS and ``/healthz`` that often (the soak)."""
        self.reset()
        live = [s for s in servers if s.alive()]
        before = [_server_reading(s) for s in live]
        helpers0 = cpu_of(list(helpers))
        mine0, busy0 = self_cpu(), machine_busy()
        start = time.perf_counter()
        self.window = (start, start + duration)
        wall_start = time.time()
        timeline: list[dict[str, Any]] = []
        if sample_every > 0:
            next_at = start
            while (now := time.perf_counter()) < start + duration:
                if now >= next_at:
                    timeline.append(await self._sample(live, now - start))
                    next_at += sample_every
                await asyncio.sleep(min(next_at, start + duration) - now)
            timeline.append(await self._sample(live, time.perf_counter() - start))
        else:
            await asyncio.sleep(duration)
        end = time.perf_counter()
        wall = end - start
        after = [_server_reading(s) for s in live]
        helpers1 = cpu_of(list(helpers))
        mine1, busy1 = self_cpu(), machine_busy()
        health: list[Msg | None] = []
        for s in live:
            try:
                health.append(await asyncio.to_thread(s.health))
            except OSError:
                health.append(None)
        self.window = (start, end)  # moves still in flight count once they land …
        drain_end = time.perf_counter() + DRAIN_TIMEOUT
        while any(p.measured for g in self.groups for p in g.pending.values()):
            if time.perf_counter() > drain_end:
                break
            await asyncio.sleep(0.02)
        lost = sum(1 for g in self.groups for p in g.pending.values() if p.measured)
        self.window = None  # … and nothing more after that

        per_server = [
            _server_figures(s, b, a, wall) for s, b, a in zip(live, before, after, strict=True)
        ]
        server_cpu = sum(f["cpu_s"] + f["child_cpu_s"] for f in per_server)
        helper_cpu = sum(helpers1.get(p, c) - c for p, c in helpers0.items())
        others = (busy1 - busy0) - server_cpu - helper_cpu - (mine1 - mine0)
        conns = [c for c, _ in self.samples] or [self.open_connections]
        tables = [t for _, t in self.samples] or [self.active_tables]
        moves = self.moves_done
        return {
            "ramp_s": self.ramp,
            "ramp_complete": self.ramp_ok,
            "window_s": wall,
            "wall_window": (wall_start, wall_start + wall),
            "think_s": self.think,
            "processes": len(live),
            "connections_held": {"min": min(conns), "max": max(conns), "at_end": conns[-1]},
            "tables_in_play": {
                "min": min(tables),
                "mean": sum(tables) / len(tables),
                "max": max(tables),
            },
            "server_view": health,
            "moves_sent": self.moves_sent,
            "moves_completed": moves,
            "moves_lost": lost,
            "moves_per_s": moves / wall,
            "events_delivered_per_s": self.events / wall,
            "messages_received_per_s": self.messages / wall,
            "bytes_per_message": self.bytes / max(1, self.messages),
            "server_cpu_ms_per_move": 1000 * server_cpu / max(1, moves),
            "service_cpu_ms_per_move": 1000 * (server_cpu + helper_cpu) / max(1, moves),
            "games_started_total": self.started_games,
            "games_finished_in_window": self.games_finished,
            "event_gaps": self.gaps,
            "errors": dict(self.errors),
            "latency_ms": percentiles(self.latency),
            "mover_echo_ms": percentiles(self.ack),
            "game_over_ms": percentiles(self.over_latency),
            "reference": {
                "idle_ping_ms": percentiles(self.idle_pings),
                "load_ping_ms": percentiles(self.ping_load),
            },
            "servers": per_server,
            "helpers_cpu_percent": 100 * helper_cpu / wall,
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
            "timeline": timeline,
        }

    async def _sample(self, servers: Sequence[ServerProc], at: float) -> dict[str, Any]:
        """Each server's RSS and ``/healthz`` counts, and the last interval's p99."""
        out: dict[str, Any] = {"t": at, "rss_mb": [], "health": []}
        for s in servers:
            out["rss_mb"].append(proc_status(s.pid).get("VmRSS", 0) / 1024)
            try:
                out["health"].append(await asyncio.to_thread(s.health))
            except OSError:
                out["health"].append(None)
        recent = time.perf_counter() - 10
        out["p99_last_10s_ms"] = percentiles(
            [ms for ms, t in zip(self.latency, self.latency_at, strict=True) if t >= recent]
        )["p99"]
        out["connections"] = self.open_connections
        return out

    def kill_mark(self, dead: int) -> None:
        """Process ``dead`` is being killed now: the tables it owned are the affected."""
        self.dead.add(dead)
        self.killed_at = time.perf_counter()
        self.affected = {
            g.table: Affected(g)
            for g in self.groups
            if g.playing and g.table is not None and g.owner == dead
        }

    async def close(self) -> None:
        self.stopping = True
        if self._gc_callback in gc.callbacks:
            gc.callbacks.remove(self._gc_callback)
        for task in self._background:
            task.cancel()
        closing = [p.ws.close() for p in self.everyone if p.ws is not None]
        if self.probe_ws is not None:
            closing.append(self.probe_ws.close())
        await asyncio.gather(*closing, return_exceptions=True)
        for task in self.player_tasks:
            task.cancel()
        await asyncio.gather(
            *self.player_tasks, *self._background, *self.tasks, return_exceptions=True
        )


# ---------------------------------------------------------------- readings of one server


@dataclass
class _Reading:
    cpu: float
    threads: dict[int, float]
    kids: dict[int, float]
    status: dict[str, int]


def _server_reading(server: ServerProc) -> _Reading:
    return _Reading(
        proc_cpu(server.pid) or 0.0,
        thread_cpu(server.pid),
        cpu_of(descendants(server.pid)),
        proc_status(server.pid),
    )


def _server_figures(server: ServerProc, r0: _Reading, r1: _Reading, wall: float) -> dict[str, Any]:
    """One server's CPU (its event-loop thread, its worker threads, its bot processes) and
    memory over a window."""
    main0, main1 = r0.threads.get(server.pid, 0.0), r1.threads.get(server.pid, 0.0)
    workers = sum(
        cpu - r0.threads.get(tid, 0.0) for tid, cpu in r1.threads.items() if tid != server.pid
    )
    cpu = r1.cpu - r0.cpu
    kids = sum(c - r0.kids.get(p, 0.0) for p, c in r1.kids.items())
    return {
        "name": server.name,
        "pid": server.pid,
        "cpu_s": cpu,
        "cpu_percent": 100 * cpu / wall,
        "loop_thread_cpu_percent": 100 * (main1 - main0) / wall,
        "live_worker_threads_cpu_percent": 100 * workers / wall,
        "exited_threads_cpu_percent": 100 * (cpu - (main1 - main0) - workers) / wall,
        "child_processes": len(r1.kids),
        "child_cpu_s": kids,
        "child_cpu_percent": 100 * kids / wall,
        "child_rss_mb": sum(proc_status(k).get("VmRSS", 0) for k in r1.kids) / 1024,
        "rss_mb_start": r0.status.get("VmRSS", 0) / 1024,
        "rss_mb_end": r1.status.get("VmRSS", 0) / 1024,
        "rss_mb_peak": r1.status.get("VmHWM", 0) / 1024,
        "threads_end": r1.status.get("Threads"),
    }


# ---------------------------------------------------------------- the stored record


def same_move(a: str | None, b: str | None) -> bool:
    """The same move, as the mover and as the others saw it (a hidden card is left out:
    the others see only the first word)."""
    if a == b:
        return True
    if a is None or b is None:
        return False
    short, full = sorted((a, b), key=len)
    return " " not in short and full.split(" ", 1)[0] == short


async def check_store(
    db: str, seen: dict[str, dict[int, tuple[str, int | None, str | None]]]
) -> dict[str, int]:
    """Compare every move any client received with the stored games (``trumps.store``).

    For each table, the events received after its ``start`` must be numbered without a
    hole (every seat receives every event, so one seat's gap is another's event); the moves
    among them, in order, must be the first moves of the stored record.  ``lost`` counts
    the moves received that the store does not have (or has differently)."""
    from trumps.store import SqlStore

    store = SqlStore(db)
    try:
        records: dict[str, dict[str, Any]] = {
            t.table_id: t.record for t in await store.running_tables()
        }
        for summary in await store.finished_games(limit=10**7):
            if summary.table_id in seen and summary.table_id not in records:
                records[summary.table_id] = await store.get_game(summary.id)
    finally:
        await store.close()
    out = {"tables": 0, "moves": 0, "lost": 0, "unstored_tables": 0, "unchecked_tables": 0}
    for table_id, events in seen.items():
        starts = [n for n, (kind, _, _) in events.items() if kind == "start"]
        if not starts:
            continue  # no game began there while anyone watched
        out["tables"] += 1
        first, top = min(starts), max(events)
        if any(n not in events for n in range(first, top + 1)):
            out["unchecked_tables"] += 1
            continue
        moves = [
            a
            for n in range(first, top + 1)
            if (e := events[n])[0] in ("action", "timeout")
            for a in [e[2]]
        ]
        out["moves"] += len(moves)
        record = records.get(table_id)
        if record is None:
            out["unstored_tables"] += 1
            out["lost"] += len(moves)
            continue
        stored = record["actions"]
        out["lost"] += sum(
            1 for i, a in enumerate(moves) if i >= len(stored) or not same_move(stored[i], a)
        )
    return out
