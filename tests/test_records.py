"""Game records (docs/records.md): export, import by replay, and rejection of tampered records."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import trumps
from gamekit import finished_game
from trumps.records import FORMAT, dumps, loads, record_of, replay

SETUPS = [("kozyri", 2), ("kozyri", 4), ("twentyfive", 4), ("twentyfive", 3)]


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
def test_record_round_trip_replays_the_same_game(game_id: str, players: int) -> None:
    game = finished_game(game_id, players, seed=3)
    names = [f"P{s}" for s in range(players)]
    record = record_of(game, names, started="2026-11-29T10:00:00+00:00")
    assert record["format"] == FORMAT
    assert record["players"] == names
    assert record["finished"] is not None
    again = loads(dumps(record))
    assert again.to_json() == game.to_json()
    assert again.history == game.history


def test_record_of_running_game_has_no_outcome_and_replays() -> None:
    game = trumps.new_game("twentyfive", seed=5)
    for _ in range(6):
        game.play(game.legal_actions()[0])
    record = record_of(game)
    assert record["outcome"] is None and record["finished"] is None
    assert replay(record).to_json() == game.to_json()


def test_resigned_game_record_replays_with_its_outcome() -> None:
    game = trumps.new_game("kozyri", seed=9)
    for _ in range(5):
        game.play(game.legal_actions()[-1])
    game.resign(1)
    record = record_of(game)
    assert record["outcome"]["reason"] == "resigned"
    assert record["outcome"]["losers"] == [1]
    assert replay(json.loads(json.dumps(record))).outcome == game.outcome


def _tamper(record: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    if how == "illegal action":
        # Replace the middle action by a well-formed one that is not legal there.
        i = len(bad["actions"]) // 2
        game = trumps.new_game(
            bad["game"], players=len(bad["players"]), rules=bad["rules"], seed=bad["seed"]
        )
        for action in bad["actions"][:i]:
            game.play(action)
        legal = set(game.legal_actions())
        candidates = [c for c in ("take", "2S", "AS", "6H", "KD", "trump S") if c not in legal]
        bad["actions"][i] = candidates[0]
    elif how == "wrong outcome":
        outcome = bad["outcome"]
        if outcome["draw"]:
            seats = list(range(len(bad["players"])))
            outcome.update(draw=False, winners=seats[:1], losers=seats[1:])
        else:
            outcome["winners"], outcome["losers"] = outcome["losers"], outcome["winners"]
    elif how == "truncated":
        bad["actions"] = bad["actions"][:-1]
    elif how == "other seed":
        bad["seed"] += 1
    elif how == "format":
        bad["format"] = "trumps-record/2"
    elif how == "unknown rule":
        bad["rules"]["no_such_rule"] = True
    elif how == "extra key":
        bad["cheat"] = 1
    elif how == "not an action":
        bad["actions"][0] = "steal"
    elif how == "players":
        bad["players"] = "alice"
    return bad


@pytest.mark.parametrize(
    "how",
    [
        "illegal action",
        "wrong outcome",
        "truncated",
        "other seed",
        "format",
        "unknown rule",
        "extra key",
        "not an action",
        "players",
    ],
)
@pytest.mark.parametrize(("game_id", "players"), SETUPS[:3])
def test_tampered_records_are_rejected(game_id: str, players: int, how: str) -> None:
    record = record_of(finished_game(game_id, players, seed=21))
    replay(record)  # the original is fine
    with pytest.raises(trumps.InvalidRecord):
        replay(_tamper(record, how))


def test_record_that_is_not_json_is_rejected() -> None:
    with pytest.raises(trumps.InvalidRecord, match="not JSON"):
        loads("{nope")
    with pytest.raises(trumps.InvalidRecord, match="object"):
        replay([1, 2])
