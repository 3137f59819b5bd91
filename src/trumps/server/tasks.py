"""Background loops that stop when asked.

The server's loops (leases, the Redis bus) wait for a wake-up or a timeout and call
libraries between waits.  Two things in Python 3.11 and its libraries can lose the cancel
that is meant to stop such a loop, and a loop that is not stopped makes ``hub.stop()`` wait
for ever:

- ``asyncio.wait_for`` returns normally when the cancel lands as its awaitable finishes;
  ``wait_event`` waits with ``asyncio.timeout`` instead, which keeps the cancel;
- a library call that is cancelled can swallow the cancel (seen with redis-py's ``mget``):
  ``stop_tasks`` therefore cancels again while a task is still running, and after a bound it
  logs the task and leaves it, so a stop always ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterable
from typing import Any

__all__ = ["Background", "stop_tasks", "wait_event"]

log = logging.getLogger(__name__)


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    """Wait until ``event`` is set or ``timeout`` seconds pass; True if it was set."""
    if event.is_set():
        return True
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    except TimeoutError:
        return False
    return True


async def stop_tasks(
    tasks: Iterable[asyncio.Task[Any]], *, every: float = 0.1, within: float = 5.0
) -> None:
    """Cancel ``tasks`` and wait until they end, cancelling again every ``every`` seconds
    those that go on; after ``within`` seconds the rest are logged and left running."""
    pending = {t for t in tasks if not t.done()}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - loop.time()
        if left <= 0:
            for task in pending:
                log.error("task %s did not stop when cancelled; left running", task.get_name())
            return
        _, pending = await asyncio.wait(pending, timeout=min(every, left))


class Background:
    """Tasks started and not awaited, held until they end (asyncio itself keeps only a weak
    reference to a task, so an unheld one can vanish half done)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until the tasks started so far have ended (for tests)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def close(self, within: float = 5.0) -> None:
        """At shutdown: let the tasks (store writes, mostly) finish for up to ``within``
        seconds, then cancel those that go on.  None is left running against a store that
        is about to close."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while self._tasks and loop.time() < deadline:  # a task may start another
            await asyncio.wait(set(self._tasks), timeout=deadline - loop.time())
        await stop_tasks(self._tasks)
