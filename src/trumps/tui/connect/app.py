"""``trumps connect URL``: play on a trumps server from the terminal (Textual).

The lobby lists the public tables live (join, watch), creates tables (private ones show
their invite id and link), quick-matches, starts a game against the computer and opens the
history with a replay viewer.  A table shows the seats (names, bots, away, cards held,
clocks, whose turn), the pile or the trick, your hand with the legal actions highlighted,
the log and chat.  The connection lives in ``trumps.tui.connect.net.Client``; it runs as a
worker in the app's event loop and posts a ``ServerUpdate`` for every message.

Keys — lobby: Enter/j join · w watch · c create · p play the computer · m quick match
(again: cancel) · i join by invite id or link · t my table · h history · q quit.
Table: ←/→ (or 1–9, 0) choose · Enter play · a type an action (``TH``, ``take``,
``rob 9S``) · c chat · p whole pile · h hint · r resign · n rematch · l leave · b/Esc lobby.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    DataTable,
    Footer,
    Input,
    Label,
    RichLog,
    Select,
    Static,
)

from trumps.cards import action_str, parse_action
from trumps.errors import InvalidAction
from trumps.games import GAMES
from trumps.server.protocol import MAX_CHAT_CHARS, MAX_SEATS
from trumps.tui.connect.model import Change, Msg, TableModel, outcome_text
from trumps.tui.connect.net import Client, HttpError, parse_invite
from trumps.tui.connect.text import (
    board_text,
    choices,
    hand_line,
    lobby_row,
    position_text,
    rules_text,
    seats_text,
)
from trumps.tui.connect.text import feed_text as _feed_text
from trumps.tui.render import cards_text

__all__ = ["ConnectApp", "run"]

BOT_LEVELS = ("random", "easy", "medium", "hard", "expert")
SEAT_KINDS = ("human", *BOT_LEVELS)


class ServerUpdate(Message):
    """Something came from the server (or the connection changed)."""

    def __init__(self, change: Change, msg: Msg) -> None:
        super().__init__()
        self.change = change
        self.msg = msg


def _say(
    node: Screen[Any] | App[Any] | Static,
    message: str,
    severity: SeverityLevel = "information",
    timeout: float | None = None,
) -> None:
    """A notification; its text is shown as given, never read as markup."""
    node.app.notify(message, severity=severity, timeout=timeout, markup=False)


def _show(widget: Static, content: str | Text) -> None:
    """Update ``widget`` only when its content changed (a redraw costs a layout pass)."""
    old = widget.content
    if type(old) is not type(content) or old != content:
        widget.update(content)


def _title(game: str) -> str:
    cls = GAMES.get(game)
    return cls.title if cls is not None else game


# ---------------------------------------------------------------- small modal screens


class Confirm(ModalScreen[bool]):
    """A yes/no question."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="error")
                yield Button("No (n)", id="no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class Ask(ModalScreen["str | None"]):
    """One line of text (an invite id or link)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, placeholder: str = "") -> None:
        super().__init__()
        self.question, self.placeholder = question, placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, markup=False)
            yield Input(placeholder=self.placeholder, id="answer")

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


class PileView(ModalScreen[None]):
    """The whole Svoi Kozyri pile, bottom to top."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,p,q", "close", "Close")]

    def __init__(self, pile: list[str]) -> None:
        super().__init__()
        self.pile = pile

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"The pile: {len(self.pile)} cards, bottom first, top last")
            rows = [self.pile[i : i + 12] for i in range(0, len(self.pile), 12)]
            body = Text("\n").join(cards_text(r) for r in rows) if rows else Text("empty")
            yield Static(body, markup=False, id="pile")
            yield Label("Esc: close", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class GameForm(ModalScreen["Msg | None"]):
    """The request to start something: ``create`` a table, play the ``computer``, or a
    ``quick`` match.  Dismisses with the protocol message to send (or None)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    TITLES: ClassVar[dict[str, str]] = {
        "create": "Create a table",
        "computer": "Play the computer",
        "quick": "Quick match: the next person asking for the same game and rules",
    }

    def __init__(self, mode: str, game: str = "kozyri") -> None:
        super().__init__()
        self.mode, self.game = mode, game

    def compose(self) -> ComposeResult:
        cls = GAMES[self.game]
        with VerticalScroll(classes="dialog form"):
            yield Label(self.TITLES[self.mode], classes="heading")
            with Horizontal(classes="row"):
                yield Label("Game", classes="field")
                yield Select(
                    [(c.title, gid) for gid, c in GAMES.items()],
                    value=self.game,
                    allow_blank=False,
                    id="game",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Rules", classes="field")
                yield Select(
                    self._presets(self.game),
                    value=cls.DEFAULT_PRESET,
                    allow_blank=False,
                    id="preset",
                    compact=True,
                )
            if self.mode == "computer":
                with Horizontal(classes="row"):
                    yield Label("Players", classes="field")
                    yield Input(
                        str(cls.default_players), id="players", type="integer", compact=True
                    )
                with Horizontal(classes="row"):
                    yield Label("Computer", classes="field")
                    yield Select(
                        [(level, level) for level in BOT_LEVELS],
                        value="medium",
                        allow_blank=False,
                        id="level",
                        compact=True,
                    )
            if self.mode == "create":
                with Horizontal(classes="row"):
                    yield Label("Seats", classes="field")
                    yield Input(
                        self._default_seats(self.game),
                        id="seats",
                        placeholder="human, human, hard …",
                        compact=True,
                    )
                with Horizontal(classes="row"):
                    yield Label("Clock", classes="field")
                    yield Input(id="clock", placeholder="base+increment, e.g. 180+2", compact=True)
                with Horizontal(classes="row"):
                    yield Label("On timeout", classes="field")
                    yield Select(
                        [("a default move", "move"), ("forfeit", "forfeit")],
                        value="move",
                        allow_blank=False,
                        id="on_timeout",
                        compact=True,
                    )
                with Horizontal(classes="row"):
                    yield Label("", classes="field")
                    yield Checkbox("Private (invite only)", id="private", compact=True)
            yield Label("", id="problem", classes="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Start", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    @staticmethod
    def _presets(game: str) -> list[tuple[str, str]]:
        cls = GAMES[game]
        return [(f"{name} — {p.doc}"[:60], name) for name, p in cls.PRESETS.items()]

    @staticmethod
    def _default_seats(game: str) -> str:
        return ", ".join(["human"] * 2 + ["medium"] * (GAMES[game].default_players - 2))

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        game = str(event.value)
        if game == self.game or game not in GAMES:
            return
        self.game = game
        cls = GAMES[game]
        preset = self.query_one("#preset", Select)
        preset.set_options(self._presets(game))
        preset.value = cls.DEFAULT_PRESET
        for widget in self.query("#players").results(Input):
            widget.value = str(cls.default_players)
        for widget in self.query("#seats").results(Input):
            widget.value = self._default_seats(game)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted)
    def _ok(self) -> None:
        try:
            msg = self.request()
        except ValueError as e:
            self.query_one("#problem", Label).update(str(e))
            return
        self.dismiss(msg)

    def request(self) -> Msg:
        """The message this form asks for; raises ValueError with a reason."""
        cls = GAMES[self.game]
        preset = str(self.query_one("#preset", Select).value)
        if self.mode == "quick":
            return {"type": "quick_match", "game": self.game, "rules": preset}
        if self.mode == "computer":
            text = self.query_one("#players", Input).value.strip()
            players = int(text) if text.isdigit() else 0
            top = min(cls.max_players, MAX_SEATS)
            if not cls.min_players <= players <= top:
                raise ValueError(f"{cls.title} is for {cls.min_players}–{top} players")
            level = str(self.query_one("#level", Select).value)
            return {
                "type": "play_computer",
                "game": self.game,
                "players": players,
                "level": level,
                "rules": preset,
            }
        seats = [s.strip().lower() for s in self.query_one("#seats", Input).value.split(",")]
        seats = [s for s in seats if s]
        bad = [s for s in seats if s not in SEAT_KINDS]
        if bad:
            raise ValueError(f"a seat is one of {', '.join(SEAT_KINDS)}, not {bad[0]!r}")
        top = min(cls.max_players, MAX_SEATS)
        if not cls.min_players <= len(seats) <= top:
            raise ValueError(f"{cls.title} is for {cls.min_players}–{top} seats")
        if "human" not in seats:
            raise ValueError("keep at least one seat human (yours)")
        msg: Msg = {
            "type": "create_table",
            "game": self.game,
            "rules": preset,
            "seats": seats,
            "private": self.query_one("#private", Checkbox).value,
            "on_timeout": str(self.query_one("#on_timeout", Select).value),
        }
        clock = self.query_one("#clock", Input).value.strip()
        if clock:
            base, _, inc = clock.partition("+")
            try:
                tc = {"base": float(base), "increment": float(inc or 0)}
            except ValueError:
                raise ValueError("the clock is base seconds + increment, e.g. 180+2") from None
            if not (0 < tc["base"] <= 86400 and 0 <= tc["increment"] <= 86400):
                raise ValueError("the clock is base seconds + increment, e.g. 180+2")
            msg["time_control"] = tc
        return msg


# ---------------------------------------------------------------- the lobby


class LobbyScreen(Screen[None]):
    """Public tables, and the ways to start a game."""

    ready = False  # composed and mounted: its widgets can be updated

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "join", "Join"),
        Binding("w", "watch", "Watch"),
        Binding("c", "create", "Create"),
        Binding("p", "computer", "Play computer"),
        Binding("m", "quick", "Quick match"),
        Binding("i", "invite", "Join by id"),
        Binding("t", "my_table", "My table"),
        Binding("h", "history", "History"),
        Binding("q", "app.quit", "Quit"),
    ]

    @property
    def client(self) -> Client:
        return self._app.client

    @property
    def _app(self) -> ConnectApp:
        app = self.app
        assert isinstance(app, ConnectApp)
        return app

    def compose(self) -> ComposeResult:
        yield Static("", markup=False, id="conn", classes="topline")
        yield Static("", markup=False, id="waiting")
        yield Label("Public tables — Enter/j join · w watch", classes="heading")
        table: DataTable[Text] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", markup=False, id="mine")
        yield Static("", markup=False, id="lobby-status", classes="status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#tables", DataTable)
        table.add_columns("Table", "Game", "Rules", "Seats", "Open", "State", "Clock")
        self.ready = True
        self.update_view(Change("status"))
        table.focus()

    def on_screen_resume(self) -> None:
        if not self.ready:
            return
        _show(self.query_one("#lobby-status", Static), "")
        self.update_view(Change("table_list"))
        if self.client.state.welcomed:
            self.client.send({"type": "list_tables"})

    def update_view(self, change: Change) -> None:
        st = self.client.state
        who = st.name or self.client.name
        _show(
            self.query_one("#conn", Static),
            f"trumps · {self.client.server.http_url} · {who} · {self.client.status}",
        )
        if st.waiting is not None:
            _show(
                self.query_one("#waiting", Static),
                Text(
                    f"Quick match: waiting for another player of {_title(str(st.waiting['game']))} "
                    f"({st.waiting.get('rules') or 'default rules'}) — m to cancel",
                    style="bold yellow",
                ),
            )
        else:
            _show(self.query_one("#waiting", Static), "")
        if change.kind in ("table_list", "welcome", "status"):
            self._fill_tables()
        mine = [t for t in st.tables.values() if not t.left and t.outcome is None]
        if mine:
            parts = []
            for t in mine:
                state = "your turn" if t.my_turn else ("watching" if t.seat is None else "playing")
                parts.append(f"{t.table_id} ({_title(t.game)}, {state})")
            _show(self.query_one("#mine", Static), "Your tables (t): " + " · ".join(parts))
        else:
            _show(self.query_one("#mine", Static), "")
        if change.kind == "error" and change.table_id is None:
            _show(self.query_one("#lobby-status", Static), Text(change.text, style="bold red"))

    def _fill_tables(self) -> None:
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
            _say(self, "No public table yet: create one (c) or play the computer (p).")
            return None
        row = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key
        return str(row.value)

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_join()

    def action_join(self) -> None:
        table_id = self._selected()
        if table_id is not None:
            self._app.open_or_request(table_id, watch=False)

    def action_watch(self) -> None:
        table_id = self._selected()
        if table_id is not None:
            self._app.open_or_request(table_id, watch=True)

    def _form(self, mode: str) -> None:
        def done(msg: Msg | None) -> None:
            if msg is not None and not self.client.send(msg):
                _say(self, "Not connected yet.", severity="error")

        self.app.push_screen(GameForm(mode), done)

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
                _say(self, "That is not a table id or an invite link.", severity="error")
            else:
                self._app.open_or_request(table_id, watch=False)

        self.app.push_screen(Ask("Table id or invite link:", "t-… or http://…/?table=t-…"), done)

    def action_my_table(self) -> None:
        mine = [t for t in self.client.state.tables.values() if not t.left]
        mine.sort(key=lambda t: (t.outcome is not None, not t.my_turn))
        if not mine:
            _say(self, "You are at no table.")
            return
        self._app.show_table(mine[0].table_id)

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen())


# ---------------------------------------------------------------- the table


class HandBar(Static, can_focus=True):
    """Your hand: choose a legal action with the arrows or a number, Enter plays it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "move(-1)", "Previous", show=False),
        Binding("right,down", "move(1)", "Next", show=False),
        Binding("enter", "play", "Play"),
        *[Binding(str((i + 1) % 10), f"pick({i})", show=False) for i in range(10)],
    ]

    cursor = 0

    def _table(self) -> TableScreen:
        screen = self.screen
        assert isinstance(screen, TableScreen)
        return screen

    def action_move(self, step: int) -> None:
        n = len(choices(self._table().model))
        if n:
            self.cursor = (self.cursor + step) % n
            self._table().refresh_hand()

    def action_pick(self, index: int) -> None:
        if index < len(choices(self._table().model)):
            self.cursor = index
            self._table().refresh_hand()

    def action_play(self) -> None:
        self._table().play_selected()


class TableScreen(Screen[None]):
    """One table: seats, board, your hand, the log and chat."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "focus_action", "Type action"),
        Binding("c", "focus_chat", "Chat"),
        Binding("p", "pile", "Pile"),
        Binding("h", "hint", "Hint"),
        Binding("r", "resign", "Resign"),
        Binding("n", "rematch", "Rematch"),
        Binding("l", "leave", "Leave"),
        Binding("b,escape", "back", "Lobby"),
    ]

    ready = False  # composed and mounted: its widgets can be updated

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id
        self._fed = 0  # feed items written to the log (counting dropped ones)

    @property
    def client(self) -> Client:
        app = self.app
        assert isinstance(app, ConnectApp)
        return app.client

    @property
    def model(self) -> TableModel:
        t = self.client.state.tables.get(self.table_id)
        return t if t is not None else TableModel(self.table_id)

    def compose(self) -> ComposeResult:
        yield Static("", markup=False, id="head", classes="topline")
        yield Static("", markup=False, id="invite")
        yield Static("", markup=False, id="status", classes="status")
        yield Static("", markup=False, id="seats")
        yield Static("", markup=False, id="board")
        yield HandBar("", id="hand", markup=False)
        yield RichLog(id="log", wrap=True, markup=False, max_lines=1000)
        with Horizontal(id="inputs"):
            yield Input(placeholder="action: TH, take, rob 9S … (a)", id="action", compact=True)
            yield Input(placeholder="chat (c)", id="chat", max_length=MAX_CHAT_CHARS, compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.ready = True
        self.query_one("#hand", HandBar).focus()
        self.update_view(Change("table_state", self.table_id))
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        t = self.model
        if t.clocks is not None and t.outcome is None:
            _show(self.query_one("#seats", Static), seats_text(t))

    # -- drawing ---------------------------------------------------------------------------
    def update_view(self, change: Change) -> None:
        if change.table_id not in (None, self.table_id):
            return
        t = self.model
        head = f"{_title(t.game)} · rules: {rules_text(t.game, t.rules)} · table {t.table_id}"
        if t.time_control:
            tc = t.time_control
            head += f" · clock {tc.get('base', 0):g}+{tc.get('increment', 0):g}"
        if t.seat is None:
            head += " · watching"
        head += f" · {self.client.status}"
        _show(self.query_one("#head", Static), head)
        invite = self.query_one("#invite", Static)
        if t.private and t.outcome is None:
            link = self.client.server.invite_link(t.table_id)
            _show(invite, f"Private table. Invite id: {t.table_id} · link: {link}")
            invite.display = True
        else:
            invite.display = False
        self._status(t)
        _show(self.query_one("#seats", Static), seats_text(t))
        _show(self.query_one("#board", Static), board_text(t))
        if change.kind == "hint" and t.hint is not None:
            options = choices(t)
            if t.hint.get("action") in options:
                self.query_one("#hand", HandBar).cursor = options.index(str(t.hint["action"]))
        self.refresh_hand()
        self._feed(t)

    def _status(self, t: TableModel) -> None:
        status = self.query_one("#status", Static)
        if t.outcome is not None:
            text = outcome_text(t)
            if t.rematch:
                text += f"  {t.rematch.get('by') or 'Someone'} started a rematch: n to join."
            elif t.seat is not None:
                text += "  n: rematch · b: lobby"
            _show(status, Text(text, style="bold green"))
        elif not t.started:
            open_seats = sum(1 for s in t.seats if not s.get("bot") and not s.get("name"))
            _show(
                status,
                Text(f"Waiting for {open_seats} more player{'s' if open_seats != 1 else ''}…"),
            )
        elif t.my_turn:
            _show(status, Text("Your turn.", style="bold yellow"))
        elif t.to_move is not None:
            _show(status, f"{t.name_of(t.to_move)} to move.")
        else:
            _show(status, "")

    def refresh_hand(self) -> None:
        bar = self.query_one("#hand", HandBar)
        t = self.model
        n = len(choices(t))
        if n and bar.cursor >= n:
            bar.cursor = 0
        _show(bar, hand_line(t, bar.cursor))

    def _feed(self, t: TableModel) -> None:
        log = self.query_one("#log", RichLog)
        start = max(self._fed, t.feed_base)
        for item in t.feed[start - t.feed_base :]:
            log.write(_feed_text(t, item))
        self._fed = t.feed_base + len(t.feed)

    # -- playing ---------------------------------------------------------------------------
    def play(self, action: str) -> None:
        t = self.model
        if t.outcome is not None:
            _say(self, "The game is over.")
        elif t.seat is None:
            _say(self, "You are watching this table.")
        elif not t.my_turn:
            _say(self, "It is not your turn.")
        elif t.sent or t.resyncing:
            _say(self, "Your move is on its way.")
        elif not self.client.act(self.table_id, action):
            _say(self, "Not connected: wait for the connection.", severity="error")
        self.refresh_hand()

    def play_selected(self) -> None:
        options = choices(self.model)
        if not options:
            self.play("")  # explains why not
            return
        cursor = self.query_one("#hand", HandBar).cursor
        self.play(options[min(cursor, len(options) - 1)])

    @on(Input.Submitted, "#action")
    def _typed_action(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        try:
            action = action_str(parse_action(text))
        except InvalidAction as e:
            _say(self, str(e), severity="error")
            return
        event.input.value = ""
        if self.model.legal and action not in self.model.legal:
            legal = " ".join(self.model.legal)
            _say(self, f"{action} is not legal now; legal: {legal}", severity="error")
            return
        self.play(action)
        self.query_one("#hand", HandBar).focus()

    @on(Input.Submitted, "#chat")
    def _chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text:
            if self.client.send({"type": "chat", "table_id": self.table_id, "text": text}):
                event.input.value = ""
            else:
                _say(self, "Not connected.", severity="error")

    # -- keys ------------------------------------------------------------------------------
    def action_focus_action(self) -> None:
        self.query_one("#action", Input).focus()

    def action_focus_chat(self) -> None:
        self.query_one("#chat", Input).focus()

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#hand", HandBar).focus()
            return
        self.app.pop_screen()

    def action_pile(self) -> None:
        t = self.model
        if t.game != "kozyri":
            _say(self, "Twenty-Five has no pile.")
            return
        self.app.push_screen(PileView([str(c) for c in t.view.get("pile", [])]))

    def action_hint(self) -> None:
        t = self.model
        if not t.my_turn:
            _say(self, "A hint is for your turn.")
            return
        if not all(s.get("bot") for i, s in enumerate(t.seats) if i != t.seat):
            _say(self, "Hints are for games against the computer only.")
            return
        self.client.send({"type": "hint", "table_id": self.table_id})

    def action_resign(self) -> None:
        t = self.model
        if t.seat is None or t.outcome is not None or not t.started:
            _say(self, "Nothing to resign.")
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.client.send({"type": "resign", "table_id": self.table_id})

        self.app.push_screen(Confirm("Resign this game?"), done)

    def action_rematch(self) -> None:
        t = self.model
        if t.outcome is None:
            _say(self, "A rematch comes after the result.")
            return
        if t.rematch and t.rematch.get("new_table_id"):
            self.client.join(str(t.rematch["new_table_id"]))
        elif t.seat is None:
            _say(self, "Spectators cannot start a rematch.")
        else:
            self.client.send({"type": "rematch", "table_id": self.table_id})

    def action_leave(self) -> None:
        t = self.model

        def leave(yes: bool | None = True) -> None:
            if yes:
                self.client.leave(self.table_id)
                if self.app.screen is self:
                    self.app.pop_screen()

        if t.seat is not None and t.started and t.outcome is None:
            self.app.push_screen(Confirm("Leave this game? A bot will play your seat."), leave)
        else:
            leave()


# ---------------------------------------------------------------- history and replays


class HistoryScreen(Screen[None]):
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
        table.add_columns("Game id", "Game", "Players", "Result", "Finished")
        table.focus()
        self.action_reload()

    def action_reload(self) -> None:
        self._load()

    @work(exclusive=True, group="history", exit_on_error=False)
    async def _load(self) -> None:
        app = self.app
        assert isinstance(app, ConnectApp)
        status = self.query_one("#history-status", Static)
        try:
            data = await app.client.get_json("/api/games?mine=1&limit=100", auth=True)
        except HttpError as e:
            _show(status, Text(f"Could not load the history: {e}", style="bold red"))
            return
        games = data.get("games", []) if isinstance(data, dict) else []
        table = self.query_one("#games", DataTable)
        table.clear()
        for g in games:
            table.add_row(*(Text(c) for c in self._row(g)), key=str(g.get("id")))
        _show(status, f"{len(games)} game{'s' if len(games) != 1 else ''}.")

    @staticmethod
    def _row(g: Msg) -> tuple[str, ...]:
        outcome = g.get("outcome") or {}
        seat = g.get("seat")
        if outcome.get("draw"):
            result = "draw"
        elif isinstance(seat, int):
            result = "won" if seat in outcome.get("winners", []) else "lost"
        else:
            result = "—"
        reason = str(outcome.get("reason", "")).replace("_", " ")
        return (
            str(g.get("id")),
            _title(str(g.get("game"))),
            ", ".join(str(p) for p in g.get("players", [])),
            f"{result} ({reason})" if reason else result,
            str(g.get("finished") or "")[:19].replace("T", " "),
        )

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.app.push_screen(ReplayScreen(int(event.row_key.value)))


class ReplayScreen(Screen[None]):
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
        app = self.app
        assert isinstance(app, ConnectApp)
        try:
            data = await app.client.get_json(f"/api/games/{self.game_id}/replay")
        except HttpError as e:
            _show(self.query_one("#replay-head", Static), f"Game {self.game_id}: {e}")
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
        head = f"Game {self.game_id} · {_title(str(self.record.get('game')))} · "
        head += f"move {i}/{len(self.positions) - 1}"
        if i > 0:
            actor = self.positions[i - 1].get("to_move")
            who = names[actor] if isinstance(actor, int) and actor < len(names) else "?"
            head += f": {who} played {actions[i - 1] if i - 1 < len(actions) else '?'}"
        if i == len(self.positions) - 1 and self.record.get("outcome"):
            o = self.record["outcome"]
            winners = ", ".join(names[s] for s in o.get("winners", []) if s < len(names))
            head += f" · {'draw' if o.get('draw') else 'won by ' + winners} ({o.get('reason')})"
        _show(self.query_one("#replay-head", Static), head + "   ←/→ step · Home/End")
        _show(self.query_one("#replay-board", Static), position_text(self.positions[i], names))


# ---------------------------------------------------------------- the app


class ConnectApp(App[None]):
    """The online client: ``ConnectApp("http://host:port").run()``."""

    TITLE = "trumps"
    CSS = """
    .topline { background: $primary-background; color: $text; padding: 0 1; }
    .heading { text-style: bold; padding: 0 1; }
    .status { padding: 0 1; }
    #waiting, #mine, #invite { padding: 0 1; }
    #invite { color: $warning; text-style: bold; }
    #tables, #games { height: 1fr; }
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
    Confirm, Ask, PileView, GameForm { align: center middle; }
    """

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

    def get_default_screen(self) -> Screen[Any]:
        return LobbyScreen()

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
        self.push_screen(TableScreen(table_id))

    def open_or_request(self, table_id: str, *, watch: bool) -> None:
        """Open a table we know, else ask to sit (or watch); its snapshot opens it."""
        t = self.client.state.tables.get(table_id)
        if t is not None and not t.left:
            self.show_table(table_id)
            return
        sent = self.client.spectate(table_id) if watch else self.client.join(table_id)
        if not sent:
            _say(self, "Not connected yet.", severity="error")

    # -- the server ------------------------------------------------------------------------
    def on_server_update(self, update: ServerUpdate) -> None:
        change = update.change
        if change.kind == "error":
            self.last_error = update.msg
            _say(self, change.text, severity="error", timeout=6)
        elif change.kind == "rematch":
            _say(self, change.text, timeout=10)
        elif change.kind == "game_over" and change.table_id is not None:
            t = self.client.state.tables[change.table_id]
            _say(self, outcome_text(t), timeout=8)
        if change.kind == "table_state" and change.new_table and change.table_id:
            self.show_table(change.table_id)
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen | TableScreen) and screen.ready:
                screen.update_view(change)


def run(url: str, name: str | None = None, token_file: Path | None = None) -> None:
    """``trumps connect URL``: run the client until the player quits."""
    ConnectApp(url, name, token_file).run()
