"""Post-game analysis of the duel (issue 13 §3): ``trumps.ai.analysis`` and
``trumps analyze RECORD``, checked against a brute-force search of the engine."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import trumps
from trumps.ai.analysis import REASONS, analyze_duel
from trumps.ai.base import Limits
from trumps.ai.kozyri_search import solve
from trumps.ai.simple import EasyBot
from trumps.commands.analyze import analyze
from trumps.games import Game
from trumps.records import dumps, record_of

# Seat 0 to move wins with JS (it must then play a second card, K10) and loses with QH.
# The hand is drawn at ply 12 (K17): that keeps the brute force below small.
ENDGAME = {
    "game": "kozyri",
    "rules": {"max_plies": 12},
    "trumps": ["S", "H"],
    "hands": [["TD", "7C", "JS", "QH"], ["QS", "TC"]],
    "pile": ["JH"],
    "to_move": 0,
}


def brute(game: Game, seat: int) -> int:
    """The exact value for ``seat`` (1 win, 0 draw, -1 loss) by a plain minimax over the
    engine's own moves, to the end of the game (the ``max_plies`` cap keeps it short)."""
    outcome = game.outcome
    if outcome is not None:
        return 0 if outcome.draw else (1 if seat in outcome.winners else -1)
    values = []
    for action in game.legal_actions():
        child = game.clone()
        child.play(action)
        values.append(brute(child, seat))
    return max(values) if game.current_player == seat else min(values)


def solver_line(start: Game) -> list[str]:
    """The actions after ``start`` with both sides playing the solver's best move."""
    game = start.clone()
    while not game.is_over:
        legal = game.legal_actions()
        game.play(legal[0] if len(legal) == 1 else solve(game, node_limit=200_000).best)
    return game.history[len(start.history) :]


def easy_game(seed: int) -> Game:
    game = trumps.new_game("kozyri", players=2, seed=seed)
    bot, rng = EasyBot("kozyri"), random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        action = bot.decide(game.view(seat), game.legal_actions(), Limits(), rng).action
        game.play(action)
    return game


def test_the_blunder_is_marked_with_a_better_move() -> None:
    start = trumps.from_json(ENDGAME)
    by_move = {}
    for action in start.legal_actions():
        child = start.clone()
        child.play(action)
        by_move[action] = brute(child, 0)
    assert by_move == {"JS": 1, "QH": -1}  # the brute force agrees: QH throws the win away
    blunder = start.clone()
    blunder.play("QH")
    actions = blunder.history + solver_line(blunder)
    result = analyze_duel(start, actions, node_limit=100_000)
    first = result.moves[0]
    assert (first.ply, first.seat, first.action) == (0, 0, "QH")
    assert (first.before, first.after, first.lost) == (1.0, 0.0, 100.0)  # a win, a loss
    assert (first.mark, first.reason, first.better) == ("blunder", "win_to_loss", "JS")
    assert [m.ply for m in result.moves if m.mark] == [0]  # the rest is played perfectly
    assert result.unproved == 0 and result.marked == 1
    assert start.history == [] and start == trumps.from_json(ENDGAME)  # left unchanged


def test_a_lost_win_to_a_draw_is_a_mistake() -> None:
    # With the hand drawn at ply 8, QH no longer loses: it lets the win slip to a draw.
    start = trumps.from_json({**ENDGAME, "rules": {"max_plies": 8}})
    child = start.clone()
    child.play("QH")
    assert brute(start, 0) == 1 and brute(child, 0) == 0
    result = analyze_duel(start, ["QH", *solver_line(child)], node_limit=100_000)
    first = result.moves[0]
    assert (first.before, first.after, first.mark) == (1.0, 0.5, "mistake")  # win, draw
    assert (first.reason, first.better) == ("win_to_draw", "JS")
    assert result.marked == 1


def test_a_game_played_by_the_solver_has_no_mark() -> None:
    start = trumps.from_json(ENDGAME)
    result = analyze_duel(start, solver_line(start), node_limit=100_000)
    assert result.moves and result.unproved == 0 and result.marked == 0
    assert all(m.before == m.after == 1.0 for m in result.moves if m.seat == 0)
    # A late position of a real game, then both sides playing perfectly.
    game = trumps.new_game("kozyri", players=2, seed=0)
    for action in easy_game(0).history[:36]:
        game.play(action)
    late = trumps.from_json(game.to_json())
    result = analyze_duel(late, solver_line(late), node_limit=200_000)
    assert len(result.moves) >= 3 and result.unproved == 0 and result.marked == 0
    assert all(m.before == m.after and m.reason is None for m in result.moves)


def test_a_tiny_budget_is_reported_unproved_never_guessed() -> None:
    game = easy_game(1)
    start = trumps.new_game("kozyri", players=2, seed=1)
    result = analyze_duel(start, game.history, node_limit=1)
    assert result.unproved > 0 and result.marked == 0
    for move in result.moves:
        if not move.proved:
            assert move.reason == "unproved" and move.mark is None and move.better is None
            assert move.before is None or move.after is None
    # Trump choices and forced moves are not decisions: fewer moves than actions.
    assert len(result.moves) < len(game.history)
    assert all(not m.action.startswith("trump ") for m in result.moves)
    # The same budget in nodes gives the same result (deterministic).
    assert analyze_duel(start, game.history, node_limit=1) == result
    assert set(REASONS) >= {m.reason for m in result.moves if m.reason}


# ---------------------------------------------------------------------------------------
# trumps analyze RECORD


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.json"
    path.write_text(text)
    return str(path)


def _run(*args: str) -> Any:
    return CliRunner().invoke(analyze, list(args))


def _blunder_record() -> tuple[str, int]:
    """A record of a real seeded game (the easy bot's, seed 6) with a move the analysis
    marks at 5,000 nodes a position, and its ply."""
    game = easy_game(6)
    start = trumps.new_game("kozyri", players=2, seed=6)
    marked = [m for m in analyze_duel(start, game.history, node_limit=5_000).moves if m.mark]
    assert marked, "the easy bot's game of seed 6 was expected to hold a mark"
    return dumps(record_of(game)), marked[0].ply


def test_cli_text_and_json(tmp_path: Path) -> None:
    text, ply = _blunder_record()
    path = _write(tmp_path, text)
    res = _run(path, "--node-limit", "5000")
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert lines[0].startswith(f"ply {ply}: seat ") and "better: " in lines[0]
    assert "decisions analysed:" in lines[-1] and "marked" in lines[-1]
    res = _run(path, "--node-limit", "5000", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["game"] == "kozyri" and out["players"] == 2
    marked = [m for m in out["moves"] if m["mark"]]
    assert marked[0]["ply"] == ply and marked[0]["better"] is not None
    assert out["summary"]["marked"] == len(marked) == len(lines) - 1
    assert set(out["moves"][0]) == {
        "ply",
        "seat",
        "action",
        "before",
        "after",
        "lost",
        "mark",
        "better",
        "reason",
        "explain",
    }
    assert out["method"] == "solver" and out["budget"] == {"time_limit": None, "node_limit": 5000}
    assert marked[0]["explain"]["code"] in ("solved_win", "solved_draw")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "record is not JSON"),
        ('{"format": "trumps-record/1"}', "record keys do not match"),
    ],
)
def test_cli_bad_files_are_one_line(tmp_path: Path, content: str | None, message: str) -> None:
    path = str(tmp_path / "missing.json") if content is None else _write(tmp_path, content)
    res = _run(path)
    assert res.exit_code == 1
    assert message in res.output and len(res.output.strip().splitlines()) == 1
    assert "Traceback" not in res.output
