"""Post-game analysis from the player's own view (issue 13 §3): Twenty-Five and Svoi
Kozyri with 3–4 players, judged by the expert search from ``Game.view(seat)``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import trumps
from trumps.ai.analysis import (
    MARKS,
    AnalysisError,
    Budget,
    analyze_duel,
    analyze_game,
    analyze_ply,
    judged_plies,
)
from trumps.ai.analysis_view import INACCURACY, Z, _mark, judge_view
from trumps.ai.base import Limits
from trumps.ai.simple import EasyBot
from trumps.commands.analyze import analyze
from trumps.games import Game
from trumps.records import dumps, record_of

# F4/F13: hearts are trumps and the five of trumps is the best card.  Both sides stand at
# 20 of 25 and a trick is worth 5 (F16): the next trick wins the game.  Seat 0 leads and
# holds the five of trumps.
LAST_TRICK: dict[str, Any] = {
    "game": "twentyfive",
    "turnup": "9H",
    "dealer": 1,
    "hands": [["5H", "2S", "3S", "4C", "6D"], ["6S", "7C", "9C", "TC", "AH"]],
    "leader": 0,
    "to_move": 0,
    "scores": [20, 20],
}


def played_out(start: Game, first: str, seed: int = 0) -> list[str]:
    """``first``, then the easy bot for everyone to the end of the game."""
    game = start.clone()
    game.play(first)
    bot, rng = EasyBot(game.game_id), random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.play(bot.decide(game.view(seat), game.legal_actions(), Limits(), rng).action)
    return game.history[len(start.history) :]


def test_leading_a_low_card_instead_of_the_winning_trump_is_a_blunder() -> None:
    start = trumps.from_json(LAST_TRICK)
    assert start.legal_actions()[0] == "5H" or "5H" in start.legal_actions()
    actions = played_out(start, "2S")
    first = analyze_ply(start, actions, 0, Budget(deals=200, seed=1))
    assert (first.ply, first.seat, first.action) == (0, 0, "2S")
    assert first.better == "5H" and first.before == 1.0  # F13: the five always takes it
    assert first.mark == "blunder" and first.reason == "lost_chance"
    assert first.lost is not None and first.lost >= 20
    assert first.explain is not None and first.explain.code == "sampled"
    assert first.explain.numbers == {"percent": 100, "deals": 200}
    # Playing the five is no mistake at all.
    good = analyze_ply(start, played_out(start, "5H"), 0, Budget(deals=200, seed=1))
    assert good.mark is None and good.lost == 0.0 and good.reason is None


def test_the_judgement_uses_only_the_players_view() -> None:
    # The opponent's hand and the stock swapped around: the same view for seat 0, so the
    # same verdict, to the last digit (the search never sees the hidden cards).
    start = trumps.from_json(LAST_TRICK)
    other = json.loads(json.dumps(start.to_json()))
    hand, stock = other["hands"][1], other["stock"]
    hand[0], stock[0] = stock[0], hand[0]
    hand[2], stock[5] = stock[5], hand[2]
    swapped = trumps.from_json(other)
    assert swapped.view(0) == start.view(0) and swapped.to_json() != start.to_json()
    for first in ("2S", "4C"):
        a = analyze_ply(start, [first], 0, Budget(deals=60, seed=3))
        b = analyze_ply(swapped, [first], 0, Budget(deals=60, seed=3))
        assert a == b


def test_a_gap_inside_the_noise_is_not_marked() -> None:
    start = trumps.from_json(LAST_TRICK)
    view, legal = start.view(0), start.legal_actions()
    # The rule itself: a loss is marked only at INACCURACY points and Z standard errors.
    assert (INACCURACY, Z) == (5.0, 2.5)
    assert _mark(8.0, 4.0) is None  # 8 points, but inside 2.5 errors of 4
    assert _mark(8.0, 3.0) == "inaccuracy" and _mark(4.9, 0.0) is None
    assert _mark(10.0, 0.1) == "mistake" and _mark(20.0, 7.9) == "blunder"
    assert _mark(20.0, 8.1) is None  # a blunder's size, but no more than noise
    # Played the best move: never marked, whatever the numbers.
    best = judge_view(view, legal, "5H", 50, random.Random(0))
    assert best.best == "5H" and best.mark is None and best.lost == 0.0
    with pytest.raises(ValueError, match="two or more legal actions"):
        judge_view(view, ["5H"], "5H", 10, random.Random(0))


def easy_game(game_id: str, players: int, seed: int) -> tuple[Game, list[str]]:
    start = trumps.new_game(game_id, players=players, seed=seed)
    game, bot, rng = start.clone(), EasyBot(game_id), random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.play(bot.decide(game.view(seat), game.legal_actions(), Limits(), rng).action)
    return start, game.history


@pytest.mark.parametrize(("game_id", "players"), [("twentyfive", 4), ("kozyri", 3)])
def test_a_whole_game_one_pass_or_one_decision_at_a_time(game_id: str, players: int) -> None:
    start, actions = easy_game(game_id, players, seed=4)
    budget = Budget(deals=20, seed=7)
    result = analyze_game(start, actions, budget)
    plies = judged_plies(start, actions)
    assert [m.ply for m in result.moves] == plies and plies
    assert result.method == "expert" and result.unproved == 0
    # K3: no trump choice is judged; forced moves are not decisions.
    assert all(not actions[p].startswith("trump ") for p in plies)
    for ply in plies[:: max(1, len(plies) // 5)]:
        assert analyze_ply(start, actions, ply, budget) == result.moves[plies.index(ply)]
    for move in result.moves:
        assert move.before is not None and move.after is not None
        assert 0.0 <= move.after <= move.before <= 1.0
        assert (move.mark is None) == (move.reason is None) == (move.better is None)
        assert move.mark is None or move.mark in MARKS
    out = result.to_json()
    assert out["budget"] == {"deals": 20, "seed": 7}
    assert out["summary"]["analysed"] == len(plies) and out["summary"]["unproved"] == 0
    seen: list[int] = []
    done = analyze_game(start, actions, budget, progress=lambda d, t: seen.append(d * 1000 + t))
    assert done == result and seen[-1] == len(plies) * 1000 + len(plies)


def test_a_ply_that_is_no_decision_is_refused() -> None:
    start, actions = easy_game("kozyri", 3, seed=2)
    plies = set(judged_plies(start, actions))
    forced = next(p for p in range(len(actions)) if p not in plies)
    with pytest.raises(AnalysisError, match="no decision"):
        analyze_ply(start, actions, forced)
    with pytest.raises(AnalysisError, match="not in the game's"):
        analyze_ply(start, actions, len(actions))
    with pytest.raises(AnalysisError, match="exact analysis is for the 2-player"):
        analyze_duel(start, actions)


def test_cli_analyses_twenty_five_from_the_view(tmp_path: Path) -> None:
    start, actions = easy_game("twentyfive", 2, seed=6)
    game = start.clone()
    for action in actions:
        game.play(action)
    path = tmp_path / "game.json"
    path.write_text(dumps(record_of(game)))
    res = CliRunner().invoke(analyze, [str(path), "--deals", "40", "--seed", "2", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out == analyze_game(start, actions, Budget(deals=40, seed=2)).to_json()
    assert out["method"] == "expert" and out["summary"]["marked"] > 0
    res = CliRunner().invoke(analyze, [str(path), "--deals", "40", "--seed", "2"])
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    marked = [m for m in out["moves"] if m["mark"]]
    assert len(lines) == len(marked) + 1
    assert lines[0].startswith(f"ply {marked[0]['ply']}: seat {marked[0]['seat']} played ")
    assert f"(better: {marked[0]['better']})" in lines[0] and "points of the estimated" in lines[0]
    assert lines[-1].endswith(
        f"decisions analysed from each player's view (40 deals each): {len(marked)} marked"
    )
    res = CliRunner().invoke(analyze, [str(path), "--deals", "1"])
    assert res.exit_code == 2 and "--deals" in res.output
