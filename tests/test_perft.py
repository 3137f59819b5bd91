"""The fast engines against the reference rules (tests/reference) and their perft vectors.

* The reference itself on the public examples (tests/data/examples.json).
* Perft: every vector of tests/data/perft_*.json (made by tests/tools/make_perft.py with
  the reference) counted with the fast engine through the public API.
* Cross-check: seeded random play from many positions, comparing the legal actions and,
  after every action, the fast ``to_json`` with the reference's ``apply`` on every key
  the reference produces.  This is the main independent check of the engines.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import trumps
from reference import kozyri_ref, twentyfive_ref

DATA = Path(__file__).parent / "data"
EXAMPLES = DATA / "examples.json"  # the public examples of the formats

REFS: dict[str, Any] = {"kozyri": kozyri_ref, "twentyfive": twentyfive_ref}
TIMES: dict[str, float] = {}  # seconds per perft vector, for tuning depths


def _load(name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((DATA / f"perft_{name}.json").read_text())
    return data


# ---------------------------------------------------------------------------------------
# The reference on the public examples.


def _same(key: str, got: Any, want: Any) -> bool:
    if key == "hands":
        return [sorted(h) for h in got] == [sorted(h) for h in want]
    return bool(got == want)


def test_reference_matches_public_examples() -> None:
    for example in json.loads(EXAMPLES.read_text()):
        ref = REFS[example["position"]["game"]]
        pos = example["position"]
        assert sorted(ref.legal_actions(pos)) == sorted(example["legal"]), example["name"]
        for action in example["play"]:
            pos = ref.apply(pos, action)
        for key, want in example["after"].items():
            assert _same(key, pos.get(key), want), (example["name"], key)


def test_reference_legal_order_is_documented() -> None:
    pos = {
        "game": "twentyfive",
        "turnup": "9D",
        "dealer": 2,
        "to_move": 1,
        "leader": 0,
        "hands": [["3C"], ["2C", "JD", "AH", "9S"], ["QH"]],
        "trick": ["KC"],
    }
    assert twentyfive_ref.legal_actions(pos) == ["2C", "JD", "AH"]


# ---------------------------------------------------------------------------------------
# Perft with the fast engine.


def fast_perft(position: dict[str, Any], depth: int) -> dict[str, int]:
    """Perft for depths 1..depth in one walk: a leaf (game over or a new hand) reached at
    depth j counts once for every depth >= j.

    Reading the hand number through ``to_json`` at every node would dominate the time, so
    the walk knows when a hand can end: Twenty-Five when every card in hand has been
    played (a rob keeps the hand size), Svoi Kozyri — whose vectors play one-hand
    matches (``match_losses`` 1) — only with the game.  At each such point the hand
    number is checked against the engine.
    """
    game = trumps.from_json(position)
    start = game.to_json()
    hand = start.get("hand", 1)
    if game.game_id == "kozyri":
        assert start["rules"]["match_losses"] == 1, "vectors play one-hand matches"
        left = -1  # no hand end short of the game's end
    else:
        left = sum(len(h) for h in start["hands"])
    counts = [0] * (depth + 1)

    def walk(level: int, left: int) -> None:
        for action in game.legal_actions():
            game.play(action)
            counts[level + 1] += 1
            now = left - (0 if action.startswith("rob") else 1)
            if game.is_over or now == 0:
                assert game.is_over or game.to_json().get("hand", 1) == hand + 1
                for d in range(level + 2, depth + 1):
                    counts[d] += 1
            elif level + 1 < depth:
                walk(level + 1, now)
            game.undo()

    walk(0, left)
    return {str(d): counts[d] for d in range(1, depth + 1)}


@pytest.mark.parametrize("name", ["kozyri", "twentyfive"])
def test_perft_vectors(name: str) -> None:
    failures = []
    for vector in _load(name):
        depth = max(int(d) for d in vector["perft"])
        t0 = time.perf_counter()
        got = fast_perft(vector["position"], depth)
        TIMES[vector["name"]] = time.perf_counter() - t0
        if got != vector["perft"]:
            failures.append(f"{vector['name']}: expected {vector['perft']}, got {got}")
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------------------------------
# Cross-check by seeded random play.

# The docs/positions.md keys each reference models (others, the engine's own extras, pass through).
MODELLED = {
    "kozyri": (
        "dealer",
        "trumps",
        "hands",
        "pile",
        "to_move",
        "owes_second",
        "out",
        "ply",
        "outcome",
    ),
    "twentyfive": (
        "dealer",
        "turnup",
        "trump",
        "robbed",
        "hands",
        "stock",
        "tricks",
        "trick",
        "leader",
        "to_move",
        "scores",
        "teams",
        "outcome",
    ),
}
# Keys the reference leaves to the engine once a hand has ended.
END_FREE = {"to_move", "leader", "owes_second"}


def _normalise(key: str, value: Any) -> Any:
    if key == "hands":
        return [sorted(h) for h in value]
    if key == "stock":
        return sorted(value)
    if key == "outcome" and value is not None:
        return {**value, "winners": sorted(value["winners"]), "losers": sorted(value["losers"])}
    return value


class _Where:
    """Names a step in failure messages; the position is only rendered on failure."""

    def __init__(self, label: str, pos: dict[str, Any], action: str) -> None:
        self.label, self.pos, self.action = label, pos, action

    def __str__(self) -> str:
        return f"{self.label} at {json.dumps(self.pos)} after {self.action!r}"


def _compare(ref_pos: dict[str, Any], fast: dict[str, Any], where: _Where) -> None:
    for key, value in ref_pos.items():
        if key not in MODELLED[fast["game"]]:
            continue
        assert key in fast, f"{where}: fast to_json lacks {key!r}"
        assert _normalise(key, fast[key]) == _normalise(key, value), (
            f"{where}: {key!r} differs: reference {value!r}, engine {fast[key]!r}"
        )


def cross_check(game: trumps.Game, rng: random.Random, steps: int, label: str) -> int:
    """Play ``steps`` random actions on ``game`` checking each against the reference;
    the reference restarts from the engine's position at each new hand.  Returns the
    number of actions checked."""
    ref = REFS[game.game_id]
    pos = game.to_json()
    seen: Counter[tuple[Any, ...]] = Counter()
    if game.game_id == "kozyri":
        seen[kozyri_ref.position_key(pos)] += 1
    checked = 0
    for _ in range(steps):
        if game.is_over:
            break
        fast_legal = game.legal_actions()
        if game.game_id == "kozyri" and any(a.startswith("trump") for a in fast_legal):
            game.play(rng.choice(fast_legal))  # K3 trump choice: outside the reference
            pos = game.to_json()
            seen = Counter([kozyri_ref.position_key(pos)])
            continue
        if game.game_id == "twentyfive" and pos.get("turnup") == "JK":
            # F17a: the dealer's discard for a turned-up joker belongs to the deal.
            assert game.current_player == pos["dealer"], f"{label}: F17a discard by the dealer"
            game.play(rng.choice(fast_legal))
            pos = game.to_json()
            continue
        assert fast_legal == ref.legal_actions(pos), (
            f"{label} at {json.dumps(pos)}: legal actions differ"
        )
        action = rng.choice(fast_legal)
        hand = pos.get("hand", 1)
        if game.game_id == "kozyri":
            expected = kozyri_ref.apply(pos, action, seen)
        else:
            expected = twentyfive_ref.apply(pos, action)
        game.play(action)
        after = game.to_json()
        checked += 1
        where = _Where(label, pos, action)
        if ref.hand_over(expected):
            bonus = expected["rules"].get("five_trick_bonus", "none")
            if game.is_over and expected.get("outcome") is None and bonus != "none":
                pass  # F17: a five-trick bonus may end the game; not modelled
            elif game.is_over:
                assert expected.get("outcome") is not None, f"{where}: engine ended the game"
                _compare({k: v for k, v in expected.items() if k not in END_FREE}, after, where)
            else:
                # K18/F16: a decided one-hand match (or a reached target) ends the game.
                decided = expected.get("outcome") is not None and (
                    game.game_id == "twentyfive" or expected["rules"]["match_losses"] == 1
                )
                assert not decided, f"{where}: the game should be over"
                # A new hand was dealt: only the carried-over facts are comparable.
                assert after.get("hand", 1) == hand + 1, f"{where}: hand ended, no new deal"
                if game.game_id == "twentyfive" and bonus == "none":
                    assert after["scores"] == expected["scores"], f"{where}: scores"
            pos = after
            seen = Counter()
            if game.game_id == "kozyri":
                seen[kozyri_ref.position_key(pos)] += 1
            continue
        assert not game.is_over, f"{where}: engine ended the game, reference did not"
        assert after.get("hand", 1) == hand, f"{where}: engine dealt a new hand"
        _compare(expected, after, where)
        pos = after  # equal on every modelled key; keeps the engine's own extra keys
    return checked


KOZYRI_SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"voluntary_pickup": True}),
    (2, {"sixes_to_owner": False}),
    (3, {}),
    (3, {"voluntary_pickup": True}),
    (4, {}),
    (4, {"voluntary_pickup": True, "sixes_to_owner": False}),
    (2, {"match_losses": 2}),
    (2, {"max_plies": 60}),
    (2, {"voluntary_pickup": True, "repetition_draw": 2}),
    (3, {"voluntary_pickup": True, "repetition_draw": 2}),
]

TWENTYFIVE_SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"rob": "mandatory"}),
    (4, {}),
    (4, {"teams": 2}),
    (5, {"ranking": "as-written", "renege_limit": "always"}),
    (6, {"joker": True}),
    (6, {"teams": 3, "rob": "off"}),
    (6, {"teams": 2, "renege_cards": "five_only"}),
    (7, {"renege_cards": "none", "joker": True}),
    (9, {"teams": 3}),
    (10, {"rob": "mandatory", "ranking": "as-written"}),
    (4, {"renege_limit": "always", "joker": True, "target": 45}),
    (2, {"play_out_hand": True, "target": 15}),
    (3, {"five_trick_bonus": "plus10", "deal_packets": "3-2"}),
    (8, {"teams": 2, "deal_packets": "4-1", "points_per_trick": 1, "target": 10}),
]


@pytest.mark.parametrize(("players", "rules"), KOZYRI_SETUPS)
def test_cross_check_kozyri(players: int, rules: dict[str, Any]) -> None:
    total = 0
    for seed in range(4):
        rng = random.Random(f"kozyri/{players}/{rules}/{seed}")
        game = trumps.new_game("kozyri", players=players, rules=rules, seed=seed)
        total += cross_check(game, rng, 700, f"kozyri {players}p {rules} seed {seed}")
    assert total > 4 * 30


@pytest.mark.parametrize(("players", "rules"), TWENTYFIVE_SETUPS)
def test_cross_check_twentyfive(players: int, rules: dict[str, Any]) -> None:
    total = 0
    for seed in range(40):
        rng = random.Random(f"twentyfive/{players}/{rules}/{seed}")
        game = trumps.new_game("twentyfive", players=players, rules=rules, seed=seed)
        total += cross_check(game, rng, 3000, f"twentyfive {players}p {rules} seed {seed}")
    assert total > 40 * 10


@pytest.mark.parametrize("name", ["kozyri", "twentyfive"])
def test_cross_check_from_vectors(name: str) -> None:
    """Random play from every composed vector position (trump leads, robs, endgames)."""
    for i, vector in enumerate(_load(name)):
        for seed in range(5):
            game = trumps.from_json(vector["position"])
            cross_check(game, random.Random(f"{name}/{i}/{seed}"), 120, vector["name"])
