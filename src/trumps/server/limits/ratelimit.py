"""Per-key rate limits: two token buckets (a burst per second, a budget per minute).

O(1) per message, no timers and no threads: the server checks a connection's buckets on
every frame, so this must cost next to nothing (a store with a background expiry thread
walking every key cost a quarter of a core at 1,000 connections).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Buckets", "RateLimit"]


@dataclass
class _Bucket:
    capacity: float
    per_second: float
    tokens: float
    stamp: float


@dataclass
class RateLimit:
    """At most ``per_second`` at once (refilled each second) and ``per_minute`` a minute."""

    per_second: int
    per_minute: int
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    def buckets(self) -> Buckets:
        return Buckets(self)


class Buckets:
    """One key's buckets: ``allow()`` spends a token from each, or refuses and spends none."""

    def __init__(self, limit: RateLimit) -> None:
        now = limit.clock()
        self._clock = limit.clock
        self._second = _Bucket(limit.per_second, limit.per_second, limit.per_second, now)
        self._minute = _Bucket(limit.per_minute, limit.per_minute / 60, limit.per_minute, now)

    def allow(self) -> bool:
        now = self._clock()
        second, minute = self._second, self._minute
        for bucket in (second, minute):  # refill both first, so a refusal spends nothing
            bucket.tokens = min(
                bucket.capacity, bucket.tokens + (now - bucket.stamp) * bucket.per_second
            )
            bucket.stamp = now
        if second.tokens < 1.0 or minute.tokens < 1.0:
            return False
        second.tokens -= 1.0
        minute.tokens -= 1.0
        return True

    @property
    def idle(self) -> bool:
        """Full again: nothing to remember for this key."""
        now = self._clock()
        return all(
            b.tokens + (now - b.stamp) * b.per_second >= b.capacity
            for b in (self._second, self._minute)
        )
