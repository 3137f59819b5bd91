"""Where the server's bots think: worker processes, so search never holds the event loop.

A bot deciding in a thread of the server process competes with the event loop for the GIL:
an expert bot searching for a second makes every other table's messages late.  So by default
``BotRunner`` sends each decision to a small pool of worker processes (started with
``spawn``: no copy of the server's threads and sockets; each watches the server and ends
with it, ``kill -9`` included).  A decision is a pure function
of the seat's view, the legal actions, the time budget and a seed — bots keep no state
between moves — so any worker can take any table's move.  ``workers=0`` thinks in threads
instead (light bots, tests, one-core machines).
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
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from trumps.ai import Bot, Decision, level_limits, make_bot

__all__ = ["BotRequest", "BotRunner", "decide"]

log = logging.getLogger(__name__)

_local = threading.local()  # bots per worker thread or process: no state between moves


@dataclass(frozen=True)
class BotRequest:
    """One decision to make: everything a worker needs, and nothing from the game itself."""

    level: str
    game_id: str
    view: dict[str, Any]
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


class BotRunner:
    """Runs bot decisions off the event loop: in ``workers`` processes, or threads if 0."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._executor: Executor | None = self._pool() if workers > 0 else None

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

    async def decide(self, request: BotRequest) -> Decision:
        loop = asyncio.get_running_loop()
        executor = self._executor
        try:
            return await loop.run_in_executor(executor, decide, request)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): a new pool, and this move again.
            log.warning("a bot worker process died; starting new ones")
            if self._executor is executor:
                self.close()
                self._executor = self._pool()
            return await loop.run_in_executor(self._executor, decide, request)

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
