"""The view types (``trumps.games.viewtypes``, docs/views.md#types) say what the games'
views hold: every view of random positions of both games — each seat's, the public one and
the undealt one — has exactly its type's keys, each value of its declared type, checked at
run time against the ``TypedDict`` annotations (mypy checks the code; this checks the data).
Then the helpers that narrow a view refuse what they must, in one line."""

from __future__ import annotations

import json
import random
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trumps
from gamekit import make_game, play_random
from trumps.games.viewtypes import (
    KozyriView,
    TwentyFiveView,
    hidden_hand,
    hidden_hands,
    kozyri_view,
    own_cards,
    seat_of,
    twentyfive_view,
    view_of_json,
)

SHAPES: dict[str, Any] = {"kozyri": KozyriView, "twentyfive": TwentyFiveView}


def mismatch(value: object, tp: Any, where: str) -> str | None:
    """Where ``value`` is not of the annotation ``tp``, or None when it is."""
    if tp is Any:
        return None
    origin = get_origin(tp)
    if origin is Literal:
        return None if value in get_args(tp) else f"{where}: {value!r} not in {get_args(tp)}"
    if origin in (Union, types.UnionType):
        found = [mismatch(value, arm, where) for arm in get_args(tp)]
        return None if None in found else f"{where}: {value!r} is none of {tp}"
    if tp is type(None):
        return None if value is None else f"{where}: {value!r} is not null"
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return f"{where}: {value!r} is not an object"
        hints = get_type_hints(tp)
        if not set(tp.__required_keys__) <= set(value) <= set(hints):
            return f"{where}: keys {sorted(value)} are not those of {tp.__name__} {sorted(hints)}"
        for key, item in value.items():
            wrong = mismatch(item, hints[key], f"{where}.{key}")
            if wrong:
                return wrong
        return None
    if origin is list:
        if not isinstance(value, list):
            return f"{where}: {value!r} is not a list"
        (item_type,) = get_args(tp)
        for i, item in enumerate(value):
            wrong = mismatch(item, item_type, f"{where}[{i}]")
            if wrong:
                return wrong
        return None
    if origin is dict:
        return None if isinstance(value, dict) else f"{where}: {value!r} is not an object"
    if tp is int:  # JSON's integers; a bool is not one here
        return None if type(value) is int else f"{where}: {value!r} is not an integer"
    if isinstance(tp, type):
        return None if isinstance(value, tp) else f"{where}: {value!r} is not a {tp.__name__}"
    raise AssertionError(f"the checker does not know {tp!r} ({where})")


def check_shape(view: Any) -> None:
    shape = SHAPES[view["game"]]
    assert set(view) == set(shape.__required_keys__), sorted(set(view) ^ shape.__required_keys__)
    wrong = mismatch(view, shape, "view")
    assert wrong is None, wrong
    assert view_of_json(json.loads(json.dumps(view))) == view  # as a client reads it back


@pytest.mark.parametrize("game_id", ["kozyri", "twentyfive"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_view_is_of_its_game_s_type(game_id: str, data: st.DataObject) -> None:
    game = make_game(data, game_id)
    rng = random.Random(data.draw(st.integers(0, 2**32), label="rng"))
    check_shape(game.undealt_view(0))
    check_shape(game.undealt_view(None))
    for _ in play_random(game, rng, data.draw(st.integers(0, 150), label="depth")):
        pass
    whole = game.open_view()  # a replay's: nothing hidden
    check_shape(whole)
    position = game.to_json()
    assert whole["hands"] == position["hands"]
    if whole["game"] == "twentyfive":  # F10, F17a: the discards too
        assert (whole["robbed"], whole["joker_discard"]) == (
            position["robbed"],
            position["joker_discard"],
        )
    for seat in [None, *range(game.players)]:
        view = game.view(seat)
        check_shape(view)
        if seat is None:
            assert len(hidden_hands(view)) == game.players
        else:
            assert seat_of(view) == seat
            assert own_cards(view) == game.to_json()["hands"][seat]
            others = [s for s in range(game.players) if s != seat]
            assert [hidden_hand(view, s)["count"] for s in others] == [
                len(game.to_json()["hands"][s]) for s in others
            ]


def test_the_narrowing_helpers_refuse_in_one_line() -> None:
    duel = trumps.new_game("kozyri", seed=1).view(0)
    four = trumps.new_game("twentyfive", players=4, seed=1).view(None)
    assert kozyri_view(duel) is duel and twentyfive_view(four) is four
    cases: list[tuple[typing.Callable[[], object], str]] = [
        (lambda: kozyri_view(four), "a Svoi Kozyri view was expected, not one of 'twentyfive'"),
        (lambda: twentyfive_view(duel), "a Twenty-Five view was expected, not one of 'kozyri'"),
        (lambda: seat_of(four), "the public view has no seat: a seat's view was expected"),
        (lambda: own_cards(four), "the public view has no seat: a seat's view was expected"),
        (lambda: hidden_hand(duel, 0), "seat 0's hand is the reader's own in this view"),
        (lambda: hidden_hands(duel), "a seat's view shows its own hand"),
        (lambda: view_of_json({"game": "chess"}), "not a view: unknown game 'chess'"),
        (lambda: view_of_json({}), "not a view: unknown game None"),
        (
            lambda: view_of_json({k: v for k, v in duel.items() if k not in ("pile", "seat")}),
            "not a kozyri view: no pile, seat",
        ),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as raised:
            call()
        assert message in str(raised.value) and "\n" not in str(raised.value)
