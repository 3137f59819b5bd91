"""From a seat's view back to a full position: the primitive every search bot uses.

A view (docs/views.md) hides other seats' hands (``{"count", "known"}``), the seed, the
Twenty-Five stock and robbing discards.  A search bot guesses those (a determinization)
and needs a position it can load with ``trumps.from_json``; ``position_from_view`` builds
it from the view and the guessed cards, and ``unseen_cards`` says which cards are still
to be placed.  Nothing here looks at anything but the view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trumps.cards import card_str, parse_card
from trumps.games import Game, from_json
from trumps.games.base import VIEW_ONLY_KEYS
from trumps.games.kozyri import rules as kozyri_rules
from trumps.games.twentyfive.rules import TrickRules
from trumps.games.viewtypes import View, own_cards


def pack_of(view: View) -> list[int]:
    """Every card of the game's pack, as the game says (K2; F2 with the joker option)."""
    if view["game"] == "kozyri":
        return kozyri_rules.pack()
    return TrickRules(-1, view["rules"]).pack()


def own_hand(view: View) -> list[int]:
    """The viewing seat's cards."""
    return [parse_card(c) for c in own_cards(view)]


def other_hands(view: View) -> list[tuple[int, int, list[int]]]:
    """For each other seat: ``(seat, card count, known cards)``."""
    out = []
    for s, h in enumerate(view["hands"]):
        if s != view["seat"] and isinstance(h, Mapping):
            out.append((s, int(h["count"]), [parse_card(c) for c in h["known"]]))
    return out


def seen_cards(view: View) -> set[int]:
    """Cards whose place the seat knows: its hand, the table, others' known cards."""
    seen = set(own_hand(view))
    for _, _, known in other_hands(view):
        seen.update(known)
    if view["game"] == "kozyri":
        seen.update(parse_card(c) for c in view["pile"])
    else:
        for trick in view["tricks"]:
            seen.update(parse_card(c) for c in trick["cards"])
        seen.update(parse_card(c) for c in view["trick"])
        robbed = view["robbed"]
        if view["turnup"]:
            # The turn-up lies face up unless robbed (then it is in the robber's known).
            seen.add(parse_card(view["turnup"]))
        if robbed and "discard" in robbed:
            seen.add(parse_card(robbed["discard"]))
        if view["joker_discard"]:
            seen.add(parse_card(view["joker_discard"]))
    return seen


def unseen_cards(view: View) -> list[int]:
    """Cards of the pack the seat cannot place: in other hands (unknown part), or, in
    Twenty-Five, in the stock or a secret discard."""
    seen = seen_cards(view)
    return [c for c in pack_of(view) if c not in seen]


def position_from_view(
    view: View,
    hands: Mapping[int, Sequence[int]],
    *,
    robbed_discard: int | None = None,
    joker_discard: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """A full position (docs/positions.md) agreeing with ``view`` where other seats hold ``hands``.

    ``hands`` maps each other seat to its whole hand (known cards included).  In
    Twenty-Five, a rob by another seat needs its secret ``robbed_discard``, and a joker
    discard owed by another dealer its ``joker_discard``; the stock becomes every card
    listed nowhere else.  ``seed`` only matters for deals after this hand.
    """
    position: dict[str, Any] = {
        k: v for k, v in view.items() if k not in VIEW_ONLY_KEYS and k not in ("hands", "known")
    }
    full: list[list[str]] = []
    for s, h in enumerate(view["hands"]):
        if isinstance(h, Mapping):
            if s not in hands:
                raise ValueError(f"seat {s}'s hand is hidden in the view and was not given")
            full.append([card_str(c) for c in hands[s]])
        else:
            full.append(list(h))
    position["hands"] = full
    position["seed"] = seed
    if view["game"] == "kozyri":
        # K19: what each seat is known to hold; the viewer's own entry is ``own_known``.
        position["known"] = [
            list(h["known"]) if isinstance(h, Mapping) else list(view["own_known"] or [])
            for h in view["hands"]
        ]
    if view["game"] == "twentyfive":
        robbed = view.get("robbed")
        if robbed is not None and "discard" not in robbed:
            if robbed_discard is None:
                raise ValueError("another seat robbed: its secret discard must be given")
            position["robbed"] = {"seat": robbed["seat"], "discard": card_str(robbed_discard)}
        if joker_discard is not None:
            position["joker_discard"] = card_str(joker_discard)
    return position


def game_from_view(
    view: View,
    hands: Mapping[int, Sequence[int]],
    *,
    robbed_discard: int | None = None,
    joker_discard: int | None = None,
) -> Game:
    """``from_json(position_from_view(...))``."""
    return from_json(
        position_from_view(view, hands, robbed_discard=robbed_discard, joker_discard=joker_discard)
    )
