"""Reasons as English sentences for the terminal clients: why an action is not legal now,
and why a hint's move is good.

The first comes from the game (``Game.why_not`` / ``GameClass.why_not_in`` on the seat's
view, docs/api.md#rule-queries), worded here with its rule id; the second from the bot
(``Decision.explain``, the ``hint`` message's ``why``: docs/protocol.md#hint).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trumps.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS
from trumps.games import GAMES
from trumps.games.base import Why
from trumps.games.viewtypes import View
from trumps.tui.cardtext import action_label, card_text


def _card(code: str) -> str:
    return card_text(code).plain


def _suit(letter: str | None) -> str:
    if letter is None:
        return "–"
    i = SUITS.index(letter)
    return f"{SUIT_NAMES[i]} ({SUIT_SYMBOLS[i]})"


def _name(letter: str | None) -> str:
    return SUIT_NAMES[SUITS.index(letter)] if letter else "–"


def why_text(why: Why) -> str:
    """One sentence (with its rule id) for ``why``."""
    cards = [_card(c) for c in why.cards]
    suit = _suit(why.suit)
    first = cards[0] if cards else ""
    last = cards[-1] if cards else ""
    words = {
        "game_over": "The game is over.",
        "not_your_turn": "It is not your turn.",
        "not_in_game": "This game has no such action.",
        "not_in_hand": f"You do not hold {first}.",
        "choose_trump_first": "Choose your trump suit first.",
        "trump_taken": f"{suit.capitalize()} is already another player's trump.",
        "trump_already_chosen": f"You have chosen your trump suit already: {suit}.",
        "nothing_to_take": "The pile is empty: there is nothing to pick up; lead any card.",
        "does_not_beat": (
            f"{first} does not beat {last}: beat it with a higher card of its suit "
            f"or with one of your trumps, {suit}."
        ),
        "own_trump_on_top": (
            f"{first} does not beat {last}: a card of your own trump suit is beaten "
            f"only by a higher {SUIT_SYMBOLS[SUITS.index(why.suit or 'S')]}."
        ),
        "own_trump_ace_on_top": f"Nothing beats {first}, the ace of your own trump suit: take.",
        "owe_second_card": "You beat: now play a second card of your choice.",
        "must_beat_when_able": (
            f"You must beat when you can ({', '.join(cards)} can beat the top card): "
            "picking up is only for when nothing beats."
        ),
        "rob_needs_trump_ace": f"Only the holder of the trump ace ({first}) may rob.",
        "rob_off": "Robbing is switched off at this table.",
        "already_robbed": "The turn-up has been robbed already.",
        "rob_first_trick_only": "You may rob only before you play to the first trick.",
        "must_rob": "You hold the trump ace: at this table you must rob first.",
        "must_follow": (
            f"You must follow {_name(why.suit)} ({last} was led) or play a trump; "
            f"{first} is neither."
        ),
        "must_play_trump": f"A trump was led ({last}): you must play a trump.",
        "renege_only_vs_lower": (
            f"{', '.join(cards[:-1])} may be kept back only when a lower trump is led, "
            f"and {last} was led: you must play a trump."
        ),
        "joker_discard_first": "You took the turned-up joker: first discard a card face down.",
        "joker_kept": f"You cannot discard {first}. It stays in your hand: discard another card.",
        "no_discard_owed": "There is no discard to make now.",
    }
    text = words.get(why.code, f"That is not allowed now ({why.code}).")
    return f"{text} ({why.rule})" if why.rule else text


def why_not_text(view: View, action: str) -> str | None:
    """The sentence for why ``action`` is not legal in ``view`` (the reader's view), or
    None when it is legal; ``action`` must be canonical (``typed_action``)."""
    why = GAMES[view["game"]].why_not_in(view, action)
    return None if why is None else why_text(why)


# The rules of thumb of the easy and medium bots (docs/protocol.md#hint): each sentence with
# the action's label for {a}.
_THUMB: dict[str, str] = {
    "guess": "No rule of thumb decides here: {a} is as good a guess as any.",
    "cannot_beat": "Nothing you hold beats the top card: pick up.",
    "take_costly": "Pick up: every card that beats it would spend a top trump or let the "
    "next player go out.",
    "beat_cheapest": "Beat with {a}: the cheapest card that does.",
    "beat_and_go_out": "Beat with {a} and go out.",
    "go_out": "Play {a}, your last card, and you are out.",
    "shed_low": "Play {a}: a low card the next player will find hard to beat.",
    "unbeatable": "Play {a}: the next player cannot beat it and must pick up.",
    "their_trump": "Play {a}: it is of the next player's trumps, so only a higher one of "
    "those beats it.",
    "cheap_attack": "Play {a}: cheap for you, and costly for the next player to beat.",
    "joker_discard": "{A}: your weakest card goes, before the trump suit is known.",
    "rob_weakest": "{A}: take the turn-up and give up your weakest card.",
    "lead_sure": "One more trick wins the game: lead {a}, the card most likely to take it.",
    "master_trump": "Lead {a}: no one can beat it.",
    "draw_trumps": "Lead {a}: with several trumps, lead high to draw out the others' trumps.",
    "lead_strong": "Lead {a}: a strong card that will probably win the trick.",
    "lead_plain": "Lead {a}, your plain card most likely to win the trick, and keep your trumps.",
    "only_trumps": "You hold only trumps: lead the strongest, {a}.",
    "win_cheaply": "Win the trick as cheaply as you can: play {a}.",
    "win_last": "You play last: {a} is the cheapest card that wins the trick.",
    "trick_ours": "Your side is winning this trick already: throw away {a}, your weakest card.",
    "trick_lost": "This trick is lost: throw away {a} and keep your good cards.",
}


def hint_text(
    action: str, why: Mapping[str, Any] | None, view: Mapping[str, Any] | None = None
) -> str:
    """The hint as a sentence: ``why`` is the bot's reason (``{"code", "numbers"}``, or
    None), ``view`` the position it is for (to label a joker discard)."""
    label = action_label(action, view).plain
    code = (why or {}).get("code")
    n = {k: round(float(v)) for k, v in ((why or {}).get("numbers") or {}).items()}
    if code == "only_move":
        return f"Hint: {label} is your only legal move."
    if code == "neutral_trump":
        return f"Hint: {label}. Any free suit will do: trumps are chosen before the deal."
    if code == "sampled":
        return (
            f"Hint: play {label}. Of all your moves it wins the most deals "
            f"({n.get('percent', 0)} of 100)."
        )
    if code == "solved_win":
        return (
            f"Hint: play {label}. With it you win this hand whatever the others do "
            f"({n.get('moves', 0)} moves to the end)."
        )
    if code == "solved_loss":
        return (
            "Hint: you cannot win this hand if your opponent plays well; "
            f"{label} holds out longest ({n.get('moves', 0)} moves)."
        )
    if code == "solved_draw":
        return f"Hint: play {label}. If both of you play well, the hand ends in a draw."
    if code == "all_win":
        return f"Hint: you win this hand whatever you play; {label} is as good as any."
    if code == "searched":
        return (
            f"Hint: play {label}. It is your best move, with about {n.get('percent', 0)} "
            "chances in 100 to win."
        )
    if code == "take_cheap":
        cards = n.get("cards", 0)
        return (
            f"Hint: pick up. It is only {cards} card{'' if cards == 1 else 's'}, and beating "
            "would cost one of your best trumps."
        )
    if isinstance(code, str) and code in _THUMB:
        text = _THUMB[code].replace("{a}", label).replace("{A}", label[:1].upper() + label[1:])
        return f"Hint: {text}"
    return f"Hint: play {label}."


__all__ = ["hint_text", "why_not_text", "why_text"]
