"""Integer actions (issue 14 §1, docs/actions.md#action-ids): each game's stable numbering,
``legal_action_ids``, ``play_id``, ``action_mask``, ``action_to_string`` and
``string_to_action``, checked against the string API on the whole state."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import trumps
from gamekit import CONF, GAME_IDS, make_game
from trumps.games.actions import KOZYRI_ACTIONS, TWENTYFIVE_ACTIONS

DATA = Path(__file__).resolve().parents[1] / "data" / "action_ids.json"


def test_the_numbering_is_the_documented_one_and_never_changes() -> None:
    # The golden table (tests/data/action_ids.json): a change of any id fails here.
    golden = json.loads(DATA.read_text())
    assert list(KOZYRI_ACTIONS.names) == golden["kozyri"]
    assert list(TWENTYFIVE_ACTIONS.names) == golden["twentyfive"]
    # K2: the 36 cards 6 to A, then take and the four trump choices (K3).
    assert KOZYRI_ACTIONS.size == 41
    assert KOZYRI_ACTIONS.names[:5] == ("6S", "6H", "6D", "6C", "7S")
    assert KOZYRI_ACTIONS.names[35:] == ("AC", "take", "trump S", "trump H", "trump D", "trump C")
    # F2: 52 cards and the joker; a rob (F9) and a joker discard (F17a) of each.
    assert TWENTYFIVE_ACTIONS.size == 159
    assert TWENTYFIVE_ACTIONS.names[:2] == ("2S", "2H") and TWENTYFIVE_ACTIONS.names[51] == "AC"
    assert TWENTYFIVE_ACTIONS.names[52] == "JK"
    assert TWENTYFIVE_ACTIONS.names[53] == "rob 2S" and TWENTYFIVE_ACTIONS.names[105] == "rob JK"
    assert TWENTYFIVE_ACTIONS.names[106] == "discard 2S"
    assert TWENTYFIVE_ACTIONS.names[158] == "discard JK"
    for space in (KOZYRI_ACTIONS, TWENTYFIVE_ACTIONS):
        assert len(set(space.names)) == space.size
        for i, name in enumerate(space.names):
            assert space.to_id(name) == i and space.to_string(i) == name


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_strings_and_ids_both_ways_and_bad_input(game_id: str) -> None:
    game = trumps.new_game(game_id, seed=1)
    assert game.num_actions == game.ACTIONS.size
    assert game.string_to_action("take" if game_id == "kozyri" else "JK") in range(game.num_actions)
    for spelling in ("10h", "10♥", " th "):
        assert game.action_to_string(game.string_to_action(spelling)) == "TH"
    for bad in (-1, game.num_actions, True, 1.0, "3", None, 2**70):
        with pytest.raises(trumps.InvalidAction, match="action id"):
            game.action_to_string(bad)  # type: ignore[arg-type]
    with pytest.raises(trumps.InvalidAction):
        game.string_to_action("not a card")
    other = "rob 2S" if game_id == "kozyri" else "take"
    with pytest.raises(trumps.InvalidAction, match=f"no {game_id} action"):
        game.string_to_action(other)  # an action of the other game only
    if game_id == "kozyri":
        with pytest.raises(trumps.InvalidAction, match="no kozyri action"):
            game.string_to_action("2S")  # K2: no 2 in the Svoi Kozyri pack


@given(data=st.data(), game_id=st.sampled_from(GAME_IDS))
@CONF
def test_play_id_is_play_on_the_whole_state(data: st.DataObject, game_id: str) -> None:
    game = make_game(data, game_id)
    twin = game.clone()
    rng = random.Random(data.draw(st.integers(0, 2**32), label="rng"))
    for _ in range(400):
        legal = game.legal_actions()
        ids = game.legal_action_ids()
        assert ids == [game.string_to_action(a) for a in legal] == sorted(ids)
        assert [game.action_to_string(i) for i in ids] == legal
        mask = game.action_mask()
        assert len(mask) == game.num_actions and [i for i, m in enumerate(mask) if m] == ids
        if not legal:
            break
        # An id that is not legal now: IllegalAction, and nothing changed.
        illegal = [i for i in range(game.num_actions) if not mask[i]]
        before = game.to_json()
        with pytest.raises(trumps.IllegalAction, match="not legal"):
            game.play_id(illegal[rng.randrange(len(illegal))])
        with pytest.raises(trumps.InvalidAction):
            game.play_id(-1)
        assert game.to_json() == before
        pick = rng.randrange(len(ids))
        game.play_id(ids[pick])
        twin.play(legal[pick])
        assert game.to_json() == twin.to_json() and game.history == twin.history
        assert game.closed() == twin.closed()
        assert game.is_over == (game.outcome is not None) == twin.is_over
        assert game.current_player == twin.current_player
    if game.is_over:
        assert game.legal_action_ids() == [] and not any(game.action_mask())
        with pytest.raises(trumps.IllegalAction, match="game is over"):
            game.play_id(0)
        game.undo()
        assert game.to_json() != twin.to_json() and game.legal_action_ids()


@given(data=st.data(), game_id=st.sampled_from(GAME_IDS))
@CONF
def test_a_resigned_game_has_no_legal_id(data: st.DataObject, game_id: str) -> None:
    game = make_game(data, game_id)
    game.resign(0)
    assert game.is_over and game.legal_action_ids() == [] and not any(game.action_mask())
    with pytest.raises(trumps.IllegalAction, match="game is over"):
        game.play_id(0)
    game.undo()
    assert not game.is_over and game.legal_action_ids()
