"""Determinization sampling for the compiled search (mypyc): the ``Sampler`` and the
``Env`` interface a search runs over.

``Sampler`` draws the hidden cards of a determinization: each *slot* (another seat's
unknown cards, the stock, a secret robbing or joker discard) takes ``need`` cards of its
``allowed`` mask out of the unseen pool, most constrained slot first.  A draw that paints
itself into a corner is retried; after ``RETRIES`` failures the precomputed consistent
deal is returned, so a draw never loops forever.  ``Env`` is one game's determinized
episode (``trumps.ai._ismcts_env``).

Imports only the standard library.
"""

from __future__ import annotations

from random import Random
from typing import Final

RETRIES: Final = 40

# Slot targets other than a seat (seats are 0..n-1).
STOCK: Final = -1
ROB_DISCARD: Final = -2
JOKER_DISCARD: Final = -3


def mask_cards(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def pick(rng: Random, n: int) -> int:
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
                    if popcount(cand) != need:
                        ok = False
                        break
                    out[i] = cand
                    left = 0
                    continue
                cards = mask_cards(cand)
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
                        r = j + pick(rng, m - j)
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
