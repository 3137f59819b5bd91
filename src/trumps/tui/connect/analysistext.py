"""A finished game's analysis as text, for the replay of ``trumps connect``.

The analysis is the JSON form of docs/analysis.md (``GET /api/games/ID/analysis``): one
entry per judged decision, with the values for the seat that moved, a mark (``blunder``,
``mistake``, ``inaccuracy``) and for a marked move the better move and why, as codes.  Here
they become the line shown under the board at the step after a marked move, and a graph of
each seat's value over the game that fits an 80-column terminal.  Pure functions: no
Textual, so they are tested on their own (tests/tui/test_analysistext.py).

Why the better move is better is worded by the hints' own function
(``trumps.tui.whytext.hint_text``): ``explain`` has a hint reason's structure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from trumps.server.wire.wiretypes import clean_text
from trumps.tui.cardtext import action_label
from trumps.tui.connect.ratingtext import BARS
from trumps.tui.whytext import hint_text

__all__ = [
    "GRAPH_WIDTH",
    "MARK_LETTERS",
    "MARK_SYMBOLS",
    "cost_text",
    "graph_text",
    "mark_line",
    "marked_move",
    "marked_plies",
    "moves_of",
    "problem_text",
    "progress_text",
    "summary_text",
]

Move = Mapping[str, Any]

MARK_SYMBOLS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
"""The marks as chess writes them, after the mark's name."""

MARK_LETTERS = {"blunder": "B", "mistake": "M", "inaccuracy": "i"}
"""One cell per mark in the graph's row of marks, the worst of a column shown."""

MARK_STYLES = {"blunder": "bold red", "mistake": "bold yellow", "inaccuracy": "cyan"}
_SEVERITY = {"inaccuracy": 1, "mistake": 2, "blunder": 3}

GRAPH_WIDTH = 76
"""The graph's width in cells: an 80-column terminal less the screen's padding and
scroll bar."""

LABEL_CELLS = 12  # the names' column, at most (one more for the gap)

_COSTS = {
    "win_to_loss": "it turned a won position into a lost one",
    "win_to_draw": "it turned a won position into a draw",
    "draw_to_loss": "it turned a drawn position into a lost one",
}


def moves_of(analysis: Mapping[str, Any] | None) -> list[Move]:
    """The judged decisions, in the order played (those without a ply left out)."""
    moves = (analysis or {}).get("moves") or []
    return [m for m in moves if isinstance(m, Mapping) and isinstance(m.get("ply"), int)]


def marked_plies(analysis: Mapping[str, Any] | None) -> list[int]:
    """The plies of the marked moves, in order."""
    return sorted({m["ply"] for m in moves_of(analysis) if m.get("mark") in MARK_SYMBOLS})


def marked_move(analysis: Mapping[str, Any] | None, ply: int) -> Move | None:
    """The marked move at ``ply``, or None."""
    for m in moves_of(analysis):
        if m["ply"] == ply and m.get("mark") in MARK_SYMBOLS:
            return m
    return None


def _percent(value: Any) -> int:
    return round(float(value) * 100)


def cost_text(move: Move) -> str:
    """What a marked move cost, in words: the duel's change of value, or the points of
    the estimated chance lost (``lost 25 points of the estimated chance (71% → 46%)``)."""
    reason = str(move.get("reason") or "")
    if reason in _COSTS:
        return _COSTS[reason]
    if reason == "lost_chance":
        lost = round(float(move.get("lost") or 0))
        text = f"lost {lost} point{'' if lost == 1 else 's'} of the estimated chance"
        before, after = move.get("before"), move.get("after")
        if before is not None and after is not None:
            text += f" ({_percent(before)}% → {_percent(after)}%)"
        return text
    return reason.replace("_", " ") or "it cost the game something"


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        name = clean_text(str(names[seat])).strip()
        if name:
            return name
    return f"Seat {seat + 1}" if isinstance(seat, int) else "?"


def mark_line(move: Move, names: Sequence[str], view: Mapping[str, Any] | None = None) -> Text:
    """The line for a marked move: who played what, the mark with its symbol, what it cost
    and the better move with why (the hints' words).  ``view`` is the position the move
    was chosen in (to label a joker discard as the replay does)."""
    mark = str(move.get("mark"))
    played = action_label(str(move.get("action")), view).plain
    out = Text(f"{_name(names, move.get('seat'))} played {played}: ")
    out.append(f"{mark} {MARK_SYMBOLS.get(mark, '')}".strip(), style=MARK_STYLES.get(mark, ""))
    out.append(f" — {cost_text(move)}.")
    better = move.get("better")
    if isinstance(better, str) and better:
        why = hint_text(better, move.get("explain"), view).removeprefix("Hint: ")
        out.append(f" Better: {why[:1].lower()}{why[1:]}")
    return out


def progress_text(done: Any, total: Any) -> str:
    """``Analysing… 3 of 21 decisions`` (while the server's answer is 202)."""
    try:
        k, n = int(done), int(total)
    except (TypeError, ValueError):
        return "Analysing…"
    return f"Analysing… {k} of {n} decision{'' if n == 1 else 's'}"


def summary_text(analysis: Mapping[str, Any]) -> str:
    """One line: how many decisions were judged and marked, with the keys to the marks."""
    moves = moves_of(analysis)
    marks = marked_plies(analysis)
    text = f"Analysed: {len(moves)} decision{'' if len(moves) == 1 else 's'}, "
    text += f"{len(marks)} marked"
    unproved = sum(1 for m in moves if m.get("reason") == "unproved")
    if unproved:
        text += f", {unproved} unproved"
    if marks:
        legend = ", ".join(f"{MARK_LETTERS[k]} {k} {s}" for k, s in MARK_SYMBOLS.items())
        text += f" ({legend}) · n/p: next/previous mark"
    return text + "."


def problem_text(status: int | None, message: str) -> str:
    """One line for a failed analysis request: ``status`` the HTTP status (None: nothing
    answered), ``message`` the server's message (or the client's, when unreachable)."""
    message = " ".join(message.split())
    if status is not None:
        message = message.removeprefix(f"{status}:").strip()
    if status == 429:
        return f"No analysis now: {message}"
    if status == 503:
        return f"The server's analysis queue is full: try again later ({message})."
    if status == 401:
        return f"The server did not accept this session ({message}): sign in and try again."
    if status is None:
        return f"Analysis: {message}"
    return f"Analysis failed ({status}): {message}"


def _label(text: str, cells: int) -> str:
    return set_cell_size(text, cells)


def graph_text(
    analysis: Mapping[str, Any],
    names: Sequence[str],
    plies: int,
    position: int,
    width: int = GRAPH_WIDTH,
) -> Text:
    """Each seat's value over the game, one row per seat, at most ``width`` cells wide.

    A row holds the seat's name, then one cell per ply (several plies a cell when the game
    is longer than the room): the value after the seat's decision there (``after``), low
    ``▁`` to high ``█``; a blank where the seat did not decide or the value is unknown.
    Beneath, the marks (``B`` blunder, ``M`` mistake, ``i`` inaccuracy: the worst of a
    cell), then a caret under the move just made at replay ``position`` (position ``i``
    follows action ``i - 1``).  Names fill a column of their own, measured in cells, so a
    right-to-left or wide name never moves the bars."""
    seats = sorted({m["seat"] for m in moves_of(analysis) if isinstance(m.get("seat"), int)})
    seats = sorted(set(seats) | set(range(len(names))))
    labels = {s: _name(names, s) for s in seats}
    label_cells = min(LABEL_CELLS, max([cell_len(x) for x in labels.values()] + [8]))
    room = max(1, width - label_cells - 1)
    plies = max(1, plies)
    cols = min(plies, room)

    def col(ply: int) -> int:
        return min(cols - 1, max(0, ply) * cols // plies)

    rows = {s: [" "] * cols for s in seats}
    marks: list[str | None] = [None] * cols
    for m in moves_of(analysis):
        c = col(m["ply"])
        after = m.get("after")
        if m.get("seat") in rows and isinstance(after, int | float):
            level = round(min(1.0, max(0.0, float(after))) * (len(BARS) - 1))
            rows[m["seat"]][c] = BARS[level]
        mark = m.get("mark")
        if mark in _SEVERITY and _SEVERITY[mark] > _SEVERITY.get(marks[c] or "", 0):
            marks[c] = mark
    out = Text()
    for s in seats:
        out.append(_label(labels[s], label_cells) + " ")
        out.append("".join(rows[s]).rstrip(), style="cyan")
        out.append("\n")
    out.append(_label("marks", label_cells) + " ")
    line = Text()
    for mark in marks:
        if mark is None:
            line.append(" ")
        else:
            line.append(MARK_LETTERS[mark], style=MARK_STYLES[mark])
    line.rstrip()
    out.append_text(line)
    out.append("\n")
    caret = col(position - 1) if position > 0 else 0
    out.append(_label(f"move {position}", label_cells) + " " + " " * caret + "^")
    return out
