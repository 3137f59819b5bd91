"""Svoi Kozyri: why an action is not legal now, read from the seat's view (K3, K7–K11).

``why_not(view, action)`` is None exactly when ``action`` is among the legal actions of
the seat to move (``tests/games/test_why_not.py`` checks this against the engine's
generator); otherwise a ``Why`` names the rule and the cards it is about.
"""

from __future__ import annotations

from trumps.cards import ROB, SUITS, TAKE, TRUMP, card_str, parse_action, parse_card
from trumps.games.base import Why, turn_why
from trumps.games.kozyri._core import beats
from trumps.games.viewtypes import KozyriView, own_cards, seat_of

ACE = 12


def why_not(view: KozyriView, action: str) -> Why | None:
    """Why ``action`` (a string; malformed ones raise ``InvalidAction``) is not legal for
    the reader of ``view`` now, or None when it is legal."""
    code = parse_action(action)
    turn = turn_why(view)
    if turn is not None:
        return turn
    seat = seat_of(view)  # the seat to move (turn_why)
    trumps = view["trumps"]
    mine = trumps[seat]
    if code >= ROB:
        return Why("not_in_game", "")  # rob and discard are Twenty-Five's
    if mine is None:  # K3: the trump choice comes first
        if TRUMP <= code < TRUMP + 4:
            suit = SUITS[code - TRUMP]
            return Why("trump_taken", "K3", suit=suit) if suit in trumps else None
        return Why("choose_trump_first", "K3")
    if TRUMP <= code < TRUMP + 4:
        return Why("trump_already_chosen", "K3", suit=mine)
    trump = SUITS.index(mine)
    hand = own_cards(view)
    pile = view["pile"]
    owes = view["owes_second"]
    if code == TAKE:
        if owes:
            return Why("owe_second_card", "K10")
        if not pile:
            return Why("nothing_to_take", "K7")
        if view["rules"].get("voluntary_pickup"):
            return None
        top = parse_card(pile[-1])
        able = tuple(c for c in hand if beats(parse_card(c), top, trump))
        return Why("must_beat_when_able", "K11", able, mine) if able else None
    c = card_str(code)
    if c not in hand:
        return Why("not_in_hand", "", (c,))
    if owes or not pile:
        return None  # K7, K10: a lead or a second card may be anything
    top = parse_card(pile[-1])
    if beats(code, top, trump):
        return None
    if top & 3 == trump:  # K9: a card of one's own trump is beaten only by a higher one
        if top >> 2 == ACE:
            return Why("own_trump_ace_on_top", "K9", (pile[-1],), mine)
        return Why("own_trump_on_top", "K9", (c, pile[-1]), mine)
    return Why("does_not_beat", "K9", (c, pile[-1]), mine)


__all__ = ["why_not"]
