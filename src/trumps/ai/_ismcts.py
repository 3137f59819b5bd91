"""Search over engine cores for imperfect information: compiled with mypyc.

Three parts, all int-coded and allocation-light (no closures, no generators, no
deepcopy):

* ``Sampler`` draws the hidden cards of a determinization: each *slot* (another seat's
  unknown cards, the stock, a secret robbing or joker discard) takes ``need`` cards of
  its ``allowed`` mask out of the unseen pool, most constrained slot first.  A draw that
  paints itself into a corner is retried; after ``RETRIES`` failures the precomputed
  consistent deal is returned, so a draw never loops forever.
* ``Env`` and its two games (``TwentyFiveEnv``, ``KozyriEnv``): a determinized copy of
  the base core with the sampled cards written in, the moves, a cheap rollout policy
  and the reward per seat.  A search episode ends at the end of the current hand (or of
  the game).
* ``ISMCTS`` — single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012):
  a new determinization every iteration, UCB1 with availability counts over the
  children compatible with it, one expansion, a rollout, and back-propagation where each
  node's statistics are from the view of the seat that made the move into it; and
  ``PIMC`` — perfect-information Monte Carlo: each determinization scores every root move
  by one rollout on the same deal (paired), averaged over determinizations.

Imports only the standard library and the engine cores.
"""

from __future__ import annotations

import math
import time
from random import Random
from typing import Final

from trumps.games.kozyri._core import TAKE, KozyriCore
from trumps.games.twentyfive._core import ROB, ROB_OFF, TwentyFiveCore

RETRIES: Final = 40
# Twenty-Five inference: draws per determinization before taking the last one.
INFER_TRIES: Final = 30

# Slot targets other than a seat (seats are 0..n-1).
STOCK: Final = -1
ROB_DISCARD: Final = -2
JOKER_DISCARD: Final = -3

# Rollout-policy noise: the share of random moves in the heuristic rollouts.
EPSILON: Final = 0.1
# Svoi Kozyri rollouts longer than this are scored from hand sizes (random play can
# cycle for thousands of plies, K17).
KOZYRI_ROLLOUT_CAP: Final = 400
# Twenty-Five: how steeply a side's chance to win falls with the tricks it still needs.
STEEP: Final = 1.0
# Svoi Kozyri: the reward lost per place a non-loser goes out later.
LATE: Final = 0.02


def _cards(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _popcount(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _pick(rng: Random, n: int) -> int:
    """A uniform index in ``[0, n)``."""
    i = int(rng.random() * n)
    return i if i < n else n - 1


class Sampler:
    """Draws the hidden cards: one mask per slot, consistent with the constraints.

    ``order`` lists the slots most constrained first; ``fallback`` is a consistent
    assignment found exactly (by matching) when the sampler was built.
    """

    def __init__(
        self,
        needs: list[int],
        allowed: list[int],
        pool: int,
        order: list[int],
        fallback: list[int],
    ) -> None:
        self.needs: list[int] = needs
        self.allowed: list[int] = allowed
        self.pool: int = pool
        self.order: list[int] = order
        self.fallback: list[int] = fallback
        self.failures: int = 0

    def draw(self, rng: Random) -> list[int]:
        """One mask per slot (a fresh list)."""
        k = len(self.needs)
        for _ in range(RETRIES):
            out = [0] * k
            left = self.pool
            ok = True
            for i in self.order:
                need = self.needs[i]
                if need == 0:
                    continue
                cand = self.allowed[i] & left
                if cand == left and i == self.order[k - 1]:
                    # The last slot takes whatever is left when nothing forbids it.
                    if _popcount(cand) != need:
                        ok = False
                        break
                    out[i] = cand
                    left = 0
                    continue
                cards = _cards(cand)
                m = len(cards)
                if m < need:
                    ok = False
                    break
                got = 0
                if m == need:
                    got = cand
                else:
                    # A partial Fisher–Yates shuffle: the first ``need`` of a shuffle.
                    for j in range(need):
                        r = j + _pick(rng, m - j)
                        c = cards[r]
                        cards[r] = cards[j]
                        cards[j] = c
                        got |= 1 << c
                out[i] = got
                left &= ~got
            if ok and left == 0:
                return out
        self.failures += 1
        return list(self.fallback)


class Env:
    """A determinized game episode for one search (see the subclasses)."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat: int = seat
        self.players: int = players

    def reset(self, rng: Random) -> None:
        """A new determinization at the root."""
        raise NotImplementedError

    def restart(self) -> None:
        """Back to the last determinization's root (a fresh copy)."""
        raise NotImplementedError

    def moves(self) -> list[int]:
        raise NotImplementedError

    def player(self) -> int:
        raise NotImplementedError

    def step(self, m: int) -> None:
        raise NotImplementedError

    def done(self) -> bool:
        """The episode is over: end of the current hand, or of the game."""
        raise NotImplementedError

    def rollout(self, rng: Random) -> None:
        """Play the cheap policy until ``done``."""
        raise NotImplementedError

    def rewards(self) -> list[float]:
        """Per seat, the value in [0, 1] of the episode's end for that seat's side."""
        raise NotImplementedError


# ---------------------------------------------------------------------------------------
# Twenty-Five


class TwentyFiveEnv(Env):
    """Twenty-Five episodes: from the view's position to the end of the hand.

    Reward per side at the end of the hand: 1 for the side that reached the target (0
    for the others); otherwise an estimate of each side's chance to win the game from the
    scores — proportional to ``exp(-STEEP * tricks still needed)`` — so a trick is worth
    more the nearer it takes a side to the target, and denying a leader counts.
    """

    def __init__(
        self,
        base: TwentyFiveCore,
        seat: int,
        sampler: Sampler,
        targets: list[int],
        known: list[int],
    ) -> None:
        super().__init__(seat, base.n)
        self.base: TwentyFiveCore = base
        self.sampler: Sampler = sampler
        self.targets: list[int] = targets
        self.known: list[int] = known
        self.det: TwentyFiveCore = base.copy()
        self.cur: TwentyFiveCore = self.det
        self.hand_no: int = base.hand_no
        self.side_of: list[int] = base.side_of
        self.sides: int = base.cfg.sides
        #: Rollout policy: 0 the cheap one, 1 ``twentyfive_policy_smart``.
        self.policy: int = 1
        self.epsilon: float = EPSILON
        self.keep: bool = True
        #: Reward: 0 ``exp(-STEEP * tricks needed)``, 1 the race table.
        self.reward_kind: int = 1
        #: Inference from the plays: the likelihood factor per unlikely play (1.0: off).
        self.infer: float = 1.0
        shares = [0] * self.sides
        for p in range(base.n):
            shares[self.side_of[p]] += 1
        self.most: int = (base.target + base.ppt - 1) // base.ppt
        self.race: list[list[float]] = race_table(shares, base.n, self.most)

    def deal(self, rng: Random) -> TwentyFiveCore:
        """A copy of the base core holding freshly sampled hidden cards."""
        masks = self.sampler.draw(rng)
        c = self.base.copy()
        hands = list(self.base.hands)
        stock = 0
        for i in range(len(self.targets)):
            t = self.targets[i]
            if t >= 0:
                hands[t] = self.known[t] | masks[i]
            elif t == STOCK:
                stock = masks[i]
            elif t == ROB_DISCARD:
                c.robbed_discard = masks[i].bit_length() - 1
            elif t == JOKER_DISCARD:
                c.joker_discard = masks[i].bit_length() - 1
        c.hands = hands
        c.stock = stock
        if c.trump < 0 and stock:
            # F17a: the card to be turned up after the joker discard is one of the stock.
            cards = _cards(stock)
            c.next_up = cards[_pick(rng, len(cards))]
        c.stack = []
        return c

    def reset(self, rng: Random) -> None:
        d = self.deal(rng)
        alpha = self.infer
        if alpha < 1.0:
            # Rejection sampling: keep a deal with the chance that the plays fit it.
            for _ in range(INFER_TRIES):
                lik = tf_likelihood(d, self.seat, alpha)
                if lik >= 1.0 or rng.random() < lik:
                    break
                d = self.deal(rng)
        self.det = d
        self.cur = d

    def restart(self) -> None:
        self.cur = self.det.copy()

    def moves(self) -> list[int]:
        return self.cur.legal_moves()

    def player(self) -> int:
        return self.cur.to_play

    def step(self, m: int) -> None:
        self.cur.step(m)

    def done(self) -> bool:
        c = self.cur
        return c.to_play < 0 or c.hand_no != self.hand_no

    def rollout(self, rng: Random) -> None:
        c = self.cur
        if self.policy == 1:
            eps = self.epsilon
            keep = self.keep
            while c.to_play >= 0 and c.hand_no == self.hand_no:
                c.step(twentyfive_policy_smart(c, rng, eps, keep))
            return
        while c.to_play >= 0 and c.hand_no == self.hand_no:
            c.step(twentyfive_policy(c, rng))

    def rewards(self) -> list[float]:
        c = self.cur
        sides = self.sides
        vals = [0.0] * sides
        if c.win_side >= 0:
            vals[c.win_side] = 1.0
        elif self.reward_kind == 1 and self.race:
            base = self.most + 1
            code = 0
            mul = 1
            for s in range(sides):
                need = (c.target - c.scores[s] + c.ppt - 1) // c.ppt
                need = min(max(need, 1), self.most)
                code += need * mul
                mul *= base
            vals = self.race[code]
        else:
            total = 0.0
            for s in range(sides):
                need = (c.target - c.scores[s] + c.ppt - 1) // c.ppt
                need = max(need, 0)
                v = math.exp(-STEEP * need)
                vals[s] = v
                total += v
            for s in range(sides):
                vals[s] /= total
        out = [0.0] * self.players
        for p in range(self.players):
            out[p] = vals[self.side_of[p]]
        return out


RACE_STATES: Final = 200_000
_RACE_CACHE: dict[tuple[int, int, int], list[list[float]]] = {}


def race_table(shares: list[int], players: int, most: int) -> list[list[float]]:
    """Per state of tricks still needed (side ``s`` needing ``k_s`` in ``1..most``, the
    state coded ``sum(k_s * (most + 1) ** s)``), each side's chance to win the race when
    every trick goes to side ``s`` with probability ``shares[s] / players``.  Empty when
    the table would be too big."""
    sides = len(shares)
    base = most + 1
    size = base**sides
    if size > RACE_STATES:
        return []
    key = (sides * 1000 + players, most, hash(tuple(shares)))
    got = _RACE_CACHE.get(key)
    if got is not None:
        return got
    table: list[list[float]] = [[0.0] * sides for _ in range(size)]
    powers = [base**s for s in range(sides)]
    # States in increasing code order: a decrement lowers the code, so it is done first.
    for code in range(size):
        ok = True
        for s in range(sides):
            if code // powers[s] % base == 0:
                ok = False
                break
        if not ok:
            continue
        row = table[code]
        for s in range(sides):
            q = shares[s] / players
            k = code // powers[s] % base
            if k == 1:
                row[s] += q
                continue
            nxt = table[code - powers[s]]
            for t in range(sides):
                row[t] += q * nxt[t]
    _RACE_CACHE[key] = table
    return table


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
        return moves[_pick(rng, n)]
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
            v = _power(c, m, led)
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


def _power(c: TwentyFiveCore, card: int, led_suit: int) -> int:
    """``card``'s strength in a trick whose led suit is ``led_suit`` (-1: trumps led), read
    from the core's F15 tables as the core counts a trick (``TwentyFiveCore._count``)."""
    v = c.tval[card]
    if v:
        return v
    if card & 3 == led_suit:
        return c.pval[card]
    return 0


def _playable(c: TwentyFiveCore, h: int) -> int:
    """The cards of ``h`` that may be played to the trick in progress: the core's own
    F13/F14 answer for the card led."""
    return c.play_mask_for(h, c.plays[len(c.winners) * c.n])


def _max_power(c: TwentyFiveCore, mask: int, led_suit: int) -> int:
    best = 0
    while mask:
        low = mask & -mask
        v = _power(c, low.bit_length() - 1, led_suit)
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
        return moves[_pick(rng, len(moves))]
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
    if _popcount(legal) == 1:
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
        v = _power(c, card, led)
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
            best = _power(c, card, led_suit)
            best_seat = s
        else:
            pc = _power(c, card, led_suit)
            if s != root:
                legal = c.play_mask_for(h, led)
                if pc > best:
                    m = legal
                    while m:
                        low = m & -m
                        v = _power(c, low.bit_length() - 1, led_suit)
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
                        if _power(c, x, led_suit) > best and not (
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


# ---------------------------------------------------------------------------------------
# Svoi Kozyri


class KozyriEnv(Env):
    """Svoi Kozyri (3–4 players) episodes: to the end of the current hand.

    Reward: 0 for the loser, 0.5 each for a draw, and for the others 1 less a little for
    going out late (``LATE`` per place), so going out early is slightly preferred.  A
    rollout longer than ``KOZYRI_ROLLOUT_CAP`` plies is scored from hand sizes.
    """

    def __init__(
        self,
        base: KozyriCore,
        seat: int,
        sampler: Sampler,
        targets: list[int],
        known: list[int],
    ) -> None:
        super().__init__(seat, base.n)
        self.base: KozyriCore = base
        self.sampler: Sampler = sampler
        self.targets: list[int] = targets
        self.known: list[int] = known
        self.det: KozyriCore = base.copy()
        self.cur: KozyriCore = self.det
        self.hand_no: int = base.hand_no
        self.losses: list[int] = list(base.losses)
        self.capped: bool = False

    def deal(self, rng: Random) -> KozyriCore:
        """A copy of the base core holding freshly sampled hidden cards."""
        masks = self.sampler.draw(rng)
        c = self.base.copy()
        hands = list(self.base.hands)
        for i in range(len(self.targets)):
            t = self.targets[i]
            if t >= 0:
                hands[t] = self.known[t] | masks[i]
        c.hands = hands
        c.stack = []
        c.snaps = []
        c.rep = {}
        if c.rep_limit:
            c.rep[c.key()] = 1  # K17: a loaded position is the first occurrence
        return c

    def reset(self, rng: Random) -> None:
        self.det = self.deal(rng)
        self.cur = self.det
        self.capped = False

    def restart(self) -> None:
        self.cur = self.det.copy()
        self.capped = False

    def moves(self) -> list[int]:
        return self.cur.legal_moves()

    def player(self) -> int:
        return self.cur.tm

    def step(self, m: int) -> None:
        self.cur.step(m)

    def done(self) -> bool:
        c = self.cur
        return self.capped or c.result != 0 or c.hand_no != self.hand_no

    def rollout(self, rng: Random) -> None:
        c = self.cur
        plies = 0
        while c.result == 0 and c.hand_no == self.hand_no:
            if plies >= KOZYRI_ROLLOUT_CAP:
                self.capped = True
                return
            c.step(kozyri_policy(c, rng))
            plies += 1

    def rewards(self) -> list[float]:
        c = self.cur
        n = self.players
        out = [0.0] * n
        if self.capped:
            # Scored from hand sizes: the biggest hand is the likeliest loser.
            most = 0
            for s in range(n):
                k = _popcount(c.hands[s])
                most = max(most, k)
            for s in range(n):
                k = _popcount(c.hands[s])
                out[s] = 0.2 if k == most else 0.8
            return out
        loser = -1
        for s in range(n):
            if c.losses[s] != self.losses[s]:
                loser = s
        if loser < 0:
            for s in range(n):
                out[s] = 0.5
            return out
        for s in range(n):
            if s != loser:
                out[s] = 1.0
        for i in range(len(c.out)):
            s = c.out[i]
            if s != loser:
                out[s] = 1.0 - LATE * i
        return out


def kozyri_policy(c: KozyriCore, rng: Random) -> int:
    """The rollout move: beat with the cheapest card (own trumps cost more); lead or play
    the second card with the cheapest card; with probability ``EPSILON`` random."""
    moves = c.legal_moves()
    n = len(moves)
    if n == 1:
        return moves[0]
    if rng.random() < EPSILON:
        return moves[_pick(rng, n)]
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


# ---------------------------------------------------------------------------------------
# Searches


class Node:
    """A node of the information-set tree: the move into it and who made it."""

    def __init__(self, move: int, player: int) -> None:
        self.move: int = move
        self.player: int = player
        self.visits: int = 0
        self.avail: int = 1
        self.total: float = 0.0
        self.kids: dict[int, Node] = {}
        self.order: list[Node] = []


class ISMCTS:
    """Single-observer ISMCTS over an ``Env``; see the module docstring."""

    def __init__(self, env: Env, explore: float) -> None:
        self.env: Env = env
        self.explore: float = explore
        self.root: Node = Node(-1, -1)
        self.nodes: int = 1
        self.iterations: int = 0

    def run(self, rng: Random, iterations: int, nodes: int, seconds: float) -> int:
        """Iterate until a limit (``<= 0``: no limit of that kind); the iterations done.
        At least one iteration runs."""
        start = time.perf_counter()
        done = 0
        while True:
            self.iterate(rng)
            done += 1
            if iterations > 0 and done >= iterations:
                break
            if nodes > 0 and self.nodes >= nodes:
                break
            if seconds > 0 and done & 7 == 0 and time.perf_counter() - start >= seconds:
                break
        self.iterations += done
        return done

    def iterate(self, rng: Random) -> None:
        env = self.env
        env.reset(rng)
        node = self.root
        path: list[Node] = []
        explore = self.explore
        while not env.done():
            moves = env.moves()
            kids = node.kids
            untried: list[int] = []
            for m in moves:
                if m not in kids:
                    untried.append(m)
            if untried:
                m = untried[_pick(rng, len(untried))]
                child = Node(m, env.player())
                kids[m] = child
                node.order.append(child)
                self.nodes += 1
                env.step(m)
                path.append(child)
                break
            best = node
            best_score = -1.0
            for m in moves:
                ch = kids[m]
                ch.avail += 1
                score = ch.total / ch.visits + explore * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best_score = score
                    best = ch
            env.step(best.move)
            path.append(best)
            node = best
        if not env.done():
            env.rollout(rng)
        r = env.rewards()
        self.root.visits += 1
        for nd in path:
            nd.visits += 1
            nd.total += r[nd.player]

    def stats(self) -> list[tuple[int, int, float]]:
        """Per root move: (move, visits, mean reward for the mover)."""
        out: list[tuple[int, int, float]] = []
        for ch in self.root.order:
            mean = ch.total / ch.visits if ch.visits else 0.0
            out.append((ch.move, ch.visits, mean))
        return out


class PIMC:
    """Perfect-information Monte Carlo over determinizations (see the module docstring)."""

    def __init__(self, env: Env, moves: list[int]) -> None:
        self.env: Env = env
        self.moves: list[int] = moves
        self.totals: list[float] = [0.0] * len(moves)
        self.counts: list[int] = [0] * len(moves)
        self.iterations: int = 0
        self.nodes: int = 0

    def run(self, rng: Random, iterations: int, nodes: int, seconds: float) -> int:
        """Determinizations until a limit (``<= 0``: none of that kind); each scores
        every root move once.  ``nodes`` caps the moves played in rollouts."""
        start = time.perf_counter()
        done = 0
        while True:
            self.iterate(rng)
            done += 1
            if iterations > 0 and done >= iterations:
                break
            if nodes > 0 and self.nodes >= nodes:
                break
            if seconds > 0 and time.perf_counter() - start >= seconds:
                break
        self.iterations += done
        return done

    def iterate(self, rng: Random) -> None:
        env = self.env
        env.reset(rng)
        seat = env.seat
        for i in range(len(self.moves)):
            env.restart()
            env.step(self.moves[i])
            if not env.done():
                env.rollout(rng)
            self.totals[i] += env.rewards()[seat]
            self.counts[i] += 1
            self.nodes += 1

    def stats(self) -> list[tuple[int, int, float]]:
        out: list[tuple[int, int, float]] = []
        for i in range(len(self.moves)):
            k = self.counts[i]
            out.append((self.moves[i], k, self.totals[i] / k if k else 0.0))
        return out
