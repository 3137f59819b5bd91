"""Svoi Kozyri rule queries for everything outside the engine (bots, clients, server).

They are the core's own tables and functions (the engine plays by exactly these), on
int-coded cards (``trumps.cards``: ``rank * 4 + suit``) and suit indices, with -1 for a
player who has no trump suit yet; the ``*_str`` forms take card strings.
"""

from __future__ import annotations

from collections.abc import Sequence

from trumps.cards import parse_card, parse_suit
from trumps.games.kozyri._core import PACK, beats, take_count


def beats_str(card: str, top: str, trump: str | None) -> bool:
    """K9 on card strings: does ``card`` beat ``top`` for a player of ``trump``?"""
    return beats(parse_card(card), parse_card(top), -1 if trump is None else parse_suit(trump))


def take_count_str(top: str, trump: str | None, pile_size: int) -> int:
    """K12 on card strings: how many cards a pick-up takes."""
    return take_count(parse_card(top), -1 if trump is None else parse_suit(trump), pile_size)


def beaters(hand: int, top: int, trump: int) -> int:
    """K9: the cards of ``hand`` (a bitmask) that beat ``top`` for a player of ``trump``."""
    out = 0
    m = hand
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if beats(c, top, trump):
            out |= low
        m ^= low
    return out


def pack() -> list[int]:
    """K2: the 36 cards of the pack (A K Q J T 9 8 7 6 of each suit)."""
    return list(PACK)


def next_holder(hand_sizes: Sequence[int], seat: int) -> int:
    """K1, K15: the next seat clockwise after ``seat`` that still holds cards (players
    who are out are skipped); ``seat`` itself when nobody else does."""
    n = len(hand_sizes)
    for step in range(1, n):
        s = (seat + step) % n
        if hand_sizes[s] > 0:
            return s
    return seat


__all__ = [
    "beaters",
    "beats",
    "beats_str",
    "next_holder",
    "pack",
    "take_count",
    "take_count_str",
]
