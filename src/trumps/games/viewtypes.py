"""The shapes of views (docs/views.md): what ``Game.view`` returns, typed.

A view is a plain JSON object (it crosses the network and reaches bots as it is), so each
shape is a ``TypedDict``: each game's ``view`` builds its own (``Kozyri.view`` a
``KozyriView``, ``TwentyFive.view`` a ``TwentyFiveView``), and a reader that may get either
takes a ``View`` and tells them apart by ``view["game"]``, which mypy follows::

    if view["game"] == "kozyri":
        view["pile"]  # a KozyriView here

Nothing here decides what a seat may know: the games do (K19, F10, F17a, F18). This module
imports nothing of the games, so every layer may read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias, TypedDict, cast


class HiddenHand(TypedDict):
    """Another seat's hand in a view: how many cards it holds and those it is publicly
    known to hold (docs/views.md#what-is-publicly-known)."""

    count: int
    known: list[str]


Hand: TypeAlias = "list[str] | HiddenHand"
"""A hand in a view: the reader's own as its cards, any other as a ``HiddenHand``."""


class OutcomeJson(TypedDict):
    """``Outcome.to_json``: who won and lost, a draw, and why the game ended."""

    winners: list[int]
    losers: list[int]
    draw: bool
    reason: str


class KozyriView(TypedDict):
    """A Svoi Kozyri view: the position (docs/positions.md) without ``seed`` and ``known``,
    with ``seat``, ``own_known`` (K19) and ``take_count`` (K12)."""

    game: Literal["kozyri"]
    rules: dict[str, Any]
    dealer: int | None
    trumps: list[str | None]
    hands: list[Hand]
    pile: list[str]
    to_move: int | None
    owes_second: bool
    out: list[int]
    ply: int
    outcome: OutcomeJson | None
    hand: int
    losses: list[int]
    seat: int | None
    own_known: list[str] | None
    take_count: int | None


class Trick(TypedDict):
    """A finished Twenty-Five trick: who led, the cards in play order, who won it."""

    leader: int
    cards: list[str]
    winner: int


class Robbed(TypedDict, total=False):
    """A rob this hand (F10): the seat, and the card it put down — only in the robber's own
    view (and in the position)."""

    seat: int
    discard: str


class TwentyFiveView(TypedDict):
    """A Twenty-Five view: the position without ``seed`` and ``stock``, the discard of a rob
    and a joker discard hidden from those who may not see them (F10, F17a), with
    ``voids`` (F13, F18) and ``seat``."""

    game: Literal["twentyfive"]
    rules: dict[str, Any]
    dealer: int | None
    turnup: str | None
    trump: str | None
    robbed: Robbed | None
    hands: list[Hand]
    tricks: list[Trick]
    trick: list[str]
    leader: int | None
    to_move: int | None
    scores: list[int]
    teams: list[list[int]] | None
    outcome: OutcomeJson | None
    hand: int
    joker_discard: str | None
    voids: list[list[str]]
    seat: int | None


View: TypeAlias = "KozyriView | TwentyFiveView"
"""A view of either game; ``view["game"]`` says which."""


def kozyri_view(view: View) -> KozyriView:
    """``view`` as a Svoi Kozyri view; a ``ValueError`` naming the game if it is another's."""
    if view["game"] != "kozyri":
        raise ValueError(f"a Svoi Kozyri view was expected, not one of {view['game']!r}")
    return view


def twentyfive_view(view: View) -> TwentyFiveView:
    """``view`` as a Twenty-Five view; a ``ValueError`` naming the game if it is another's."""
    if view["game"] != "twentyfive":
        raise ValueError(f"a Twenty-Five view was expected, not one of {view['game']!r}")
    return view


def seat_of(view: View) -> int:
    """The reader's seat of a seat's view; a ``ValueError`` for the public view (a
    spectator's, which has none)."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("the public view has no seat: a seat's view was expected")
    return seat


def own_cards(view: View) -> list[str]:
    """The reader's own cards in a seat's view (``ValueError`` for the public view)."""
    hand = view["hands"][seat_of(view)]
    if isinstance(hand, dict):
        raise ValueError(f"seat {seat_of(view)}'s own hand is hidden in its view")
    return hand


_KEYS: dict[str, frozenset[str]] = {
    "kozyri": KozyriView.__required_keys__,
    "twentyfive": TwentyFiveView.__required_keys__,
}


def view_of_json(data: Mapping[str, Any]) -> View:
    """A view read back from JSON (what a client is sent): checked to name a game and to
    hold every key of that game's view; a ``ValueError`` naming what is missing."""
    game = data.get("game")
    keys = _KEYS.get(game) if isinstance(game, str) else None
    if keys is None:
        raise ValueError(f"not a view: unknown game {game!r}")
    missing = sorted(keys - data.keys())
    if missing:
        raise ValueError(f"not a {data['game']} view: no {', '.join(missing)}")
    return cast(View, data)


def hidden_hand(view: View, seat: int) -> HiddenHand:
    """Seat ``seat``'s hand as ``view`` shows another seat's: a count with its known cards;
    a ``ValueError`` when the view shows it whole (the reader's own)."""
    hand = view["hands"][seat]
    if not isinstance(hand, dict):
        raise ValueError(f"seat {seat}'s hand is the reader's own in this view, not hidden")
    return hand


def hidden_hands(view: View) -> list[HiddenHand]:
    """Every hand of the public view (a spectator's), each a count with its known cards;
    a ``ValueError`` for a seat's view, which shows its own hand."""
    hands = [h for h in view["hands"] if isinstance(h, dict)]
    if len(hands) != len(view["hands"]):
        raise ValueError("a seat's view shows its own hand: the public view was expected")
    return hands


__all__ = [
    "Hand",
    "HiddenHand",
    "KozyriView",
    "OutcomeJson",
    "Robbed",
    "Trick",
    "TwentyFiveView",
    "View",
    "hidden_hand",
    "hidden_hands",
    "kozyri_view",
    "own_cards",
    "seat_of",
    "twentyfive_view",
    "view_of_json",
]
