"""Slow, obviously-correct reference rules, written straight from docs/rules/.

They work on position dicts (docs/positions.md) only and share no code with the engine, so
tests can check the fast engines against an independent reading of the rules.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "SHDC"


def rank(card: str) -> int:
    """Rank index of a card string: 0 for the two … 12 for the ace."""
    return RANKS.index(card[0])


def suit(card: str) -> str:
    """Suit letter of a card string."""
    return card[1]


def code(card: str) -> int:
    """The documented ordering key of a card: rank-then-suit, the joker last (docs/actions.md)."""
    if card == "JK":
        return 52
    return rank(card) * 4 + SUITS.index(suit(card))


def sort_cards(cards: list[str]) -> list[str]:
    """Cards in the documented order (hands are emitted sorted)."""
    return sorted(cards, key=code)
