"""The two games' search episodes for the compiled search (mypyc): a determinized copy
of the base core with sampled cards written in, its moves, rollouts and rewards.

A search episode ends at the end of the current hand (or of the game).  Rollouts play
the policies of ``_ismcts_policy``.

Imports only the standard library, the engine cores and the other ``_ismcts_*`` modules.
"""

from __future__ import annotations

import math
from random import Random
from typing import Final

from trumps.ai._ismcts_policy import (
    EPSILON,
    kozyri_policy,
    tf_likelihood,
    twentyfive_policy,
    twentyfive_policy_smart,
)
from trumps.ai._ismcts_sample import (
    JOKER_DISCARD,
    ROB_DISCARD,
    STOCK,
    Env,
    Sampler,
    mask_cards,
    pick,
    popcount,
)
from trumps.games.kozyri._core import KozyriCore
from trumps.games.twentyfive._core import TwentyFiveCore

# Twenty-Five inference: draws per determinization before taking the last one.
INFER_TRIES: Final = 30
# Svoi Kozyri rollouts longer than this are scored from hand sizes (random play can
# cycle for thousands of plies, K17).
KOZYRI_ROLLOUT_CAP: Final = 400
# Twenty-Five: how steeply a side's chance to win falls with the tricks it still needs.
STEEP: Final = 1.0
# Svoi Kozyri: the reward lost per place a non-loser goes out later.
LATE: Final = 0.02


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
            cards = mask_cards(stock)
            c.next_up = cards[pick(rng, len(cards))]
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
                k = popcount(c.hands[s])
                most = max(most, k)
            for s in range(n):
                k = popcount(c.hands[s])
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
