"""Observation tensors for learning agents, built from one seat's view (issue 14 §2–3).

An observation is a flat list of floats in [0, 1], made *only* from ``Game.view(seat)``
(docs/views.md): it can hold nothing the seat may not know.  Its layout depends on the game
alone, not on the player count: seats are counted from the observer (``0`` is the observer,
``1`` the next seat in turn, …) and the places of seats a game does not have stay 0, so one
network serves every table size.  Cards use the game's card ids (docs/actions.md): Svoi
Kozyri's 36 cards as ``0 … 35``, Twenty-Five's 52 cards and the joker as ``0 … 52``.

``layout(game_id)`` lists the blocks (name, size, meaning) in order; docs/research.md
prints the same tables.  Pure Python (no numpy): PettingZoo and OpenSpiel wrap it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from trumps.cards import NUM_CARDS, SUITS
from trumps.games import Kozyri, TwentyFive
from trumps.games.actions import KOZYRI_ACTIONS, TWENTYFIVE_ACTIONS, ActionSpace
from trumps.games.viewtypes import KozyriView, TwentyFiveView, View

__all__ = ["Block", "encode", "layout", "size"]


def _cards(space: ActionSpace) -> int:
    """How many of a game's action ids are cards (they come first, docs/actions.md)."""
    return sum(1 for code in space.codes if code < NUM_CARDS)


# What the layouts are sized by, asked of the games (K2, F2; their player counts).
KOZYRI_CARDS: Final = _cards(KOZYRI_ACTIONS)
TWENTYFIVE_CARDS: Final = _cards(TWENTYFIVE_ACTIONS)
KOZYRI_SEATS: Final = Kozyri.max_players
TWENTYFIVE_SEATS: Final = TwentyFive.max_players
_COUNT_UNIT: Final = {"kozyri": float(KOZYRI_CARDS), "twentyfive": float(TwentyFive.HAND_SIZE)}


@dataclass(frozen=True)
class Block:
    """One part of an observation: ``size`` floats at ``offset``."""

    name: str
    size: int
    meaning: str
    offset: int = 0


def _blocks(spec: Sequence[tuple[str, int, str]]) -> tuple[Block, ...]:
    out, at = [], 0
    for name, n, meaning in spec:
        out.append(Block(name, n, meaning, at))
        at += n
    return tuple(out)


_KOZYRI: Final = _blocks(
    [
        ("hand", KOZYRI_CARDS, "1 for each card of the observer's hand"),
        (
            "own_known",
            KOZYRI_CARDS,
            "1 for each card of the observer's hand the others know it holds (K19)",
        ),
        ("pile", KOZYRI_CARDS, "1 for each card in the pile"),
        ("pile_top", KOZYRI_CARDS, "1 for the pile's top card"),
        (
            "known",
            3 * KOZYRI_CARDS,
            "for seats 1, 2, 3 after the observer: 1 for each card publicly known to be in that hand",
        ),
        ("counts", KOZYRI_SEATS, "for seats 0–3 from the observer: cards held ÷ 36"),
        (
            "trumps",
            KOZYRI_SEATS * 4,
            "for seats 0–3: their trump suit, one-hot over S H D C (all 0 while not chosen)",
        ),
        ("choosing", 1, "1 while the trumps are being chosen (K3)"),
        ("to_move", KOZYRI_SEATS, "one-hot: the seat to move, from the observer"),
        ("owes_second", 1, "1 when the seat to move owes its second card (K10)"),
        ("out", KOZYRI_SEATS, "1 for each seat that is out of the hand (rid of its cards)"),
        ("losses", KOZYRI_SEATS, "hands lost by each seat ÷ the hands that lose the match"),
        ("present", KOZYRI_SEATS, "1 for each seat the table has"),
    ]
)

_TWENTYFIVE: Final = _blocks(
    [
        ("hand", TWENTYFIVE_CARDS, "1 for each card of the observer's hand"),
        (
            "trick",
            TWENTYFIVE_SEATS * TWENTYFIVE_CARDS,
            "for seats 0–9 from the observer: the card it played to the current trick, one-hot",
        ),
        ("played", TWENTYFIVE_CARDS, "1 for each card of this hand's finished tricks"),
        ("turnup", TWENTYFIVE_CARDS, "the turned-up card, one-hot"),
        ("trump", 4, "the trump suit, one-hot over S H D C"),
        (
            "known",
            (TWENTYFIVE_SEATS - 1) * TWENTYFIVE_CARDS,
            "for seats 1–9 after the observer: 1 for each card publicly known to be in that hand (F18, F17a)",
        ),
        (
            "own_discard",
            TWENTYFIVE_CARDS,
            "the card the observer put down robbing (F10) or after a turned-up joker (F17a), one-hot",
        ),
        ("counts", TWENTYFIVE_SEATS, "cards held by each seat ÷ 5"),
        (
            "voids",
            TWENTYFIVE_SEATS * 4,
            "for each seat: 1 for each suit it has shown it lacks this hand (S H D C)",
        ),
        ("scores", TWENTYFIVE_SEATS, "the score of each seat's side ÷ the target (at most 1)"),
        (
            "partners",
            TWENTYFIVE_SEATS,
            "1 for each seat on the observer's side (the observer included)",
        ),
        ("dealer", TWENTYFIVE_SEATS, "one-hot: the dealer"),
        ("leader", TWENTYFIVE_SEATS, "one-hot: who led the current trick"),
        ("to_move", TWENTYFIVE_SEATS, "one-hot: the seat to move"),
        ("robbed", TWENTYFIVE_SEATS, "one-hot: the seat that robbed the turn-up this hand"),
        ("present", TWENTYFIVE_SEATS, "1 for each seat the table has"),
    ]
)

_LAYOUTS: Final = {"kozyri": _KOZYRI, "twentyfive": _TWENTYFIVE}


def layout(game_id: str) -> tuple[Block, ...]:
    """The blocks of ``game_id``'s observations, in order."""
    return _LAYOUTS[game_id]


def size(game_id: str) -> int:
    """How many floats an observation of ``game_id`` has."""
    last = _LAYOUTS[game_id][-1]
    return last.offset + last.size


def _card_index(game_id: str) -> dict[str, int]:
    space = KOZYRI_ACTIONS if game_id == "kozyri" else TWENTYFIVE_ACTIONS
    cards = KOZYRI_CARDS if game_id == "kozyri" else TWENTYFIVE_CARDS
    return {space.names[i]: i for i in range(cards)}


_CARD: Final = {g: _card_index(g) for g in _LAYOUTS}


class _Writer:
    def __init__(self, game_id: str) -> None:
        self.out = [0.0] * size(game_id)
        self.at = {b.name: b.offset for b in _LAYOUTS[game_id]}
        self.card = _CARD[game_id]
        self.width = KOZYRI_CARDS if game_id == "kozyri" else TWENTYFIVE_CARDS

    def cards(self, block: str, cards: Sequence[str], slot: int = 0) -> None:
        base = self.at[block] + slot * self.width
        for c in cards:
            self.out[base + self.card[c]] = 1.0

    def put(self, block: str, index: int, value: float = 1.0) -> None:
        self.out[self.at[block] + index] = value


def encode(view: View) -> list[float]:
    """The observation of the seat whose ``view`` this is (``view["seat"]`` not None)."""
    seat = view.get("seat")
    if not isinstance(seat, int):
        raise ValueError("an observation is of a seat's view, not the public view")
    game_id = view["game"]
    w = _Writer(game_id)
    hands = view["hands"]
    n = len(hands)

    def rel(s: int) -> int:
        return (s - seat) % n

    for s, h in enumerate(hands):
        k = rel(s)
        w.put("present", k)
        if isinstance(h, list):
            w.cards("hand", h)
            count = len(h)
        else:
            count = h["count"]
            if k > 0:
                w.cards("known", h["known"], k - 1)
        w.put("counts", k, count / _COUNT_UNIT[game_id])
    to_move = view.get("to_move")
    if isinstance(to_move, int):
        w.put("to_move", rel(to_move))
    if view["game"] == "kozyri":
        _kozyri(view, w, rel)
    else:
        _twentyfive(view, w, rel, seat)
    return w.out


def _kozyri(view: KozyriView, w: _Writer, rel: Any) -> None:
    w.cards("own_known", view.get("own_known") or [])
    pile = view["pile"]
    w.cards("pile", pile)
    if pile:
        w.cards("pile_top", pile[-1:])
    trumps = view["trumps"]
    for s, t in enumerate(trumps):
        if t is not None:
            w.put("trumps", rel(s) * 4 + SUITS.index(t))
    if None in trumps:
        w.put("choosing", 0)
    if view.get("owes_second"):
        w.put("owes_second", 0)
    for s in view.get("out") or []:
        w.put("out", rel(s))
    most = max(int(view["rules"].get("match_losses", 1)), 1)
    for s, lost in enumerate(view.get("losses") or []):
        w.put("losses", rel(s), min(lost / most, 1.0))


def _twentyfive(view: TwentyFiveView, w: _Writer, rel: Any, seat: int) -> None:
    n = len(view["hands"])
    tricks = view.get("tricks") or []
    for t in tricks:
        w.cards("played", t["cards"])
    leader = view.get("leader")
    trick = view.get("trick") or []
    if isinstance(leader, int):
        w.put("leader", rel(leader))
        for i, c in enumerate(trick):
            w.cards("trick", [c], rel((leader + i) % n))
    turnup = view.get("turnup")
    if turnup:
        w.cards("turnup", [turnup])
    trump = view.get("trump")
    if trump:
        w.put("trump", SUITS.index(trump))
    robbed = view.get("robbed")
    if isinstance(robbed, Mapping):
        w.put("robbed", rel(robbed["seat"]))
        if robbed.get("discard"):
            w.cards("own_discard", [robbed["discard"]])
    joker_discard = view["joker_discard"]
    if joker_discard:
        w.cards("own_discard", [joker_discard])
    for s, suits in enumerate(view.get("voids") or []):
        for suit in suits:
            w.put("voids", rel(s) * 4 + SUITS.index(suit))
    teams = view.get("teams")
    side = {s: s for s in range(n)}
    if teams:
        for team_no, members in enumerate(teams):
            for s in members:
                side[s] = team_no
    scores = view["scores"]
    target = max(int(view["rules"].get("target", 25)), 1)
    for s in range(n):
        score = scores[side[s]] if teams else scores[s]
        w.put("scores", rel(s), min(score / target, 1.0))
        if side[s] == side[seat]:
            w.put("partners", rel(s))
    dealer = view.get("dealer")
    if isinstance(dealer, int):
        w.put("dealer", rel(dealer))
