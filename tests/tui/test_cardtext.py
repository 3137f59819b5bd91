"""The terminal reads cards typed in English words, as the page's text mode does
(issue 18 §4: the page's commands and the terminal's share their card words)."""

from __future__ import annotations

import pytest

from trumps.errors import InvalidAction
from trumps.tui.cardtext import card_from_words, typed_action


@pytest.mark.parametrize(
    ("typed", "action"),
    [
        ("ten of hearts", "TH"),
        ("play ten of hearts", "TH"),
        ("Play the Ten of Hearts.", "TH"),
        ("10 of hearts", "TH"),
        ("ten hearts", "TH"),
        ("ace of spade", "AS"),
        ("play 6 of clubs", "6C"),
        ("play 9s", "9S"),
        ("the joker", "JK"),
        ("rob nine of spades", "rob 9S"),
        ("discard queen of diamonds", "discard QD"),
        ("trump hearts", "trump H"),
        ("trump clubs", "trump C"),
        # the codes as before
        ("th", "TH"),
        ("10♥", "TH"),
        ("take", "take"),
        ("trump s", "trump S"),
        ("rob 9s", "rob 9S"),
    ],
)
def test_typed_words_are_the_action(typed: str, action: str) -> None:
    assert typed_action(typed) == action


def test_card_words_alone() -> None:
    assert card_from_words("king of diamonds") == "KD"
    assert card_from_words("eleven of hearts") is None
    assert card_from_words("hearts") is None


@pytest.mark.parametrize("typed", ["play", "play eleven of hearts", "discard", "ten of nothing"])
def test_words_that_name_no_card_say_so(typed: str) -> None:
    with pytest.raises(InvalidAction, match=r"^'"):
        typed_action(typed)
