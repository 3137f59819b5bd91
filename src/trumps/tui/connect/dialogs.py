"""Small modal screens: a yes/no question, one line of text, the whole pile, signing in."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from trumps.tui.cardtext import cards_text
from trumps.tui.connect.model import GUEST
from trumps.tui.connect.net import Client, HttpError

__all__ = ["Ask", "Confirm", "PileView", "SignIn"]


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


class SignIn(ModalScreen["str | None"]):
    """Sign in to an account, or make this guest one (its games kept): the login, its
    password, and the server's answer.  Dismisses with the account's login once the
    client has its session (it connects again as the account), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, client: Client) -> None:
        super().__init__()
        self.client = client

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog form"):
            yield Label("Sign in — rated games and a profile are for accounts", classes="heading")
            with Horizontal(classes="row"):
                yield Label("Login", classes="field")
                yield Input(id="login", compact=True, max_length=32)
            with Horizontal(classes="row"):
                yield Label("Password", classes="field")
                yield Input(id="password", password=True, compact=True, max_length=200)
            yield Label(
                f"New here? Create account makes this guest ({self.client.name or GUEST}) an account.",
                markup=False,
            )
            playing = [
                t
                for t in self.client.state.tables.values()
                if t.seat is not None and t.outcome is None and not t.left
            ]
            if playing and not self.client.state.signed_in:
                yield Static(
                    f"Signing in to another account leaves your {len(playing)} unfinished "
                    f"game{'s' if len(playing) != 1 else ''} here to the bots; creating an "
                    "account keeps them.",
                    classes="problem",
                    markup=False,
                    id="leaving",
                )
            yield Label("", id="problem", classes="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Sign in", id="signin", variant="primary")
                yield Button("Create account", id="create")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#login", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted, "#login")
    def _next(self) -> None:
        self.query_one("#password", Input).focus()

    @on(Button.Pressed, "#signin")
    @on(Button.Pressed, "#create")
    @on(Input.Submitted, "#password")
    def _go(self, event: Button.Pressed | Input.Submitted) -> None:
        create = isinstance(event, Button.Pressed) and event.button.id == "create"
        login = self.query_one("#login", Input).value.strip().lower()
        password = self.query_one("#password", Input).value
        if not login or not password:
            self.query_one("#problem", Label).update("Type your login and password.")
            return
        self.query_one("#problem", Label).update("Signing in…" if not create else "Creating…")
        self._send(login, password, create)

    @work(exclusive=True, group="signin", exit_on_error=False)
    async def _send(self, login: str, password: str, create: bool) -> None:
        try:
            signed = await self.client.sign_in(login, password, create=create)
        except HttpError as e:
            self.query_one("#problem", Label).update(str(e))
            return
        self.dismiss(signed)
