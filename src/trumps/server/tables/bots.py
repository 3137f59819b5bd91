"""Where the server's bots think: worker processes, so search never holds the event loop.

A bot deciding in a thread of the server process competes with the event loop for the GIL:
an expert bot searching for a second makes every other table's messages late.  So by default
``BotRunner`` sends each decision to a small pool of worker processes (started with
``spawn``: no copy of the server's threads and sockets; each watches the server and ends
with it, ``kill -9`` included).  A decision is a pure function
of the seat's view, the legal actions, the time budget and a seed — bots keep no state
between moves — so any worker can take any table's move.  ``workers=0`` thinks in threads
instead (light bots, tests, one-core machines).

Fair shares (issue 17): the runner lets at most ``slots`` decisions think at once (one per
worker process) and chooses the next one itself, rather than queueing them FIFO in the
pool: first bot moves at tables where people play, then hints, then moves at tables of bots
only; within each kind the tables take turns, one request each.  So one table asking for
thirty hints, or thirty bot-only tables, cannot make another table's bot wait behind them.
Post-game analysis (``trumps.server.api.analysisapi``) comes last, one decision per job, and
never takes more than half the slots (at least one, so with a single worker a bot move may
wait for one analysis decision to end: a fraction of a second, up to two seconds in the duel).
A table whose people all left or stayed away counts as bots only (``trumps.server.tables.botplay``);
``requeue`` moves its waiting moves when that changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import multiprocessing
import os
import random
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from trumps.ai import Bot, Decision, level_limits, make_bot
from trumps.games.viewtypes import View

__all__ = ["KINDS", "BotRequest", "BotRunner", "Kind", "decide"]

log = logging.getLogger(__name__)

#: What a decision is for, in the order the runner serves them: a bot's move at a table
#: where people play, a hint, a bot's move at a table of bots only, a decision of a
#: finished game being analysed.
Kind: TypeAlias = Literal["people", "hint", "bots", "analysis"]
KINDS: tuple[Kind, ...] = ("people", "hint", "bots", "analysis")

_local = threading.local()  # bots per worker thread or process: no state between moves


@dataclass(frozen=True)
class BotRequest:
    """One decision to make: everything a worker needs, and nothing from the game itself."""

    level: str
    game_id: str
    view: View
    legal: list[str]
    #: At most this many seconds (the server's ``--bot-time``), or None: the level's own
    #: budget (``trumps.ai.level_limits``) as it is.
    seconds: float | None
    seed: int


def decide(request: BotRequest) -> Decision:
    """The action a ``level`` bot chooses from the seat's view (runs in a worker)."""
    bots: dict[tuple[str, str], Bot] = _local.__dict__.setdefault("bots", {})
    key = (request.level, request.game_id)
    bot = bots.get(key)
    if bot is None:
        bot = bots[key] = make_bot(request.level, request.game_id)
    limits = level_limits(request.game_id, request.level, len(request.view["hands"]))
    if request.seconds is not None and limits.time is not None and limits.time > request.seconds:
        limits = dataclasses.replace(limits, time=request.seconds)
    return bot.decide(request.view, request.legal, limits, random.Random(request.seed))


def _watch_server(server_pid: int) -> None:
    """End this worker when the server is gone, even after ``kill -9`` (no orphans)."""

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(server_pid, 0)
            except ProcessLookupError:
                os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


def _warm() -> None:
    """Import the bots' code in a fresh worker before the first move needs it."""
    make_bot("medium", "kozyri")


@dataclass
class _Job:
    call: Callable[[Any], Any]
    request: Any
    future: asyncio.Future[Any]
    kind: Kind


class BotRunner:
    """Runs bot decisions off the event loop: in ``workers`` processes, or threads if 0.

    At most ``slots`` decisions think at once (default: one per worker process; with
    threads, as many as the default thread pool); the others wait in one queue per kind
    and table, served in ``KINDS`` order and the tables in turn.  ``think`` is the
    function that decides (tests pass a slow fake; it must be picklable with workers)."""

    def __init__(
        self,
        workers: int = 0,
        *,
        slots: int | None = None,
        think: Callable[[BotRequest], Decision] = decide,
    ) -> None:
        self.workers = workers
        self.slots = slots or (workers if workers > 0 else min(32, (os.cpu_count() or 1) + 4))
        self._think = think
        self._executor: Executor | None = self._pool() if workers > 0 else None
        self._queues: dict[Kind, OrderedDict[str, deque[_Job]]] = {k: OrderedDict() for k in KINDS}
        self.running = 0
        self.analysing = 0  # of ``running``: analysis jobs
        self._tasks: set[asyncio.Future[None]] = set()

    @property
    def queued(self) -> int:
        """Decisions waiting for a slot."""
        return sum(len(jobs) for queue in self._queues.values() for jobs in queue.values())

    def _pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_watch_server,
            initargs=(os.getpid(),),
        )

    async def start(self) -> None:
        """Start the worker processes now rather than on the first bot move."""
        if self._executor is not None:
            loop = asyncio.get_running_loop()
            await asyncio.gather(
                *(loop.run_in_executor(self._executor, _warm) for _ in range(self.workers))
            )

    def submit(
        self, request: BotRequest, *, table: str = "", kind: Kind = "people"
    ) -> asyncio.Future[Decision]:
        """Queue ``request`` for ``table``: its decision, when a slot served it.  Cancelling
        the future before it started gives its place up."""
        if kind == "analysis":
            raise ValueError("analysis jobs go through submit_call")
        return self._queue(self._think, request, table, kind)

    def submit_call(
        self, call: Callable[[Any], Any], argument: Any, *, table: str
    ) -> asyncio.Future[Any]:
        """Queue ``call(argument)`` (picklable, with workers) as an ``analysis`` job of
        ``table``: its result, when a slot served it."""
        return self._queue(call, argument, table, "analysis")

    def _queue(
        self, call: Callable[[Any], Any], argument: Any, table: str, kind: Kind
    ) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        queue = self._queues[kind]
        queue.setdefault(table, deque()).append(_Job(call, argument, future, kind))
        self._serve()
        return future

    def requeue(self, table: str, kind: Kind) -> None:
        """Move ``table``'s bot moves still waiting for a slot to ``kind`` (``"people"`` or
        ``"bots"``: a person came back to the table or left it), behind that kind's other
        requests of the table; its hints stay where they are."""
        if kind in ("hint", "analysis"):
            raise ValueError("only bot moves are requeued, not hints or analyses")
        other: Kind = "bots" if kind == "people" else "people"
        moved = self._queues[other].pop(table, None)
        if moved:
            self._queues[kind].setdefault(table, deque()).extend(moved)
            self._serve()

    async def decide(
        self, request: BotRequest, *, table: str = "", kind: Kind = "people"
    ) -> Decision:
        return await self.submit(request, table=table, kind=kind)

    def _next(self) -> _Job | None:
        for kind, queue in self._queues.items():
            if kind == "analysis" and self.analysing >= max(1, self.slots // 2):
                continue
            while queue:
                table, jobs = next(iter(queue.items()))
                job = jobs.popleft()
                if jobs:
                    queue.move_to_end(table)  # the other tables' turn first
                else:
                    del queue[table]
                if not job.future.done():  # a cancelled request is skipped
                    return job
        return None

    def _serve(self) -> None:
        while self.running < self.slots:
            job = self._next()
            if job is None:
                return
            self.running += 1
            self.analysing += job.kind == "analysis"
            task = asyncio.ensure_future(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, job: _Job) -> None:
        try:
            decision = await self._execute(job.call, job.request, retry=job.kind != "analysis")
        except Exception as e:
            if not job.future.done():
                job.future.set_exception(e)
        else:
            if not job.future.done():
                job.future.set_result(decision)
        finally:
            self.running -= 1
            self.analysing -= job.kind == "analysis"
            self._serve()

    async def _execute(self, call: Callable[[Any], Any], request: Any, *, retry: bool) -> Any:
        loop = asyncio.get_running_loop()
        executor = self._executor
        try:
            return await loop.run_in_executor(executor, call, request)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): a new pool, and this move again.  An
            # analysis job is not tried again: it may be what killed the worker, and a
            # second death would take the bot moves in flight with it.
            log.warning("a bot worker process died; starting new ones")
            if self._executor is executor:
                self.close()
                self._executor = self._pool()
            if not retry:
                raise
            return await loop.run_in_executor(self._executor, call, request)

    def close(self) -> None:
        if self._executor is not None:
            with contextlib.suppress(Exception):
                self._executor.shutdown(wait=False, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The worker processes now running (for tests and diagnostics)."""
        if not isinstance(self._executor, ProcessPoolExecutor):
            return []
        processes = getattr(self._executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]
