"""Cards and actions: small ints inside, canonical strings at the surface (docs/actions.md).

A card is the int ``rank * 4 + suit`` with ranks ``2 3 4 5 6 7 8 9 T J Q K A`` as
0..12 and suits ``S H D C`` as 0..3, so ascending ints are rank-then-suit order
(``2S 2H 2D 2C 3S …``).  The Twenty-Five joker is 52.  A set of cards is an int
bitmask with bit ``c`` set for card ``c``.

An action is an int too: a card code plays that card, ``TAKE`` is the Svoi Kozyri
pick-up, ``TRUMP + s`` chooses suit ``s`` as one's trump (K3) and ``ROB + c`` is the
Twenty-Five rob discarding card ``c`` (F9) and ``DISCARD + c`` the dealer's face-down
discard of ``c`` after taking a turned-up joker (F17a); for both ``a & 63`` is the card.
Sorting action ints gives the documented
order of ``legal_actions()``: cards in rank-then-suit order, then word actions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from trumps.errors import InvalidAction

RANKS: Final = "23456789TJQKA"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RED_SUITS: Final = frozenset({1, 2})

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3

JOKER: Final = 52
NUM_CARDS: Final = 53  # 52 + the joker

# Action codes.
TAKE: Final = 64
TRUMP: Final = 65  # TRUMP + suit
ROB: Final = 128  # ROB + discarded card
DISCARD: Final = 192  # DISCARD + discarded card (F17a)


def card(rank: str, suit: str) -> int:
    """The card of a rank character (``A``, ``T``, ``7`` …) and a suit letter."""
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def rank_of(c: int) -> int:
    """Rank index 0 (two) … 12 (ace)."""
    return c >> 2


def suit_of(c: int) -> int:
    """Suit index 0..3 (``S H D C``)."""
    return c & 3


def card_str(c: int) -> str:
    """Canonical two-character code: ``TH``, ``6D``, ``JK``."""
    if c == JOKER:
        return "JK"
    if not 0 <= c < 52:
        raise ValueError(f"no card has code {c!r}")
    return RANKS[c >> 2] + SUITS[c & 3]


def card_pretty(c: int) -> str:
    """Human form with a suit symbol and ``10`` for the ten: ``10♥``, ``A♠``."""
    if c == JOKER:
        return "Joker"
    r = RANKS[c >> 2]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[c & 3]


_SUIT_ALIASES: Final = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    # Symbol variants: white suits and the emoji presentation selector is stripped below.
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
}


def parse_suit(text: str) -> int:
    """A suit from a letter (any case) or a symbol; raises ``InvalidAction``."""
    s = text.strip().replace("\ufe0f", "").upper()
    if s in _SUIT_ALIASES:
        return _SUIT_ALIASES[s]
    raise InvalidAction(f"{text!r} is not a suit (use one of S H D C or ♠ ♥ ♦ ♣)")


def parse_card(text: str) -> int:
    """A card from ``TH``, ``th``, ``10h``, ``10♥``, ``JK``; raises ``InvalidAction``."""
    s = text.strip().replace("\ufe0f", "").upper()
    if s in ("JK", "JOKER"):
        return JOKER
    if len(s) >= 2:
        rank, suit = s[:-1], s[-1]
        if rank == "10":
            rank = "T"
        if len(rank) == 1 and rank in RANKS and suit in _SUIT_ALIASES:
            return RANKS.index(rank) * 4 + _SUIT_ALIASES[suit]
    raise InvalidAction(f"{text!r} is not a card (write rank then suit, e.g. TH, 10h or 10♥)")


def parse_action(text: str) -> int:
    """An action code from its string form (docs/actions.md); raises ``InvalidAction``.

    Accepts a card, ``take``, ``trump S``, ``rob XX`` and ``discard XX`` in any case and
    spacing.
    Whether the action is legal is for the game to say.
    """
    if not isinstance(text, str):
        raise InvalidAction(f"{text!r} is not an action: actions are strings")
    words = text.split()
    if not words:
        raise InvalidAction(f"{text!r} is not an action: it is empty")
    head = words[0].lower()
    if head == "take" and len(words) == 1:
        return TAKE
    if head == "trump" and len(words) == 2:
        return TRUMP + parse_suit(words[1])
    if head == "rob" and len(words) == 2:
        return ROB + parse_card(words[1])
    if head == "discard" and len(words) == 2:
        return DISCARD + parse_card(words[1])
    if len(words) == 1:
        try:
            return parse_card(words[0])
        except InvalidAction:
            pass
    raise InvalidAction(
        f"{text!r} is not an action (expected a card like TH, 'take', 'trump S', 'rob XX' or 'discard XX')"
    )


def action_str(a: int) -> str:
    """Canonical string of an action code."""
    if 0 <= a < NUM_CARDS:
        return card_str(a)
    if a == TAKE:
        return "take"
    if TRUMP <= a < TRUMP + 4:
        return "trump " + SUITS[a - TRUMP]
    if ROB <= a < ROB + NUM_CARDS:
        return "rob " + card_str(a - ROB)
    if DISCARD <= a < DISCARD + NUM_CARDS:
        return "discard " + card_str(a - DISCARD)
    raise ValueError(f"no action has code {a!r}")


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a bitmask, ascending (rank-then-suit order)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_strs(mask: int) -> list[str]:
    """Canonical codes of a bitmask's cards, ascending."""
    return [card_str(c) for c in cards_of(mask)]


def parse_cards(codes: Iterable[str]) -> list[int]:
    """Parse a list of card codes (raises ``InvalidAction`` naming the bad one)."""
    return [parse_card(c) for c in codes]


def suit_mask(suit: int) -> int:
    """All 13 cards of a suit."""
    m = 0
    for r in range(13):
        m |= 1 << (r * 4 + suit)
    return m


SUIT_MASKS: Final = tuple(suit_mask(s) for s in range(4))
FULL_PACK: Final = (1 << 52) - 1
