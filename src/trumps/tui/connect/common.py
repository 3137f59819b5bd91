"""What every screen of the online terminal client shares: the message a server update
arrives in, the messages a screen sends up to open a table, notifications, cheap redraws,
and the connection each screen is given (attributes down, messages up: no screen imports
the app)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Static

from trumps.games import GAMES
from trumps.tui.connect.model import Change, Msg
from trumps.tui.connect.net import Client

BOT_LEVELS = ("random", "easy", "medium", "hard", "expert")


class ServerUpdate(Message):
    """Something came from the server (or the connection changed)."""

    def __init__(self, change: Change, msg: Msg) -> None:
        super().__init__()
        self.change = change
        self.msg = msg


def say(
    node: Screen[Any] | App[Any] | Static,
    message: str,
    severity: SeverityLevel = "information",
    timeout: float | None = None,
) -> None:
    """A notification; its text is shown as given, never read as markup."""
    node.app.notify(message, severity=severity, timeout=timeout, markup=False)


def show(widget: Static, content: str | Text) -> None:
    """Update ``widget`` only when its content changed (a redraw costs a layout pass)."""
    old = widget.content
    if type(old) is not type(content) or old != content:
        widget.update(content)


def game_title(game: str) -> str:
    cls = GAMES.get(game)
    return cls.title if cls is not None else game


class OpenTable(Message):
    """A screen asks the app for a table: shown if we know it, else asked to sit at (or to
    watch, ``watch``); its snapshot then opens it."""

    def __init__(self, table_id: str, *, watch: bool = False) -> None:
        super().__init__()
        self.table_id = table_id
        self.watch = watch


class ShowTable(Message):
    """A screen asks the app to show a table we are at, above the lobby."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id


class ClientScreen(Screen[None]):
    """A full screen of the client, given the connection it shows; it opens tables by
    messages to the app (``OpenTable``, ``ShowTable``) and other screens with the same
    connection."""

    def __init__(self, client: Client) -> None:
        super().__init__()
        self.client = client


__all__ = [
    "BOT_LEVELS",
    "ClientScreen",
    "OpenTable",
    "ServerUpdate",
    "ShowTable",
    "game_title",
    "say",
    "show",
]
