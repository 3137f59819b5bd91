"""What every screen of the online terminal client shares: the message a server update
arrives in, notifications, cheap redraws, and the way to the app and its connection."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Static

from trumps.games import GAMES
from trumps.tui.connect.model import Change, Msg
from trumps.tui.connect.net import Client

if TYPE_CHECKING:
    from trumps.tui.connect.app import ConnectApp

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


class ClientScreen(Screen[None]):
    """A full screen of the client: it reaches the app and its connection."""

    @property
    def connect_app(self) -> ConnectApp:
        from trumps.tui.connect.app import ConnectApp  # the app module imports the screens

        app = self.app
        assert isinstance(app, ConnectApp)
        return app

    @property
    def client(self) -> Client:
        return self.connect_app.client


__all__ = ["BOT_LEVELS", "ClientScreen", "ServerUpdate", "game_title", "say", "show"]
