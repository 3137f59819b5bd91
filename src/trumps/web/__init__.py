"""The browser client of the game server: plain files, no build step, no Node.

``STATIC`` is the folder the server mounts at ``/static/``; its ``index.html`` is also served
at ``/``.  The page is plain ES modules (``app.js`` the entry; ``net.js`` the socket and
resync; ``i18n.js`` translations; ``cards.js``, ``board.js``, ``table.js``, ``lobby.js``,
``history.js`` the views) and one stylesheet, speaking the protocol of ``docs/protocol.md``
over ``/ws`` and the JSON API under ``/api/``.  Cards are Adrian Kennard's CC0 SVG deck
(``static/cards/LICENSE.md``); Persian uses the bundled Vazirmatn font (OFL,
``static/fonts/``).  Every visible string goes through ``t("English text")``, translated from
``GET /i18n/{lang}.json``.  It loads nothing from other origins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["STATIC"]

STATIC: Final = Path(__file__).parent / "static"
