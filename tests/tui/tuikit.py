"""Shared by the ``trumps connect`` tests: the terminal's size and ``until``, which lets a
Textual app run until a condition holds (``server``, a ``trumps serve`` per module, is in
conftest.py)."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot

TIMEOUT = 30.0  # seconds any one wait may take
SIZE = (120, 40)


async def until(pilot: Pilot[None], pred: Callable[[], bool], what: str) -> None:
    """Let the app run until ``pred()`` holds; fail after ``TIMEOUT`` seconds."""
    deadline = time.monotonic() + TIMEOUT
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.01)
