"""Simple bots: ``random`` (a uniform legal action) and ``easy`` (a few rules of thumb).

They decide from a seat's view and the legal actions alone, and ask the game for every
rule fact (``trumps.games.kozyri.rules``, ``trumps.games.twentyfive.rules``, the view's
``take_count``).  The helpers that read a view (hand sizes, known hands, a seat's trump)
are public for the other bots.
"""

from __future__ import annotations

import random
from typing import ClassVar

from trumps.ai.base import NEUTRAL_TRUMP, ONLY_MOVE, Bot, Decision, Explain, Limits
from trumps.cards import RANKS, card_str, parse_card, parse_suit, rank_of, suit_of
from trumps.games.kozyri.rules import beats, next_holder
from trumps.games.twentyfive.rules import TrickRules
from trumps.games.viewtypes import KozyriView, TwentyFiveView, View, seat_of

_SIX = RANKS.index("6")
# Reasons these bots give (trumps.ai.base.Explain; docs/protocol.md#hint lists every code).
GUESS = Explain("guess")
CANNOT_BEAT = Explain("cannot_beat")
JOKER_DISCARD = Explain("joker_discard")
ROB_WEAKEST = Explain("rob_weakest")
_ACE = RANKS.index("A")


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name: ClassVar[str] = "Random"
    level: ClassVar[str] = "random"

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        return Decision(rng.choice(legal), "a uniformly random legal action")


class EasyBot(Bot):
    """A rule-of-thumb player with a little randomness (one set of rules per game)."""

    name: ClassVar[str] = "Easy"
    level: ClassVar[str] = "easy"
    #: How often it plays a random legal action instead of its rule's choice.
    blunder: ClassVar[float] = 0.04

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action", explain=ONLY_MOVE)
        if rng.random() < self.blunder:
            return Decision(
                rng.choice(legal), "a random legal action (an easy bot's slip)", explain=GUESS
            )
        if view["game"] == "kozyri":
            return _kozyri_easy(view, legal, rng)
        if view["game"] == "twentyfive":
            return _twentyfive_easy(view, legal, rng)
        return Decision(
            rng.choice(legal), f"no rules of thumb for {self.game_id}: random", explain=GUESS
        )


def _cards_in(legal: list[str]) -> list[int]:
    return [parse_card(a) for a in legal if a != "take" and " " not in a]


# ---------------------------------------------------------------------------------------
# Svoi Kozyri


def kozyri_trump_of(view: KozyriView, seat: int) -> int | None:
    """The trump suit (index) of ``seat`` in a Svoi Kozyri view, or None if unchosen."""
    t = view["trumps"][seat]
    return None if t is None else parse_suit(t)


def next_active_seat(view: View, seat: int) -> int:
    """The next seat after ``seat`` that still holds cards (the game's K1, K15 answer)."""
    return next_holder([hand_size(view, s) for s in range(len(view["hands"]))], seat)


def hand_size(view: View, seat: int) -> int:
    """The number of cards ``seat`` holds, from a view."""
    h = view["hands"][seat]
    return h["count"] if isinstance(h, dict) else len(h)


def known_hand(view: View, seat: int) -> list[int] | None:
    """``seat``'s whole hand if the view reveals all of it, else None."""
    h = view["hands"][seat]
    if isinstance(h, dict):
        known = [parse_card(c) for c in h["known"]]
        return known if len(known) == h["count"] else None
    return [parse_card(c) for c in h]


def _kozyri_easy(view: KozyriView, legal: list[str], rng: random.Random) -> Decision:
    if legal[0].startswith("trump "):
        return Decision(
            rng.choice(legal),
            "the trump choice is neutral (K3): any free suit",
            explain=NEUTRAL_TRUMP,
        )
    seat = seat_of(view)
    mine = kozyri_trump_of(view, seat)
    pile = [parse_card(c) for c in view["pile"]]
    cards = _cards_in(legal)
    if pile and not view["owes_second"]:
        if not cards:
            return Decision("take", "no card beats the top card: pick up", explain=CANNOT_BEAT)

        def cost(c: int) -> float:
            own = mine is not None and suit_of(c) == mine
            return (20 if own else 0) + rank_of(c) + rng.random() * 0.1

        best = min(cards, key=cost)
        top_trump = mine is not None and suit_of(best) == mine and rank_of(best) >= _ACE - 1
        if "take" in legal and top_trump:
            n = view["take_count"]  # K12, from the game
            if n is not None and n <= 2:
                return Decision(
                    "take",
                    f"beating costs a top trump; picking up takes only {n}",
                    explain=Explain("take_cheap", {"cards": n}),
                )
        why = "own trump" if mine is not None and suit_of(best) == mine else "cheapest card"
        return Decision(
            _card_action(best), f"beat with the {why} that beats", explain=Explain("beat_cheapest")
        )
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
        if their_hand is not None and not any(
            beats(b, c, -1 if theirs is None else theirs) for b in their_hand
        ):
            s += 30  # they cannot beat it: they must pick up
        return s + rng.random() * 0.5

    best = max(cards, key=score)
    return Decision(
        _card_action(best),
        "shed a low card the next player finds hard to beat",
        explain=Explain("shed_low"),
    )


def _card_action(c: int) -> str:
    return card_str(c)


# ---------------------------------------------------------------------------------------
# Twenty-Five


def _side(view: TwentyFiveView, seat: int) -> list[int]:
    for team in view["teams"] or []:
        if seat in team:
            return list(team)
    return [seat]


def _twentyfive_easy(view: TwentyFiveView, legal: list[str], rng: random.Random) -> Decision:
    rules = TrickRules.of_view(view)  # trump -1 while the joker discard is owed (F17a)
    noise = {a: rng.random() * 0.01 for a in legal}
    gives = [a for a in legal if a.startswith(("rob ", "discard "))]
    if gives:
        best = min(gives, key=lambda a: rules.value(parse_card(a.split()[1])) + noise[a])
        if best.startswith("discard "):
            return Decision(
                best, "the joker came up: discard the weakest card (F17a)", explain=JOKER_DISCARD
            )
        return Decision(best, "rob the turn-up, discarding the weakest card", explain=ROB_WEAKEST)
    cards = _cards_in(legal)
    seat = seat_of(view)
    if not view["trick"]:
        trumps = sorted((c for c in cards if rules.is_trump(c)), key=rules.value)
        if len(trumps) >= 3 or (len(trumps) >= 2 and rules.may_renege(trumps[-1])):
            return Decision(
                _card_action(trumps[-1]),
                "holding many trumps: lead the best one",
                explain=Explain("draw_trumps"),
            )
        plain = [c for c in cards if not rules.is_trump(c)] or cards
        lead = max(plain, key=lambda c: rules.value(c) + noise[_card_action(c)])
        return Decision(
            _card_action(lead), "lead the strongest plain card", explain=Explain("lead_strong")
        )
    trick = [parse_card(c) for c in view["trick"]]
    led = trick[0]
    n = len(view["hands"])
    leader = view["leader"]
    assert leader is not None, "a trick under way has a leader (F11)"
    winner = rules.winner(trick, leader, n)
    best_card = trick[(winner - leader) % n]
    best_power = rules.power(best_card, led)
    still_to_play = n - len(trick) - 1

    def cheapest(cs: list[int]) -> int:
        return min(cs, key=lambda c: rules.value(c) + noise[_card_action(c)])

    if winner in _side(view, seat) and (still_to_play == 0 or rules.is_trump(best_card)):
        return Decision(
            _card_action(cheapest(cards)),
            "the trick is ours: discard the lowest",
            explain=Explain("trick_ours"),
        )
    winning = [c for c in cards if rules.power(c, led) > best_power]
    if winning:
        c = min(winning, key=lambda c: rules.power(c, led) + noise[_card_action(c)])
        return Decision(
            _card_action(c), "win the trick as cheaply as possible", explain=Explain("win_cheaply")
        )
    return Decision(
        _card_action(cheapest(cards)),
        "the trick is lost: discard the lowest",
        explain=Explain("trick_lost"),
    )
