"""The terminal client: play against the computer (``trumps play``)."""

from __future__ import annotations

from trumps.tui.play import PlayOptions, run
from trumps.tui.render import render, render_plain, seat_names

__all__ = ["PlayOptions", "render", "render_plain", "run", "seat_names"]
