"""Twenty-Five: why an action is not legal now, read from the seat's view (F9–F14, F17a).

``why_not(view, action)`` is None exactly when ``action`` is among the legal actions of
the seat to move (``tests/games/test_why_not.py`` checks this against the engine's
generator); otherwise a ``Why`` names the rule and the cards it is about.
"""

from __future__ import annotations

from trumps.cards import DISCARD, JOKER, ROB, SUITS, card_str, mask_of, parse_action, parse_card
from trumps.games.base import Why, turn_why
from trumps.games.twentyfive.options import OPTIONS
from trumps.games.twentyfive.rules import TrickRules
from trumps.games.viewtypes import TwentyFiveView, own_cards, seat_of


def _option(view: TwentyFiveView, name: str) -> object:
    return view["rules"].get(name, OPTIONS[name].default)


def rob_why(view: TwentyFiveView) -> Why | None:
    """F9, F10: why the seat to move may not rob now, or None when it may."""
    if _option(view, "rob") == "off":
        return Why("rob_off", "F10")
    if view["robbed"] is not None:
        return Why("already_robbed", "F10")
    if view["tricks"]:
        return Why("rob_first_trick_only", "F10")
    trump = view["trump"]
    if trump is None:  # F17a: the dealer's joker discard comes first
        return Why("joker_discard_first", "F17a")
    ace = card_str(48 + SUITS.index(trump))
    seat = seat_of(view)  # the seat to move (why_not's turn_why)
    if ace in own_cards(view):
        return None
    turnup = view["turnup"]
    if seat == view["dealer"] and turnup is not None and turnup[0] == "A":
        return None  # F9: the dealer robs a turned-up ace
    return Why("rob_needs_trump_ace", "F9", (ace,), trump)


def why_not(view: TwentyFiveView, action: str) -> Why | None:
    """Why ``action`` (a string; malformed ones raise ``InvalidAction``) is not legal for
    the reader of ``view`` now, or None when it is legal."""
    code = parse_action(action)
    turn = turn_why(view)
    if turn is not None:
        return turn
    hand = own_cards(view)  # the seat to move's (turn_why)
    if 64 <= code < ROB:
        return Why("not_in_game", "")  # take and trump choices are Svoi Kozyri's
    c = card_str(code & 63 if code >= ROB else code)
    if view["trump"] is None:  # F17a: the dealer owes a discard for the joker
        if code < DISCARD:
            return Why("joker_discard_first", "F17a")
        if c not in hand:
            return Why("not_in_hand", "", (c,))
        return Why("joker_kept", "F17a", (c,)) if code & 63 == JOKER else None
    if code >= DISCARD:
        return Why("no_discard_owed", "F17a")
    if c not in hand:
        return Why("not_in_hand", "", (c,))
    rob = rob_why(view)
    if code >= ROB:
        return rob
    if rob is None and _option(view, "rob") == "mandatory":
        return Why("must_rob", "F10")
    trick = view["trick"]
    if not trick:
        return None  # F11: any card may lead
    rules = TrickRules.of_view(view)
    led = parse_card(trick[0])
    cards = [parse_card(x) for x in hand]
    if rules.follow_mask(mask_of(cards), led) >> code & 1:
        return None
    if not rules.is_trump(led):
        return Why("must_follow", "F13", (c, trick[0]), SUITS[led & 3])
    # F14: a trump lead; the hand holds a trump that may not be kept back.
    kept = [x for x in cards if rules.may_renege(x) and not rules.privileged(x, led)]
    plain = [x for x in cards if rules.is_trump(x) and not rules.may_renege(x)]
    if kept and not plain:
        shown = (*(card_str(x) for x in kept), trick[0])
        return Why("renege_only_vs_lower", "F14", shown, view["trump"])
    return Why("must_play_trump", "F14", (c, trick[0]), view["trump"])


__all__ = ["rob_why", "why_not"]
