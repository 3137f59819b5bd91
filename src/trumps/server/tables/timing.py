"""Where a table's time comes from: the event loop's clock, or a manual one in tests.

A table reads the time (``now()``, seconds on a monotonic scale) to run its Fischer clocks,
and sets timers (``call_later``) for clocks reaching zero and grace periods running out.
Both go through a ``TimeSource``: ``LoopTime`` (the default) is the running asyncio loop;
``ManualTime`` stands still until a test calls ``advance(seconds)``, which fires every timer
that falls due, in order, at its own moment — so timer-driven behaviour is tested in
microseconds and without races.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["Cancellable", "KeyedTimers", "LoopTime", "ManualTime", "TimeSource"]


class Cancellable(Protocol):
    """A timer that has been set."""

    def cancel(self) -> None: ...


class TimeSource(Protocol):
    """The clock and the timers of a table."""

    def now(self) -> float:
        """Seconds on a monotonic scale (only differences matter)."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        """Call ``callback`` once, ``delay`` seconds from now (unless cancelled)."""


class LoopTime:
    """The running event loop's time and timers."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        return asyncio.get_running_loop().call_later(delay, callback)


@dataclass(order=True)
class _ManualTimer:
    when: float
    seq: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualTime:
    """Time that moves only when told to (tests): ``advance`` fires the timers due."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._queue: list[_ManualTimer] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        timer = _ManualTimer(self._now + max(0.0, delay), next(self._seq), callback)
        heapq.heappush(self._queue, timer)
        return timer

    def advance(self, seconds: float) -> int:
        """Move time on by ``seconds``, calling each timer due at its moment, earliest first
        (ties in the order they were set); returns how many fired."""
        if seconds < 0:
            raise ValueError("time does not go back")
        target, fired = self._now + seconds, 0
        while self._queue and self._queue[0].when <= target:
            timer = heapq.heappop(self._queue)
            if timer.cancelled:
                continue
            self._now = max(self._now, timer.when)
            timer.callback()
            fired += 1
        self._now = target
        return fired

    def pending(self) -> list[float]:
        """Seconds from now until each live timer fires, soonest first."""
        return sorted(t.when - self._now for t in self._queue if not t.cancelled)


class KeyedTimers:
    """At most one timer per key (a seat's grace period, the running clock): setting a key
    again replaces its timer."""

    def __init__(self, time: TimeSource) -> None:
        self.time = time
        self._timers: dict[Hashable, Cancellable] = {}

    def set(self, key: Hashable, delay: float, callback: Callable[[], None]) -> None:
        self.cancel(key)
        self._timers[key] = self.time.call_later(max(0.0, delay), callback)

    def cancel(self, key: Hashable) -> None:
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()

    def cancel_all(self) -> None:
        for key in list(self._timers):
            self.cancel(key)
