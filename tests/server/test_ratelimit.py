"""The per-connection rate limit: a burst per second and a budget per minute, on a fake clock."""

from __future__ import annotations

from trumps.server.limits.ratelimit import RateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_refill_rate() -> None:
    clock = Clock()
    buckets = RateLimit(5, 600, clock=clock).buckets()
    assert [buckets.allow() for _ in range(7)] == [True] * 5 + [False] * 2
    clock.now += 0.2  # one token back at 5 a second
    assert buckets.allow() and not buckets.allow()
    clock.now += 10  # the burst is full again, never more than its capacity
    assert sum(buckets.allow() for _ in range(20)) == 5


def test_the_minute_budget_holds_across_bursts_and_refusals_cost_nothing() -> None:
    clock = Clock()
    buckets = RateLimit(20, 30, clock=clock).buckets()
    allowed = 0
    for _ in range(10):  # ten seconds of hammering: 20 at once, then 30 in all at most …
        allowed += sum(buckets.allow() for _ in range(50))
        clock.now += 1.0
    assert allowed == 30 + 9 * 30 // 60  # … plus the minute's refill of half a token a second
    assert not buckets.idle
    clock.now += 60
    assert buckets.idle  # a full minute later nothing is owed
    assert sum(buckets.allow() for _ in range(40)) == 20
