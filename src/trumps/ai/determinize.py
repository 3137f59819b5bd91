"""Determinization: full deals consistent with a seat's view (docs/views.md), for search.

``Determinizer(view)`` reads the view alone and precomputes what every consistent deal
must respect:

* the pool of unseen cards (``trumps.ai.views.unseen_cards``) and who must take how many
  of them: each other seat its hand size less its publicly known cards, a secret robbing
  discard (F10) and a secret joker discard (F17a) one card each, the Twenty-Five stock the
  rest;
* Twenty-Five inference from the tricks (F18): a seat that neither followed a plain suit
  nor trumped holds no non-trump card of that suit (the A♥ is never a heart); a seat that
  played a non-trump to a trump lead holds no trump but the privileged ones above the led
  card (F14); the trump ace lies with a robber (or is its discard) and, under
  ``rob = mandatory`` with no rob, not with a seat that has played;
* one consistent deal found exactly (a bipartite matching), used as the base position
  (``game_from_view``) and as the fallback of the sampler.

``sample(rng)`` then gives a fresh engine ``Core`` holding a random consistent deal: a
copy of the base core with the hidden cards overwritten (no JSON, no validation), which
is what the compiled search does every iteration.  ``sample_hands`` and ``position`` give
the same deal as cards and as a loadable position dict (tests, debugging).

Nothing here reads anything but the view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from trumps.ai._ismcts_env import KozyriEnv, TwentyFiveEnv
from trumps.ai._ismcts_sample import JOKER_DISCARD, ROB_DISCARD, STOCK, Env, Sampler
from trumps.ai.views import game_from_view, position_from_view, unseen_cards
from trumps.cards import JOKER, card_str, mask_of, parse_card, parse_suit
from trumps.games import Game
from trumps.games.kozyri._core import KozyriCore
from trumps.games.twentyfive._core import TwentyFiveCore
from trumps.games.twentyfive.rules import TrickRules
from trumps.games.viewtypes import TwentyFiveView, View, seat_of

_SLOT_NAMES = {STOCK: "stock", ROB_DISCARD: "robbing discard", JOKER_DISCARD: "joker discard"}


def _match(needs: list[int], allowed: list[int], cards: list[int]) -> list[int] | None:
    """A mask per slot giving each slot ``needs[i]`` cards of ``allowed[i]`` and using
    every card once (augmenting paths), or None when none exists."""
    owner: dict[int, int] = {}
    taken: list[list[int]] = [[] for _ in needs]

    def augment(c: int, seen: set[int]) -> bool:
        for i, mask in enumerate(allowed):
            if not mask >> c & 1 or i in seen:
                continue
            seen.add(i)
            if len(taken[i]) < needs[i]:
                taken[i].append(c)
                owner[c] = i
                return True
            for d in list(taken[i]):
                taken[i].remove(d)
                taken[i].append(c)
                owner[c] = i
                if augment(d, seen):
                    return True
                taken[i].remove(c)
                taken[i].append(d)
                owner[d] = i
            # try the next slot
        return False

    for c in cards:
        if not augment(c, set()):
            return None
    if any(len(t) != n for t, n in zip(taken, needs, strict=True)):
        return None
    return [mask_of(t) for t in taken]


class Determinizer:
    """Samples full deals consistent with ``view``; see the module docstring.

    Attributes (read-only): ``targets`` — per slot, a seat or ``STOCK`` /
    ``ROB_DISCARD`` / ``JOKER_DISCARD``; ``needs`` and ``allowed`` (card masks) per slot;
    ``known`` — per seat, the cards it is publicly known to hold; ``pool`` — the unseen
    cards; ``base`` — a ``Game`` loaded from one consistent deal.
    """

    def __init__(self, view: View) -> None:
        self.view = view
        self.game_id: str = str(view["game"])
        self.seat: int = seat_of(view)
        self.players: int = len(view["hands"])
        pool_cards = unseen_cards(view)
        self.pool: int = mask_of(pool_cards)
        self.known: list[int] = [0] * self.players
        self.targets: list[int] = []
        self.needs: list[int] = []
        self.allowed: list[int] = []
        for s, h in enumerate(view["hands"]):
            if s == self.seat or not isinstance(h, Mapping):
                continue
            self.known[s] = mask_of(parse_card(c) for c in h["known"])
            self.targets.append(s)
            self.needs.append(h["count"] - len(h["known"]))
            self.allowed.append(self.pool)
        if view["game"] == "twentyfive":
            self._twentyfive_slots(view)
        placed = sum(self.needs)
        if placed != len(pool_cards):
            raise ValueError(
                f"the view does not add up: {len(pool_cards)} unseen cards for "
                f"{placed} hidden places"
            )
        # Most constrained first: least slack between allowed cards and cards needed.
        order = sorted(
            range(len(self.targets)),
            key=lambda i: (
                (self.allowed[i] & self.pool).bit_count() - self.needs[i],
                self.targets[i] == STOCK,
                i,
            ),
        )
        fallback = _match(self.needs, self.allowed, pool_cards)
        if fallback is None:
            raise ValueError("no deal is consistent with the view")
        self.sampler = Sampler(list(self.needs), list(self.allowed), self.pool, order, fallback)
        self.base: Game = self._load(fallback)
        self._env: Env | None = None

    # -- constraints --------------------------------------------------------------------
    def _twentyfive_slots(self, view: TwentyFiveView) -> None:
        n = self.players
        rules = view["rules"]
        trump = None if view["trump"] is None else parse_suit(view["trump"])
        exclude = [0] * n  # per seat, cards it cannot hold now
        played_seats: set[int] = set()
        if trump is not None:
            r = TrickRules(trump, rules)
            tricks = [(t["leader"], t["cards"]) for t in view["tricks"]]
            leader = view["leader"]
            if view["trick"] and leader is not None:
                tricks.append((leader, view["trick"]))
            for leader, cards in tricks:
                codes = [parse_card(c) for c in cards]
                for j, c in enumerate(codes):
                    s = (leader + j) % n
                    played_seats.add(s)
                    if j:
                        exclude[s] |= r.withheld(c, codes[0])  # F13, F14, F18
            for s, suits in enumerate(view["voids"]):
                for suit in suits:
                    exclude[s] |= r.plain_mask(parse_suit(suit))
            ace = r.trump_ace  # F9: the card a robber held
            robbed = view["robbed"]
            turnup = -1 if view["turnup"] is None else parse_card(view["turnup"])
            stock_allowed = self.pool
            if self.pool >> ace & 1 and turnup != ace:
                if robbed is not None:
                    # F9: the robber held the trump ace (or discarded it).
                    for s in range(n):
                        if s != robbed["seat"]:
                            exclude[s] |= 1 << ace
                    stock_allowed &= ~(1 << ace)
                elif rules.get("rob") == "mandatory":
                    for s in played_seats:
                        exclude[s] |= 1 << ace  # F10: it would have had to rob
            for i, s in enumerate(self.targets):
                self.allowed[i] = self.pool & ~exclude[s]
            if robbed is not None and "discard" not in robbed:
                self.targets.append(ROB_DISCARD)
                self.needs.append(1)
                self.allowed.append(self.pool)
            dealer = view["dealer"]
            if (
                dealer is not None
                and dealer != self.seat
                and self.known[dealer] >> JOKER & 1
                and view["joker_discard"] is None
            ):
                # F17a: the dealer took the turned-up joker and put a card face down.
                self.targets.append(JOKER_DISCARD)
                self.needs.append(1)
                self.allowed.append(self.pool & ~(1 << JOKER))
        else:
            stock_allowed = self.pool
        self.targets.append(STOCK)
        self.needs.append(self.pool.bit_count() - sum(self.needs))
        self.allowed.append(stock_allowed)

    # -- deals --------------------------------------------------------------------------
    def _split(
        self, masks: list[int]
    ) -> tuple[dict[int, list[int]], int | None, int | None, list[int]]:
        hands: dict[int, list[int]] = {}
        robbed = joker = None
        stock: list[int] = []
        for t, m in zip(self.targets, masks, strict=True):
            cards = [c for c in range(53) if m >> c & 1]
            if t >= 0:
                hands[t] = sorted(cards + [c for c in range(53) if self.known[t] >> c & 1])
            elif t == ROB_DISCARD:
                robbed = cards[0]
            elif t == JOKER_DISCARD:
                joker = cards[0]
            else:
                stock = cards
        return hands, robbed, joker, stock

    def _load(self, masks: list[int]) -> Game:
        hands, robbed, joker, _ = self._split(masks)
        return game_from_view(self.view, hands, robbed_discard=robbed, joker_discard=joker)

    def sample_hands(
        self, rng: random.Random
    ) -> tuple[dict[int, list[int]], int | None, int | None]:
        """A random consistent deal: (other seats' whole hands, a secret robbing discard,
        a secret joker discard); the stock is every card placed nowhere else."""
        hands, robbed, joker, _ = self._split(self.sampler.draw(rng))
        return hands, robbed, joker

    def position(self, rng: random.Random) -> dict[str, Any]:
        """A random consistent deal as a loadable position dict (docs/positions.md)."""
        masks = self.sampler.draw(rng)
        hands, robbed, joker, stock = self._split(masks)
        pos = position_from_view(self.view, hands, robbed_discard=robbed, joker_discard=joker)
        if self.game_id == "twentyfive":
            pos["stock"] = [card_str(c) for c in stock]
        return pos

    def env(self) -> Env:
        """The search episode over this view's determinizations (built once)."""
        if self._env is None:
            core = self.base.core
            targets = list(self.targets)
            if isinstance(core, TwentyFiveCore):
                self._env = TwentyFiveEnv(core, self.seat, self.sampler, targets, self.known)
            else:
                assert isinstance(core, KozyriCore)
                self._env = KozyriEnv(core, self.seat, self.sampler, targets, self.known)
        return self._env

    def sample(self, rng: random.Random) -> TwentyFiveCore | KozyriCore:
        """A fresh, independent engine core holding a random consistent deal."""
        env = self.env()
        if isinstance(env, TwentyFiveEnv):
            return env.deal(rng)
        assert isinstance(env, KozyriEnv)
        return env.deal(rng)

    def describe_slots(self) -> str:
        """The slots as text (debugging)."""
        parts = []
        for t, n in zip(self.targets, self.needs, strict=True):
            parts.append(f"{_SLOT_NAMES.get(t, f'seat {t}')}: {n}")
        return ", ".join(parts)
