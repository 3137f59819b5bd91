"""The fast Twenty-Five core (docs/rules/twentyfive.md): int-coded, unchecked, compiled with mypyc.

Cards are ints ``rank * 4 + suit`` (ranks 2..A = 0..12, suits S H D C = 0..3), the joker
is 52, a hand is an int bitmask.  Actions are card codes (play that card) and
``ROB + c`` (rob the turn-up discarding ``c``, F9) and ``DISCARD + c`` (the dealer's
discard after a turned-up joker, F17a).

Trick strength: every card has a trump value (``TVAL``, 0 for a card that is not a trump
under the hand's trump suit) and a plain value (``PVAL``, its rank within its own suit when
that suit is not trumps).  A card played to a trick counts its trump value if it is a trump,
else its plain value if it is of the suit led, else 0 (a discard, F15).

This module is typed for ``mypy --strict`` and compiled by mypyc; it imports nothing from
``trumps`` but the seeded generator of ``trumps.games.base`` (docs/positions.md chance).
"""

from __future__ import annotations

from random import Random
from typing import Final

from trumps.games.base import deal_rng

GAME_ID: Final = "twentyfive"
JOKER: Final = 52
ROB: Final = 128
DISCARD: Final = 192
ACE_OF_HEARTS: Final = 49  # 12 * 4 + 1
HEARTS: Final = 1
HAND_TRICKS: Final = 5

# Option codes (the public module maps docs/rules/ names to these).
RANK_CLASSIC: Final = 0
RANK_AS_WRITTEN: Final = 1
ROB_OPTIONAL: Final = 0
ROB_MANDATORY: Final = 1
ROB_OFF: Final = 2
RENEGE_TOP3: Final = 0
RENEGE_FIVE_ONLY: Final = 1
RENEGE_NONE: Final = 2
BONUS_NONE: Final = 0
BONUS_PLUS10: Final = 1
BONUS_WINS_GAME: Final = 2

_RANK_CHARS: Final = "23456789TJQKA"


def _suit_mask(suit: int) -> int:
    m = 0
    for r in range(13):
        m |= 1 << (r * 4 + suit)
    return m


def _order_values(order: str, suit: int, top: int) -> list[int]:
    """Values ``top, top-1, …`` for the cards of ``suit`` named by rank chars in ``order``
    (``H`` stands for the A♥, ``K`` for a king, ``X`` for the joker)."""
    vals = [0] * 53
    v = top
    for ch in order:
        if ch == "X":
            vals[JOKER] = v
        elif ch == "h":
            vals[ACE_OF_HEARTS] = v
        else:
            vals[_RANK_CHARS.index(ch) * 4 + suit] = v
        v -= 1
    return vals


def _trump_order(trump: int, ranking: int) -> str:
    # F6/F8; "X" = the joker (F2: between the J and the A♥), "h" = the A♥ (F5).
    if ranking == RANK_AS_WRITTEN:
        return "5JXh" + ("" if trump == HEARTS else "A") + "KQT9876432"
    if trump == HEARTS:
        return "5JXhKQT9876432"
    if trump == 2:  # diamonds
        return "5JXhAKQT9876432"
    return "5JXhAKQ2346789T"


def _plain_order(suit: int, ranking: int) -> str:
    # F7/F8: plain hearts never have their ace (F5).
    if suit == HEARTS:
        return "KQJT98765432"
    if suit == 2:
        return "KQJT98765432A" if ranking == RANK_CLASSIC else "KQJAT98765432"
    return "KQJA23456789T"


def _build_tval() -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for ranking in (RANK_CLASSIC, RANK_AS_WRITTEN):
        for trump in range(4):
            out.append(tuple(_order_values(_trump_order(trump, ranking), trump, 200)))
    return tuple(out)


def _build_pval() -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for ranking in (RANK_CLASSIC, RANK_AS_WRITTEN):
        vals = [0] * 53
        for suit in range(4):
            sv = _order_values(_plain_order(suit, ranking), suit, 20)
            for c in range(52):
                if c & 3 == suit and c != ACE_OF_HEARTS:
                    vals[c] = sv[c]
        out.append(tuple(vals))
    return tuple(out)


# TVAL[ranking * 4 + trump][card]: trump strength, 0 for a non-trump (F5, F6, F8, F12).
TVAL: Final = _build_tval()
# PVAL[ranking][card]: strength within its own suit when that suit is plain (F7, F8).
PVAL: Final = _build_pval()
SUIT_MASKS: Final = (_suit_mask(0), _suit_mask(1), _suit_mask(2), _suit_mask(3))
# F12: the trump suit, the A♥ and the joker are trumps.
TRUMP_MASKS: Final = tuple(SUIT_MASKS[t] | (1 << ACE_OF_HEARTS) | (1 << JOKER) for t in range(4))
# F5/F13: following a plain suit — the A♥ is never a heart.
PLAIN_MASKS: Final = tuple(SUIT_MASKS[s] & ~(1 << ACE_OF_HEARTS) for s in range(4))


def top_cards(trump: int, renege_cards: int) -> int:
    # F14: the cards that can be privileged; the joker counts with the top three (F2).
    if renege_cards == RENEGE_NONE:
        return 0
    five = 1 << (3 * 4 + trump)
    if renege_cards == RENEGE_FIVE_ONLY:
        return five
    return five | (1 << (9 * 4 + trump)) | (1 << ACE_OF_HEARTS) | (1 << JOKER)


def _build_above() -> tuple[tuple[int, ...], ...]:
    # ABOVE[trump][card]: the top cards (5, J, joker, A♥) strictly above a trump card.
    out: list[tuple[int, ...]] = []
    for trump in range(4):
        tv = TVAL[trump]
        tops = top_cards(trump, RENEGE_TOP3)
        row: list[int] = []
        for c in range(53):
            m = 0
            for t in range(53):
                if tops >> t & 1 and tv[t] > tv[c]:
                    m |= 1 << t
            row.append(m)
        out.append(tuple(row))
    return tuple(out)


ABOVE: Final = _build_above()


def play_mask(  # noqa: PLR0917 (a compiled hot path: plain positional ints)
    hand: int,
    led: int,
    tval: tuple[int, ...],
    trump_mask: int,
    tops: int,
    above: tuple[int, ...],
    renege_always: bool,
) -> int:
    """The cards of ``hand`` that may be played to a trick led by ``led`` (-1: lead), under
    a trump suit's tables (``tval``, ``trump_mask``, ``tops`` and ``above``)."""
    if led < 0:
        return hand
    if tval[led]:
        # F14: a trump lead; privileged trumps may renege.
        tr = hand & trump_mask
        priv = tops if renege_always else tops & above[led]
        if tr & ~priv:
            return tr
        return hand
    # F13: a plain lead; follow (non-trump cards of the suit) or trump.
    f = hand & PLAIN_MASKS[led & 3]
    if f:
        return f | (hand & trump_mask)
    return hand


def shuffle_pack(rng: Random, size: int) -> list[int]:
    """``trumps.games.base.shuffled(rng, range(size))``, the same draws, compiled."""
    out = list(range(size))
    i = size - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        r: int = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        out[i], out[r] = out[r], out[i]
        i -= 1
    return out


def first_dealer(seed: int, players: int) -> int:
    """F3: ``below(deal_rng("twentyfive", seed, 0), players)``."""
    rng = deal_rng(GAME_ID, seed, 0)
    if players <= 1:
        return 0
    k = players.bit_length()
    r: int = rng.getrandbits(k)
    while r >= players:
        r = rng.getrandbits(k)
    return r


class Config:
    """The rules of a game as ints (shared, never mutated)."""

    def __init__(
        self,
        *,
        players: int,
        side_of: list[int],
        sides: int,
        joker: bool,
        packets: tuple[int, int],
        ranking: int,
        rob: int,
        renege_cards: int,
        renege_always: bool,
        points_per_trick: int,
        target: int,
        play_out_hand: bool,
        bonus: int,
        seed: int,
    ) -> None:
        self.players: int = players
        self.side_of: list[int] = side_of
        self.sides: int = sides
        self.joker: bool = joker
        self.packet1: int = packets[0]
        self.packet2: int = packets[1]
        self.ranking: int = ranking
        self.rob: int = rob
        self.renege_cards: int = renege_cards
        self.renege_always: bool = renege_always
        self.points_per_trick: int = points_per_trick
        self.target: int = target
        self.play_out_hand: bool = play_out_hand
        self.bonus: int = bonus
        self.seed: int = seed


class TwentyFiveCore:
    """The state of a Twenty-Five game (implements ``trumps.games.base.Core``).

    ``trump`` is -1 while the dealer owes the discard for a turned-up joker (F17a); then
    ``turnup`` is the joker and ``next_up`` the stock card that will be turned up.
    ``plays`` lists this hand's cards in play order (trick k is ``plays[k*n:(k+1)*n]``),
    ``winners`` the winners of its finished tricks.  ``win_side`` is the side (seat, or
    team index) that won or has reached the target; the game is over when ``to_play``
    is -1.
    """

    def __init__(self, cfg: Config) -> None:
        self.cfg: Config = cfg
        self.n: int = cfg.players
        self.side_of: list[int] = cfg.side_of
        self.ppt: int = cfg.points_per_trick
        self.target: int = cfg.target
        self.hand_no: int = 1
        self.dealer: int = 0
        self.turnup: int = -1
        self.trump: int = -1
        self.next_up: int = -1
        self.stock: int = 0
        self.robbed_seat: int = -1
        self.robbed_discard: int = -1
        self.joker_discard: int = -1
        self.hands: list[int] = [0] * cfg.players
        self.scores: list[int] = [0] * cfg.sides
        self.hand_tricks: list[int] = [0] * cfg.sides
        self.plays: list[int] = []
        self.winners: list[int] = []
        self.leader: int = 0
        self.to_play: int = -1
        self.tlen: int = 0
        self.led_suit: int = -1
        self.follow: int = 0
        self.led_trump: bool = False
        self.priv_now: int = 0
        self.best_seat: int = -1
        self.best_val: int = 0
        self.win_side: int = -1
        self.tval: tuple[int, ...] = TVAL[0]
        self.pval: tuple[int, ...] = PVAL[cfg.ranking]
        self.trump_mask: int = 0
        self.trump_ace: int = -1
        self.tops: int = 0
        self.above: tuple[int, ...] = ABOVE[0]
        self.stack: list[Snapshot] = []

    # -- set-up ---------------------------------------------------------------------------
    def set_trump(self, trump: int) -> None:
        """Point the strength tables and masks at a trump suit (-1: none yet)."""
        self.trump = trump
        if trump < 0:
            self.trump_mask = 0
            self.trump_ace = -1
            self.tops = 0
            return
        self.tval = TVAL[self.cfg.ranking * 4 + trump]
        self.trump_mask = TRUMP_MASKS[trump]
        self.trump_ace = 48 + trump  # F9: the A♥ only when hearts are trumps
        self.tops = top_cards(trump, self.cfg.renege_cards)
        self.above = ABOVE[trump]

    def start(self) -> None:
        """A new game: the first dealer (F3) deals hand 1."""
        self.hand_no = 1
        self.dealer = first_dealer(self.cfg.seed, self.n)
        self.deal()

    def deal(self) -> None:
        """F4: deal hand ``hand_no`` from ``dealer``; F17a for a turned-up joker."""
        cfg = self.cfg
        n = self.n
        size = 53 if cfg.joker else 52
        deck = shuffle_pack(deal_rng(GAME_ID, cfg.seed, self.hand_no), size)
        hands = [0] * n
        dealer = self.dealer
        i = 0
        for packet in (cfg.packet1, cfg.packet2):
            for k in range(1, n + 1):
                s = (dealer + k) % n
                h = hands[s]
                for _ in range(packet):
                    h |= 1 << deck[i]
                    i += 1
                hands[s] = h
        turnup = deck[i]
        i += 1
        stock = 0
        for j in range(i, size):
            stock |= 1 << deck[j]
        self.hands = hands
        self.turnup = turnup
        self.stock = stock
        self.robbed_seat = -1
        self.robbed_discard = -1
        self.joker_discard = -1
        self.plays = []
        self.winners = []
        self.hand_tricks = [0] * cfg.sides
        self.tlen = 0
        self.leader = (dealer + 1) % n
        if turnup == JOKER:
            # F17a: the dealer takes the joker and owes a discard before play.
            hands[dealer] |= 1 << JOKER
            self.next_up = deck[i]
            self.set_trump(-1)
            self.to_play = dealer
        else:
            self.next_up = -1
            self.set_trump(turnup & 3)
            self.to_play = self.leader

    def rebuild_trick(self) -> None:
        """Recompute the current trick's state from ``plays`` (after loading)."""
        n = self.n
        done = len(self.winners)
        self.tlen = 0
        self.best_seat = -1
        self.best_val = 0
        seat = self.leader
        for c in self.plays[done * n :]:
            self._count(seat, c)
            seat = (seat + 1) % n

    # -- queries --------------------------------------------------------------------------
    def to_move(self) -> int:
        return self.to_play

    def over(self) -> bool:
        return self.to_play < 0

    def play_mask_for(self, hand: int, led: int) -> int:
        """The cards of ``hand`` that may be played to a trick led by ``led`` (-1: lead)."""
        return play_mask(
            hand, led, self.tval, self.trump_mask, self.tops, self.above, self.cfg.renege_always
        )

    def can_rob(self, seat: int) -> bool:
        """F9/F10: ``seat`` may rob now (it is to move and has not played this hand)."""
        if self.robbed_seat >= 0 or self.trump < 0 or self.cfg.rob == ROB_OFF:
            return False
        if self.winners:
            return False
        if self.hands[seat] >> self.trump_ace & 1:
            return True
        return seat == self.dealer and self.turnup >> 2 == 12

    def playout(self, rng: Random) -> int:
        """Play uniformly random legal moves (``step``) to the end; the number of moves."""
        n = 0
        while not self.over():
            moves = self.legal_moves()
            self.step(moves[int(rng.random() * len(moves))])
            n += 1
        return n

    def play_id(self, action_id: int) -> int:
        """The public API's fast path for the action with id ``action_id`` (a card's id is
        its code, ``53 + c`` a rob of ``c``, ``106 + c`` a discard): 0 when it is no legal
        action now (nothing changed), 1 when applied, 2 when legal but it finishes a trick
        (not applied: the game keeps what the trick closed first)."""
        if action_id < 0 or action_id > 158:
            return 0
        if action_id < 53:
            code = action_id
        elif action_id < 106:
            code = action_id - 53 + ROB
        else:
            code = action_id - 106 + DISCARD
        if code not in self.legal_moves():
            return 0
        if code < ROB and self.tlen == self.n - 1:
            return 2
        self.apply(code)
        return 1

    def legal_moves(self) -> list[int]:
        p = self.to_play
        out: list[int] = []
        if p < 0:
            return out
        h = self.hands[p]
        if self.trump < 0:
            # F17a: the dealer's discard after a turned-up joker (any card but the joker).
            m = h & ~(1 << JOKER)
            while m:
                low = m & -m
                out.append(DISCARD + low.bit_length() - 1)
                m ^= low
            return out
        rob = self.can_rob(p)
        if not (rob and self.cfg.rob == ROB_MANDATORY):
            if self.tlen == 0:
                m = h
            elif self.led_trump:
                tr = h & self.trump_mask
                m = tr if tr & ~self.priv_now else h
            else:
                f = h & self.follow
                m = f | (h & self.trump_mask) if f else h
            while m:
                low = m & -m
                out.append(low.bit_length() - 1)
                m ^= low
        if rob:
            m = h
            while m:
                low = m & -m
                out.append(ROB + low.bit_length() - 1)
                m ^= low
        return out

    # -- moves ----------------------------------------------------------------------------
    def power(self, c: int, led_suit: int) -> int:
        """F15: card ``c``'s strength in a trick whose led suit is ``led_suit`` (-1: trumps
        led): its trump value, else its plain value in the suit led, else 0 (it cannot win)."""
        v = self.tval[c]
        if v:
            return v
        if c & 3 == led_suit:
            return self.pval[c]
        return 0

    def _count(self, seat: int, c: int) -> None:
        """Add card ``c`` played by ``seat`` to the trick state (F13–F15)."""
        v = self.tval[c]
        if self.tlen == 0:
            if v:
                self.led_trump = True
                self.led_suit = -1
                self.follow = 0
                if self.cfg.renege_always:
                    self.priv_now = self.tops
                else:
                    self.priv_now = self.tops & self.above[c]
            else:
                self.led_trump = False
                self.led_suit = c & 3
                self.follow = PLAIN_MASKS[c & 3]
                v = self.pval[c]
            self.best_seat = seat
            self.best_val = v
        else:
            v = self.power(c, self.led_suit)
            if v > self.best_val:
                self.best_val = v
                self.best_seat = seat
        self.tlen += 1

    def step(self, m: int) -> None:
        """Apply a legal move without recording it for undo."""
        p = self.to_play
        if m >= ROB:
            c = m & 63
            if m >= DISCARD:
                # F17a: the joker discard; then the next stock card is turned up.
                self.hands[p] &= ~(1 << c)
                self.joker_discard = c
                up = self.next_up
                self.turnup = up
                self.stock &= ~(1 << up)
                self.next_up = -1
                self.set_trump(up & 3)
                self.to_play = self.leader
            else:
                # F9: discard c face down, take the turn-up; the same seat still plays.
                self.hands[p] = (self.hands[p] & ~(1 << c)) | (1 << self.turnup)
                self.robbed_seat = p
                self.robbed_discard = c
            return
        self.hands[p] ^= 1 << m
        self.plays.append(m)
        self._count(p, m)
        n = self.n
        if self.tlen < n:
            self.to_play = (p + 1) % n
            return
        # F15/F16: the trick is complete.
        w = self.best_seat
        self.winners.append(w)
        self.tlen = 0
        self.leader = w
        if self.score_trick(w):
            self.to_play = -1  # F16: the game ends at once
            return
        if self.hands[w]:
            self.to_play = w
            return
        self.end_hand(self.side_of[w])

    def score_trick(self, w: int) -> bool:
        """F16: seat ``w`` won a trick (already in ``winners``): its side scores; True
        when that ends the game at once (the target reached, ``play_out_hand`` off)."""
        side = self.side_of[w]
        self.scores[side] += self.ppt
        self.hand_tricks[side] += 1
        if self.win_side < 0 and self.scores[side] >= self.target:
            self.win_side = side
            return not self.cfg.play_out_hand
        return False

    def score_sweep(self, last_side: int) -> None:
        """F17: after the last trick, the bonus when one side took all five tricks."""
        bonus = self.cfg.bonus
        if (
            bonus != BONUS_NONE
            and len(self.winners) == HAND_TRICKS
            and self.hand_tricks[last_side] == HAND_TRICKS
        ):
            if bonus == BONUS_PLUS10:
                self.scores[last_side] += 10
                if self.win_side < 0 and self.scores[last_side] >= self.target:
                    self.win_side = last_side
            elif self.win_side < 0:
                self.win_side = last_side

    def end_hand(self, last_side: int) -> None:
        """After the last trick: F17 bonus, then the game ends or the next hand is dealt."""
        self.score_sweep(last_side)
        if self.win_side >= 0:
            self.to_play = -1
            return
        # F3: the deal passes left.
        self.hand_no += 1
        self.dealer = (self.dealer + 1) % self.n
        self.deal()

    def apply(self, m: int) -> None:
        """Apply a legal move, recording a snapshot for ``undo``."""
        self.stack.append(Snapshot(self))
        self.step(m)

    def undo(self) -> None:
        self.stack.pop().restore(self)

    def copy(self) -> TwentyFiveCore:
        """An independent copy (its undo stack shares the immutable snapshots)."""
        c = TwentyFiveCore(self.cfg)
        Snapshot(self).restore(c)
        c.stack = self.stack[:]
        return c


class Snapshot:
    """What ``undo`` restores: the mutable state before one ``apply``.

    Never mutated once made.  ``plays`` and ``winners`` are only ever appended to (a new
    deal or a restore puts fresh lists in place), so a reference and a length suffice.
    """

    def __init__(self, c: TwentyFiveCore) -> None:
        self.hand_no: int = c.hand_no
        self.dealer: int = c.dealer
        self.turnup: int = c.turnup
        self.trump: int = c.trump
        self.next_up: int = c.next_up
        self.stock: int = c.stock
        self.robbed_seat: int = c.robbed_seat
        self.robbed_discard: int = c.robbed_discard
        self.joker_discard: int = c.joker_discard
        self.hands: list[int] = c.hands[:]
        self.scores: list[int] = c.scores[:]
        self.hand_tricks: list[int] = c.hand_tricks[:]
        self.plays: list[int] = c.plays
        self.nplays: int = len(c.plays)
        self.winners: list[int] = c.winners
        self.nwinners: int = len(c.winners)
        self.leader: int = c.leader
        self.to_play: int = c.to_play
        self.tlen: int = c.tlen
        self.led_suit: int = c.led_suit
        self.follow: int = c.follow
        self.led_trump: bool = c.led_trump
        self.priv_now: int = c.priv_now
        self.best_seat: int = c.best_seat
        self.best_val: int = c.best_val
        self.win_side: int = c.win_side

    def restore(self, c: TwentyFiveCore) -> None:
        """Put this state into ``c`` (copying lists, so the snapshot stays intact)."""
        c.hand_no = self.hand_no
        c.dealer = self.dealer
        c.turnup = self.turnup
        if c.trump != self.trump:
            c.set_trump(self.trump)
        c.next_up = self.next_up
        c.stock = self.stock
        c.robbed_seat = self.robbed_seat
        c.robbed_discard = self.robbed_discard
        c.joker_discard = self.joker_discard
        c.hands = self.hands[:]
        c.scores = self.scores[:]
        c.hand_tricks = self.hand_tricks[:]
        c.plays = self.plays[: self.nplays]
        c.winners = self.winners[: self.nwinners]
        c.leader = self.leader
        c.to_play = self.to_play
        c.tlen = self.tlen
        c.led_suit = self.led_suit
        c.follow = self.follow
        c.led_trump = self.led_trump
        c.priv_now = self.priv_now
        c.best_seat = self.best_seat
        c.best_val = self.best_val
        c.win_side = self.win_side
