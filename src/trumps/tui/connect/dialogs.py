"""Small modal screens: a yes/no question, one line of text, the whole pile."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from trumps.tui.cardtext import cards_text

__all__ = ["Ask", "Confirm", "PileView"]


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
