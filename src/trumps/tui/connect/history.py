"""Your finished games, and a replay viewer stepping through one of them."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Label, Static

from trumps.tui.cardtext import action_label
from trumps.tui.connect.analysistext import (
    graph_text,
    mark_line,
    marked_move,
    marked_plies,
    problem_text,
    progress_text,
    summary_text,
)
from trumps.tui.connect.common import ClientScreen, game_title, show
from trumps.tui.connect.model import Msg
from trumps.tui.connect.net import Client, HttpError
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
            self.app.push_screen(ReplayScreen(self.client, int(event.row_key.value)))


class ReplayScreen(ClientScreen):
    """Step through a finished game's positions (``GET /api/games/ID/replay``), with its
    analysis when there is one (``GET``/``POST /api/games/ID/analysis``, docs/analysis.md):
    the line of a marked move under the board at the step after it, and each seat's value
    over the game as a graph."""

    POLL = 1.0  # seconds between two questions while the server analyses

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back"),
        Binding("right", "step(1)", "Forward"),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("a", "analyse", "Analyse"),
        Binding("n", "mark(1)", "Next mark"),
        Binding("p", "mark(-1)", "Previous mark"),
        Binding("escape,b", "app.pop_screen", "Close"),
    ]

    def __init__(self, client: Client, game_id: int) -> None:
        super().__init__(client)
        self.game_id = game_id
        self.record: Msg = {}
        self.positions: list[Msg] = []
        self.index = 0
        self.analysis: Msg | None = None
        self.marks: list[int] = []  # the plies of the marked moves

    def compose(self) -> ComposeResult:
        yield Static(
            f"Game {self.game_id}: loading…", markup=False, id="replay-head", classes="topline"
        )
        with VerticalScroll(id="replay-scroll"):
            yield Static("", markup=False, id="replay-board")
        yield Static("", markup=False, id="replay-mark", classes="status")
        yield Static("", markup=False, id="replay-graph", classes="status")
        yield Static("", markup=False, id="replay-analysis", classes="status")
        yield Footer()

    def on_mount(self) -> None:
        for name in ("mark", "graph"):
            self.query_one(f"#replay-{name}", Static).display = False
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
        self._analysis(post=False)

    # -- the analysis ----------------------------------------------------------------------
    def action_analyse(self) -> None:
        if self.analysis is not None:
            self._status(summary_text(self.analysis))
        elif self.positions:
            self._analysis(post=True)

    @work(exclusive=True, group="analysis", exit_on_error=False)
    async def _analysis(self, post: bool) -> None:
        """Ask for the analysis (``post``: start it) and poll while the server makes it;
        every failure is one line.  The worker ends with the screen (Textual cancels a
        node's workers when it is removed)."""
        path = f"/api/games/{self.game_id}/analysis"
        try:
            if post:
                self._status("Asking the server to analyse this game…")
                answer = await self.client.post_json(path)
            else:
                answer = await self.client.get_json(path)
            while isinstance(answer, dict) and answer.get("status") in ("queued", "running"):
                self._status(progress_text(answer.get("done"), answer.get("total")))
                await asyncio.sleep(self.POLL)
                answer = await self.client.get_json(path)
        except HttpError as e:
            if e.status == 404 and not post:  # the game is there (its replay came): not asked
                self._status("Not analysed yet · a: analyse")
            else:
                self._status(problem_text(e.status, str(e)), "bold red")
            return
        found = answer.get("analysis") if isinstance(answer, dict) else None
        if not isinstance(found, dict) or answer.get("status") != "done":
            self._status("The server's answer held no analysis.", "bold red")
            return
        self.analysis = found
        self.marks = marked_plies(found)
        self._status(summary_text(found))
        self._draw()

    def _status(self, text: str, style: str = "") -> None:
        show(self.query_one("#replay-analysis", Static), Text(text, style=style))

    def action_mark(self, step: int) -> None:
        """To the step after the next (``step`` 1) or previous (-1) marked move."""
        if not self.positions:
            return
        steps = [ply + 1 for ply in self.marks]
        ahead, behind = [s for s in steps if s > self.index], [s for s in steps if s < self.index]
        found = ahead[:1] if step > 0 else behind[-1:]
        if found:
            self.index = found[0]
            self._draw()
        elif self.analysis is not None:
            where = "after this one" if step > 0 else "before this one"
            self._status(f"No marked move {where}. " + summary_text(self.analysis))

    # -- stepping --------------------------------------------------------------------------
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
        keys = "   ←/→ step · Home/End"
        keys += " · a analyse" if self.analysis is None else " · n/p marks" if self.marks else ""
        show(self.query_one("#replay-head", Static), head + keys)
        show(self.query_one("#replay-board", Static), position_text(self.positions[i], names))
        self._draw_analysis(names, len(actions))

    def _draw_analysis(self, names: list[str], plies: int) -> None:
        mark_box = self.query_one("#replay-mark", Static)
        graph_box = self.query_one("#replay-graph", Static)
        if self.analysis is None:
            return
        i = self.index
        move = marked_move(self.analysis, i - 1) if i > 0 else None
        _shown(mark_box, move is not None)
        if move is not None:
            show(mark_box, mark_line(move, names, self.positions[i - 1]))
        _shown(graph_box, True)
        show(graph_box, graph_text(self.analysis, names, plies, i))


def _shown(widget: Widget, on: bool) -> None:
    if widget.display != on:
        widget.display = on
