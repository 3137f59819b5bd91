"""Card and action strings (docs/actions.md): parsing, canonical output, ordering."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trumps.cards import (
    JOKER,
    ROB,
    TAKE,
    TRUMP,
    action_str,
    card_pretty,
    card_str,
    cards_of,
    mask_of,
    parse_action,
    parse_card,
    suit_of,
)
from trumps.errors import InvalidAction

ALL_CARDS = [*range(52), JOKER]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("TH", "TH"),
        ("th", "TH"),
        ("10h", "TH"),
        ("10♥", "TH"),
        (" 6d ", "6D"),
        ("A♠", "AS"),
        ("q♣", "QC"),
        ("jk", "JK"),
        ("Joker", "JK"),
        ("K♦️", "KD"),
    ],
)
def test_parse_card_accepts_the_documented_forms(text: str, code: str) -> None:
    assert card_str(parse_card(text)) == code


@pytest.mark.parametrize("text", ["", "1H", "TX", "HT", "10", "AHS", "11H", "♥", "T H"])
def test_parse_card_rejects_non_cards_naming_them(text: str) -> None:
    with pytest.raises(InvalidAction) as e:
        parse_card(text)
    assert repr(text) in str(e.value)


@given(st.sampled_from(ALL_CARDS))
def test_card_codes_round_trip(c: int) -> None:
    assert parse_card(card_str(c)) == c
    assert parse_card(card_pretty(c)) == c


def test_card_order_is_rank_then_suit() -> None:
    codes = [card_str(c) for c in range(52)]
    assert codes[:5] == ["2S", "2H", "2D", "2C", "3S"]
    assert codes[-4:] == ["AS", "AH", "AD", "AC"]
    assert suit_of(parse_card("AC")) == 3


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("take", "take"),
        ("TAKE", "take"),
        ("trump s", "trump S"),
        ("trump ♥", "trump H"),
        ("rob 10c", "rob TC"),
        ("Rob   2d", "rob 2D"),
        ("9h", "9H"),
    ],
)
def test_actions_parse_to_canonical_strings(text: str, canonical: str) -> None:
    assert action_str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text", ["", "   ", "take 3", "trump", "trump X", "rob", "rob ZZ", "play 9H"]
)
def test_bad_actions_are_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        parse_action(text)


def test_non_string_action_is_invalid() -> None:
    with pytest.raises(InvalidAction):
        parse_action(7)  # type: ignore[arg-type]


def test_word_actions_sort_after_cards() -> None:
    codes = sorted([TAKE, ROB + 5, TRUMP + 2, JOKER, 0, 51])
    assert [action_str(a) for a in codes] == ["2S", "AC", "JK", "take", "trump D", "rob 3H"]


@given(st.sets(st.sampled_from(ALL_CARDS)))
def test_masks_round_trip_in_ascending_order(cards: set[int]) -> None:
    assert cards_of(mask_of(cards)) == sorted(cards)
