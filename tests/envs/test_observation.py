"""Observation tensors (issue 14 §2–3, docs/research.md): built from one seat's view only,
the same layout at every table size, every value in [0, 1]."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import trumps
from gamekit import CONF, GAME_IDS, make_game, play_random, redeal
from trumps.envs.observation import encode, layout, size


def block(obs: list[float], game_id: str, name: str) -> list[float]:
    b = next(b for b in layout(game_id) if b.name == name)
    return obs[b.offset : b.offset + b.size]


def test_layouts_are_contiguous_and_fixed() -> None:
    assert size("kozyri") == 290 and size("twentyfive") == 1343
    for game_id in GAME_IDS:
        at = 0
        for b in layout(game_id):
            assert b.offset == at and b.size > 0 and b.meaning
            at += b.size
        assert at == size(game_id)


def test_a_kozyri_observation_reads_like_the_view() -> None:
    game = trumps.new_game("kozyri", players=3, seed=3, trumps=["H", "C", "S"])
    view = game.view(1)
    obs = encode(view)
    hand = block(obs, "kozyri", "hand")
    ids = [game.string_to_action(c) for c in view["hands"][1]]
    assert [i for i, x in enumerate(hand) if x] == sorted(ids)
    # Seat 1 observes: its own trump (C) at relative seat 0, seat 2's (S) at 1, seat 0's (H) at 2.
    trumps_block = block(obs, "kozyri", "trumps")
    assert trumps_block[0 * 4 + 3] == trumps_block[1 * 4 + 0] == trumps_block[2 * 4 + 1] == 1
    assert sum(trumps_block) == 3 and block(obs, "kozyri", "present") == [1, 1, 1, 0]
    to_move = block(obs, "kozyri", "to_move")
    assert view["to_move"] is not None
    assert to_move[(view["to_move"] - 1) % 3] == 1 and sum(to_move) == 1


def test_the_public_view_has_no_observation() -> None:
    with pytest.raises(ValueError, match="seat's view"):
        encode(trumps.new_game("twentyfive", seed=1).view(None))


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(data=st.data())
def test_observations_hold_only_what_the_seat_may_know(game_id: str, data: st.DataObject) -> None:
    # The hidden cards re-dealt consistently with a seat's view: the same observation.
    game = make_game(data, game_id)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in play_random(game, rng, data.draw(st.integers(0, 120), label="depth")):
        pass
    pos = game.to_json()
    for seat in range(game.players):
        obs = encode(game.view(seat))
        assert len(obs) == size(game_id) and all(0.0 <= x <= 1.0 for x in obs)
        again = redeal(pos, game.view(seat), seat, rng)
        if again is not None:
            assert encode(trumps.from_json(again).view(seat)) == obs


def test_docs_print_the_layouts() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text()
    for game_id in GAME_IDS:
        for b in layout(game_id):
            assert f"| `{b.name}` | {b.size} | {b.offset} | {b.meaning} |" in text, b.name
