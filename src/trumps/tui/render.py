"""The screen of ``trumps play``: a title, the board (``trumps.tui.board``) and the
``Legal:`` line, from one seat's view (or the public view).

Only the human's own view is ever rendered, so the screen cannot show a card the human
may not know.  ``render`` returns a styled ``rich.text.Text`` (its ``.plain`` is the same
text without colour); the ``Legal:`` line is always plain and lists the legal actions
written like the hand and in its order (``10♠ Q♥ take``, ``trump ♠``, ``rob 9♠``), each
as it may be typed back, separated by spaces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from trumps.games.viewtypes import View
from trumps.tui.board import Board, board_lines, title_line
from trumps.tui.cardtext import card_text, cards_text, hand_text, legal_words, suit_text


def seat_names(players: int, human: int) -> list[str]:
    """``You`` for the human's seat and ``Bot 1``, ``Bot 2`` … for the others in seat order."""
    names: list[str] = []
    bot = 0
    for s in range(players):
        if s == human:
            names.append("You")
        else:
            bot += 1
            names.append(f"Bot {bot}")
    return names


def legal_line(legal: Sequence[str], view: Mapping[str, Any] | None = None) -> Text:
    """``Legal: 10♠ Q♥ take`` — plain, written like the hand of ``view`` and in its order."""
    return Text("Legal: " + legal_words(legal, view))


def render(view: View, legal: Sequence[str], names: Sequence[str]) -> Text:
    """The screen for the seat whose ``view`` this is (``seat`` null: a spectator's)."""
    board = Board.of(view, names, view["seat"], legal)
    head = f"── {title_line(view['game'], view['rules'], view['hand'])} "
    lines = [Text(head + "─" * max(3, 60 - len(head)), style="bold cyan")]
    lines += board_lines(board)
    lines.append(legal_line(legal, view))
    return Text("\n").join(lines)


def render_plain(view: View, legal: Sequence[str], names: Sequence[str]) -> str:
    """``render`` without styles."""
    return render(view, legal, names).plain


__all__ = [
    "card_text",
    "cards_text",
    "hand_text",
    "legal_line",
    "render",
    "render_plain",
    "seat_names",
    "suit_text",
]
