"""The ratings' screens: a leaderboard per rating family and a player's profile
(``GET /api/leaderboard/{family}``, ``GET /api/players/{id}``; docs/ratings.md).

Both load in a worker, so the app never waits on the HTTP API, and say in one line what
went wrong (the server unreachable, an unknown player, a guest who has no profile)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Label, Select, Static

from trumps.tui.connect.common import ClientScreen, show
from trumps.tui.connect.history import HistoryScreen, ReplayScreen
from trumps.tui.connect.net import Client, HttpError
from trumps.tui.connect.ratingtext import (
    FAMILIES,
    bots_line,
    family_title,
    profile_ratings,
    profile_results,
    rating_text,
)

__all__ = ["LeaderboardScreen", "ProfileScreen"]

BOARD_PAGE = 50  # players on one page of a leaderboard


def _problem(what: str, e: HttpError) -> Text:
    return Text(f"Could not load {what}: {e}", style="bold red")


class LeaderboardScreen(ClientScreen):
    """The accounts with a settled rating in one family, best first; the bots beside."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *[
            Binding(str(k + 1), f"family({k})", family_title(f), show=False)
            for k, f in enumerate(FAMILIES)
        ],
        Binding("f", "next_family", "Next family"),
        Binding("right_square_bracket", "page(1)", "Next page", show=False),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False),
        Binding("g", "reload", "Reload"),
        Binding("escape,b", "app.pop_screen", "Back"),
    ]

    def __init__(self, client: Client, family: str = "kozyri-duel") -> None:
        super().__init__(client)
        self.family = family if family in FAMILIES else next(iter(FAMILIES))
        self.start = 0
        self.rows = 0  # players on the page shown

    def compose(self) -> ComposeResult:
        yield Label(
            f"Leaderboard — 1–{len(FAMILIES)} or f: family · Enter: profile", classes="heading"
        )
        yield Select(
            [(title, f) for f, title in FAMILIES.items()],
            value=self.family,
            allow_blank=False,
            id="family",
            compact=True,
        )
        table: DataTable[Text] = DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", markup=False, id="bots", classes="status")
        yield Static("Loading…", markup=False, id="board-status", classes="status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#leaders", DataTable)
        table.add_columns("Rank", "Player", "Rating", "±", "Games")
        table.focus()
        self.action_reload()

    def action_reload(self) -> None:
        self._load(self.family, self.start)

    def action_family(self, k: int) -> None:
        self.query_one("#family", Select).value = list(FAMILIES)[k]

    def action_next_family(self) -> None:
        families = list(FAMILIES)
        self.action_family((families.index(self.family) + 1) % len(families))

    @on(Select.Changed, "#family")
    def _family_changed(self, event: Select.Changed) -> None:
        family = str(event.value)
        if family != self.family and family in FAMILIES:
            self.family, self.start = family, 0
            self.action_reload()

    def action_page(self, step: int) -> None:
        offset = self.start + step * BOARD_PAGE
        if offset >= 0 and (step < 0 or self.rows == BOARD_PAGE):
            self.start = offset
            self.action_reload()

    @work(exclusive=True, group="leaderboard", exit_on_error=False)
    async def _load(self, family: str, offset: int) -> None:
        status = self.query_one("#board-status", Static)
        show(status, f"Loading {family_title(family)}…")
        try:
            data = await self.client.get_json(
                f"/api/leaderboard/{family}?limit={BOARD_PAGE}&offset={offset}"
            )
        except HttpError as e:
            show(status, _problem("the leaderboard", e))
            return
        if family != self.family or offset != self.start:
            return  # another family or page was asked for meanwhile
        board = data if isinstance(data, dict) else {}
        players = list(board.get("players") or [])
        table = self.query_one("#leaders", DataTable)
        table.clear()
        for p in players:
            cells = [str(p.get("rank")), str(p.get("name")), rating_text(p)]
            cells += [str(p.get("deviation")), str(p.get("games"))]
            table.add_row(*(Text(c) for c in cells), key=str(p.get("player_id")))
        self.rows = len(players)
        show(self.query_one("#bots", Static), bots_line(board))
        title = str(board.get("title") or family_title(family))
        if players:
            first = offset + 1
            more = " ([ ] pages)" if offset or len(players) == BOARD_PAGE else ""
            text = f"{title}: {first}–{offset + len(players)}{more}."
        else:
            text = (
                f"{title}: nobody here yet. The leaderboard lists accounts with at least "
                f"{board.get('min_games', '?')} rated games and a settled rating."
            )
        show(status, text)

    @on(DataTable.RowSelected, "#leaders")
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.app.push_screen(ProfileScreen(self.client, int(event.row_key.value)))


class ProfileScreen(ClientScreen):
    """An account's ratings with their history, results by game, the people it met most
    (Enter: their profile) and its latest games (Enter: the replay)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("g", "reload", "Reload"),
        Binding("escape,b", "app.pop_screen", "Back"),
    ]

    def __init__(self, client: Client, player_id: int | None = None) -> None:
        super().__init__(client)
        self.player_id = player_id  # None: this client's own
        self.best: str | None = None  # the family with the most rated games

    def compose(self) -> ComposeResult:
        yield Static("Profile: loading…", markup=False, id="profile-head", classes="topline")
        with VerticalScroll(id="profile"):
            yield Static("", markup=False, id="profile-ratings", classes="status")
            yield Static("", markup=False, id="profile-results", classes="status")
            yield Label("Head-to-head — Enter: their profile", classes="heading")
            h2h: DataTable[Text] = DataTable(id="h2h", cursor_type="row", zebra_stripes=True)
            h2h.add_columns("Player", "Won", "Drawn", "Lost")
            yield h2h
            yield Label("Latest games — Enter: replay", classes="heading")
            games: DataTable[Text] = DataTable(
                id="profile-games", cursor_type="row", zebra_stripes=True
            )
            games.add_columns("Game id", "Game", "Players", "Result", "Rating", "Finished")
            yield games
        yield Footer()

    def on_mount(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        self._load()

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen(self.client, self.best or "kozyri-duel"))

    @work(exclusive=True, group="profile", exit_on_error=False)
    async def _load(self) -> None:
        head = self.query_one("#profile-head", Static)
        player = self.player_id
        if player is None:
            own = self.client.state.player_id
            if own is None or not own.isdigit():
                show(head, Text("Not connected yet: try again in a moment (g).", style="bold red"))
                return
            player = int(own)
        try:
            data = await self.client.get_json(f"/api/players/{player}")
        except HttpError as e:
            if e.status == 404 and self.player_id is None:
                text = (
                    "You play as a guest, and guests have no profile: sign in with s in the lobby."
                )
                show(head, Text(text, style="bold red"))
            else:
                show(head, _problem("the profile", e))
            return
        profile: dict[str, Any] = data if isinstance(data, dict) else {}
        ratings = profile.get("ratings") or {}
        if ratings:
            self.best = max(ratings, key=lambda f: int(ratings[f].get("games") or 0))
        mine = " (you)" if str(player) == self.client.state.player_id else ""
        show(head, f"{profile.get('name')}{mine} — player {player} · l: leaderboard")
        show(self.query_one("#profile-ratings", Static), profile_ratings(profile))
        show(self.query_one("#profile-results", Static), profile_results(profile))
        h2h = self.query_one("#h2h", DataTable)
        h2h.clear()
        for h in profile.get("head_to_head") or []:
            cells = [str(h.get(k)) for k in ("name", "won", "drawn", "lost")]
            h2h.add_row(*(Text(c) for c in cells), key=str(h.get("player_id")))
        games = self.query_one("#profile-games", DataTable)
        games.clear()
        for g in profile.get("games") or []:
            games.add_row(*(Text(c) for c in HistoryScreen.row(g)), key=str(g.get("id")))
        (h2h if h2h.row_count else games).focus()

    @on(DataTable.RowSelected, "#h2h")
    def _opponent(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.app.push_screen(ProfileScreen(self.client, int(event.row_key.value)))

    @on(DataTable.RowSelected, "#profile-games")
    def _replay(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.app.push_screen(ReplayScreen(self.client, int(event.row_key.value)))
