"""``trumps connect URL``: play on a trumps server from the terminal (Textual).

The lobby lists the public tables live (join, watch), creates tables (private ones show
their invite id and link), quick-matches, starts a game against the computer and opens the
history with a replay viewer.  A table shows the seats (names, bots, away, cards held,
clocks, whose turn), the pile or the trick, your hand with the legal actions highlighted,
the log and chat.  The connection lives in ``trumps.tui.connect.net.Client``; it runs as a
worker in the app's event loop and posts a ``ServerUpdate`` for every message.

Keys — lobby: Enter/j join · w watch · c create · p play the computer · m quick match
(again: cancel) · i join by invite id or link · t my table · h history (Enter: a
replay: ←/→ step · Home/End · a analyse · n/p the next/previous marked move) · l leaderboard
(1–4 or f: the rating family; Enter: a player's profile) · y your profile (ratings with
their history, results by game, head-to-head; Enter: their profile or a replay) · s sign
in (or make this guest an account) · q quit.  The forms' Rated box is for accounts (a guest is
told why it is off); quick match is rated for an account unless it unticks the box.  At
the end of a rated game the table says what it did to your rating.
Table: ←/→ (or 1–9, 0) choose · Enter play · a type an action (``TH``, ``take``,
``rob 9S``, ``discard 9S``) · c chat · p whole pile · h hint · r resign · n rematch ·
l leave · b/Esc lobby.  Anywhere, while offline: Ctrl+R reconnects now; at a table whose
game another window of yours took (the server's ``replaced``), Ctrl+R plays it here again
(``join_table``, as the page's "Play here" button).

The screens live in their own modules: ``lobby``, ``table``, ``history`` (and the replay),
``ladder`` (the leaderboard and profiles),
``form`` (create / play the computer / quick match) and ``dialogs``; what they draw comes
from ``text`` and the shared terminal board renderer ``trumps.tui.board``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.screen import Screen

from trumps.tui.connect.common import OpenTable, ServerUpdate, ShowTable, say
from trumps.tui.connect.form import GameForm
from trumps.tui.connect.lobby import LobbyScreen
from trumps.tui.connect.model import Change, Msg, outcome_text
from trumps.tui.connect.net import Client, HttpError
from trumps.tui.connect.ratingtext import change_text, family_title, game_change, table_family
from trumps.tui.connect.table import HandBar, TableScreen

RECENT = 20  # latest games asked for to find the one just finished

__all__ = ["ConnectApp", "GameForm", "HandBar", "LobbyScreen", "TableScreen", "run"]


class ConnectApp(App[None]):
    """The online client: ``ConnectApp("http://host:port").run()``."""

    TITLE = "trumps"
    CSS = """
    .topline { background: $primary-background; color: $text; padding: 0 1; }
    .heading { text-style: bold; padding: 0 1; }
    .status { padding: 0 1; }
    #waiting, #mine, #invite { padding: 0 1; }
    #invite { color: $warning; text-style: bold; }
    #tables, #games, #leaders { height: 1fr; }
    #h2h { height: auto; max-height: 12; margin-bottom: 1; }
    #profile-games { height: auto; max-height: 22; }
    #family { width: 50; margin: 0 1; }
    #seats, #board { padding: 0 1; margin-bottom: 0; }
    #hand { padding: 0 1; height: auto; min-height: 1; }
    #hand:focus { background: $boost; }
    #log { height: 1fr; border-top: solid $primary; }
    #inputs { height: 1; }
    #inputs Input { width: 1fr; margin: 0 1; }
    .dialog { width: 76; height: auto; max-height: 90%; background: $panel; border: thick $primary; padding: 1 2; }
    .form .row { height: 1; margin-bottom: 0; }
    .form .field { width: 12; }
    .form Select, .form Input { width: 1fr; }
    .buttons { height: auto; margin-top: 1; }
    .buttons Button { margin-right: 2; }
    .problem { color: $error; }
    Confirm, Ask, PileView, GameForm, SignIn { align: center middle; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "retry_now", "Retry now / play here", show=False, priority=True)
    ]

    def __init__(
        self, url: str, name: str | None = None, token_file: Path | str | None = None
    ) -> None:
        super().__init__()
        self.client = Client(
            url,
            name,
            Path(token_file) if token_file is not None else None,
            listener=self._heard,
        )
        self.last_error: Msg | None = None

    def action_retry_now(self) -> None:
        """Ctrl+R.  At a table another window of ours took: sit here again (``join_table``;
        the other window is told ``replaced``).  Offline: reconnect now, not after the
        backoff."""
        screen = self.table_screen()
        t = self.client.state.tables.get(screen.table_id) if screen is not None else None
        if t is not None and t.replaced and self.client.state.welcomed:
            self.client.join(t.table_id)
            return
        self.client.retry_now()

    def get_default_screen(self) -> Screen[Any]:
        return LobbyScreen(self.client)

    def on_mount(self) -> None:
        self.run_worker(self.client.run(), name="connection", group="net", exit_on_error=False)

    async def on_unmount(self) -> None:
        self.client.stop()

    def _heard(self, change: Change, msg: Msg) -> None:
        self.post_message(ServerUpdate(change, msg))

    # -- navigation ------------------------------------------------------------------------
    def table_screen(self) -> TableScreen | None:
        screen = self.screen
        return screen if isinstance(screen, TableScreen) else None

    def show_table(self, table_id: str) -> None:
        """Show ``table_id`` above the lobby (closing other tables and dialogs)."""
        current = self.table_screen()
        if current is not None and current.table_id == table_id:
            return
        while len(self.screen_stack) > 1 and not isinstance(self.screen, LobbyScreen):
            self.pop_screen()
        self.push_screen(TableScreen(self.client, table_id))

    def on_open_table(self, message: OpenTable) -> None:
        self.open_or_request(message.table_id, watch=message.watch)

    def on_show_table(self, message: ShowTable) -> None:
        self.show_table(message.table_id)

    def open_or_request(self, table_id: str, *, watch: bool) -> None:
        """Open a table we know, else ask to sit (or watch); its snapshot opens it."""
        t = self.client.state.tables.get(table_id)
        if t is not None and not t.left:
            self.show_table(table_id)
            return
        sent = self.client.spectate(table_id) if watch else self.client.join(table_id)
        if not sent:
            say(self, "Not connected yet.", severity="error")

    # -- the server ------------------------------------------------------------------------
    def on_server_update(self, update: ServerUpdate) -> None:
        change = update.change
        if change.kind == "error":
            self.last_error = update.msg
            say(self, change.text, severity="error", timeout=6)
        elif change.kind == "rematch":
            say(self, change.text, timeout=10)
        elif change.kind == "game_over" and change.table_id is not None:
            t = self.client.state.tables[change.table_id]
            say(self, outcome_text(t), timeout=8)
            if t.record_id is not None:
                self._check_fair(change.table_id, t.record_id)
                if t.rated and t.seat is not None:
                    self._rating_change(change.table_id, t.record_id)
        if change.kind == "table_state" and change.new_table and change.table_id:
            self.show_table(change.table_id)
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen | TableScreen) and screen.ready:
                try:
                    screen.update_view(change)
                except NoMatches:
                    # A message that lands while the app shuts down finds the screen's
                    # widgets already removed: there is nothing left to draw.
                    if self._running:  # Textual clears it when the shutdown starts
                        raise

    @work(group="fair", exit_on_error=False)
    async def _check_fair(self, table_id: str, record_id: int) -> None:
        """Check the finished game's deal against what we gave, and say so at the table."""
        try:
            record = await self.client.get_json(f"/api/games/{record_id}")
            text, passed = self.client.state.fair_check(table_id, record)
        except HttpError as e:
            text, passed = f"Fair deal: the record could not be fetched to check it ({e}).", False
        t = self.client.state.tables.get(table_id)
        if t is None:
            return
        t.note(text, "green" if passed else "bold red")
        self.on_server_update(ServerUpdate(Change("note", table_id), {}))

    @work(group="rating", exit_on_error=False)
    async def _rating_change(self, table_id: str, record_id: int) -> None:
        """After a rated game: what it did to our rating (``GET /api/games?mine=1``), in
        the table's log and status line; one line when it cannot be fetched."""
        t = self.client.state.tables.get(table_id)
        if t is None:
            return
        family = table_family(t.game, t.players, t.rules)
        what = f"Your rating ({family_title(family)})" if family else "Your rating"
        style = "bold cyan"
        try:
            data = await self.client.get_json(f"/api/games?mine=1&limit={RECENT}", auth=True)
        except HttpError as e:
            text, style = f"Your rating change could not be fetched ({e}).", "bold red"
        else:
            rows = data.get("games") if isinstance(data, dict) else None
            row = next((g for g in rows or [] if g.get("id") == record_id), None)
            moved = game_change(row) if row is not None else None
            if moved is not None:
                text = f"{what}: {change_text(*moved)}."
            elif row is not None and not row.get("rated"):
                text = "This game was not rated (no move was made: it was aborted)."
            else:
                text = f"Your rating change was not found in your history (game {record_id})."
                style = "bold red"
        t.rating_note = text
        t.note(text, style)
        say(self, text, severity="error" if style == "bold red" else "information", timeout=8)
        self.on_server_update(ServerUpdate(Change("note", table_id), {}))


def run(url: str, name: str | None = None, token_file: Path | None = None) -> None:
    """``trumps connect URL``: run the client until the player quits."""
    ConnectApp(url, name, token_file).run()
