"""One table: the seats, the board, your hand (choose and play), the log and chat."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Input, RichLog, Static

from trumps.errors import InvalidAction
from trumps.server.wire.wiretypes import MAX_CHAT_CHARS
from trumps.tui.board import title_line
from trumps.tui.cardtext import legal_words, typed_action
from trumps.tui.connect.common import ClientScreen, say, show
from trumps.tui.connect.dialogs import Confirm, PileView
from trumps.tui.connect.model import (
    GUEST,
    NO_HINTS_RATED,
    REPLACED_TEXT,
    Change,
    TableModel,
    outcome_text,
)
from trumps.tui.connect.net import Client
from trumps.tui.connect.text import (
    action_prompt,
    board_text,
    choices,
    feed_text,
    hand_line,
    seats_text,
    watchers_text,
)
from trumps.tui.whytext import why_not_text

__all__ = ["HandBar", "TableScreen"]


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


class TableScreen(ClientScreen):
    """One table: seats, board, your hand, the log and chat."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "focus_action", "Type action"),
        Binding("c", "focus_chat", "Chat"),
        Binding("p", "pile", "Pile"),
        Binding("h", "hint", "Hint"),
        Binding("u", "takeback", "Take back"),
        Binding("r", "resign", "Resign"),
        Binding("n", "rematch", "Rematch"),
        Binding("l", "leave", "Leave"),
        Binding("b,escape", "back", "Lobby"),
    ]

    ready = False  # composed and mounted: its widgets can be updated

    def __init__(self, client: Client, table_id: str) -> None:
        super().__init__(client)
        self.table_id = table_id
        self._fed = 0  # feed items written to the log (counting dropped ones)
        self._asked: int | None = None  # the seat whose take-back request I was asked about

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
            yield Input(placeholder=action_prompt(self.model), id="action", compact=True)
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
            show(self.query_one("#seats", Static), seats_text(t))

    # -- drawing ---------------------------------------------------------------------------
    def update_view(self, change: Change) -> None:
        if change.table_id not in (None, self.table_id):
            return
        t = self.model
        hand = 1 if t.view is None else t.view["hand"]
        head = f"{title_line(t.game, t.rules, hand)} · table {t.table_id}"
        head += " · rated" if t.rated else " · casual"
        self.refresh_bindings()  # the Hint key shows only where hints are given
        if t.time_control:
            tc = t.time_control
            head += f" · clock {tc.get('base', 0):g}+{tc.get('increment', 0):g}"
        if t.seat is None:
            head += " · watching"
        if watchers_text(t):
            head += f" · {watchers_text(t)}"
        head += f" · {self.client.status}"
        show(self.query_one("#head", Static), head)
        invite = self.query_one("#invite", Static)
        if t.private and t.outcome is None:
            link = self.client.server.invite_link(t.table_id)
            show(invite, f"Private table. Invite id: {t.table_id} · link: {link}")
            invite.display = True
        else:
            invite.display = False
        self._status(t)
        show(self.query_one("#seats", Static), seats_text(t))
        show(self.query_one("#board", Static), board_text(t))
        if change.kind == "hint" and t.hint is not None:
            options = choices(t)
            if t.hint.get("action") in options:
                self.query_one("#hand", HandBar).cursor = options.index(str(t.hint["action"]))
        self.query_one("#action", Input).placeholder = action_prompt(t)
        self.refresh_hand()
        self._feed(t)
        self._answer_takeback(t)

    def _status(self, t: TableModel) -> None:
        status = self.query_one("#status", Static)
        if t.outcome is not None:
            text = outcome_text(t)
            if t.rating_note:
                text += f" {t.rating_note}"
            if t.rematch:
                text += f"  {t.rematch.get('by') or GUEST} started a rematch: n to join."
            elif t.seat is not None:
                text += "  n: rematch · b: lobby"
            show(status, Text(text, style="bold green"))
        elif t.replaced:
            show(status, Text(REPLACED_TEXT, style="bold yellow"))
        elif not t.started:
            open_seats = sum(
                1 for s in t.seats if not (s.get("bot") or s.get("name") or s.get("taken"))
            )
            show(
                status,
                Text(f"Waiting for {open_seats} more player{'s' if open_seats != 1 else ''}…"),
            )
        elif t.takeback is not None and t.takeback == t.seat:
            show(status, Text("Your take-back waits for the others to answer.", style="yellow"))
        elif t.my_turn:
            show(status, Text("Your turn.", style="bold yellow"))
        elif t.to_move is not None:
            show(status, f"{t.name_of(t.to_move)} to move.")
        else:
            show(status, "")

    def refresh_hand(self) -> None:
        bar = self.query_one("#hand", HandBar)
        t = self.model
        n = len(choices(t))
        if n and bar.cursor >= n:
            bar.cursor = 0
        show(bar, hand_line(t, bar.cursor))

    def _feed(self, t: TableModel) -> None:
        log = self.query_one("#log", RichLog)
        start = max(self._fed, t.feed_base)
        for item in t.feed[start - t.feed_base :]:
            log.write(feed_text(t, item))
        self._fed = t.feed_base + len(t.feed)

    # -- playing ---------------------------------------------------------------------------
    def play(self, action: str) -> None:
        t = self.model
        if t.outcome is not None:
            say(self, "The game is over.")
        elif t.seat is None:
            say(self, "You are watching this table.")
        elif not t.my_turn:
            say(self, "It is not your turn.")
        elif t.sent or t.resyncing:
            say(self, "Your move is on its way.")
        elif not self.client.act(self.table_id, action):
            say(self, "Not connected: wait for the connection.", severity="error")
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
            action = typed_action(text)
        except InvalidAction as e:
            say(self, str(e), severity="error")
            return
        event.input.value = ""
        t = self.model
        if t.legal and action not in t.legal and t.view is not None:
            why = why_not_text(t.view, action) or f"{action} is not legal now."
            say(self, f"{why} Legal: {legal_words(t.legal, t.view)}", severity="error")
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
                say(self, "Not connected.", severity="error")

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
        view = self.model.view
        if view is None or view["game"] != "kozyri":
            say(self, "Twenty-Five has no pile." if view is not None else "Nothing is dealt yet.")
            return
        self.app.push_screen(PileView(list(view["pile"])))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No Hint key where the table gives none: a rated table (its log says why, once)."""
        if action == "hint":
            return not self.model.rated
        if action == "takeback":  # only when the table says I may (docs/protocol.md#takeback)
            return self.model.can_take_back
        return True

    def action_hint(self) -> None:
        t = self.model
        if t.rated:
            say(self, NO_HINTS_RATED)
            return
        if not t.my_turn:
            say(self, "A hint is for your turn.")
            return
        if not t.hints_offered:
            say(self, "Hints are for games against the computer only.")
            return
        self.client.send({"type": "hint", "table_id": self.table_id})

    def action_takeback(self) -> None:
        if not self.model.can_take_back:
            say(self, "No move to take back now.")
            return
        self.client.send({"type": "takeback", "table_id": self.table_id})

    def _answer_takeback(self, t: TableModel) -> None:
        """Another player asks to take back their last move: ask mine once (y allows)."""
        asker = t.takeback
        if asker is None:
            self._asked = None
            return
        if asker == t.seat or t.seat is None or self._asked == asker:
            return
        self._asked = asker

        def answer(yes: bool | None) -> None:
            if self.model.takeback == asker:  # still asked (a move meanwhile answers no)
                self.client.send(
                    {"type": "takeback_answer", "table_id": self.table_id, "accept": bool(yes)}
                )

        question = f"{t.name_of(asker)} asks to take back their last move. Allow it?"
        self.app.push_screen(Confirm(question), answer)

    def action_resign(self) -> None:
        t = self.model
        if t.seat is None or t.outcome is not None or not t.started:
            say(self, "Nothing to resign.")
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.client.send({"type": "resign", "table_id": self.table_id})

        self.app.push_screen(Confirm("Resign this game?"), done)

    def action_rematch(self) -> None:
        t = self.model
        if t.outcome is None:
            say(self, "A rematch comes after the result.")
            return
        if t.rematch and t.rematch.get("new_table_id"):
            self.client.join(str(t.rematch["new_table_id"]))
        elif t.seat is None:
            say(self, "Spectators cannot start a rematch.")
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
