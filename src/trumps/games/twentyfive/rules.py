"""Twenty-Five rule queries for everything outside the engine (bots, clients, server).

``TrickRules`` answers what a card is worth and what may be played in one hand, from the
very tables the core plays by (F5–F8 card orders, F12 trumps, F13/F14 following and
reneging, F15 trick winners).  Cards are ints as in ``trumps.cards`` (``rank * 4 + suit``,
the joker 52); sets of cards are bitmasks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trumps.cards import JOKER, NUM_CARDS, parse_suit
from trumps.games.twentyfive._core import (
    ABOVE,
    PLAIN_MASKS,
    PVAL,
    TRUMP_MASKS,
    TVAL,
    play_mask,
    top_cards,
)
from trumps.games.twentyfive.options import OPTIONS, RANKING_CODES, RENEGE_CODES

_NO_TRUMPS: tuple[int, ...] = (0,) * NUM_CARDS


class TrickRules:
    """The card strengths and playing rules of a hand whose trump suit is ``trump``.

    ``trump`` is a suit index, or -1 while the dealer still owes the discard for a
    turned-up joker (F17a): then no card is a trump and every suit is plain.  ``rules``
    holds the game's rule options (missing ones take their defaults).
    """

    def __init__(self, trump: int, rules: Mapping[str, object] | None = None) -> None:
        def option(name: str) -> object:
            return (rules or {}).get(name, OPTIONS[name].default)

        self.trump = trump
        #: F9: the card whose holder may rob (the trump ace; the A♥ when hearts are
        #: trumps), -1 while no trump is turned up.
        self.trump_ace = 48 + trump if trump >= 0 else -1
        ranking = RANKING_CODES[str(option("ranking"))]
        self._joker = bool(option("joker"))
        self._renege_always = option("renege_limit") == "always"
        self._pval = PVAL[ranking]
        if trump >= 0:
            self._tval = TVAL[ranking * 4 + trump]
            self._trump_mask = TRUMP_MASKS[trump]
            self._tops = top_cards(trump, RENEGE_CODES[str(option("renege_cards"))])
            self._above = ABOVE[trump]
        else:
            self._tval = _NO_TRUMPS
            self._trump_mask = 0
            self._tops = 0
            self._above = _NO_TRUMPS

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> TrickRules:
        """The rules of the hand a view (or position) shows; its ``trump`` may be null."""
        trump = view.get("trump")
        return cls(-1 if trump is None else parse_suit(str(trump)), view.get("rules"))

    def is_trump(self, c: int) -> bool:
        """F5, F12: the trump suit, the A♥ and the joker are trumps."""
        return self._tval[c] > 0

    def value(self, c: int) -> int:
        """How strong a card is in itself: every trump above every plain card (F6, F7)."""
        return self._tval[c] or self._pval[c]

    def power(self, c: int, led: int) -> int:
        """F15: the strength of ``c`` in a trick led by ``led``; 0 when it cannot win."""
        if self._tval[c]:
            return self._tval[c]
        if not self._tval[led] and c & 3 == led & 3:
            return self._pval[c]
        return 0

    def follow_mask(self, hand: int, led: int) -> int:
        """F13, F14: the cards of ``hand`` that may be played to a trick led by ``led``
        (-1: leading, when any card may be played)."""
        if self.trump < 0:
            return hand
        return play_mask(
            hand,
            led,
            self._tval,
            self._trump_mask,
            self._tops,
            self._above,
            self._renege_always,
        )

    def may_renege(self, c: int) -> bool:
        """F14: ``c`` is one of the trumps that can be privileged under ``renege_cards``
        (whether it is on a given lead is ``privileged``)."""
        return bool(self._tops >> c & 1)

    def privileged(self, c: int, led: int) -> bool:
        """F14: on a trump lead ``led``, ``c`` may be withheld (reneged); never when
        leading (``led`` -1)."""
        if led < 0 or not self._tval[led]:
            return False
        tops = self._tops if self._renege_always else self._tops & self._above[led]
        return bool(tops >> c & 1)

    def trump_mask(self) -> int:
        """F5, F12: every trump of this hand, as a bitmask."""
        return self._trump_mask

    def plain_mask(self, suit: int) -> int:
        """F5, F13: the cards of ``suit`` that are not trumps (the A♥ is never a heart)."""
        return PLAIN_MASKS[suit] & ~self._trump_mask

    def withheld(self, played: int, led: int) -> int:
        """F13, F14, F18: the cards a player cannot have held when it played ``played`` to
        a trick led by ``led`` (a bitmask; 0 when the play reveals nothing, as a lead:
        ``led`` -1).

        A non-trump card to a trump lead shows no trump but privileged ones; a card that
        neither follows a plain suit led nor trumps shows a void in that suit.
        """
        if self.trump < 0 or led < 0 or self._tval[played] or played == led:
            return 0
        if self._tval[led]:
            tops = self._tops if self._renege_always else self._tops & self._above[led]
            return self._trump_mask & ~tops
        plain = self.plain_mask(led & 3)
        return 0 if plain >> played & 1 else plain

    def pack(self) -> list[int]:
        """F2: every card of the pack (the joker too under the ``joker`` option)."""
        return list(range(self._pack_size()))

    def trump_order(self) -> list[int]:
        """F6, F8: the trumps of this hand, best first."""
        cards = [c for c in range(self._pack_size()) if self._tval[c]]
        return sorted(cards, key=lambda c: -self._tval[c])

    def plain_order(self, suit: int) -> list[int]:
        """F7, F8: the cards of ``suit`` that are not trumps, best first."""
        cards = [c for c in range(52) if c & 3 == suit and not self._tval[c] and self._pval[c]]
        return sorted(cards, key=lambda c: -self._pval[c])

    def winner(self, cards: list[int], leader: int, players: int) -> int:
        """F15: the seat whose card wins the (maybe unfinished) trick ``cards`` led by
        ``leader``: the highest trump, else the highest card of the suit led."""
        if not cards:
            raise ValueError("an empty trick has no winner")
        best = max(range(len(cards)), key=lambda i: self.power(cards[i], cards[0]))
        return (leader + best) % players

    def _pack_size(self) -> int:
        return JOKER + 1 if self._joker else JOKER


__all__ = ["TrickRules"]
