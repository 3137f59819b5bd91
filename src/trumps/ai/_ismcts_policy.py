"""Rollout policies for the compiled search (mypyc): cheap and near-``medium`` play on
engine cores, and how well a Twenty-Five deal fits the plays seen (inference).

Every rule fact comes from the core: its legal moves, ``play_mask_for`` (F13, F14), its
strength of a card in a trick ``power`` (F15) on its tables ``tval``/``pval`` (F5–F8), ``trump_mask``, ``tops`` (F14) and
``trump_ace`` (F9).  What is chosen among the legal moves is policy, not rule.

Imports only the standard library, the engine cores and ``_ismcts_sample``.
"""

from __future__ import annotations

from random import Random
from typing import Final

from trumps.ai._ismcts_sample import pick, popcount
from trumps.games.kozyri._core import TAKE, KozyriCore
from trumps.games.twentyfive._core import ROB, ROB_OFF, TwentyFiveCore

# Rollout-policy noise: the share of random moves in the heuristic rollouts.
EPSILON: Final = 0.1


def _tf_value(c: TwentyFiveCore, card: int) -> int:
    """A card's worth to keep: the core's tables, trumps above every plain card (as
    ``TrickRules.value``)."""
    v = c.tval[card]
    if v:
        return v
    return c.pval[card]


def twentyfive_policy(c: TwentyFiveCore, rng: Random) -> int:
    """The rollout move: rob discarding the weakest card; lead the best trump when
    holding three (or two with a top one), else the strongest plain card; otherwise win
    the trick as cheaply as possible unless the own side already holds it, else throw
    the weakest card; with probability ``EPSILON`` a random legal move."""
    moves = c.legal_moves()
    n = len(moves)
    if n == 1:
        return moves[0]
    if rng.random() < EPSILON:
        return moves[pick(rng, n)]
    if moves[n - 1] >= ROB:
        # A rob (or the joker discard): give up the weakest card.
        best = -1
        best_v = 1 << 30
        for m in moves:
            if m >= ROB:
                v = _tf_value(c, m & 63)  # the discarded card of a rob or joker discard
                if v < best_v:
                    best_v = v
                    best = m
        return best
    p = c.to_play
    if c.tlen == 0:
        # Lead the best trump when long in trumps, else the strongest plain card.
        trumps = 0
        top_trump = -1
        top_plain = -1
        for m in moves:
            v = c.tval[m]
            if v:
                trumps += 1
                if top_trump < 0 or v > c.tval[top_trump]:
                    top_trump = m
            elif top_plain < 0 or c.pval[m] > c.pval[top_plain]:
                top_plain = m
        if top_trump >= 0 and (
            trumps >= 3 or top_plain < 0 or (trumps >= 2 and c.tops >> top_trump & 1)
        ):
            return top_trump
        return top_plain
    lowest = -1
    lowest_v = 1 << 30
    if c.side_of[c.best_seat] != c.side_of[p]:
        win = -1
        win_v = 1 << 30
        led = c.led_suit
        for m in moves:
            v = c.power(m, led)
            if v > c.best_val and v < win_v:
                win_v = v
                win = m
        if win >= 0:
            return win
    for m in moves:
        v = _tf_value(c, m)
        if v < lowest_v:
            lowest_v = v
            lowest = m
    return lowest


def _playable(c: TwentyFiveCore, h: int) -> int:
    """The cards of ``h`` that may be played to the trick in progress: the core's own
    F13/F14 answer for the card led."""
    return c.play_mask_for(h, c.plays[len(c.winners) * c.n])


def _max_power(c: TwentyFiveCore, mask: int, led_suit: int) -> int:
    best = 0
    while mask:
        low = mask & -mask
        v = c.power(low.bit_length() - 1, led_suit)
        best = max(best, v)
        mask ^= low
    return best


def _beaten_after(c: TwentyFiveCore, p: int, power: int) -> bool:
    """An opponent of ``p`` still to play to this trick can beat ``power``."""
    n = c.n
    me = c.side_of[p]
    for k in range(1, n - c.tlen):
        s = (p + k) % n
        if c.side_of[s] != me and _max_power(c, _playable(c, c.hands[s]), c.led_suit) > power:
            return True
    return False


def _lead_beaten(c: TwentyFiveCore, p: int, card: int) -> bool:
    """An opponent of ``p`` can beat ``card`` if ``p`` leads it (F14 reneges included)."""
    n = c.n
    me = c.side_of[p]
    if c.tval[card]:
        led_suit = -1
        power = c.tval[card]
    else:
        led_suit = card & 3
        power = c.pval[card]
    for k in range(1, n):
        s = (p + k) % n
        if c.side_of[s] != me:
            h = c.hands[s]
            if h and _max_power(c, c.play_mask_for(h, card), led_suit) > power:
                return True
    return False


def _weakest(c: TwentyFiveCore, mask: int) -> int:
    """The card of ``mask`` least worth keeping."""
    best = -1
    best_v = 1 << 30
    while mask:
        low = mask & -mask
        m = low.bit_length() - 1
        v = _tf_value(c, m)
        if v < best_v:
            best_v = v
            best = m
        mask ^= low
    return best


def _strongest(c: TwentyFiveCore, mask: int) -> int:
    best = -1
    best_v = -1
    while mask:
        low = mask & -mask
        m = low.bit_length() - 1
        v = _tf_value(c, m)
        if v > best_v:
            best_v = v
            best = m
        mask ^= low
    return best


def _urgent(c: TwentyFiveCore, side: int) -> int:
    """2: this trick wins ``side`` the game; 1: it may save it (an opponent needs one
    trick); 0: neither (F16)."""
    scores = c.scores
    if scores[side] + c.ppt >= c.target:
        return 2
    for s in range(len(scores)):
        if s != side and scores[s] + c.ppt >= c.target:
            return 1
    return 0


def twentyfive_policy_smart(c: TwentyFiveCore, rng: Random, epsilon: float, keep: bool) -> int:
    """A rollout move close to good (``medium``) play, using the determinization's hands.

    Rob when allowed, discarding the weakest card.  Lead: the surest card when one trick
    wins the game; a master trump (the lowest that nobody can beat); the top trump when
    holding three trumps (or two with a top one); a plain card nobody can beat; else the
    lowest plain card.  Follow: win with the cheapest card that holds (no opponent still
    to play can beat it) — unless the partner's card holds already, or (``keep``, not
    urgent) the winner is a master trump that will take a later trick anyway and a plain
    card can be thrown instead; otherwise throw the weakest card.  With probability
    ``epsilon`` a random legal move.
    """
    p = c.to_play
    if c.trump < 0 or (epsilon > 0.0 and rng.random() < epsilon):
        moves = c.legal_moves()
        if c.trump < 0:
            best = moves[0]
            best_v = 1 << 30
            for m in moves:
                v = _tf_value(c, m & 63)  # the discarded card of a rob or joker discard
                if v < best_v:
                    best_v = v
                    best = m
            return best
        return moves[pick(rng, len(moves))]
    h = c.hands[p]
    if not c.winners and c.can_rob(p):
        return ROB + _weakest(c, h)
    me = c.side_of[p]
    if c.tlen == 0:
        tr = h & c.trump_mask
        plain = h & ~c.trump_mask
        if _urgent(c, me) == 2:
            m = h
            while m:
                low = m & -m
                card = low.bit_length() - 1
                if not _lead_beaten(c, p, card):
                    return card
                m ^= low
            return _strongest(c, h)
        if tr:
            # The lowest master trump.
            best = -1
            best_v = 1 << 30
            m = tr
            ntr = 0
            while m:
                low = m & -m
                card = low.bit_length() - 1
                ntr += 1
                v = c.tval[card]
                if v < best_v and not _lead_beaten(c, p, card):
                    best_v = v
                    best = card
                m ^= low
            if best >= 0:
                return best
            top = _strongest(c, tr)
            if ntr >= 3 or not plain or (ntr >= 2 and c.tops >> top & 1):
                return top
        best = -1
        best_v = -1
        m = plain
        while m:
            low = m & -m
            card = low.bit_length() - 1
            v = c.pval[card]
            if v > best_v and not _lead_beaten(c, p, card):
                best_v = v
                best = card
            m ^= low
        if best >= 0:
            return best
        return _weakest(c, plain)
    legal = _playable(c, h)
    if popcount(legal) == 1:
        return legal.bit_length() - 1
    led = c.led_suit
    cur = c.best_val
    ours = c.side_of[c.best_seat] == me
    if ours and not _beaten_after(c, p, cur):
        return _weakest(c, legal)
    # The cheapest winner that holds.
    hold = -1
    hold_v = 1 << 30
    m = legal
    while m:
        low = m & -m
        card = low.bit_length() - 1
        v = c.power(card, led)
        if v > cur and v < hold_v and not _beaten_after(c, p, v):
            hold_v = v
            hold = card
        m ^= low
    if hold < 0:
        return _weakest(c, legal)
    if keep and c.tops >> hold & 1 and _urgent(c, me) == 0:
        others = legal & ~c.trump_mask
        if others and h & (h - 1) and not _lead_beaten(c, p, hold):
            return _weakest(c, others)
    return hold


def _master(c: TwentyFiveCore, card: int, unseen: int) -> bool:
    """Trump ``card`` is beaten by no card of ``unseen``."""
    v = c.tval[card]
    m = unseen & c.trump_mask
    while m:
        low = m & -m
        if c.tval[low.bit_length() - 1] > v:
            return False
        m ^= low
    return True


def tf_likelihood(c: TwentyFiveCore, root: int, alpha: float) -> float:
    """How well the other seats' plays this hand fit sensible play with the cards the
    determinization ``c`` gives them: ``alpha`` per play that contradicts a rule good
    players (and ``medium``) keep, 1.0 when none does.

    The rules: rob when allowed (F9); win a trick with the cheapest card that wins; the
    last to play takes a trick it can win unless only a master trump would do it; lead
    the lowest master trump, else the top trump when holding three trumps (or two with a
    top one), else a plain card.  Leads are not judged when one trick wins the game.
    """
    n = c.n
    plays = c.plays
    k = len(plays)
    held = list(c.hands)
    seats = [0] * k
    leader = (c.dealer + 1) % n
    for i in range(k):
        if i and i % n == 0:
            leader = c.winners[i // n - 1]
        s = (leader + i % n) % n
        seats[i] = s
        held[s] |= 1 << plays[i]
    w = 1.0
    ace = c.trump_ace  # F9: the card whose holder may rob
    if c.robbed_seat < 0 and c.cfg.rob != ROB_OFF and ace >= 0 and c.turnup != ace:
        for i in range(min(k, n)):
            s = seats[i]
            if s != root and held[s] >> ace & 1:
                w *= alpha
    public = 0
    if c.robbed_seat < 0 and c.turnup >= 0:
        public = 1 << c.turnup
    everything = (1 << 53) - 1
    led = -1
    led_suit = -1
    best = 0
    best_seat = -1
    for i in range(k):
        s = seats[i]
        card = plays[i]
        pos = i % n
        h = held[s]
        if pos == 0:
            led = card
            led_suit = -1 if c.tval[card] else card & 3
            if s != root and c.scores[c.side_of[s]] + c.ppt < c.target:
                tr = h & c.trump_mask
                unseen = everything & ~h & ~public
                low_master = -1
                top = -1
                ntr = 0
                m = tr
                while m:
                    low = m & -m
                    t = low.bit_length() - 1
                    ntr += 1
                    if top < 0 or c.tval[t] > c.tval[top]:
                        top = t
                    if (low_master < 0 or c.tval[t] < c.tval[low_master]) and _master(c, t, unseen):
                        low_master = t
                    m ^= low
                if low_master >= 0:
                    if card != low_master:
                        w *= alpha
                elif ntr >= 3 or (ntr >= 2 and c.tops >> top & 1):
                    if card != top:
                        w *= alpha
                elif h & ~c.trump_mask and c.tval[card]:
                    w *= alpha
            best = c.power(card, led_suit)
            best_seat = s
        else:
            pc = c.power(card, led_suit)
            if s != root:
                legal = c.play_mask_for(h, led)
                if pc > best:
                    m = legal
                    while m:
                        low = m & -m
                        v = c.power(low.bit_length() - 1, led_suit)
                        if best < v < pc:
                            w *= alpha
                            break
                        m ^= low
                elif pos == n - 1 and c.side_of[best_seat] != c.side_of[s]:
                    unseen = everything & ~h & ~public
                    m = legal
                    while m:
                        low = m & -m
                        x = low.bit_length() - 1
                        if c.power(x, led_suit) > best and not (
                            c.tval[x] and _master(c, x, unseen)
                        ):
                            w *= alpha
                            break
                        m ^= low
            if pc > best:
                best = pc
                best_seat = s
        held[s] = h & ~(1 << card)
        public |= 1 << card
    return w


def kozyri_policy(c: KozyriCore, rng: Random) -> int:
    """The rollout move: beat with the cheapest card (own trumps cost more); lead or play
    the second card with the cheapest card; with probability ``EPSILON`` random."""
    moves = c.legal_moves()
    n = len(moves)
    if n == 1:
        return moves[0]
    if rng.random() < EPSILON:
        return moves[pick(rng, n)]
    trump = c.trumps[c.tm]
    best = moves[0]
    best_v = 1 << 30
    for m in moves:
        if m == TAKE:
            continue
        v = m >> 2
        if m & 3 == trump:
            v += 20
        if v < best_v:
            best_v = v
            best = m
    return best
