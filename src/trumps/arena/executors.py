"""The executor seam: where batches of arena games run.

An ``Executor`` runs one function over tasks: ``submit(task)`` queues a task,
``results()`` yields each submitted task's result once, in completion order, and
``close()`` releases the workers (also on leaving a ``with`` block).  Three kinds:

* ``inline`` — in this process, lazily, in submission order (``--jobs 1``, tests);
* ``process`` — a ``concurrent.futures.ProcessPoolExecutor`` (spawned workers);
* ``ray`` — Ray tasks (optional: ``pip install -e .[distributed]``).  Without
  ``RAY_ADDRESS`` it starts a local Ray with ``num_cpus=workers``; with it, it joins
  that cluster (whose nodes need ``trumps`` installed).

The function and its tasks must be picklable (module-level function, plain data).
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import Any, ClassVar, Generic, TypeVar

__all__ = [
    "EXECUTORS",
    "Executor",
    "ExecutorUnavailable",
    "InlineExecutor",
    "ProcessExecutor",
    "RayExecutor",
    "default_jobs",
    "make_executor",
]

A = TypeVar("A")
R = TypeVar("R")


class ExecutorUnavailable(RuntimeError):
    """The chosen executor cannot run here (e.g. Ray is not installed)."""


def default_jobs() -> int:
    """The CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class Executor(ABC, Generic[A, R]):
    """Runs ``fn`` over submitted tasks on ``workers`` workers."""

    name: ClassVar[str]

    def __init__(self, fn: Callable[[A], R], workers: int) -> None:
        if workers < 1:
            raise ValueError(f"an executor needs at least one worker, not {workers}")
        self.fn = fn
        self.workers = workers

    @abstractmethod
    def submit(self, task: A) -> None:
        """Queue ``task``."""

    @abstractmethod
    def results(self) -> Iterator[R]:
        """Each result of the tasks submitted so far, once, as they complete."""

    def close(self) -> None:
        """Release the workers (pending tasks are cancelled)."""

    def __enter__(self) -> Executor[A, R]:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class InlineExecutor(Executor[A, R]):
    """Runs tasks in this process when their results are asked for (one worker)."""

    name: ClassVar[str] = "inline"

    def __init__(self, fn: Callable[[A], R], workers: int = 1) -> None:
        super().__init__(fn, 1)
        self._queue: list[A] = []

    def submit(self, task: A) -> None:
        self._queue.append(task)

    def results(self) -> Iterator[R]:
        while self._queue:
            task = self._queue.pop(0)
            yield self.fn(task)

    def close(self) -> None:
        self._queue.clear()


class ProcessExecutor(Executor[A, R]):
    """A pool of ``workers`` spawned processes (``spawn``: safe beside threads, portable)."""

    name: ClassVar[str] = "process"

    def __init__(self, fn: Callable[[A], R], workers: int) -> None:
        super().__init__(fn, workers)
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn")
        )
        self._pending: set[Future[R]] = set()

    def submit(self, task: A) -> None:
        self._pending.add(self._pool.submit(self.fn, task))

    def results(self) -> Iterator[R]:
        while self._pending:
            done, self._pending = wait(self._pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pending.clear()


class RayExecutor(Executor[A, R]):
    """Ray tasks: ``ray.remote(fn)``, ``.remote(task)``, ``ray.wait`` and ``ray.get``."""

    name: ClassVar[str] = "ray"

    def __init__(self, fn: Callable[[A], R], workers: int) -> None:
        super().__init__(fn, workers)
        try:
            ray: Any = importlib.import_module("ray")
        except ImportError:
            raise ExecutorUnavailable(
                "the ray executor needs Ray: pip install -e '.[distributed]'"
            ) from None
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            if os.environ.get("RAY_ADDRESS"):
                ray.init()  # join the cluster; its size is the cluster's
            else:
                ray.init(num_cpus=workers, include_dashboard=False)
            self._started = True
        self._remote = ray.remote(fn)
        self._pending: list[Any] = []

    def submit(self, task: A) -> None:
        self._pending.append(self._remote.remote(task))

    def results(self) -> Iterator[R]:
        while self._pending:
            done, self._pending = self._ray.wait(self._pending, num_returns=1)
            for ref in done:
                result: R = self._ray.get(ref)
                yield result

    def close(self) -> None:
        for ref in self._pending:
            self._ray.cancel(ref)
        self._pending = []
        if self._started:
            self._ray.shutdown()
            self._started = False


EXECUTORS: dict[str, type[Executor[Any, Any]]] = {
    InlineExecutor.name: InlineExecutor,
    ProcessExecutor.name: ProcessExecutor,
    RayExecutor.name: RayExecutor,
}


def make_executor(name: str, fn: Callable[[A], R], workers: int) -> Executor[A, R]:
    """An executor by name; ``process`` with one worker runs inline (no pool to start).

    Raises ``ValueError`` for an unknown name and ``ExecutorUnavailable`` when the
    executor cannot run here.
    """
    if name not in EXECUTORS:
        raise ValueError(f"no executor {name!r} (executors: {', '.join(EXECUTORS)})")
    if name == ProcessExecutor.name and workers == 1:
        return InlineExecutor(fn)
    if name == InlineExecutor.name:
        return InlineExecutor(fn)
    if name == ProcessExecutor.name:
        return ProcessExecutor(fn, workers)
    return RayExecutor(fn, workers)
