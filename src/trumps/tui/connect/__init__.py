"""``trumps connect URL``: the terminal client of a trumps server (Textual).

``run(url, name)`` runs it; ``ConnectApp`` is the app (``App.run_test()`` drives it in
tests).  ``net.Client`` is the connection and ``model.ClientState`` what it knows.
"""

from __future__ import annotations

from trumps.tui.connect.app import ConnectApp, run
from trumps.tui.connect.net import Client, server_address

__all__ = ["Client", "ConnectApp", "run", "server_address"]
