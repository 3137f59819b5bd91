"""The rules in brief, as "How to play" in the page shows them (``web/static/help.js``,
whose English text this is: ``tests/tui/test_whytext.py`` keeps the two equal), for
``trumps play``'s ``rules`` command.  From docs/rules/kozyri.md and docs/rules/twentyfive.md,
each line with its rule ids.
"""

from __future__ import annotations

RULES: dict[str, list[tuple[str, str]]] = {
    "kozyri": [
        (
            "K3",
            "Before the deal everyone chooses a trump suit of their own; no two players share one.",
        ),
        (
            "K5, K16",
            "All 36 cards (6 to ace) are dealt. Get rid of all your cards: the last player holding cards loses.",
        ),
        (
            "K7, K8",
            "Lead any card onto the pile. The next player must beat the top card or pick up.",
        ),
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
        (
            "K16",
            "If the last player holds a single card that beats the top card, the hand is a draw.",
        ),
    ],
    "twentyfive": [
        (
            "F4, F16",
            "Five cards each; the suit of the turned-up card is trumps. Each trick you win is worth 5 points; the first to 25 wins at once.",
        ),
        (
            "F6",
            "The best trumps are the 5, then the J of trumps, then the A♥ (always a trump), then the ace of trumps.",
        ),
        (
            "F7",
            "Number cards run “highest in red, lowest in black”: in ♠ and ♣ the 2 beats the 10.",
        ),
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
    ],
}


def rules_text(game_id: str, title: str) -> str:
    """The rules of ``game_id`` as numbered lines under ``How to play <title>``."""
    lines = [f"How to play {title}:"]
    for i, (ids, text) in enumerate(RULES[game_id], 1):
        lines.append(f"  {i}. {text} ({ids})")
    return "\n".join(lines)


__all__ = ["RULES", "rules_text"]
