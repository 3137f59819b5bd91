"""Simple bots: ``random`` (a uniform legal action) and ``easy`` (a few rules of thumb).

They decide from a seat's view (SPEC §6) and the legal actions alone.  The helpers that
read a view (trump orders, the K12 pick-up count …) are public for the terminal client
and later bots.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from trumps.ai.base import Bot, Decision, Limits
from trumps.cards import (
    JOKER,
    RANKS,
    SUITS,
    card,
    card_str,
    parse_card,
    parse_suit,
    rank_of,
    suit_of,
)

_SIX = RANKS.index("6")
_ACE = RANKS.index("A")
ACE_OF_HEARTS = card("A", "H")


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name: ClassVar[str] = "Random"
    level: ClassVar[str] = "random"

    def decide(
        self, view: dict[str, Any], legal: list[str], limits: Limits, rng: random.Random
    ) -> Decision:
        return Decision(rng.choice(legal), "a uniformly random legal action")


class EasyBot(Bot):
    """A rule-of-thumb player with a little randomness (one set of rules per game)."""

    name: ClassVar[str] = "Easy"
    level: ClassVar[str] = "easy"
    #: How often it plays a random legal action instead of its rule's choice.
    blunder: ClassVar[float] = 0.04

    def decide(
        self, view: dict[str, Any], legal: list[str], limits: Limits, rng: random.Random
    ) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action")
        if rng.random() < self.blunder:
            return Decision(rng.choice(legal), "a random legal action (an easy bot's slip)")
        if self.game_id == "kozyri":
            return _kozyri_easy(view, legal, rng)
        if self.game_id == "twentyfive":
            return _twentyfive_easy(view, legal, rng)
        return Decision(rng.choice(legal), f"no rules of thumb for {self.game_id}: random")


def _cards_in(legal: list[str]) -> list[int]:
    return [parse_card(a) for a in legal if a != "take" and " " not in a]


# ---------------------------------------------------------------------------------------
# Svoi Kozyri


def kozyri_beats(c: int, top: int, trump: int | None) -> bool:
    """K9: does ``c`` beat ``top`` for a player whose trump suit is ``trump``?"""
    if suit_of(c) == suit_of(top):
        return rank_of(c) > rank_of(top)
    return trump is not None and suit_of(c) == trump


def kozyri_pickup_count(pile_size: int, top: int, trump: int | None) -> int:
    """K12: how many cards a pick-up takes from a pile of ``pile_size`` under ``top``."""
    if trump is None or suit_of(top) != trump:
        return min(3, pile_size)  # K12: not the picker's trump: three
    if rank_of(top) != _ACE:
        return min(5, pile_size)  # K12: own trump, not the ace: five
    return pile_size  # K12: the ace of one's own trump: the whole pile


def kozyri_trump_of(view: dict[str, Any], seat: int) -> int | None:
    """The trump suit (index) of ``seat`` in a Svoi Kozyri view, or None if unchosen."""
    t = view["trumps"][seat]
    return None if t is None else parse_suit(t)


def next_active_seat(view: dict[str, Any], seat: int) -> int:
    """The next seat after ``seat`` that still holds cards (K1, K15)."""
    n = len(view["hands"])
    for step in range(1, n):
        s = (seat + step) % n
        if hand_size(view, s) > 0:
            return s
    return seat


def hand_size(view: dict[str, Any], seat: int) -> int:
    """The number of cards ``seat`` holds, from a view."""
    h = view["hands"][seat]
    return int(h["count"]) if isinstance(h, dict) else len(h)


def known_hand(view: dict[str, Any], seat: int) -> list[int] | None:
    """``seat``'s whole hand if the view reveals all of it, else None."""
    h = view["hands"][seat]
    if isinstance(h, dict):
        known = [parse_card(c) for c in h["known"]]
        return known if len(known) == int(h["count"]) else None
    return [parse_card(c) for c in h]


def _kozyri_easy(view: dict[str, Any], legal: list[str], rng: random.Random) -> Decision:
    if legal[0].startswith("trump "):
        return Decision(rng.choice(legal), "the trump choice is neutral (K3): any free suit")
    seat = int(view["seat"])
    mine = kozyri_trump_of(view, seat)
    pile = [parse_card(c) for c in view["pile"]]
    cards = _cards_in(legal)
    if pile and not view.get("owes_second", False):
        if not cards:
            return Decision("take", "no card beats the top card: pick up")

        def cost(c: int) -> float:
            own = mine is not None and suit_of(c) == mine
            return (20 if own else 0) + rank_of(c) + rng.random() * 0.1

        best = min(cards, key=cost)
        top_trump = mine is not None and suit_of(best) == mine and rank_of(best) >= _ACE - 1
        if "take" in legal and top_trump:
            n = kozyri_pickup_count(len(pile), pile[-1], mine)
            if n <= 2:
                return Decision("take", f"beating costs a top trump; picking up takes only {n}")
        why = "own trump" if mine is not None and suit_of(best) == mine else "cheapest card"
        return Decision(_card_action(best), f"beat with the {why} that beats")
    # Lead or second card (K7, K10): shed a low card, best one the next player cannot beat.
    nxt = next_active_seat(view, seat)
    theirs = kozyri_trump_of(view, nxt)
    their_hand = known_hand(view, nxt)

    def score(c: int) -> float:
        r = rank_of(c) - _SIX
        s = -float(r)  # low cards beat little: get rid of them first
        if theirs is not None and suit_of(c) == theirs:
            s += 3  # only a higher card of their own trump beats it (K9)
        if mine is not None and suit_of(c) == mine:
            s -= 15 + r  # our own trumps are our beaters: keep them
        if their_hand is not None and not any(kozyri_beats(b, c, theirs) for b in their_hand):
            s += 30  # they cannot beat it: they must pick up
        return s + rng.random() * 0.5

    best = max(cards, key=score)
    return Decision(_card_action(best), "shed a low card the next player finds hard to beat")


def _card_action(c: int) -> str:
    return card_str(c)


# ---------------------------------------------------------------------------------------
# Twenty-Five


def is_trump_25(c: int, trump: int) -> bool:
    """F12: a trump is a card of the trump suit, the A♥, or the joker."""
    return c in (JOKER, ACE_OF_HEARTS) or suit_of(c) == trump


def trump_order(trump: int, ranking: str = "classic", joker: bool = False) -> list[int]:
    """F6/F8: the trumps of a hand, best first."""
    red = trump in (1, 2)
    top = [card("5", SUITS[trump]), card("J", SUITS[trump])]
    if joker:
        top.append(JOKER)
    top.append(ACE_OF_HEARTS)
    if trump != 1:
        top.append(card("A", SUITS[trump]))
    top += [card("K", SUITS[trump]), card("Q", SUITS[trump])]
    numbers = "T9876432" if red or ranking == "as-written" else "2346789T"  # no 5: it is top
    return top + [card(r, SUITS[trump]) for r in numbers]


def plain_order(suit: int, ranking: str = "classic") -> list[int]:
    """F7/F8: the cards of a plain suit, best first (the A♥ is never a plain heart)."""
    s = SUITS[suit]
    if ranking == "as-written":
        nums = "T98765432" if suit in (1, 2) else "23456789T"
        aces = "" if suit == 1 else "A"
        return [card(r, s) for r in "KQJ" + aces + nums]
    if suit == 1:
        return [card(r, s) for r in "KQJT98765432"]
    if suit == 2:
        return [card(r, s) for r in "KQJT98765432A"]
    return [card(r, s) for r in "KQJA23456789T"]


class TrickRanker:
    """Card strengths of one Twenty-Five hand, from a view's trump and rules."""

    def __init__(self, trump: int, ranking: str = "classic", joker: bool = False) -> None:
        self.trump = trump
        order = trump_order(trump, ranking, joker)
        self._trump_rank = {c: len(order) - i for i, c in enumerate(order)}
        self._plain_rank: dict[int, int] = {}
        for s in range(4):
            if s != trump:
                po = plain_order(s, ranking)
                self._plain_rank.update({c: len(po) - i for i, c in enumerate(po)})

    @classmethod
    def of_view(cls, view: dict[str, Any]) -> TrickRanker:
        rules = view.get("rules", {})
        return cls(
            parse_suit(view["trump"]),
            str(rules.get("ranking", "classic")),
            bool(rules.get("joker", False)),
        )

    def is_trump(self, c: int) -> bool:
        return is_trump_25(c, self.trump)

    def value(self, c: int) -> int:
        """How strong a card is in itself: trumps above every plain card."""
        if self.is_trump(c):
            return 100 + self._trump_rank.get(c, 0)
        return self._plain_rank.get(c, 0)

    def power(self, c: int, led: int) -> int:
        """F15: the card's strength in a trick led by ``led`` (0: it cannot win)."""
        if self.is_trump(c):
            return 100 + self._trump_rank.get(c, 0)
        if not self.is_trump(led) and suit_of(c) == suit_of(led):
            return self._plain_rank.get(c, 0)
        return 0

    def is_top3(self, c: int) -> bool:
        """The 5 and J of trumps, the A♥ (and the joker)."""
        return self.is_trump(c) and self._trump_rank.get(c, 0) >= len(self._trump_rank) - 3


def trick_winner_so_far(view: dict[str, Any], ranker: TrickRanker) -> tuple[int, int] | None:
    """(seat, power) of the card winning the current trick so far, or None if empty."""
    trick = [parse_card(c) for c in view["trick"]]
    if not trick:
        return None
    n = len(view["hands"])
    leader = int(view["leader"])
    best_i = max(range(len(trick)), key=lambda i: ranker.power(trick[i], trick[0]))
    return (leader + best_i) % n, ranker.power(trick[best_i], trick[0])


def _side(view: dict[str, Any], seat: int) -> list[int]:
    teams = view.get("teams")
    if teams:
        for team in teams:
            if seat in team:
                return [int(s) for s in team]
    return [seat]


def _twentyfive_easy(view: dict[str, Any], legal: list[str], rng: random.Random) -> Decision:
    ranker = TrickRanker.of_view(view)
    noise = {a: rng.random() * 0.01 for a in legal}
    robs = [a for a in legal if a.startswith("rob ")]
    if robs:
        best = min(robs, key=lambda a: ranker.value(parse_card(a[4:])) + noise[a])
        return Decision(best, "rob the turn-up, discarding the weakest card")
    cards = _cards_in(legal)
    seat = int(view["seat"])
    if not view["trick"]:
        trumps = sorted((c for c in cards if ranker.is_trump(c)), key=ranker.value)
        if len(trumps) >= 3 or (trumps and ranker.is_top3(trumps[-1]) and len(trumps) >= 2):
            return Decision(_card_action(trumps[-1]), "holding many trumps: lead the best one")
        plain = [c for c in cards if not ranker.is_trump(c)] or cards
        lead = max(plain, key=lambda c: ranker.value(c) + noise[_card_action(c)])
        return Decision(_card_action(lead), "lead the strongest plain card")
    led = parse_card(view["trick"][0])
    so_far = trick_winner_so_far(view, ranker)
    assert so_far is not None
    winner, best_power = so_far
    n = len(view["hands"])
    still_to_play = n - len(view["trick"]) - 1

    def cheapest(cs: list[int]) -> int:
        return min(cs, key=lambda c: ranker.value(c) + noise[_card_action(c)])

    if winner in _side(view, seat) and (still_to_play == 0 or best_power >= 100):
        return Decision(_card_action(cheapest(cards)), "the trick is ours: discard the lowest")
    winning = [c for c in cards if ranker.power(c, led) > best_power]
    if winning:
        c = min(winning, key=lambda c: ranker.power(c, led) + noise[_card_action(c)])
        return Decision(_card_action(c), "win the trick as cheaply as possible")
    return Decision(_card_action(cheapest(cards)), "the trick is lost: discard the lowest")
