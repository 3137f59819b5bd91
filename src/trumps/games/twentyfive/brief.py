"""Twenty-Five in brief, for players: each line one sentence of the rules with the ids of
docs/rules/twentyfive.md it sums up.  Both clients show these lines (the page's "How to
play", `trumps play`'s ``rules``); the page's catalogs translate them (``trumps.web.i18n``
reads them as msgids).
"""

from __future__ import annotations

BRIEF: tuple[tuple[str, str], ...] = (
    (
        "F4, F16",
        "Five cards each; the suit of the turned-up card is trumps. Each trick you win is worth 5 points; the first to 25 wins at once.",
    ),
    (
        "F6",
        "The best trumps are the 5, then the J of trumps, then the A♥ (always a trump), then the ace of trumps.",
    ),
    ("F7", "Number cards run “highest in red, lowest in black”: in ♠ and ♣ the 2 beats the 10."),
    (
        "F13",
        "When a plain suit is led, play that suit or a trump (you may trump even when you could follow); with none of that suit, play anything.",
    ),
    (
        "F14",
        "When a trump is led you must play a trump; only the 5, the J and the A♥ may be kept back (reneged), and only against a lower trump.",
    ),
    (
        "F9, F10",
        "If you hold the ace of trumps you may rob: take the turned-up card and put one of yours face down, before you play to the first trick.",
    ),
    (
        "F15",
        "The highest trump wins the trick; with no trump in it, the highest card of the suit led.",
    ),
)
