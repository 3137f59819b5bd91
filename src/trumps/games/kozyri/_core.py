"""Svoi Kozyri fast core: the int-coded, unchecked state behind ``trumps.games.kozyri``.

Compiled with mypyc (see ``trumps._accel``); keep it fully typed, allocation-light and
free of closures.  Cards are ``rank * 4 + suit`` (``6`` = rank 4 … ``A`` = rank 12), so
the 36-card pack (K2) is the codes 16..51; hands are int bitmasks.  Action codes are
those of ``trumps.cards``: a card plays it, ``TAKE`` picks up, ``TRUMP + s`` chooses ``s``.

State kept for K17: ``pkey`` encodes the pile in order (a leading 1, then 6 bits per
card, top card lowest).  The cards in play (hands and pile) stay the same within a
hand, so the hands of all seats but the last, ``pkey`` and ``2 * to_move + owes``
identify a position exactly (no hashing collisions: the tuple is the key); ``rep``
counts occurrences since the hand was dealt or loaded.

Undo: each recorded ``apply`` pushes one small frame; a move that ends a hand also
pushes a snapshot of the state between the move and the end-of-hand processing (once
per hand), and a trump choice that triggers the deal needs no snapshot (the choice
phase state is blank).
"""

from __future__ import annotations

from random import Random
from typing import Final

from trumps.games.base import below, deal_rng, shuffled

GAME_ID: Final = "kozyri"
TAKE: Final = 64
TRUMP: Final = 65
LOW_CARD: Final = 16  # the six of spades: K2 pack is codes 16..51
SIX: Final = 4  # rank index of the six
ACE: Final = 12  # rank index of the ace
PACK: Final[tuple[int, ...]] = tuple(range(16, 52))
PACK_MASK: Final = ((1 << 52) - 1) ^ ((1 << 16) - 1)

# Hand results and game outcome reasons (indices into REASONS).
RUNNING: Final = 0
LOST: Final = 1
DRAWN: Final = 2
OUT_OF_CARDS: Final = 0
DRAW_RULE: Final = 1
REPETITION: Final = 2
MAX_PLIES: Final = 3
REASONS: Final[tuple[str, ...]] = ("out_of_cards", "draw_rule", "repetition", "max_plies")

# Frame kinds on the undo stack.
_PLY: Final = 0
_PLY_END: Final = 1  # a ply that ended a hand: a snapshot is on ``snaps``
_CHOICE: Final = 2
_CHOICE_DEAL: Final = 3  # the last trump choice, followed by the deal

_NO_KEY: Final[tuple[int, ...]] = ()


def beats(c: int, t: int, trump: int) -> bool:
    """K9: card ``c`` beats top card ``t`` for a player whose trump suit is ``trump``."""
    cs = c & 3
    ts = t & 3
    if cs == ts:
        return c > t  # same suit: ranks compare as codes do
    return cs == trump and ts != trump


def _beat_table() -> list[int]:
    table: list[int] = []
    for t in range(52):
        for trump in range(4):
            m = 0
            for c in range(LOW_CARD, 52):
                if beats(c, t, trump):
                    m |= 1 << c
            table.append(m)
    return table


# BEAT[t * 4 + trump]: the cards of the pack that beat top card t under that trump (K9).
BEAT: Final[list[int]] = _beat_table()


def _chunk_table(base: int) -> list[list[int]]:
    table: list[list[int]] = []
    for x in range(4096):
        cards: list[int] = []
        for i in range(12):
            if (x >> i) & 1:
                cards.append(base + i)
        table.append(cards)
    return table


# The cards of a 12-bit slice of a hand (bits 16–27, 28–39, 40–51), ascending: legal
# moves are three table look-ups instead of a loop over the bits.
CARDS_LOW: Final[list[list[int]]] = _chunk_table(16)
CARDS_MID: Final[list[list[int]]] = _chunk_table(28)
CARDS_HIGH: Final[list[list[int]]] = _chunk_table(40)
# POP12[x]: the number of set bits of a 12-bit slice (how many cards the slice holds).
POP12: Final[list[int]] = [len(cards) for cards in CARDS_LOW]


def take_count(top: int, trump: int, n: int) -> int:
    """K12: cards a pick-up takes, top card ``top`` seen by a player of ``trump``."""
    if top & 3 != trump:
        return 3 if n > 3 else n
    if top >> 2 == ACE:
        return n
    return 5 if n > 5 else n


def card_moves(hand: int, top: int, trump: int, owes: bool, vol: bool) -> list[int]:
    """The legal moves once the trumps are chosen (K7–K11), as codes, lowest card first:
    ``hand`` the mover's cards (a bit mask), ``top`` the pile's top card (-1: empty),
    ``trump`` the mover's trump suit, ``owes`` a second card is owed (K10/K13), ``vol``
    the ``voluntary_pickup`` option.  The duel search (``trumps.ai``) plays by it too."""
    m = hand
    if top >= 0 and not owes:
        m &= BEAT[(top << 2) | trump]  # K8/K9
        if not m:
            return [TAKE]  # K11: cannot beat
    out = list(CARDS_LOW[(m >> 16) & 4095])  # K7/K10/K13: lead or second card: anything
    x = (m >> 28) & 4095
    if x:
        out.extend(CARDS_MID[x])
    x = m >> 40
    if x:
        out.extend(CARDS_HIGH[x])
    if vol and top >= 0 and not owes:
        out.append(TAKE)  # K11 option: picking up is always allowed
    return out


class KozyriCore:
    """One game (a match of one or more hands) of Svoi Kozyri."""

    def __init__(
        self,
        players: int,
        seed: int,
        *,
        sixes_to_owner: bool = True,
        voluntary_pickup: bool = False,
        repetition_draw: int = 3,
        max_plies: int = 10000,
        match_losses: int = 1,
    ) -> None:
        self.n: int = players
        self.sixes: bool = sixes_to_owner
        self.vol: bool = voluntary_pickup
        self.rep_limit: int = repetition_draw
        self.max_plies: int = max_plies
        self.match_losses: int = match_losses
        self.seed: int = seed
        self.hand_no: int = 1
        self.dealer: int = 0
        self.choosing: bool = True
        self.trumps: list[int] = [-1] * players
        self.hands: list[int] = [0] * players
        self.known: list[int] = [0] * players
        self.pile: list[int] = []
        self.pkey: int = 1
        self.tm: int = 1 % players
        self.owes: bool = False
        self.out: list[int] = []
        self.active: int = 0
        self.ply: int = 0
        self.losses: list[int] = [0] * players
        self.result: int = RUNNING
        self.loser: int = -1
        self.reason: int = -1
        self.rep: dict[tuple[int, ...], int] = {}
        self.stack: list[tuple[int, int, int, int, int, tuple[int, ...]]] = []
        self.snaps: list[KozyriCore] = []

    # -- set-up ---------------------------------------------------------------------
    def start(self) -> None:
        """A new game: K4 first dealer at random (seeded), then K3 the trump choice."""
        self.dealer = below(deal_rng(GAME_ID, self.seed, 0), self.n)
        self.begin_choice()

    def begin_choice(self) -> None:
        """K3: a blank hand whose seats choose trumps from the dealer's left."""
        n = self.n
        self.choosing = True
        self.trumps = [-1] * n
        self.hands = [0] * n
        self.known = [0] * n
        self.pile = []
        self.pkey = 1
        self.owes = False
        self.out = []
        self.active = 0
        self.ply = 0
        self.rep = {}
        self.tm = (self.dealer + 1) % n

    def _deal(self) -> None:
        """K5 deal one at a time from the dealer's left, K6 sixes rule, K7 first lead."""
        n = self.n
        cards = shuffled(deal_rng(GAME_ID, self.seed, self.hand_no), PACK)
        hands = [0] * n
        seat = (self.dealer + 1) % n
        for c in cards:
            hands[seat] |= 1 << c
            seat += 1
            if seat == n:
                seat = 0
        known = [0] * n
        if self.sixes:
            for s in range(n):
                six = 1 << (SIX * 4 + self.trumps[s])
                for q in range(n):
                    if q != s and hands[q] & six:
                        hands[q] ^= six
                        hands[s] |= six
                known[s] = six  # K6/K19: everyone knows who holds each trump six
        self.hands = hands
        self.known = known
        self.choosing = False
        self.finish_setup((self.dealer + 1) % n)

    def finish_setup(self, to_move: int) -> None:
        """Derived fields of a dealt or loaded hand; it is the first occurrence (K17)."""
        active = 0
        for s in range(self.n):
            if self.hands[s]:
                active += 1
        pkey = 1
        for c in self.pile:
            pkey = (pkey << 6) | c
        self.pkey = pkey
        self.active = active
        self.tm = to_move
        self.rep = {}
        if self.rep_limit:
            self.rep[self.key()] = 1

    # -- queries --------------------------------------------------------------------
    def to_move(self) -> int:
        return self.tm

    def over(self) -> bool:
        return self.result != RUNNING

    def playout(self, rng: Random) -> int:
        """Play uniformly random legal moves (``step``) to the end; the number of moves.

        The move is ``legal_moves()[int(rng.random() * len(legal_moves()))]``, picked
        straight from the legal mask (the k-th set bit, ``TAKE`` last) without the list.
        """
        rnd = rng.random
        done = 0
        while self.result == RUNNING:
            if self.choosing:
                moves = self.legal_moves()
                self.step(moves[int(rnd() * len(moves))])
                done += 1
                continue
            p = self.tm
            pile = self.pile
            take = 0
            if self.owes or not pile:
                m = self.hands[p]  # K7/K10/K13: lead or second card: anything
            else:
                m = self.hands[p] & BEAT[(pile[-1] << 2) | self.trumps[p]]  # K8/K9
                if m == 0 or self.vol:
                    take = 1  # K11 (and its option): TAKE, the last legal move
            lo = (m >> 16) & 4095
            mid = (m >> 28) & 4095
            hi = m >> 40
            a = POP12[lo]
            b = POP12[mid]
            c = POP12[hi]
            k = int(rnd() * (a + b + c + take))
            if k < a:
                mv = CARDS_LOW[lo][k]
            elif k < a + b:
                mv = CARDS_MID[mid][k - a]
            elif k < a + b + c:
                mv = CARDS_HIGH[hi][k - a - b]
            else:
                mv = TAKE
            self.step(mv)
            done += 1
        return done

    def legal_moves(self) -> list[int]:
        p = self.tm
        out: list[int] = []
        if p < 0:
            return out
        if self.choosing:
            trumps = self.trumps
            for s in range(4):
                if s not in trumps:
                    out.append(TRUMP + s)
            return out
        pile = self.pile
        top = pile[-1] if pile else -1
        return card_moves(self.hands[p], top, self.trumps[p], self.owes, self.vol)

    def legal_ids(self) -> list[int]:
        """``legal_moves`` as action ids (``trumps.games.actions``: a card ``code - 16``,
        ``take`` 36, ``trump s`` ``37 + s``)."""
        out: list[int] = []
        for m in self.legal_moves():
            if m < TAKE:
                out.append(m - 16)
            else:
                out.append(36 if m == TAKE else m - TRUMP + 37)
        return out

    def play_id(self, action_id: int) -> bool:
        """Apply the action with id ``action_id`` (``legal_ids``' numbering) if it is
        legal now: True; else False and nothing changed (the public API's fast path)."""
        if action_id < 0 or action_id > 40:
            return False
        if action_id < 36:
            code = action_id + 16
        else:
            code = TAKE if action_id == 36 else action_id - 37 + TRUMP
        if code not in self.legal_moves():
            return False
        self.apply(code)
        return True

    def hand_outcome(self) -> tuple[int, int]:
        """K16 for a hand with one holder: (loser or -1 for a draw, reason)."""
        loser = -1
        for s in range(self.n):
            if self.hands[s]:
                loser = s
        h = self.hands[loser] if loser >= 0 else 0
        pile = self.pile
        if h and h & (h - 1) == 0 and pile and h & BEAT[(pile[-1] << 2) | self.trumps[loser]]:
            return -1, DRAW_RULE
        return loser, OUT_OF_CARDS

    def key(self) -> tuple[int, ...]:
        """K17: what makes two positions of this hand the same (see the module doc)."""
        return self._key(self.hands, self.pkey, self.tm, self.owes)

    def _key(self, h: list[int], pkey: int, tm: int, owes: bool) -> tuple[int, ...]:
        s = 2 * tm + (1 if owes else 0)
        n = self.n
        if n == 2:
            return (h[0], pkey, s)
        if n == 3:
            return (h[0], h[1], pkey, s)
        return (h[0], h[1], h[2], pkey, s)

    def _count(self, key: tuple[int, ...]) -> int:
        """K17: record one more occurrence of ``key``; how many there have been."""
        rep = self.rep
        size = len(rep)
        count = rep.setdefault(key, 1)  # one hash and probe for a new position
        if len(rep) != size:
            return 1
        count += 1
        rep[key] = count
        return count

    # -- moves ----------------------------------------------------------------------
    def apply(self, m: int) -> None:
        self._move(m, True)

    def step(self, m: int) -> None:
        """``apply`` without the undo record (rollouts)."""
        p = self.tm
        if self.choosing:
            self._choose(m, p, False)
            return
        self._play(p, m)
        self.ply += 1
        count = self._count(self.key()) if self.rep_limit else 0
        loser, end = self._end_of_ply(count)
        if end >= 0:
            self.end_hand(loser, end)

    def _play(self, p: int, m: int) -> None:
        """Seat ``p`` plays card ``m`` onto the pile or takes (``TAKE``): its hand, the pile
        and its key, the known cards, whether a second card is owed and who moves next."""
        hands = self.hands
        pile = self.pile
        known = self.known
        if m == TAKE:
            # K12: how many the picker takes; K13: the next player faces the new top.
            k = take_count(pile[-1], self.trumps[p], len(pile))
            taken = 0
            for _ in range(k):
                taken |= 1 << pile.pop()
            self.pkey >>= 6 * k
            hands[p] |= taken
            known[p] |= taken  # K19: picked-up cards are public
            self.owes = False
            self.tm = self._next_holder(p)
            return
        bit = 1 << m
        h = hands[p] ^ bit
        hands[p] = h
        kp = known[p]
        if kp & bit:
            known[p] = kp ^ bit
        beating = not self.owes and len(pile) > 0
        pile.append(m)
        self.pkey = (self.pkey << 6) | m
        if h == 0:
            self.out.append(p)  # K14: out, however the last card went
            self.active -= 1
            self.owes = False
            self.tm = self._next_holder(p)
        elif beating:
            self.owes = True  # K10: a beat owes a second card
            self.tm = p
        else:
            self.owes = False
            self.tm = self._next_holder(p)

    def _end_of_ply(self, count: int) -> tuple[int, int]:
        """Whether the hand ended with the ply just played, whose position has now been seen
        ``count`` times: (loser or -1, reason), or (-1, -1) when it goes on."""
        if self.active <= 1:
            return self.hand_outcome()  # K16
        if self.rep_limit and count >= self.rep_limit:
            return -1, REPETITION  # K17
        if self.ply >= self.max_plies:
            return -1, MAX_PLIES  # K17 safety cap
        return -1, -1

    def _next_holder(self, p: int) -> int:
        hands = self.hands
        n = self.n
        q = p + 1
        if q == n:
            q = 0
        while not hands[q] and q != p:
            q += 1
            if q == n:
                q = 0
        return q

    def _move(self, m: int, record: bool) -> None:
        p = self.tm
        if self.choosing:
            self._choose(m, p, record)
            return
        old_owes = self.owes
        old_known = self.known[p]
        old_pkey = self.pkey
        self._play(p, m)
        self.ply += 1
        count = 0
        key = _NO_KEY
        if self.rep_limit:
            key = self.key()
            count = self._count(key)
        loser, end = self._end_of_ply(count)
        if record:
            self.stack.append(
                (
                    _PLY if end < 0 else _PLY_END,
                    m,
                    p,
                    old_known,
                    int(old_owes) | (old_pkey << 1),
                    key,
                )
            )
            if end >= 0:
                self.snaps.append(self._copy(False))
        if end >= 0:
            self.end_hand(loser, end)

    def _choose(self, m: int, p: int, record: bool) -> None:
        """K3: seat ``p`` takes suit ``m - TRUMP``; after the last seat, deal (K5, K6)."""
        self.trumps[p] = m - TRUMP
        q = p + 1
        if q == self.n:
            q = 0
        dealt = q == (self.dealer + 1) % self.n
        if record:
            self.stack.append((_CHOICE_DEAL if dealt else _CHOICE, m, p, 0, 0, _NO_KEY))
        if dealt:
            self._deal()
        else:
            self.tm = q

    def end_hand(self, loser: int, reason: int) -> None:
        """K16–K18: count the loss; end the game or deal the next hand (K4)."""
        self.owes = False
        if loser >= 0:
            self.losses[loser] += 1
            if self.losses[loser] >= self.match_losses:
                self.result = LOST
                self.loser = loser
                self.reason = reason
                self.tm = -1
                return
            self.dealer = loser  # K4: the loser deals the next hand
        elif self.match_losses == 1:
            self.result = DRAWN
            self.loser = -1
            self.reason = reason
            self.tm = -1
            return
        else:
            self.dealer = (self.dealer + 1) % self.n  # K4: after a draw the deal passes left
        self.hand_no += 1
        self.begin_choice()

    def undo(self) -> None:
        kind, m, p, old_known, packed, key = self.stack.pop()
        if kind >= _CHOICE:
            if kind == _CHOICE_DEAL:
                n = self.n
                self.choosing = True
                self.hands = [0] * n
                self.known = [0] * n
                self.pile = []
                self.pkey = 1
                self.owes = False
                self.out = []
                self.active = 0
                self.ply = 0
                self.rep = {}
            self.trumps[p] = -1
            self.tm = p
            return
        if kind == _PLY_END:
            snap = self.snaps.pop()
            self._restore(snap)
            self.rep = dict(snap.rep)  # snapshots (maybe shared by copies) stay frozen
        if key:
            rep = self.rep
            count = rep[key] - 1
            if count:
                rep[key] = count
            else:
                del rep[key]
        self.ply -= 1
        old_pkey = packed >> 1
        hands = self.hands
        pile = self.pile
        if m == TAKE:
            k = (old_pkey.bit_length() - 1) // 6 - len(pile)
            taken = 0
            for i in range(k - 1, -1, -1):
                c = (old_pkey >> (6 * i)) & 63
                pile.append(c)
                taken |= 1 << c
            hands[p] ^= taken
        else:
            bit = 1 << m
            if hands[p] == 0:
                self.out.pop()
                self.active += 1
            hands[p] |= bit
            pile.pop()
        self.known[p] = old_known
        self.pkey = old_pkey
        self.owes = bool(packed & 1)
        self.tm = p

    # -- copies ---------------------------------------------------------------------
    def _copy(self, full: bool) -> KozyriCore:
        """A copy; ``full`` also copies the repetition counts and the undo stacks (else
        the counts are shared: a snapshot never mutates them)."""
        c = KozyriCore(
            self.n,
            self.seed,
            sixes_to_owner=self.sixes,
            voluntary_pickup=self.vol,
            repetition_draw=self.rep_limit,
            max_plies=self.max_plies,
            match_losses=self.match_losses,
        )
        c._restore(self)
        if full:
            c.rep = dict(self.rep)
            c.stack = list(self.stack)
            c.snaps = list(self.snaps)
        return c

    def _restore(self, o: KozyriCore) -> None:
        """Take every state field of ``o`` (lists copied; ``rep`` shared)."""
        self.hand_no = o.hand_no
        self.dealer = o.dealer
        self.choosing = o.choosing
        self.trumps = list(o.trumps)
        self.hands = list(o.hands)
        self.known = list(o.known)
        self.pile = list(o.pile)
        self.pkey = o.pkey
        self.tm = o.tm
        self.owes = o.owes
        self.out = list(o.out)
        self.active = o.active
        self.ply = o.ply
        self.losses = list(o.losses)
        self.result = o.result
        self.loser = o.loser
        self.reason = o.reason
        self.rep = o.rep

    def copy(self) -> KozyriCore:
        """An independent copy (repetition counts and undo history included)."""
        return self._copy(True)
