"""The Fischer clocks of a timed table: seconds left per person's seat, one running at a time.

A clock runs while its seat is to move (``start``); ``stop`` charges the time used and, for a
move, adds the increment.  Once a seat's clock has run out (``on_timeout: move``) the seat
gets at least ``TIMEOUT_FLOOR`` seconds for each later move.  The time comes from an injected
``now()``, so the arithmetic is tested without waiting; the table sets the timer for zero.

The clocks can be paused (``pause``/``resume``): while the service cannot take a move (its
store or Redis unreachable), the seat to move is not charged for the time it could not use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from trumps.server.wire.protocol import TimeControl

__all__ = ["TIMEOUT_FLOOR", "FischerClocks"]

TIMEOUT_FLOOR = 10.0  # seconds a seat gets for each move after its clock ran out ("move")


class FischerClocks:
    """Per-seat clocks: ``left[s]`` seconds (None for a seat without a clock)."""

    def __init__(
        self, time_control: TimeControl | None, timed: Sequence[bool], now: Callable[[], float]
    ) -> None:
        self.time_control = time_control
        self.now = now
        base = time_control.base if time_control is not None else None
        self.left: list[float | None] = [base if t and base is not None else None for t in timed]
        self.timed_out = [False] * len(timed)  # ran out once: TIMEOUT_FLOOR per move since
        self.running: int | None = None  # the seat whose clock runs
        self._since = 0.0
        self._paused_at: float | None = None  # paused since then: no time is charged

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def _used(self) -> float:
        """Seconds the running clock has been charged since it started (or resumed)."""
        end = self._paused_at if self._paused_at is not None else self.now()
        return max(0.0, end - self._since)

    def pause(self) -> None:
        """Charge no time from now on (the running clock keeps its seat) until ``resume``."""
        if self._paused_at is None:
            self._paused_at = self.now()

    def resume(self) -> None:
        """Charge time again; the pause is not charged to anyone."""
        if self._paused_at is not None:
            self._since += self.now() - self._paused_at
            self._paused_at = None

    def remaining(self) -> float | None:
        """Seconds left on the running clock now (None when no clock runs)."""
        if self.running is None or self.time_control is None:
            return None
        left = self.left[self.running]
        return None if left is None else max(0.0, left - self._used())

    def snapshot(self) -> list[float | None] | None:
        """Seconds left per seat now (rounded to ms), or None for an untimed table."""
        if self.time_control is None:
            return None
        out: list[float | None] = []
        for s, left in enumerate(self.left):
            if left is not None and s == self.running:
                left = max(0.0, left - self._used())
            out.append(None if left is None else round(left, 3))
        return out

    def start(self, seat: int) -> float:
        """Run ``seat``'s clock (which must exist) from now — from the end of the pause, if
        paused; returns the seconds it has."""
        left = self.left[seat]
        assert left is not None, f"seat {seat} has no clock"
        self.running, self._since = seat, self.now()
        if self._paused_at is not None:
            self._paused_at = self._since
        return left

    def stop(self, *, moved: bool) -> int | None:
        """Stop the running clock, charging the time used; a move adds the increment (and
        the floor after a timeout).  Returns the seat whose clock stopped, if any."""
        s, tc = self.running, self.time_control
        if s is None or tc is None:
            return None
        left = self.left[s]
        assert left is not None
        left = max(0.0, left - self._used())
        if moved:
            left += tc.increment
            if self.timed_out[s]:
                left = max(left, TIMEOUT_FLOOR)
        self.left[s] = left
        self.running = None
        return s

    def ran_out(self, seat: int) -> None:
        """``seat``'s clock reached zero and a default move was played for it: from now on
        it has at least ``TIMEOUT_FLOOR`` seconds per move."""
        self.timed_out[seat] = True
        self.left[seat] = max(self.left[seat] or 0.0, TIMEOUT_FLOOR)
