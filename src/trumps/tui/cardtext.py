"""Cards, suits and actions as the terminal shows them (``10♥``, red suits red).

Shared by ``trumps play``, the online client and its replay.  Every function is pure and
returns a ``rich.text.Text`` (its ``.plain`` is the text without colour), except
``typed_action`` and ``card_from_words``, which read what a person typed (codes, or cards in
English words as the page's text mode reads them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text

from trumps.cards import (
    JOKER,
    RANKS,
    RED_SUITS,
    SUIT_SYMBOLS,
    action_str,
    parse_action,
    parse_card,
    parse_suit,
    rank_of,
    suit_of,
)
from trumps.errors import InvalidAction
from trumps.games.twentyfive.rules import TrickRules

RED = "red"
JOKER_STYLE = "bold magenta"


def join(*parts: str | Text) -> Text:
    """The parts one after another (strings unstyled)."""
    out = Text()
    for p in parts:
        out.append_text(p if isinstance(p, Text) else Text(p))
    return out


def _rank_label(c: int) -> str:
    rank = RANKS[rank_of(c)]
    return "10" if rank == "T" else rank


def card_text(code: str | int) -> Text:
    """A card as ``10♥`` (red suits red), the joker as ``Joker``."""
    c = parse_card(code) if isinstance(code, str) else code
    if c == JOKER:
        return Text("Joker", style=JOKER_STYLE)
    s = suit_of(c)
    return Text(_rank_label(c) + SUIT_SYMBOLS[s], style=RED if s in RED_SUITS else "")


def suit_text(suit: str | int | None) -> Text:
    """A suit symbol (red suits red); ``–`` for none."""
    if suit is None:
        return Text("–")
    s = parse_suit(suit) if isinstance(suit, str) else suit
    return Text(SUIT_SYMBOLS[s], style=RED if s in RED_SUITS else "")


def cards_text(codes: Sequence[str | int], sep: str = " ") -> Text:
    """Cards in the order given, separated by ``sep``."""
    return Text(sep).join(card_text(c) for c in codes)


def _strength(view: Mapping[str, Any] | None) -> Callable[[int], int]:
    """How high a card ranks in the hand ``view`` shows, as the game says: in Twenty-Five
    its strength in that hand (the 2♠ above the 8♠, the A♦ below the 2♦ unless diamonds are
    trumps, the trumps' own order); elsewhere the plain rank (A K Q … 6)."""
    if view is not None and view.get("game") == "twentyfive":
        return TrickRules.of_view(view).value
    return lambda c: c


def _key(c: int, strength: Callable[[int], int]) -> tuple[int, int, int]:
    return (4, 0, 0) if c == JOKER else (suit_of(c), -strength(c), -c)


def card_key(code: str, view: Mapping[str, Any] | None = None) -> tuple[int, int, int]:
    """The order a hand is shown in: by suit (♠ ♥ ♦ ♣, the joker last), high cards first,
    as the game ranks them in the hand of ``view`` (if given)."""
    return _key(parse_card(code), _strength(view))


def sorted_cards(codes: Sequence[Any], view: Mapping[str, Any] | None = None) -> list[str]:
    """``codes`` as strings in hand order (``card_key``, for the hand of ``view``)."""
    strength = _strength(view)
    return sorted((str(c) for c in codes), key=lambda code: _key(parse_card(code), strength))


def hand_text(
    codes: Sequence[str],
    marked_suit: int | None = None,
    view: Mapping[str, Any] | None = None,
) -> Text:
    """A hand grouped by suit (♠ ♥ ♦ ♣), high cards first: ``♠ A K 9   ♥ Q 6``; the
    ``marked_suit`` group gets ``(trumps)``.  ``view`` (the position the hand is in) says
    how high each card ranks: in Twenty-Five ``♠ K Q J A 2 … 10`` when spades are plain."""
    ordered = [parse_card(c) for c in sorted_cards(codes, view)]
    groups: list[Text] = []
    for s in range(4):
        in_suit = [c for c in ordered if c != JOKER and suit_of(c) == s]
        if not in_suit:
            continue
        style = RED if s in RED_SUITS else ""
        g = Text(SUIT_SYMBOLS[s], style=f"{style} bold" if style else "bold")
        for c in in_suit:
            g.append(" " + _rank_label(c), style=style)
        if s == marked_suit:
            g.append(" (trumps)", style="dim")
        groups.append(g)
    if JOKER in ordered:
        groups.append(Text("Joker", style=JOKER_STYLE))
    return Text("   ").join(groups) if groups else Text("(no cards)")


# ---------------------------------------------------------------- actions


def joker_discard_owed(view: Mapping[str, Any] | None) -> bool:
    """True while a Twenty-Five dealer owes the discard for a turned-up joker: the view
    then names no trump suit yet."""
    return (
        view is not None
        and view.get("game") == "twentyfive"
        and view.get("trump") is None
        and view.get("to_move") is not None
        and view.get("outcome") is None
    )


def is_discard(action: str, view: Mapping[str, Any] | None = None) -> bool:
    """True for the joker discard: ``discard XX`` (or, in an old record that words it
    ``rob XX``, a rob while the discard is owed in ``view``)."""
    head = action.split(" ", 1)[0]
    return head == "discard" or (head == "rob" and joker_discard_owed(view))


def action_label(action: str, view: Mapping[str, Any] | None = None) -> Text:
    """An action as shown: ``10♥``, ``take``, ``trump ♠``, ``rob (discard 9♠)``,
    ``discard 9♠``; ``view`` (the position the action is played in) tells a joker discard
    worded ``rob XX`` from a rob.  Another seat's private action reads ``robs the turn-up``
    or ``discards face down``."""
    head, _, rest = action.partition(" ")
    try:
        if not rest:
            if head == "take":
                return Text("take")
            if head == "rob":
                return Text("robs the turn-up")
            if head == "discard":
                return Text("discards a card face down")
            return card_text(action)
        if head == "trump":
            return join("trump ", suit_text(rest))
        if is_discard(action, view):
            return join("discard ", card_text(rest))
        if head == "rob":
            return join("rob (discard ", card_text(rest), ")")
    except InvalidAction:
        pass
    return Text(action)


def typed_label(action: str) -> str:
    """An action the way it can be typed back and the way the hand writes it: ``10♥``,
    ``take``, ``trump ♠``, ``rob 9♠``, ``discard 9♠`` (``typed_action`` reads each)."""
    head, _, rest = action.partition(" ")
    try:
        if not rest:
            return action if head in ("take", "rob", "discard") else card_text(action).plain
        if head == "trump":
            return f"trump {suit_text(rest).plain}"
        if head in ("rob", "discard"):
            return f"{head} {card_text(rest).plain}"
    except InvalidAction:
        pass
    return action


def legal_in_hand_order(legal: Sequence[str], view: Mapping[str, Any] | None = None) -> list[str]:
    """The legal actions ordered like the hand of ``view``: the cards as the hand shows
    them, then the other actions in the game's order (rob and discard by their card)."""
    cards = [a for a in legal if " " not in a and a not in ("take", "rob", "discard")]
    order = {c: i for i, c in enumerate(sorted_cards(cards, view))}
    words = [a for a in legal if a not in order]
    by_card: dict[str, list[str]] = {}
    for a in words:
        by_card.setdefault(a.partition(" ")[0], []).append(a)
    out = sorted(cards, key=order.__getitem__)
    for head, group in by_card.items():
        if head in ("rob", "discard") and all(" " in a for a in group):
            group = [f"{head} {c}" for c in sorted_cards([a.split()[1] for a in group], view)]
        out += group
    return out


def legal_words(legal: Sequence[str], view: Mapping[str, Any] | None = None) -> str:
    """``10♠ Q♥ take``: the legal actions written like the hand, in its order."""
    return " ".join(typed_label(a) for a in legal_in_hand_order(legal, view))


# Cards in English words, as the page's text mode reads them (web/static/textcmd.js, which
# reads the page's other languages too): "ten of hearts", "10 of hearts", "ten hearts".
_RANK_WORDS: dict[str, str] = {
    "ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "10": "T", "nine": "9",
    "eight": "8", "seven": "7", "six": "6", "five": "5", "four": "4", "three": "3", "two": "2",
    **{str(n): str(n) for n in range(2, 10)},
}  # fmt: skip
_SUIT_WORDS: dict[str, str] = {
    "spades": "S", "spade": "S", "hearts": "H", "heart": "H",
    "diamonds": "D", "diamond": "D", "clubs": "C", "club": "C",
}  # fmt: skip


def card_from_words(text: str) -> str | None:
    """The card code for a card named in English words (``ten of hearts``, ``the 10 of
    hearts``, ``ten hearts``, ``joker``), else None."""
    words = text.lower().replace(".", " ").split()
    if words[:1] == ["the"]:
        words = words[1:]
    if words == ["joker"]:
        return "JK"
    if len(words) == 3 and words[1] == "of":
        words = [words[0], words[2]]
    if len(words) != 2 or words[0] not in _RANK_WORDS or words[1] not in _SUIT_WORDS:
        return None
    return _RANK_WORDS[words[0]] + _SUIT_WORDS[words[1]]


def _from_words(text: str) -> str:
    """``text`` with a card or suit in words written as the code ``parse_action`` reads:
    ``play ten of hearts`` → ``TH``, ``rob nine of spades`` → ``rob 9S``, ``trump hearts`` →
    ``trump H``; anything else as it was."""
    words = text.replace(".", " ").split()
    head = words[0].lower() if words else ""
    if head == "play":
        if len(words) == 1:
            raise InvalidAction(
                f"{text!r}: write play then a card, e.g. play ten of hearts or play TH"
            )
        return _from_words(" ".join(words[1:]))
    rest = " ".join(words[1:])
    if head in ("rob", "discard") and len(words) > 2:
        card = card_from_words(rest)
        return f"{head} {card}" if card else text
    if head == "trump" and len(words) == 2 and words[1].lower() in _SUIT_WORDS:
        return f"trump {_SUIT_WORDS[words[1].lower()]}"
    return card_from_words(text) or text


def typed_action(text: str) -> str:
    """The canonical action for what a person typed (``th``, ``10♥``, ``take``, ``trump s``,
    ``rob 9s``, ``discard 9s``, or in words as the page's text mode takes them: ``play ten
    of hearts``, ``rob nine of spades``, ``trump hearts``); raises ``InvalidAction`` with a
    one-line reason.  Whether it is legal is for the game to say."""
    text = _from_words(text)
    words = text.split()
    if words and words[0].lower() == "discard" and len(words) != 2:
        raise InvalidAction(f"{text!r}: write discard then a card, e.g. discard 9S")
    return action_str(parse_action(text))


__all__ = [
    "action_label",
    "card_from_words",
    "card_key",
    "card_text",
    "cards_text",
    "hand_text",
    "is_discard",
    "join",
    "joker_discard_owed",
    "legal_in_hand_order",
    "legal_words",
    "sorted_cards",
    "suit_text",
    "typed_action",
    "typed_label",
]
