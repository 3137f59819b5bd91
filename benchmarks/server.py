"""Server load: simulated players playing real games over WebSockets against ``trumps serve``.

Run: ``python benchmarks/server.py [options]``.  Starts the server as users do (``trumps
serve`` in a subprocess on 127.0.0.1 with high rate limits; a fresh SQLite file in a
temporary directory, or a fresh database on the PostgreSQL server named by ``--db``) and
plays: each group of ``--seats`` players has one create a private table of ``human`` seats
which the others join by id; they play random legal moves after a think time and start
another game when one ends.  Players beyond ``--games`` x ``--seats`` stay connected in the
lobby.  Connections ramp up at ``--ramp`` per second; a measured window starts once every
table has started its first game.

Modes (one per run; the default is one window of ``--duration`` seconds):

``--find-capacity``
    Raise the load until p99 move->every-seat latency passes 100 ms: the think time starts
    at ``--think`` and shrinks by ``--step-factor`` each step (then 0: as fast as possible),
    each step measured for ``--step-duration`` seconds after ``--settle`` seconds; the
    figure is the highest moves/s whose p99 stayed under 100 ms.  It measures, one after
    the other on the same machine, each configuration of ``--configs`` (default: ``sqlite``,
    and with ``--db`` also ``postgres`` and ``cluster``): one process on SQLite, one process
    on PostgreSQL, and ``--processes`` (default 2) processes on PostgreSQL and Redis; then
    prints the ratio cluster / one process.  After the first step that fails, the think
    time is bisected ``--refine`` times (default 2) between it and the last step held;
    ``--rounds N`` measures every configuration N times in turn and prints the median and
    range of the ratios (a busy spell of the machine then falls on each alike).
``--failover``
    Two processes (PostgreSQL and Redis) under load: after a window of ``--duration``
    seconds one is killed with SIGKILL; its players reconnect to the other with their
    resume tokens.  Reports the time until every table the dead process owned was seated
    again and moved again (its first move event after the kill), then a window of the
    survivor alone, and checks every event any client received against the stored games
    (``trumps.store.SqlStore``): acknowledged moves lost must be 0.
``--abuse``
    One client floods hints and opens bot-only tables from fresh guest identities while
    three players play the computer: their bot-reply p50/p99/max beside the same run without
    the abuser, and the ratio of the p99s (``benchmarks/server_abuse.py``; ``--duration``
    seconds each, default 60).
``--soak``
    5,000 connected players of whom 1,000 play (250 tables; ``--players``/``--games``
    override), for ``--duration`` (default 1200 s), sampling each server's RSS and
    ``/healthz`` (connections, tables, outbox and commit queues) every ``--sample-every``
    seconds: RSS first/last/max and slope, the queues, p99 per 10 s and over the run.

Options for every mode: ``--processes N`` (> 1 needs ``--db``) runs N ``trumps serve``
processes on N ports, each with ``--redis`` and its own ``--node-id``, as N machines would
be (``trumps serve --workers N`` runs the same service behind one port; separate ports let
the players be spread evenly, each process be measured by itself and one be killed without a
supervisor restarting it).  Players are spread over the processes so that the seats of each
table sit on different processes and the tables' creators (hence owners) alternate: most
moves and events cross the bus.  ``--redis URL`` uses that Redis (default: a private
``redis-server`` on a free port).  ``--verify`` checks the received events against the
store after any run.  ``--players``, ``--games``, ``--game``, ``--seats``, ``--think`` (mean
seconds, ``--jitter`` exponential or uniform), ``--ramp``, ``--compression``, ``--pings``,
``--seed``, ``--no-pin``, ``--no-gc-stats``, ``--profile [FILE]`` (the first server under
cProfile, printed after a clean SIGINT), ``--json FILE`` (every figure).

Pinning (unless ``--no-pin``, with two or more cores): one process: the server on the first
core, the players on the second; several: server k on core k (mod the cores), the players
and Redis unpinned.

Figures: connections and concurrent tables held, moves/s, events delivered/s, the latency
of each move from sending its ``action`` to *every* seat at the table receiving the event
that carries it (p50/p90/p99/max), errors by code, each server's CPU (event-loop thread,
live worker threads, threads that came and went, bot processes) and RSS from ``/proc``,
the CPU of Redis and PostgreSQL (for runs on PostgreSQL), CPU per move (the servers' CPU
seconds / moves, and with Redis and PostgreSQL), bytes per message (the average WebSocket
payload received by the players), the group commit's writes per transaction, the servers'
garbage-collection pauses (the CLI is started through a small bootstrap that times them;
``--no-gc-stats`` runs plain ``python -m trumps serve``), their log warnings, and how busy
the rest of the machine was.  The reference, measured in the same run, is the ``ping`` ->
``pong`` round trip on an idle server before the load and on a spare connection during it:
compare ratios across machines, not absolute figures.

Target (issue): 1,000 connected players in 250 concurrent games, p99 under 100 ms; two
processes carry at least 1.7x what one carries.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.server_abuse import abuse
from benchmarks.server_common import (
    RedisProc,
    ServerProc,
    fresh_postgres,
    gc_summary,
    ms,
    percentiles,
    postgres_pids,
    profile_top,
)
from benchmarks.server_load import Load, check_store

MAX_PLAYERS: Final = 5000  # a bounded load, whatever the options say
TARGET_P99_MS: Final = 100.0
RATE: Final = (1000, 100_000)  # the servers' per-connection rate limits: never the bottleneck
FAILOVER_WAIT: Final = 30.0  # seconds to wait for every affected table to move again
TARGET_RATIO: Final = 1.7


# ---------------------------------------------------------------- the service


@dataclass
class Service:
    """The server processes of one configuration, and the processes they need."""

    kind: str  # "SQLite", "PostgreSQL", "PostgreSQL + Redis"
    db: str
    servers: list[ServerProc]
    helpers: list[int]  # Redis: its CPU counts as the service's
    cpus: str
    database: str | None = None  # the fresh PostgreSQL database: its backends count too

    def helper_pids(self) -> list[int]:
        """Redis, and PostgreSQL's shared processes and the backends serving this service
        (listed now: a backend is forked when a server opens a connection)."""
        if self.database is None:
            return list(self.helpers)
        return [*self.helpers, *postgres_pids(self.database)]

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.servers]

    def stop(self) -> list[dict[str, Any]]:
        out = []
        for s in self.servers:
            seconds, code = s.stop()
            out.append({"name": s.name, "seconds": seconds, "code": code})
        return out


@contextlib.contextmanager
def service(args: argparse.Namespace, config: str, workdir: Path) -> Iterator[Service]:
    """Start one configuration: ``sqlite``, ``postgres`` (one process) or ``cluster``."""
    with contextlib.ExitStack() as stack:
        helpers: list[int] = []
        database: str | None = None
        # Every simulated player is a new guest from this one address, and its tables count
        # against that address: the per-address budgets would refuse the load.
        guests = (
            "--guests-per-address", "1000000",
            "--creations-per-address", "1000000", "--tables-per-address", "1000000",
        )  # fmt: skip
        extra: list[tuple[str, ...]] = [guests]
        if config == "sqlite":
            db, kind = f"sqlite+aiosqlite:///{workdir / 'bench.db'}", "SQLite"
        else:
            db = stack.enter_context(fresh_postgres(args.db))
            database = urllib.parse.urlsplit(db).path.lstrip("/")
            kind = "PostgreSQL"
        if config == "cluster":
            redis_url = args.redis
            if redis_url is None:
                redis = RedisProc(workdir).start()
                stack.callback(redis.stop)
                redis_url = redis.url
                helpers.append(redis.pid)
            extra = [
                ("--redis", redis_url, "--node-id", f"n{k}", *guests) for k in range(args.processes)
            ]
            kind = f"PostgreSQL + Redis, {args.processes} processes"
        cores = sorted(os.sched_getaffinity(0))
        pin = not args.no_pin and len(cores) >= 2
        servers = []
        for k, more in enumerate(extra):
            profile = None
            if args.profile is not None and k == 0:
                profile = Path(args.profile) if args.profile else workdir / "server.prof"
            cpu = cores[k % len(cores)] if pin else None
            name = f"{config}-{k}"
            servers.append(
                ServerProc(db, workdir, RATE, cpu, profile, not args.no_gc_stats, more, name)
            )
        if not pin:
            cpus = "not pinned"
        elif len(servers) == 1:
            cpus = f"server on core {cores[0]}, players on core {cores[1]}"
        else:
            cpus = (
                "servers on cores " + ", ".join(str(s.cpu) for s in servers) + ", players unpinned"
            )
        mine = os.sched_getaffinity(0)
        svc = Service(kind, db, servers, helpers, cpus, database)
        try:
            for s in servers:
                s.start()
            if pin and len(servers) == 1:
                os.sched_setaffinity(0, {cores[1]})
            yield svc
        finally:
            os.sched_setaffinity(0, mine)
            svc.stop()


def run_async(main: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    try:
        import uvloop

        return uvloop.run(main())
    except ImportError:
        return asyncio.run(main())


def finish(svc: Service, fig: dict[str, Any], *, with_gc: bool = True) -> None:
    """After the run: stop the servers, then their logs and GC pauses into ``fig``."""
    fig["server_stop"] = svc.stop()
    fig["server_log"] = {s.name: s.log_summary() for s in svc.servers}
    if with_gc and "wall_window" in fig:
        fig["server_gc"] = {
            s.name: gc_summary(s.gc_file, tuple(fig["wall_window"]))
            for s in svc.servers
            if s.gc_stats and s.gc_file.exists()
        }


# ---------------------------------------------------------------- report


def _p(d: dict[str, Any]) -> str:
    return f"p50 {ms(d['p50'])}  p90 {ms(d['p90'])}  p99 {ms(d['p99'])}  max {ms(d['max'])}"


def report(title: str, fig: dict[str, Any]) -> None:
    """Every figure of one measured window."""
    lat, ref = fig["latency_ms"], fig["reference"]
    idle, busy = ref["idle_ping_ms"], ref["load_ping_ms"]
    gen = fig["load_generator"]
    print(title)
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
    for sv in fig["server_view"]:
        if sv:
            print(
                f"  /healthz {sv.get('node')!s:<16} {sv['connections']} connections, "
                f"{sv['tables']} tables ({sv['running']} running), outbox {sv.get('outbox')}, "
                f"commit queue {sv.get('commit_queue')}, "
                f"{sv.get('writes', 0) / max(1, sv.get('transactions', 0)):.1f} writes per "
                "transaction (since start)"
            )
    print(
        f"  moves/s                   {fig['moves_per_s']:,.1f}   ({fig['moves_completed']:,} "
        f"completed, {fig['moves_lost']} unanswered, {fig['games_finished_in_window']} games "
        f"finished; think {fig['think_s']:g} s)"
    )
    print(
        f"  events delivered/s        {fig['events_delivered_per_s']:,.0f}; messages "
        f"received/s {fig['messages_received_per_s']:,.0f}, {fig['bytes_per_message']:.0f} "
        "bytes per message"
    )
    met = lat["p99"] is not None and lat["p99"] < TARGET_P99_MS
    print(
        f"  move -> every seat, ms    {_p(lat)}   "
        f"target p99 < {TARGET_P99_MS:.0f}: {'MET' if met else 'NOT MET'}"
    )
    echo, over = fig["mover_echo_ms"], fig["game_over_ms"]
    print(f"  move -> mover's echo, ms  p50 {ms(echo['p50'])}  p99 {ms(echo['p99'])}")
    print(
        f"  last move -> game_over    p50 {ms(over['p50'])}  p99 {ms(over['p99'])}  "
        f"(n={over['count']}; includes storing the record)"
    )
    errors = ", ".join(f"{k} {v}" for k, v in sorted(fig["errors"].items())) or "none"
    print(f"  errors                    {errors}; event gaps {fig['event_gaps']}")
    print(
        f"  CPU per move              {fig['server_cpu_ms_per_move']:.2f} ms of server CPU, "
        f"{fig['service_cpu_ms_per_move']:.2f} ms with Redis and PostgreSQL"
    )
    for srv in fig["servers"]:
        print(
            f"  server {srv['name']:<18} {ms(srv['cpu_percent'])} % of a core "
            f"(event loop {ms(srv['loop_thread_cpu_percent'])} %, worker threads "
            f"{ms(srv['live_worker_threads_cpu_percent'])} %, exited threads "
            f"{ms(srv['exited_threads_cpu_percent'])} %), "
            f"RSS {srv['rss_mb_start']:.0f} -> {srv['rss_mb_end']:.0f} MB "
            f"(peak {srv['rss_mb_peak']:.0f}), {srv['threads_end']} threads"
        )
        if srv["child_processes"]:
            print(
                f"    its child processes     {srv['child_processes']} (bot worker pool), "
                f"{srv['child_cpu_percent']:.1f} % of a core, RSS {srv['child_rss_mb']:.0f} MB"
            )
    if fig["helpers_cpu_percent"]:
        print(f"  Redis and PostgreSQL      {fig['helpers_cpu_percent']:.1f} % of a core")
    for name, gcs in (fig.get("server_gc") or {}).items():
        parts = [
            f"gen{g} {v['count']} x, max {v['max_ms']:.0f} ms"
            for g, v in sorted(gcs["by_generation"].items())
        ]
        print(
            f"  GC pauses {name:<15} {gcs['total_ms']:.0f} ms in the window "
            f"({gcs['share_percent']:.1f} %): " + "; ".join(parts)
        )
    lag = gen["loop_lag_ms"]
    print(
        f"  load generator CPU        {gen['cpu_percent']:.0f} % of a core, loop lag "
        f"p99 {ms(lag['p99'])} ms max {ms(lag['max'])} ms, {gen['full_gc_ms']['count']} full "
        f"collections (max {ms(gen['full_gc_ms']['max'])} ms)"
    )
    machine = fig["machine"]
    print(
        f"  other processes here      {machine['other_processes_cpu_percent']:.0f} % of a core "
        f"busy meanwhile (load average {' '.join(machine['loadavg_end'])}; "
        f"{machine['cores']} cores)"
    )
    print("  reference: ping -> pong round trip on a spare connection")
    print(
        f"    idle, before the load   p50 {ms(idle['p50'])}  p99 {ms(idle['p99'])} ms "
        f"(n={idle['count']})"
    )
    print(
        f"    during the load         p50 {ms(busy['p50'])}  p99 {ms(busy['p99'])} ms "
        f"(n={busy['count']})"
    )
    if idle["p50"] and lat["p50"] is not None:
        print(
            f"    ratios to idle p50      move p50 x{lat['p50'] / idle['p50']:.1f}, move p99 "
            f"x{lat['p99'] / idle['p50']:.1f}, loaded ping p50 "
            f"x{(busy['p50'] or 0) / idle['p50']:.1f}"
        )
    report_logs(fig)


def report_logs(fig: dict[str, Any]) -> None:
    for name, logs in (fig.get("server_log") or {}).items():
        if logs.get("by_level"):
            print(f"  server log {name:<14} {logs['by_level']}")
            for line in logs["first"]:
                print(f"    {line}")
            for line, n in logs.get("exceptions", {}).items():
                print(f"    {n} x {line}")
    for stop in fig.get("server_stop", []):
        print(f"  server stop {stop['name']:<13} {stop['seconds']:.1f} s, exit code {stop['code']}")


def title_of(args: argparse.Namespace, svc: Service, what: str = "") -> str:
    return (
        f"trumps server load{what}: {args.players} players, {args.games} tables of "
        f"{args.seats} ({args.game}), {args.jitter} think, {svc.kind}, compression "
        f"{args.compression}, {svc.cpus}" + (", UNDER cProfile" if args.profile else "")
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


# ---------------------------------------------------------------- modes


def run_once(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """One window of ``--duration`` seconds on the configuration the options name."""
    config = "sqlite" if args.db is None else ("cluster" if args.processes > 1 else "postgres")
    with service(args, config, workdir) as svc:
        load = Load(args, svc.urls, verify=args.verify)

        async def main() -> dict[str, Any]:
            await load.start()
            try:
                return await load.measure(svc.servers, args.duration, helpers=svc.helper_pids())
            finally:
                await load.close()

        fig: dict[str, Any] = run_async(main)
        finish(svc, fig)
        if args.verify:
            fig["stored"] = run_async(lambda: check_store(svc.db, load.seen))
        report(title_of(args, svc), fig)
        if args.verify:
            print_stored(fig["stored"], load.conflicts)
        profile = svc.servers[0].profile
        if profile is not None:
            if profile.exists():
                fig["profile"] = profile_top(profile)
                print_profile(fig["profile"])
            else:
                print("  (no profile was written: the server did not exit cleanly)")
        fig["command"] = svc.servers[0].command()
        return fig


def print_stored(stored: dict[str, int], conflicts: int) -> None:
    print(
        f"  received vs stored        {stored['tables']} tables, {stored['moves']:,} moves "
        f"received: {stored['lost']} acknowledged moves lost, {conflicts} events received "
        f"twice with different contents, {stored['unstored_tables']} tables missing from the "
        f"store, {stored['unchecked_tables']} tables with events nobody received (unchecked)"
    )


def capacity(args: argparse.Namespace, workdir: Path, config: str) -> dict[str, Any]:
    """Shrink the think time until p99 passes 100 ms; the best moves/s held under it."""
    with service(args, config, workdir) as svc:
        load = Load(args, svc.urls)
        steps: list[dict[str, Any]] = []

        async def main() -> None:
            await load.start()
            think = args.think
            passed: float | None = None  # the shortest think time held so far
            failed: float | None = None  # the longest that failed
            refined = 0
            try:
                while True:
                    load.think = think
                    await asyncio.sleep(args.settle)
                    fig = await load.measure(
                        svc.servers, args.step_duration, helpers=svc.helper_pids()
                    )
                    steps.append(fig)
                    p99 = fig["latency_ms"]["p99"]
                    held = p99 is not None and p99 < TARGET_P99_MS
                    cpu = sum(s["cpu_percent"] for s in fig["servers"])
                    print(
                        f"    think {think:6.3f} s: {fig['moves_per_s']:8,.0f} moves/s, p50 "
                        f"{ms(fig['latency_ms']['p50'])} p99 {ms(p99)} ms, servers {cpu:.0f} % "
                        f"CPU, Redis+PG {fig['helpers_cpu_percent']:.0f} %, players "
                        f"{fig['load_generator']['cpu_percent']:.0f} %, others "
                        f"{fig['machine']['other_processes_cpu_percent']:.0f} %, "
                        f"{fig['server_cpu_ms_per_move']:.2f} ms CPU/move, "
                        f"{fig['bytes_per_message']:.0f} B/msg",
                        flush=True,
                    )
                    if held:
                        passed = think
                    else:
                        failed = think if failed is None else max(failed, think)
                    if failed is not None:
                        # Bisect (geometrically) between the last think time held and the
                        # first that failed, --refine times: the coarse steps alone move the
                        # figure by up to 1/--step-factor.
                        if passed is None or refined >= args.refine or failed <= 0:
                            return
                        refined += 1
                        think = (passed * failed) ** 0.5 if failed > 0 else passed / 2
                        continue
                    if think == 0:
                        return
                    think = think * args.step_factor
                    if think < 0.005:
                        think = 0.0
            finally:
                await load.close()

        print(title_of(args, svc, " (capacity)"), flush=True)
        run_async(main)
        svc.stop()
        held = [f for f in steps if (f["latency_ms"]["p99"] or 1e9) < TARGET_P99_MS]
        best = max(held, key=lambda f: f["moves_per_s"], default=None)
        reached = any((f["latency_ms"]["p99"] or 1e9) >= TARGET_P99_MS for f in steps)
        out = {
            "config": config,
            "kind": svc.kind,
            "cpus": svc.cpus,
            "steps": steps,
            "best": best,
            "limit_reached": reached,
            "command": svc.servers[0].command(),
            "server_log": {s.name: s.log_summary() for s in svc.servers},
        }
        if best is not None:
            print(
                f"  => {svc.kind}: {best['moves_per_s']:,.0f} moves/s held at p99 "
                f"{ms(best['latency_ms']['p99'])} ms (think {best['think_s']:.3f} s)"
                + ("" if reached else "; the limit was NOT reached (more --games?)")
            )
        else:
            print(f"  => {svc.kind}: p99 was over {TARGET_P99_MS:.0f} ms from the first step")
        report_logs(out)
        return out


def find_capacity(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Each configuration's capacity, ``--rounds`` times in turn (so that a busy spell of
    the machine falls on every configuration alike), and the ratios of every round."""
    rounds = []
    for k in range(args.rounds):
        if args.rounds > 1:
            print(f"== round {k + 1} of {args.rounds}", flush=True)
        rounds.append(capacity_round(args, workdir))
    if args.rounds == 1:
        return rounds[0]
    print(f"ratios over {args.rounds} rounds (each round measures every configuration once)")
    summary = {}
    for one in ("postgres", "sqlite"):
        values = sorted(r["ratios"][one] for r in rounds if one in r["ratios"])
        if not values:
            continue
        median = statistics.median(values)
        summary[one] = {"ratios": values, "median": median}
        print(
            f"  {args.processes} processes / one on {one}: median x{median:.2f}, range "
            f"x{values[0]:.2f}-x{values[-1]:.2f} (n={len(values)}; target x{TARGET_RATIO}: "
            f"{'MET' if values[0] >= TARGET_RATIO else 'met in ' + str(sum(v >= TARGET_RATIO for v in values)) + ' of ' + str(len(values))})"
        )
    return {"rounds": rounds, "summary": summary}


def capacity_round(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    results = {c: capacity(args, workdir, c) for c in args.configs}

    def best(config: str) -> float | None:
        r = results.get(config)
        return None if r is None or r["best"] is None else float(r["best"]["moves_per_s"])

    print("capacity: the highest moves/s held at p99 move->every-seat < 100 ms")
    for r in results.values():
        b = r["best"]
        if b is None:
            print(f"  {r['kind']:<38} -")
            continue
        print(
            f"  {r['kind']:<38} {b['moves_per_s']:8,.0f} moves/s  p99 "
            f"{ms(b['latency_ms']['p99'])} ms  {b['server_cpu_ms_per_move']:.2f} ms server CPU "
            f"per move ({b['service_cpu_ms_per_move']:.2f} with Redis+PG)  "
            f"{b['bytes_per_message']:.0f} B/msg"
            + ("" if r["limit_reached"] else "  (limit not reached)")
        )
    cluster = best("cluster")
    ratios = {}
    for one in ("postgres", "sqlite"):
        single = best(one)
        if cluster is not None and single:
            ratios[one] = cluster / single
            verdict = "MET" if ratios[one] >= TARGET_RATIO else "NOT MET"
            print(
                f"  ratio {args.processes} processes / one on {results[one]['kind']}: "
                f"x{ratios[one]:.2f} (target x{TARGET_RATIO}: {verdict})"
            )
    return {"capacity": results, "ratios": ratios}


def failover(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Kill one of the processes under load; how long its tables stand still; lost moves."""
    with service(args, "cluster", workdir) as svc:
        load = Load(args, svc.urls, reconnect=True, verify=True)
        victim = len(svc.servers) - 1
        out: dict[str, Any] = {}

        async def main() -> None:
            await load.start()
            try:
                out["before"] = await load.measure(
                    svc.servers, args.duration, helpers=svc.helper_pids()
                )
                load.kill_mark(victim)
                svc.servers[victim].kill()
                killed = time.perf_counter()
                deadline = killed + FAILOVER_WAIT
                hits = list(load.affected.values())
                while time.perf_counter() < deadline and any(h.moved is None for h in hits):
                    await asyncio.sleep(0.05)
                out["waited_s"] = time.perf_counter() - killed
                out["affected"] = len(hits)
                out["reseated_s"] = percentiles(
                    [(h.reseated - killed) * 1000 for h in hits if h.reseated is not None]
                )
                out["moved_s"] = percentiles(
                    [(h.moved - killed) * 1000 for h in hits if h.moved is not None]
                )
                out["never_moved"] = sum(1 for h in hits if h.moved is None)
                # For each table that stood still: (its players seated again by a
                # table_state, of them reconnected; its players that reconnected).
                out["stalled"] = [
                    (
                        len(h.seated),
                        len(h.seated & load.came_back),
                        sum(1 for p in h.group.players if p.index in load.came_back),
                    )
                    for h in hits
                    if h.moved is None
                ]
                out["after"] = await load.measure(
                    svc.servers, args.after_duration, helpers=svc.helper_pids()
                )
            finally:
                await load.close()

        run_async(main)
        finish(svc, out, with_gc=False)
        out["reconnects"] = load.reconnects
        out["conflicts"] = load.conflicts
        out["stored"] = run_async(lambda: check_store(svc.db, load.seen))
        report(title_of(args, svc, " (failover: before the kill)"), out["before"])
        print(f"  after the SIGKILL of {svc.servers[victim].name}:")
        moved, seated = out["moved_s"], out["reseated_s"]
        print(
            f"    {out['affected']} tables it owned; seated again after (ms) {_p(seated)}; "
            f"moved again after (ms) {_p(moved)}; {out['never_moved']} never moved again "
            f"within {FAILOVER_WAIT:.0f} s; {out['reconnects']} players reconnected"
        )
        if out["stalled"]:
            print(
                "    tables that stood still: (players given a table_state since the kill, "
                "of them reconnected; players that reconnected): "
                + ", ".join(f"({a}, {b}; {c})" for a, b, c in out["stalled"])
            )
        report("  the survivor alone afterwards", out["after"])
        report_logs(out)
        print_stored(out["stored"], out["conflicts"])
        return out


def soak(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """A long window with RSS and /healthz sampled: memory flat, queues flat, p99."""
    config = "sqlite" if args.db is None else ("cluster" if args.processes > 1 else "postgres")
    with service(args, config, workdir) as svc:
        load = Load(args, svc.urls)

        async def main() -> dict[str, Any]:
            await load.start()
            try:
                return await load.measure(
                    svc.servers,
                    args.duration,
                    helpers=svc.helper_pids(),
                    sample_every=args.sample_every,
                )
            finally:
                await load.close()

        fig: dict[str, Any] = run_async(main)
        finish(svc, fig)
        report(title_of(args, svc, f" (soak, {args.duration:.0f} s)"), fig)
        timeline = fig["timeline"]
        fig["soak"] = summary = soak_summary(timeline, [s.name for s in svc.servers])
        for name, rss in summary["rss"].items():
            print(
                f"  RSS {name:<21} first {rss['first']:.0f}, last {rss['last']:.0f}, max "
                f"{rss['max']:.0f} MB; slope {rss['slope_mb_per_min']:+.2f} MB/min over "
                f"{len(timeline)} samples every {args.sample_every:g} s"
            )
        for name, q in summary["queues"].items():
            print(
                f"  queues {name:<18} outbox first/last/max {q['outbox'][0]}/{q['outbox'][1]}/"
                f"{q['outbox'][2]}, commit queue {q['commit'][0]}/{q['commit'][1]}/"
                f"{q['commit'][2]}, connections {q['connections'][0]}/{q['connections'][1]}"
            )
        p99s = summary["p99_per_10s"]
        print(
            f"  p99 per 10 s (ms)         max {ms(max(p99s, default=None))}, median "
            f"{ms(sorted(p99s)[len(p99s) // 2] if p99s else None)}; over the whole run "
            f"{ms(fig['latency_ms']['p99'])}"
        )
        return fig


def soak_summary(timeline: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    rss: dict[str, Any] = {}
    queues: dict[str, Any] = {}
    for k, name in enumerate(names):
        points = [(s["t"], s["rss_mb"][k]) for s in timeline if len(s["rss_mb"]) > k]
        ys = [y for _, y in points]
        rss[name] = {
            "first": ys[0] if ys else 0.0,
            "last": ys[-1] if ys else 0.0,
            "max": max(ys, default=0.0),
            # After the first minute (the caches filling), MB per minute, least squares.
            "slope_mb_per_min": 60 * _slope([p for p in points if p[0] >= 60] or points),
        }
        health = [s["health"][k] for s in timeline if len(s["health"]) > k and s["health"][k]]

        def series(key: str, h: list[dict[str, Any]] = health) -> list[Any]:
            values = [x.get(key, 0) for x in h] or [0]
            return [values[0], values[-1], max(values)]

        queues[name] = {
            "outbox": series("outbox"),
            "commit": series("commit_queue"),
            "connections": series("connections"),
        }
    p99s = [s["p99_last_10s_ms"] for s in timeline if s.get("p99_last_10s_ms") is not None]
    return {"rss": rss, "queues": queues, "p99_per_10s": p99s}


def _slope(points: list[tuple[float, float]]) -> float:
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, help="connected players (default 1000; soak 5000)")
    parser.add_argument("--games", type=int, default=250, help="concurrent tables")
    parser.add_argument("--game", choices=["twentyfive", "kozyri"], default="twentyfive")
    parser.add_argument("--seats", type=int, default=4, help="seats per table (all people)")
    parser.add_argument("--duration", type=float, help="measured seconds (default 30; soak 1200)")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time per move, s")
    parser.add_argument("--jitter", choices=["exp", "uniform"], default="exp")
    parser.add_argument("--ramp", type=float, default=200.0, help="new connections per second")
    parser.add_argument(
        "--db", help="a PostgreSQL URL (postgresql+asyncpg://...): a fresh database is made there"
    )
    parser.add_argument("--processes", type=int, default=None, help="server processes")
    parser.add_argument("--redis", help="a Redis URL (default: a private redis-server)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--find-capacity", action="store_true", help="the moves/s held at p99 < 100")
    mode.add_argument("--failover", action="store_true", help="SIGKILL one of two processes")
    mode.add_argument("--soak", action="store_true", help="a long run, memory and queues sampled")
    mode.add_argument(
        "--abuse", action="store_true", help="bot-reply p99 with and without one abusive client"
    )
    parser.add_argument("--configs", help="capacity: comma-separated of sqlite, postgres, cluster")
    parser.add_argument("--step-duration", type=float, default=15.0, help="capacity: s per step")
    parser.add_argument("--step-factor", type=float, default=0.7, help="capacity: think x this")
    parser.add_argument(
        "--refine", type=int, default=2, help="capacity: bisection steps after the first failure"
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="capacity: measure the configurations this often"
    )
    parser.add_argument("--settle", type=float, default=3.0, help="capacity: s before a step")
    parser.add_argument(
        "--after-duration", type=float, default=15.0, help="failover: s measured after it"
    )
    parser.add_argument("--sample-every", type=float, default=10.0, help="soak: s per sample")
    parser.add_argument("--verify", action="store_true", help="check events against the store")
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
    if args.players is None:
        args.players = 5000 if args.soak else 1000
    if args.duration is None:
        args.duration = 1200.0 if args.soak else 60.0 if args.abuse else 30.0
    if args.processes is None:
        args.processes = 2 if (args.failover or args.find_capacity) else 1
    if not 2 <= args.seats <= 8:
        parser.error("--seats is 2-8")
    if args.games < 1 or args.players < args.games * args.seats:
        parser.error("--players must be at least --games x --seats")
    if args.players > MAX_PLAYERS:
        parser.error(f"at most {MAX_PLAYERS} players")
    if args.db is not None and not args.db.startswith("postgresql+asyncpg://"):
        parser.error("--db takes a postgresql+asyncpg:// URL (SQLite is the default)")
    if (args.failover or args.processes > 1) and args.db is None and not args.find_capacity:
        parser.error("several processes need --db (PostgreSQL); Redis is started if not given")
    if args.failover and args.processes < 2:
        parser.error("--failover needs --processes 2 or more")
    default_configs = "sqlite,postgres,cluster" if args.db else "sqlite"
    args.configs = (args.configs or default_configs).split(",")
    if any(c not in ("sqlite", "postgres", "cluster") for c in args.configs):
        parser.error("--configs takes sqlite, postgres, cluster")
    if args.rounds < 1 or args.refine < 0:
        parser.error("--rounds is at least 1 and --refine at least 0")
    if args.db is None and set(args.configs) - {"sqlite"}:
        parser.error("the postgres and cluster configurations need --db")
    args.extra = args.players - args.games * args.seats
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 2 * args.players + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    with tempfile.TemporaryDirectory(prefix="trumps-bench-") as tmp:
        workdir = Path(tmp)
        if args.find_capacity:
            figures = find_capacity(args, workdir)
        elif args.failover:
            figures = failover(args, workdir)
        elif args.soak:
            figures = soak(args, workdir)
        elif args.abuse:
            figures = abuse(args, workdir)
        else:
            figures = run_once(args, workdir)
        figures["options"] = dict(vars(args))
        figures["open_files_limit"] = want
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2, default=str))


if __name__ == "__main__":
    main()
