"""Your finished games, and a replay viewer stepping through one of them."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Label, Static

from trumps.tui.cardtext import action_label
from trumps.tui.connect.common import ClientScreen, game_title, show
from trumps.tui.connect.model import Msg
from trumps.tui.connect.net import HttpError
from trumps.tui.connect.ratingtext import change_text, game_change
from trumps.tui.connect.text import position_text

__all__ = ["HistoryScreen", "ReplayScreen"]


class HistoryScreen(ClientScreen):
    """Your finished games (``GET /api/games?mine=1``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,b", "app.pop_screen", "Back"),
        Binding("g", "reload", "Reload"),
    ]

    def compose(self) -> ComposeResult:
        yield Label("Your finished games — Enter: replay", classes="heading")
        table: DataTable[Text] = DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("Loading…", markup=False, id="history-status", classes="status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#games", DataTable)
        table.add_columns("Game id", "Game", "Players", "Result", "Rating", "Finished")
        table.focus()
        self.action_reload()

    def action_reload(self) -> None:
        self._load()

    @work(exclusive=True, group="history", exit_on_error=False)
    async def _load(self) -> None:
        status = self.query_one("#history-status", Static)
        try:
            data = await self.client.get_json("/api/games?mine=1&limit=100", auth=True)
        except HttpError as e:
            show(status, Text(f"Could not load the history: {e}", style="bold red"))
            return
        games = data.get("games", []) if isinstance(data, dict) else []
        table = self.query_one("#games", DataTable)
        table.clear()
        for g in games:
            table.add_row(*(Text(c) for c in self.row(g)), key=str(g.get("id")))
        show(status, f"{len(games)} game{'s' if len(games) != 1 else ''}.")

    @staticmethod
    def row(g: Msg) -> tuple[str, ...]:
        outcome = g.get("outcome") or {}
        seat = g.get("seat")
        if isinstance(seat, int) and seat in (g.get("by_bot") or []):
            result = "finished by a bot"  # the player had left: not their win or loss
        elif outcome.get("draw"):
            result = "draw"
        elif isinstance(seat, int):
            result = "won" if seat in outcome.get("winners", []) else "lost"
        else:
            result = "—"
        reason = str(outcome.get("reason", "")).replace("_", " ")
        moved = game_change(g)
        rating = change_text(*moved) if moved else ("rated" if g.get("rated") else "casual")
        return (
            str(g.get("id")),
            game_title(str(g.get("game"))),
            ", ".join(str(p) for p in g.get("players", [])),
            f"{result} ({reason})" if reason else result,
            rating,
            str(g.get("finished") or "")[:19].replace("T", " "),
        )

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.app.push_screen(ReplayScreen(int(event.row_key.value)))


class ReplayScreen(ClientScreen):
    """Step through a finished game's positions (``GET /api/games/ID/replay``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back"),
        Binding("right", "step(1)", "Forward"),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("escape,b", "app.pop_screen", "Close"),
    ]

    def __init__(self, game_id: int) -> None:
        super().__init__()
        self.game_id = game_id
        self.record: Msg = {}
        self.positions: list[Msg] = []
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static(
            f"Game {self.game_id}: loading…", markup=False, id="replay-head", classes="topline"
        )
        with VerticalScroll():
            yield Static("", markup=False, id="replay-board")
        yield Footer()

    def on_mount(self) -> None:
        self._load()

    @work(exclusive=True, group="replay", exit_on_error=False)
    async def _load(self) -> None:
        try:
            data = await self.client.get_json(f"/api/games/{self.game_id}/replay")
        except HttpError as e:
            show(self.query_one("#replay-head", Static), f"Game {self.game_id}: {e}")
            return
        self.record = dict(data.get("record") or {})
        self.positions = list(data.get("positions") or [])
        self._draw()

    def action_step(self, step: int) -> None:
        if self.positions:
            self.index = max(0, min(len(self.positions) - 1, self.index + step))
            self._draw()

    def action_jump(self, where: int) -> None:
        if self.positions:
            self.index = len(self.positions) - 1 if where < 0 else 0
            self._draw()

    def _draw(self) -> None:
        if not self.positions:
            return
        names = [str(n) for n in self.record.get("players", [])]
        actions = list(self.record.get("actions", []))
        i = self.index
        head = f"Game {self.game_id} · {game_title(str(self.record.get('game')))} · "
        head += f"move {i}/{len(self.positions) - 1}"
        if i > 0:
            actor = self.positions[i - 1].get("to_move")
            who = names[actor] if isinstance(actor, int) and actor < len(names) else "?"
            action = str(actions[i - 1]) if i - 1 < len(actions) else "?"
            head += f": {who} played {action_label(action, self.positions[i - 1]).plain}"
        if i == len(self.positions) - 1 and self.record.get("outcome"):
            o = self.record["outcome"]
            winners = ", ".join(names[s] for s in o.get("winners", []) if s < len(names))
            head += f" · {'draw' if o.get('draw') else 'won by ' + winners} ({o.get('reason')})"
        show(self.query_one("#replay-head", Static), head + "   ←/→ step · Home/End")
        show(self.query_one("#replay-board", Static), position_text(self.positions[i], names))
