"""Svoi Kozyri in brief, for players: each line one sentence of the rules with the ids of
docs/rules/kozyri.md it sums up.  Both clients show these lines (the page's "How to play",
`trumps play`'s ``rules``); the page's catalogs translate them (``trumps.web.i18n`` reads
them as msgids).
"""

from __future__ import annotations

BRIEF: tuple[tuple[str, str], ...] = (
    ("K3", "Before the deal everyone chooses a trump suit of their own; no two players share one."),
    (
        "K5, K16",
        "All 36 cards (6 to ace) are dealt. Get rid of all your cards: the last player holding cards loses.",
    ),
    ("K7, K8", "Lead any card onto the pile. The next player must beat the top card or pick up."),
    (
        "K9",
        "A card beats the top card if it is a higher card of the same suit, or one of your own trumps when the top card is not of your trump suit.",
    ),
    (
        "K10",
        "After you beat, play a second card of your choice on top: the next player faces that card.",
    ),
    (
        "K11, K12",
        "You pick up only when you cannot beat (default rules): 3 cards, 5 if the top card is of your trump suit, the whole pile if it is the ace of your trumps.",
    ),
    ("K16", "If the last player holds a single card that beats the top card, the hand is a draw."),
)
