"""The ``medium`` Svoi Kozyri bot: rules of thumb written from how good players reason.

A good player thinks about three things (docs/rules/kozyri.md):

* **Beaters are the wealth of a hand.**  Every turn facing a card you must beat it or pick
  up (K8, K11, K12); what beats is your own trump suit (K9, any card of it beats any card
  of another suit) and high cards of a suit.  So beat with the *cheapest* card that works
  — a low card of the same suit before a trump, a low trump before a high one — and keep
  the high trumps and the trump ace for when nothing else helps.  (K9: a card of suit X
  is beaten by a higher X, or by any trump of a player whose trump is not X — so one's own
  trump ace beats everything of other suits, but is no safe card to give away: every
  other player beats it with a trump of theirs.)
* **The second card is an attack** (K10).  The next player must beat it or pick up.  A
  card of *their* trump suit is beaten only by a higher card of that suit (K9), so a high
  one is hard to answer, and if they cannot, they take five (their ace: the whole pile,
  K12).  A card they can beat only with a trump costs them a trump.  In the duel the
  other hand is known exactly (K19): ask "can they beat it at all?".
* **Count to the end.**  Go out when you can (K14), never hand the opponent a card that
  lets them go out, and mind the draw rule (K16) when going out.
* **With three or more players in, shed low** (K15, K16).  Whoever is left holding cards
  loses, and the last two play out a duel whose hands are known (K19: the union of the
  other hands is one hand).  Until then the second card or lead is the lowest plain card,
  own trumps last, whatever the next player holds: a card of their trump they cannot beat
  hands them trumps of their own when they pick up, and a high card spent on them is a
  beater we lack later.  Only a next player about to go out (two cards or fewer) is
  given a card they are unlikely to beat.  Measured with paired deals against fields of
  ``easy`` (3000 games, seed 1): this instead of the duel's attack scores turns
  medium − easy from −1.5 to about +9.6 points with 3 players, from +1.2 to +6.8 with 4.

Each candidate gets a score in "cards" (a pick-up of k cards ≈ k); the best score is
played and exact ties are broken with the generator.  Nothing here reads anything but the
view (docs/views.md).
"""

from __future__ import annotations

import random
from typing import ClassVar

from trumps.ai.base import NEUTRAL_TRUMP, ONLY_MOVE, Bot, Decision, Explain, Limits
from trumps.ai.simple import CANNOT_BEAT, hand_size, kozyri_trump_of, next_active_seat
from trumps.cards import card_str, parse_card, rank_of, suit_of
from trumps.games.kozyri.rules import beats, pack, take_count
from trumps.games.viewtypes import KozyriView, View, kozyri_view, own_cards, seat_of

_SIX_RANK = 4  # rank_of of a six: Svoi Kozyri ranks run 6 … A (K2)
_ACE_RANK = 12
_WIN = 100.0  # going out for good (K14, K16)
_DRAW = 40.0  # a drawn hand (K16)
_TEMPO = 2.5  # what a voluntary pick-up gives away besides the cards (K11)
_KEEP_TRUMP = 15.0  # with 3+ players in: shed every plain card before an own trump
_NEAR_OUT = 30.0  # … and a card the next player, two cards from out, can beat costs this


def beater_value(c: int, trump: int | None) -> float:
    """What card ``c`` is worth to a holder whose trump is ``trump``, in cards.

    Own trumps beat every other suit (K9): worth a card and more the higher they are, the
    ace most (no card beats it for its owner).  Other cards beat only lower cards of their
    suit: a little, by rank.
    """
    r = rank_of(c) - _SIX_RANK
    if trump is not None and suit_of(c) == trump:
        return 1.0 + 0.35 * r + (0.6 if r == _ACE_RANK - _SIX_RANK else 0.0)
    return 0.12 * r


def _code(trump: int | None) -> int:
    """A seat's trump as the game's rule queries take it (-1: none chosen yet)."""
    return -1 if trump is None else trump


class _Seat:
    """What the bot knows or guesses about one other seat's hand."""

    def __init__(self, seat: int, trump: int | None, count: int, known: list[int]) -> None:
        self.seat = seat
        self.trump = trump
        self.count = count
        self.known = known
        self.exact = len(known) >= count  # K19: the duel shows the whole hand


class _Table:
    """The parts of a Svoi Kozyri view the rules of thumb use, as ints."""

    def __init__(self, view: KozyriView) -> None:
        self.seat = seat_of(view)
        self.trump = kozyri_trump_of(view, self.seat)
        self.hand = [parse_card(c) for c in own_cards(view)]
        self.pile = [parse_card(c) for c in view["pile"]]
        self.voluntary = bool(view["rules"].get("voluntary_pickup", False))
        self.players = len(view["hands"])
        self.active = sum(1 for s in range(self.players) if hand_size(view, s) > 0)
        self.others: dict[int, _Seat] = {}
        placed = set(self.hand) | set(self.pile)
        for s, h in enumerate(view["hands"]):
            if s == self.seat or not isinstance(h, dict):
                continue
            known = [parse_card(c) for c in h["known"]]
            placed.update(known)
            self.others[s] = _Seat(s, kozyri_trump_of(view, s), h["count"], known)
        # K19: every card is in a hand or the pile; the rest are in others' unknown parts.
        self.pool = [c for c in pack() if c not in placed]
        self.take_count = view["take_count"]  # K12, from the game
        self.unknown_slots = sum(max(0, o.count - len(o.known)) for o in self.others.values())
        self.next = next_active_seat(view, self.seat)

    def p_can_beat(self, who: _Seat, c: int) -> float:
        """The chance ``who`` holds a card that beats ``c`` (K9 under their trump)."""
        if any(beats(d, c, _code(who.trump)) for d in who.known):
            return 1.0
        slots = who.count - len(who.known)
        if who.exact or slots <= 0 or not self.pool:
            return 0.0
        beaters = sum(1 for d in self.pool if beats(d, c, _code(who.trump)))
        # Hypergeometric: none of the beaters among their ``slots`` unknown cards.
        total = len(self.pool)
        p_none = 1.0
        for i in range(min(slots, total)):
            p_none *= max(0.0, (total - beaters - i) / (total - i))
        return 1.0 - p_none

    def beat_cost(self, who: _Seat, c: int) -> float:
        """Roughly what beating ``c`` costs ``who``: their cheapest beater's value."""
        known = [beater_value(d, who.trump) for d in who.known if beats(d, c, _code(who.trump))]
        if who.exact:
            return min(known, default=0.0)
        guess = [beater_value(d, who.trump) for d in self.pool if beats(d, c, _code(who.trump))]
        return min(known + guess, default=0.0)


class KozyriMediumBot(Bot):
    """Svoi Kozyri ``medium``: cheapest beats, attacking second cards, careful endings."""

    name: ClassVar[str] = "Medium"
    level: ClassVar[str] = "medium"

    def __init__(self, game_id: str = "kozyri") -> None:
        super().__init__(game_id)

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        if legal[0].startswith("trump "):
            return Decision(
                rng.choice(legal),
                "the trump choice is neutral (K3): any free suit",
                explain=NEUTRAL_TRUMP,
            )
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action", explain=ONLY_MOVE)
        t = _Table(kozyri_view(view))
        if t.pile and not view.get("owes_second", False):
            return _beat_or_take(t, legal, rng)
        return _attack(t, legal, rng, leading=not t.pile)


def _best(scores: dict[str, float], rng: random.Random) -> str:
    """The best-scoring action; exact (near-)ties broken at random."""
    top = max(scores.values())
    tied = sorted(a for a, s in scores.items() if s >= top - 1e-9)
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def _attack_score(t: _Table, c: int, hand_after: int, pile_after: int) -> float:
    """How good ``c`` is as the card the next player must face (K7, K10, K13).

    ``hand_after`` is how many cards we hold once ``c`` is down; ``pile_after`` the pile
    size with ``c`` on top.
    """
    who = t.others.get(t.next)
    if who is None:
        return 0.0
    if hand_after == 0:
        # K14: out.  K16: in the duel the opponent draws if their single card beats ``c``.
        if t.active == 2 and who.count == 1:
            return _WIN - (_WIN - _DRAW) * t.p_can_beat(who, c)
        return _WIN
    p_beat = t.p_can_beat(who, c)
    # K12: what they pick up if they cannot beat it (``c`` on top, seen as they see it).
    k = take_count(c, _code(who.trump), pile_after)
    # Their pick-up is worth k cards to us, less what the cards are worth to them
    # (their own trumps in the pile are beaters they gain).
    gained = 0.2 * beater_value(c, who.trump)
    below = t.pile[max(0, len(t.pile) - (k - 1)) :]
    gained += sum(0.2 * beater_value(d, who.trump) for d in below)
    if k <= 1:
        gained = 0.2 * beater_value(c, who.trump)
    pickup_gain = k + 1.0 - gained
    beat_gain = t.beat_cost(who, c)
    score = (1.0 - p_beat) * pickup_gain + p_beat * beat_gain
    # Never hand a card that lets them go out: beat it, second card, gone (K14).
    if who.count <= 2 and p_beat > 0.0:
        penalty = _WIN if t.active == 2 else 8.0
        score -= penalty * p_beat
    # Giving ``c`` away loses it as a beater for us.
    return score - beater_value(c, t.trump)


def _shed_score(t: _Table, c: int) -> float:
    """How good ``c`` is as the card the next player faces with three or more players in.

    Shed low (module docstring): the lowest plain card first, own trumps last (they beat
    every other suit, K9), and a card the next player is likely to beat only when they
    hold two cards or fewer (beat, second card, out: K14).
    """
    r = rank_of(c) - _SIX_RANK
    score = -float(r)
    if t.trump is not None and suit_of(c) == t.trump:
        score -= _KEEP_TRUMP
    who = t.others.get(t.next)
    if who is not None and who.count <= 2:
        score -= _NEAR_OUT * t.p_can_beat(who, c)
    return score


def _attack(t: _Table, legal: list[str], rng: random.Random, leading: bool) -> Decision:
    scores: dict[str, float] = {}
    shed = t.active > 2
    for a in legal:
        c = parse_card(a)
        if shed:
            scores[a] = _shed_score(t, c)
        else:
            scores[a] = _attack_score(t, c, len(t.hand) - 1, len(t.pile) + 1)
    best = _best(scores, rng)
    who = t.others.get(t.next)
    c = parse_card(best)
    if len(t.hand) == 1:
        why, code = "play the last card and go out (K14)", "go_out"
    elif shed and (who is None or who.count > 2):
        why = f"{best}: the lowest card to spare while three or more hold cards (K15)"
        code = "shed_low"
    elif who is not None and t.p_can_beat(who, c) == 0.0:
        why, code = f"{best}: the next player cannot beat it and must pick up (K12)", "unbeatable"
    elif who is not None and who.trump is not None and suit_of(c) == who.trump:
        why = f"{best}: of the next player's trump, only a higher one beats it (K9)"
        code = "their_trump"
    else:
        why, code = f"{best}: cheap for us, costly for the next player to beat", "cheap_attack"
    why = ("lead " if leading else "second card ") + why
    return Decision(best, why, _values(scores), Explain(code))


def _beat_or_take(t: _Table, legal: list[str], rng: random.Random) -> Decision:
    beaters = [parse_card(a) for a in legal if a != "take"]
    if not beaters:
        return Decision(
            "take", "no card beats the top card: pick up (K8, K12)", explain=CANNOT_BEAT
        )
    # The second card each beater would leave: precompute every card's attack score
    # (the pile will hold the beater too), then the best one other than the beater.
    rest = len(t.hand) - 2
    second = {c: _attack_score(t, c, rest, len(t.pile) + 2) for c in t.hand}
    ranked = sorted(t.hand, key=lambda c: -second[c])
    scores: dict[str, float] = {}
    for b in beaters:
        if len(t.hand) == 1:
            scores[card_str(b)] = _going_out_by_beating(t, b)
            continue
        follow = next(second[c] for c in ranked if c != b)
        if len(t.hand) == 2:
            follow = second[next(c for c in t.hand if c != b)]
        scores[card_str(b)] = 2.0 - beater_value(b, t.trump) + follow
    if "take" in legal:
        # K11 (voluntary_pickup): picking up keeps a costly beater but gives up the tempo
        # (two cards not shed, the next player free).  Measured in the duel against easy:
        # a light hand with pick-ups wins 0.58 of decided games, this strict one 0.66, so
        # it picks up only when every beat is ruinous (a top trump spent and a card that
        # lets the opponent go out).
        assert t.take_count is not None  # the view says what "take" would pick up
        k = t.take_count
        taken = t.pile[len(t.pile) - k :]
        kept = sum(0.7 * beater_value(d, t.trump) for d in taken)
        scores["take"] = -float(k) + kept - _TEMPO
    best = _best(scores, rng)
    if best == "take":
        why, code = (
            "pick up: every beat spends a top trump or lets the next player out (K11)",
            "take_costly",
        )
    elif len(t.hand) <= 2:
        why, code = f"beat with {best} and go out (K14)", "beat_and_go_out"
    else:
        b = parse_card(best)
        kind = "own trump" if t.trump is not None and suit_of(b) == t.trump else "card"
        why = f"beat with {best}, the cheapest {kind} that keeps a good second card"
        code = "beat_cheapest"
    return Decision(best, why, _values(scores), Explain(code))


def _going_out_by_beating(t: _Table, b: int) -> float:
    """K14: beating with the last card goes out; the next player faces ``b`` (K16)."""
    who = t.others.get(t.next)
    if who is not None and t.active == 2 and who.count == 1:
        return _WIN - (_WIN - _DRAW) * t.p_can_beat(who, b)
    return _WIN


def _values(scores: dict[str, float]) -> dict[str, float]:
    """Scores squashed into [0, 1] for ``Decision.values`` (an ordering, not a chance)."""
    lo, hi = min(scores.values()), max(scores.values())
    span = hi - lo
    return {a: 1.0 if span == 0 else (s - lo) / span for a, s in scores.items()}
