"""The lobby: the public tables live (join, watch) and the ways to start a game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Footer, Label, Static

from trumps.tui.connect.common import ClientScreen, OpenTable, ShowTable, game_title, say, show
from trumps.tui.connect.dialogs import Ask, SignIn
from trumps.tui.connect.form import GameForm
from trumps.tui.connect.history import HistoryScreen
from trumps.tui.connect.ladder import LeaderboardScreen, ProfileScreen
from trumps.tui.connect.model import GUEST, Change, Msg
from trumps.tui.connect.net import parse_invite
from trumps.tui.connect.text import lobby_row, rules_text

RATED_TABLE_GUEST = "That table is rated: rated games are for accounts (s: sign in)."
LOBBY_PAGE = 50  # tables in one table_list (the server's lobby.LOBBY_PAGE)

__all__ = ["LobbyScreen"]


class LobbyScreen(ClientScreen):
    """Public tables, and the ways to start a game."""

    ready = False  # composed and mounted: its widgets can be updated

    BINDINGS: ClassVar[list[BindingType]] = [
        # Shown in the heading (j, w, i) and the line of one's tables (t): the footer
        # keeps room for the rest at 120 columns.
        Binding("j", "join", "Join", show=False),
        Binding("w", "watch", "Watch", show=False),
        Binding("c", "create", "Create"),
        Binding("p", "computer", "Computer"),
        Binding("m", "quick", "Quick match"),
        Binding("i", "invite", "Join by id", show=False),
        Binding("t", "my_table", "My table", show=False),
        Binding("h", "history", "History"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("y", "profile", "Profile"),
        Binding("s", "sign_in", "Sign in"),
        Binding("right_square_bracket", "page(1)", "Next tables", show=False),
        Binding("left_square_bracket", "page(-1)", "Previous tables", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("", markup=False, id="conn", classes="topline")
        yield Static("", markup=False, id="waiting")
        yield Label(
            "Public tables — Enter/j join · w watch · i join by id or link",
            id="tables-heading",
            classes="heading",
        )
        table: DataTable[Text] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", markup=False, id="mine")
        yield Static("", markup=False, id="lobby-status", classes="status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#tables", DataTable)
        table.add_columns("Table", "Game", "Rules", "Seats", "Open", "State", "Clock", "Rated")
        self.ready = True
        self.update_view(Change("status"))
        table.focus()

    def on_screen_resume(self) -> None:
        if not self.ready:
            return
        show(self.query_one("#lobby-status", Static), "")
        self.update_view(Change("table_list"))
        if self.client.state.welcomed:
            self.client.send({"type": "list_tables"})

    def update_view(self, change: Change) -> None:
        st = self.client.state
        who = st.name or self.client.name or GUEST  # (no name chosen)
        who += f" (account {st.account})" if st.account else " (guest)"
        show(
            self.query_one("#conn", Static),
            f"trumps · {self.client.server.http_url} · {who} · {self.client.status}",
        )
        if st.waiting is not None:
            game = str(st.waiting["game"])
            rules = st.waiting.get("rules")
            shown = rules_text(game, rules) if rules else "default rules"
            kind = "rated" if st.waiting.get("rated") else "casual"
            show(
                self.query_one("#waiting", Static),
                Text(
                    f"Quick match ({kind}): waiting for another player of {game_title(game)} "
                    f"({shown}) — m to cancel",
                    style="bold yellow",
                ),
            )
        else:
            show(self.query_one("#waiting", Static), "")
        if change.kind in ("table_list", "welcome", "status"):
            self._fill_tables()
        mine = [t for t in st.tables.values() if not t.left and t.outcome is None]
        if mine:
            parts = []
            for t in mine:
                state = "your turn" if t.my_turn else ("watching" if t.seat is None else "playing")
                parts.append(f"{t.table_id} ({game_title(t.game)}, {state})")
            show(self.query_one("#mine", Static), "Your tables (t): " + " · ".join(parts))
        else:
            show(self.query_one("#mine", Static), "")
        if change.kind == "error" and change.table_id is None:
            show(self.query_one("#lobby-status", Static), Text(change.text, style="bold red"))
        elif change.kind == "table_list" and change.text:  # a table the server gave up
            show(self.query_one("#lobby-status", Static), Text(change.text, style="bold yellow"))

    def action_page(self, step: int) -> None:
        """The next (1) or previous (-1) page of the public tables (lobby.LOBBY_PAGE)."""
        st = self.client.state
        offset = st.lobby_offset + step * LOBBY_PAGE
        if 0 <= offset < st.lobby_total:
            self.client.send({"type": "list_tables", "offset": offset})

    def _fill_tables(self) -> None:
        st = self.client.state
        heading = "Public tables — Enter/j join · w watch · i join by id or link"
        if st.lobby_offset > 0 or len(st.lobby) < st.lobby_total:
            first, last = st.lobby_offset + 1, st.lobby_offset + len(st.lobby)
            heading += f" · {first}–{last} of {st.lobby_total} ([ ] pages)"
        self.query_one("#tables-heading", Label).update(heading)
        table = self.query_one("#tables", DataTable)
        keep = table.cursor_row
        table.clear()
        for summary in self.client.state.lobby:
            table.add_row(*(Text(c) for c in lobby_row(summary)), key=str(summary.get("table_id")))
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))

    def _selected(self) -> str | None:
        table = self.query_one("#tables", DataTable)
        if not table.row_count:
            say(self, "No public table yet: create one (c) or play the computer (p).")
            return None
        row = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key
        return str(row.value)

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_join()

    def action_join(self) -> None:
        table_id = self._selected()
        if table_id is None:
            return
        row = next((r for r in self.client.state.lobby if r.get("table_id") == table_id), {})
        mine = self.client.state.tables.get(table_id)
        if row.get("rated") and not self.client.state.signed_in and mine is None:
            say(self, f"{RATED_TABLE_GUEST} You may watch it (w).", severity="warning")
            return
        self.post_message(OpenTable(table_id))

    def action_watch(self) -> None:
        table_id = self._selected()
        if table_id is not None:
            self.post_message(OpenTable(table_id, watch=True))

    def _form(self, mode: str) -> None:
        def done(msg: Msg | None) -> None:
            if msg is not None and not self.client.send(msg):
                say(self, "Not connected yet.", severity="error")

        form = GameForm(mode, account=self.client.state.signed_in, client=self.client)
        self.app.push_screen(form, done)

    def action_create(self) -> None:
        self._form("create")

    def action_computer(self) -> None:
        self._form("computer")

    def action_quick(self) -> None:
        if self.client.state.waiting is not None:
            self.client.cancel_quick_match()
            self.update_view(Change("waiting"))
            return
        self._form("quick")

    def action_invite(self) -> None:
        def done(text: str | None) -> None:
            if not text:
                return
            table_id = parse_invite(text)
            if table_id is None:
                say(self, "That is not a table id or an invite link.", severity="error")
            else:
                self.post_message(OpenTable(table_id))

        self.app.push_screen(Ask("Table id or invite link:", "t-… or http://…/?table=t-…"), done)

    def action_my_table(self) -> None:
        mine = [t for t in self.client.state.tables.values() if not t.left]
        mine.sort(key=lambda t: (t.outcome is not None, not t.my_turn))
        if not mine:
            say(self, "You are at no table.")
            return
        self.post_message(ShowTable(mine[0].table_id))

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.client))

    def action_sign_in(self) -> None:
        def done(login: str | None) -> None:
            if login:
                say(self, f"Signed in as {login}: connecting again as the account.")

        self.app.push_screen(SignIn(self.client), done)

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen(self.client))

    def action_profile(self) -> None:
        self.app.push_screen(ProfileScreen(self.client))
