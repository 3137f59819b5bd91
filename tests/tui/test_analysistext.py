"""A finished game's analysis as the terminal client's replay shows it (issue 13 §3):
``trumps.tui.connect.analysistext``, on analyses made by ``trumps.ai.analysis`` from real
games (the duel's exact solver on an endgame, Twenty-Five judged from the view) and, for
the duel's rarer reasons, on moves written as docs/analysis.md's JSON form."""

from __future__ import annotations

import random
import unicodedata
from typing import Any

import pytest
from rich.cells import cell_len

import trumps
from trumps.ai.analysis import Budget, analyze_duel, analyze_game
from trumps.ai.base import Limits
from trumps.ai.kozyri_search import solve
from trumps.ai.simple import EasyBot
from trumps.games import Game
from trumps.tui.cardtext import card_text
from trumps.tui.connect.analysistext import (
    GRAPH_WIDTH,
    graph_text,
    mark_line,
    marked_move,
    marked_plies,
    problem_text,
    progress_text,
    summary_text,
)
from trumps.tui.connect.ratingtext import BARS
from trumps.tui.whytext import hint_text

# Seat 0 to move wins with JS and loses with QH (tests/ai/test_analysis.py's endgame).
ENDGAME = {
    "game": "kozyri",
    "rules": {"max_plies": 12},
    "trumps": ["S", "H"],
    "hands": [["TD", "7C", "JS", "QH"], ["QS", "TC"]],
    "pile": ["JH"],
    "to_move": 0,
}
NAMES = ["Ann", "Ben", "Cy"]


@pytest.fixture(scope="module")
def duel() -> tuple[Game, dict[str, Any]]:
    """The endgame with QH played, then both sides perfect: its analysis."""
    start = trumps.from_json(ENDGAME)
    game = start.clone()
    game.play("QH")
    while not game.is_over:
        legal = game.legal_actions()
        game.play(legal[0] if len(legal) == 1 else solve(game, node_limit=200_000).best)
    return start, analyze_duel(start, game.history, node_limit=100_000).to_json()


@pytest.fixture(scope="module")
def twentyfive() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A 3-player Twenty-Five game of the easy bots, judged over 40 deals: its positions
    (as the replay has them) and its analysis."""
    game = trumps.new_game("twentyfive", players=3, seed=2)
    bot, rng = EasyBot("twentyfive"), random.Random(2)
    positions = [game.to_json()]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.play(bot.decide(game.view(seat), game.legal_actions(), Limits(), rng).action)
        positions.append(game.to_json())
    start = trumps.new_game("twentyfive", players=3, seed=2)
    return positions, analyze_game(start, game.history, Budget(deals=40)).to_json()


def test_a_duel_blunder_says_what_it_cost_and_the_better_move_in_the_hints_words(
    duel: tuple[Game, dict[str, Any]],
) -> None:
    start, analysis = duel
    assert marked_plies(analysis) == [0]
    move = marked_move(analysis, 0)
    assert move is not None and move["reason"] == "win_to_loss"
    line = mark_line(move, NAMES, start.to_json()).plain
    why = hint_text("JS", move["explain"], start.to_json()).removeprefix("Hint: play ")
    assert line == (
        f"Ann played Q♥: blunder ?? — it turned a won position into a lost one. Better: play {why}"
    )
    assert why.startswith("J♠. With it you win this hand whatever the others do (")
    assert marked_move(analysis, 1) is None  # a move judged but not marked


@pytest.mark.parametrize(
    ("reason", "mark", "words"),
    [
        ("win_to_draw", "mistake ?", "it turned a won position into a draw"),
        ("draw_to_loss", "mistake ?", "it turned a drawn position into a lost one"),
    ],
)
def test_the_duels_other_reasons(reason: str, mark: str, words: str) -> None:
    before, after = (1.0, 0.5) if reason == "win_to_draw" else (0.5, 0.0)
    move = {"ply": 7, "seat": 1, "action": "TH", "before": before, "after": after,
            "lost": 50.0, "mark": "mistake", "better": "take", "reason": reason,
            "explain": {"code": "solved_draw", "numbers": {}}}  # fmt: skip
    line = mark_line(move, NAMES).plain
    assert line == (
        f"Ben played 10♥: {mark} — {words}. Better: play take. If both of you play well, "
        "the hand ends in a draw."
    )


def test_a_lost_chance_gives_the_points_and_both_estimates(
    twentyfive: tuple[list[dict[str, Any]], dict[str, Any]],
) -> None:
    positions, analysis = twentyfive
    plies = marked_plies(analysis)
    assert plies, "the easy bots' game has marked moves"
    for ply in plies:
        move = marked_move(analysis, ply)
        assert move is not None and move["reason"] == "lost_chance"
        line = mark_line(move, NAMES, positions[ply]).plain
        before, after = round(move["before"] * 100), round(move["after"] * 100)
        lost = round(move["lost"])
        symbol = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}[move["mark"]]
        played = card_text(move["action"]).plain
        assert line.startswith(f"{NAMES[move['seat']]} played {played}: {move['mark']} {symbol}")
        assert f" — lost {lost} points of the estimated chance ({before}% → {after}%). " in line
        percent = move["explain"]["numbers"]["percent"]
        assert line.endswith(
            f"Better: play {card_text(move['better']).plain}. Of all your moves it wins the "
            f"most deals ({percent} of 100)."
        )


def test_an_inaccuracy_is_marked_with_its_symbol() -> None:
    move = {"ply": 3, "seat": 2, "action": "5H", "before": 0.4, "after": 0.33, "lost": 7.0,
            "mark": "inaccuracy", "better": "AH", "reason": "lost_chance", "explain": None}  # fmt: skip
    assert mark_line(move, NAMES).plain == (
        "Cy played 5♥: inaccuracy ?! — lost 7 points of the estimated chance (40% → 33%). "
        "Better: play A♥."
    )


def _rows(text: str) -> list[str]:
    return text.split("\n")


def test_the_graph_has_a_row_per_seat_one_cell_a_ply_and_the_caret_under_the_move(
    twentyfive: tuple[list[dict[str, Any]], dict[str, Any]],
) -> None:
    positions, analysis = twentyfive
    plies = len(positions) - 1
    first = marked_plies(analysis)[0]
    rows = _rows(graph_text(analysis, NAMES, plies, first + 1).plain)
    assert [r.split()[0] for r in rows[:3]] == NAMES
    assert rows[3].startswith("marks ") and rows[4].startswith(f"move {first + 1} ")
    start = rows[4].index("^") - first  # where ply 0's column is
    assert start == 9  # names of 3 cells fill an 8-cell column, then a gap
    for move in analysis["moves"]:  # one cell a ply: each value in its seat's row at its ply
        row = rows[move["seat"]].ljust(start + plies)
        assert row[start + move["ply"]] == BARS[round(move["after"] * 7)]
    marks = rows[3].ljust(start + plies)
    letters = {"blunder": "B", "mistake": "M", "inaccuracy": "i"}
    for move in analysis["moves"]:
        expected = letters[move["mark"]] if move["mark"] else " "
        assert marks[start + move["ply"]] == expected
    assert marks[rows[4].index("^")] != " "  # the caret of the mark's step is under it
    caret_at_start = _rows(graph_text(analysis, NAMES, plies, 0).plain)[4]
    assert caret_at_start.index("^") == start


def test_a_gap_where_a_seat_did_not_decide_or_the_value_is_unknown() -> None:
    analysis = {"moves": [
        {"ply": 0, "seat": 0, "action": "7S", "before": None, "after": None},
        {"ply": 1, "seat": 1, "action": "8S", "before": 1.0, "after": 1.0},
        {"ply": 2, "seat": 0, "action": "9S", "before": 0.0, "after": 0.0},
        {"ply": 4, "seat": 0, "action": "TS", "before": 0.5, "after": 0.5},
    ]}  # fmt: skip
    rows = _rows(graph_text(analysis, ["Ann", "Ben"], 6, 3).plain)
    assert rows[0] == "Ann        ▁ ▅"  # ply 0 unproved, plies 1 and 3 not Ann's
    assert rows[1] == "Ben       █"
    assert rows[2].rstrip() == "marks"
    assert rows[3] == "move 3     ^"


def test_a_long_game_fits_80_columns_and_names_never_move_the_bars() -> None:
    # 400 plies, five seats whose names are right-to-left, wide, too long or hold a bidi
    # override: every row is GRAPH_WIDTH cells at most and the bars start in one column.
    names = ["سارا", "王小明", "Bartholomew the Magnificent", "Eve\u202eevil", "Dan"]
    moves = [
        {"ply": p, "seat": p % 5, "action": "AH", "before": 0.9, "after": (p % 9) / 8,
         "mark": "blunder" if p == 399 else ("mistake" if p % 50 == 7 else None)}
        for p in range(400)
    ]  # fmt: skip
    text = graph_text({"moves": moves}, names, 400, 400).plain
    rows = _rows(text)
    assert len(rows) == 7
    assert all(cell_len(r) <= GRAPH_WIDTH <= 78 for r in rows)
    assert not any(unicodedata.category(ch) == "Cf" for ch in text)  # no bidi controls
    starts = set()
    for row in rows[:5]:
        bars = next(i for i, ch in enumerate(row) if ch in BARS)
        starts.add(cell_len(row[:bars]))
    assert starts == {13}  # a 12-cell name column and a gap, whatever the script
    assert rows[3].startswith("Eveevil ")
    assert rows[5].rstrip().endswith("B")  # the blunder at the last ply, in the last cell
    assert rows[6].index("^") == len(rows[5].rstrip()) - 1  # the caret under it at the end


def test_the_lines_around_the_graph() -> None:
    assert progress_text(3, 21) == "Analysing… 3 of 21 decisions"
    assert progress_text(None, None) == "Analysing…"  # another process makes it
    assert problem_text(429, "429: your other analysis is still running: one at a time") == (
        "No analysis now: your other analysis is still running: one at a time"
    )
    assert problem_text(503, "503: the server is busy analysing: try again soon").startswith(
        "The server's analysis queue is full: try again later ("
    )
    assert problem_text(401, "401: unknown token") == (
        "The server did not accept this session (unknown token): sign in and try again."
    )
    assert problem_text(None, "the server cannot be reached: refused") == (
        "Analysis: the server cannot be reached: refused"
    )
    summary = summary_text({"moves": [{"ply": 0, "mark": "blunder"}, {"ply": 2, "mark": None}]})
    assert summary.startswith("Analysed: 2 decisions, 1 marked (B blunder ??, M mistake ?, ")
    assert summary.endswith("· n/p: next/previous mark.")
    assert summary_text({"moves": []}) == "Analysed: 0 decisions, 0 marked."
