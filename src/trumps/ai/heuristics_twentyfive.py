"""The ``medium`` Twenty-Five bot: rules of thumb written from how good players reason.

A good Twenty-Five player (docs/rules/twentyfive.md) counts trumps and thinks in tricks:

* **Count.**  Which trumps are still unseen (not in hand, not played, not the turn-up), so
  which cards are *masters* that nobody can beat any more (the 5, then the J, the A♥,
  the trump ace … as the higher ones fall, F6).  From the count and the hand sizes the
  bot estimates, for each card, the chance that nobody after it beats it.
* **Rob** (F9, F10) whenever allowed, discarding the weakest card — never a trump.
* **Follow** (F13, F14, F15) by comparing, for each legal card, the chance that this trick
  goes to our side against what the card would be worth later.  That gives the classical
  rules: win as cheaply as will hold (last to play: the cheapest winner), do not overtake a
  partner who is winning (teams, F1), do not waste a trump on a trick already lost, and
  keep a top trump (renege, F14) when a lower card wins the trick just as well.
* **Lead** (F11) a master trump when holding one, high trumps when holding several (they
  draw the others' trumps), else the plain card most likely to hold (ducking with a low
  plain card was measured worse in every field, at 2 to 6 seats).
* **Near the target** (F16): when the next trick wins us the game, or an opponent needs
  only one more trick, this trick outweighs everything else.

Ties are broken by card strength (the weaker card is spent) and exact ties with the
generator.  Nothing here reads anything but the view (docs/views.md).
"""

from __future__ import annotations

import random
from typing import ClassVar

from trumps.ai.base import ONLY_MOVE, Bot, Decision, Explain, Limits
from trumps.ai.simple import JOKER_DISCARD, ROB_WEAKEST
from trumps.ai.views import unseen_cards
from trumps.cards import SUITS, card_str, parse_card, rank_of, suit_of
from trumps.games.twentyfive.rules import TrickRules
from trumps.games.viewtypes import TwentyFiveView, View, own_cards, seat_of, twentyfive_view

# Weight of a card kept for later against the trick now.  Measured (paired deals, 2 to 6
# seats, against fields of random, easy and medium): 0.6 beats the 1.1 used before in
# every field; taking a trick now is worth more than the chance a card wins one later.
_KEEP = 0.6
# A master card (nobody can beat it any more) kept wins a later trick for certain, and
# decides which one: kept, it is worth a little more than the trick now.
_KEEP_MASTER = 1.1
# A trump kept can ruff later as well as lead: its worth is the chance to hold as a lead
# raised to this power (measured: 0.3; plain cards only win as leads or when followed).
_TRUMP_KEEP_EXP = 0.3
_SURE = 0.999  # a card that holds with this chance is a master
_LIKELY = 0.45  # a lead "will probably hold" (the reason given) from this chance on
_WINS_GAME = 6.0  # weight of a trick that wins us the game (F16)
_SAVES_GAME = 3.0  # weight of a trick when an opponent needs only one more


class _Table:
    """The parts of a Twenty-Five view the rules of thumb use, as ints."""

    def __init__(self, view: TwentyFiveView) -> None:
        self.seat = seat_of(view)
        self.n = len(view["hands"])
        self.ranker = TrickRules.of_view(view)
        self.hand = [parse_card(c) for c in own_cards(view)]
        self.trick = [parse_card(c) for c in view["trick"]]
        leader = view["leader"]
        assert leader is not None, "a dealt hand has a leader (F3)"
        self.leader = leader
        self.side = [self.seat]
        self.side_index = self.seat
        for i, team in enumerate(view["teams"] or []):
            if self.seat in team:
                self.side, self.side_index = list(team), i
        self.pool = unseen_cards(view)
        voids = view["voids"]
        self.counts: list[int] = []
        self.known: list[list[int]] = []
        self.void: list[set[int]] = []
        for s, h in enumerate(view["hands"]):
            if isinstance(h, dict):
                self.counts.append(h["count"])
                self.known.append([parse_card(c) for c in h["known"]])
            else:
                self.counts.append(len(h))
                self.known.append([])
            self.void.append({SUITS.index(x) for x in voids[s]})
        rules = view["rules"]
        ppt = int(rules.get("points_per_trick", 5))
        target = int(rules.get("target", 25))
        scores = view["scores"]
        mine = scores[self.side_index]
        # F16: the weight of the trick being played now, against cards kept for later.
        self.weight = 1.0
        if mine + ppt >= target:
            self.weight = _WINS_GAME
        elif any(s + ppt >= target for i, s in enumerate(scores) if i != self.side_index):
            self.weight = _SAVES_GAME

    def opponents_after(self, played: int) -> list[int]:
        """Opponent seats still to play to this trick once ``played`` cards are down."""
        seats = [(self.leader + i) % self.n for i in range(played, self.n)]
        return [s for s in seats if s != self.seat and s not in self.side]

    def p_overtakes(self, s: int, power: int, led: int) -> float:
        """The chance seat ``s`` holds a card beating ``power`` in a trick led by ``led``."""
        r = self.ranker
        if any(r.power(d, led) > power for d in self.known[s]):
            return 1.0
        slots = self.counts[s] - len(self.known[s])
        total = len(self.pool)
        if slots <= 0 or total == 0:
            return 0.0
        beaters = 0
        for d in self.pool:
            if r.power(d, led) > power and (r.is_trump(d) or suit_of(d) not in self.void[s]):
                beaters += 1
        p_none = 1.0
        for i in range(min(slots, total)):
            p_none *= max(0.0, (total - beaters - i) / (total - i))
        return 1.0 - p_none

    def p_holds(self, power: int, led: int, seats: list[int]) -> float:
        """The chance none of ``seats`` beats a card of ``power`` (F15)."""
        p = 1.0
        for s in seats:
            p *= 1.0 - self.p_overtakes(s, power, led)
        return p

    def future(self, c: int) -> float:
        """What ``c`` is worth kept: the chance it would win a trick if led later."""
        others = [s for s in range(self.n) if s not in self.side and self.counts[s] > 0]
        p = self.p_holds(self.ranker.power(c, c), c, others)
        return p**_TRUMP_KEEP_EXP if self.ranker.is_trump(c) else p


class TwentyFiveMediumBot(Bot):
    """Twenty-Five ``medium``: counts trumps, robs, wins cheaply, plays for the team."""

    name: ClassVar[str] = "Medium"
    level: ClassVar[str] = "medium"

    def __init__(self, game_id: str = "twentyfive") -> None:
        super().__init__(game_id)

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action", explain=ONLY_MOVE)
        view = twentyfive_view(view)
        if view["trump"] is None:
            return _joker_discard(view, legal, rng)
        t = _Table(view)
        robs = [a for a in legal if a.startswith("rob ")]
        if robs:
            return _rob(t, robs, rng)
        cards = [parse_card(a) for a in legal]
        if not t.trick:
            return _lead(t, cards, rng)
        return _follow(t, cards, rng)


def _pick(scores: dict[int, float], t: _Table, rng: random.Random) -> int:
    """The best-scoring card; near-ties go to the weaker card, exact ties at random."""
    top = max(scores.values())
    close = [c for c, s in scores.items() if s >= top - 1e-6]
    low = min(t.ranker.value(c) for c in close)
    tied = sorted(c for c in close if t.ranker.value(c) == low)
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def _joker_discard(view: TwentyFiveView, legal: list[str], rng: random.Random) -> Decision:
    """F17a: the dealer took the joker and discards before trumps are known.

    With no trump suit yet, keep what is one of the top three trumps (F14) whichever suit
    is turned up next (fives, jacks, the A♥) and discard the lowest other card.
    """
    rules = {**view["rules"], "renege_cards": "top3"}  # the top three, whatever may renege
    suits = [TrickRules(s, rules) for s in range(len(SUITS))]

    def keep(a: str) -> int:
        c = parse_card(a.split()[1])
        if any(r.may_renege(c) for r in suits):
            return 100
        return rank_of(c)

    low = min(keep(a) for a in legal)
    tied = sorted(a for a in legal if keep(a) == low)
    return Decision(
        rng.choice(tied),
        "discard the lowest card; trumps are not yet known (F17a)",
        explain=JOKER_DISCARD,
    )


def _rob(t: _Table, robs: list[str], rng: random.Random) -> Decision:
    """F9/F10: rob, discarding the weakest card (a plain card when there is one)."""
    scores: dict[int, float] = {}
    for a in robs:
        c = parse_card(a[4:])
        scores[c] = -t.future(c) - (1.0 if t.ranker.is_trump(c) else 0.0)
    c = _pick(scores, t, rng)
    return Decision(
        f"rob {card_str(c)}",
        f"rob the turn-up, discarding the weakest card {card_str(c)} (F9)",
        explain=ROB_WEAKEST,
    )


def _lead(t: _Table, cards: list[int], rng: random.Random) -> Decision:
    r = t.ranker
    opponents = [s for s in range(t.n) if s not in t.side and t.counts[s] > 0]
    p_win = {c: t.p_holds(r.power(c, c), c, opponents) for c in cards}
    trumps = sorted((c for c in cards if r.is_trump(c)), key=r.value)
    plain = [c for c in cards if not r.is_trump(c)]
    if t.weight >= _WINS_GAME:
        # F16: one more trick wins us the game: lead the card most likely to take it.
        best = _pick(dict(p_win), t, rng)
        return Decision(
            card_str(best),
            "one trick wins the game (F16): lead the surest card",
            explain=Explain("lead_sure"),
        )
    masters = [c for c in trumps if p_win[c] >= _SURE]
    if masters:
        # The lowest sure winner: the higher ones (the 5 may renege, F14) keep for later.
        best = min(masters, key=r.value)
        return Decision(
            card_str(best),
            "lead a master trump: nobody can beat it",
            explain=Explain("master_trump"),
        )
    if len(trumps) >= 3 or (len(trumps) >= 2 and r.may_renege(trumps[-1])):
        return Decision(
            card_str(trumps[-1]),
            "holding several trumps: lead high to draw trumps",
            explain=Explain("draw_trumps"),
        )
    if plain:
        strong = max(plain, key=lambda c: (p_win[c], r.value(c)))
        if p_win[strong] >= _LIKELY:
            return Decision(
                card_str(strong),
                "lead a strong plain card that will probably hold",
                explain=Explain("lead_strong"),
            )
        return Decision(
            card_str(strong),
            "lead the plain card most likely to hold, keep the trumps",
            explain=Explain("lead_plain"),
        )
    best = max(cards, key=lambda c: (p_win[c], r.value(c)))
    return Decision(
        card_str(best), "only trumps: lead the strongest", explain=Explain("only_trumps")
    )


def _follow(t: _Table, cards: list[int], rng: random.Random) -> Decision:
    r = t.ranker
    led = t.trick[0]
    best_i = max(range(len(t.trick)), key=lambda i: r.power(t.trick[i], led))
    winner, power = (t.leader + best_i) % t.n, r.power(t.trick[best_i], led)
    after = t.opponents_after(len(t.trick) + 1)
    ours = winner in t.side
    p_ours = t.p_holds(power, led, after) if ours else 0.0
    scores: dict[int, float] = {}
    for c in cards:
        pc = r.power(c, led)
        p = t.p_holds(pc, led, after) if pc > power else p_ours
        kept = t.future(c)
        scores[c] = t.weight * p - (_KEEP_MASTER if kept >= _SURE else _KEEP) * kept
    # Measured: when winning, the cheapest winner beats a stronger one "to make sure" (a
    # later overtrump at least draws a high trump); so it is the cheapest winner or a discard.
    winners = [c for c in cards if r.power(c, led) > power]
    if winners:
        cheap = min(winners, key=lambda c: r.power(c, led))
        scores = {c: s for c, s in scores.items() if c == cheap or r.power(c, led) <= power}
    best = _pick(scores, t, rng)
    pc = r.power(best, led)
    if pc > power:
        why, code = "win the trick as cheaply as will hold", "win_cheaply"
        if not after:
            why, code = "last to play: win with the cheapest card that does", "win_last"
    elif ours:
        why, code = "the trick is our side's: do not overtake, discard the weakest", "trick_ours"
    else:
        why, code = "the trick is lost: keep the good cards, discard the weakest", "trick_lost"
    if not r.is_trump(best) and any(r.privileged(c, led) for c in t.hand):
        why += " (renege: keep the top trump, F14)"
    values = {card_str(c): _clip(s) for c, s in scores.items()}
    return Decision(card_str(best), why, values, Explain(code))


def _clip(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x
