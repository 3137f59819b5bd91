"""The minimal browser page of the game server (issue 4): plain files, no build step.

``STATIC`` is the folder the server mounts at ``/static/``; its ``index.html`` is also served
at ``/``.  The page is plain HTML, one CSS file and one ES module (``app.js``) speaking the
protocol of ``docs/protocol.md`` over ``/ws`` and the JSON API under ``/api/``.  It loads
nothing from other origins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["STATIC"]

STATIC: Final = Path(__file__).parent / "static"
