"""Reference rules of Svoi Kozyri within one hand (docs/rules/ K8–K17), on position dicts.

Written for clarity, straight from the rule text; it never imports the engine.
Positions are docs/positions.md dicts with every trump chosen (the trump choice K3 and the
deal K5–K6 are out of scope: a hand that ends is a leaf).

* ``legal_actions(position)`` — canonical action strings in the documented order
  (cards rank-then-suit, then ``take``); ``[]`` once the hand is over.
* ``apply(position, action)`` — a new dict (the input is not mutated).  When the
  hand ends the new dict's ``outcome`` holds the hand's result (docs/api.md (Outcome) form),
  ``to_move`` is null and ``owes_second`` false.
* ``hand_over(position)`` — whether the hand has ended.
* ``perft(position, depth)`` — counts action sequences; an ended hand is a leaf.

K17: ``max_plies`` is applied by ``apply`` (the ply counter is in the position).
The repetition draw needs the positions seen since the position was loaded, which a
dict does not hold: ``apply`` takes an optional ``seen`` counter (``position_key`` →
occurrences, the loaded position counting once) and ``perft`` keeps one along each
path, so counts stay exact even at depths where a cycle could repeat.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from reference import rank, sort_cards, suit

Position = dict[str, Any]

DEFAULT_RULES: dict[str, Any] = {
    "voluntary_pickup": False,
    "sixes_to_owner": True,
    "repetition_draw": 3,
    "max_plies": 10000,
    "match_losses": 1,
}


def rule(position: Position, name: str) -> Any:
    """A rule option of the position, defaulting to the `seed` preset (docs/rules/options.md)."""
    rules = position.get("rules")
    if isinstance(rules, dict) and name in rules:
        return rules[name]
    return DEFAULT_RULES[name]


def beats(card: str, top: str, trump: str | None) -> bool:
    """K9: does ``card`` beat ``top`` for a player whose trump suit is ``trump``?"""
    if suit(card) == suit(top) and rank(card) > rank(top):
        return True
    return suit(card) == trump and suit(top) != trump


def pickup_count(top: str, trump: str | None, pile_size: int) -> int:
    """K12: how many cards a pick-up takes, the top card as seen by the picker."""
    if suit(top) != trump:
        return min(3, pile_size)
    if top[0] != "A":
        return min(5, pile_size)
    return pile_size  # the ace of the picker's own trump: the whole pile


def hand_over(position: Position) -> bool:
    return position.get("outcome") is not None


def _players(position: Position) -> int:
    return len(position["hands"])


def _next_holder(position: Position, seat: int) -> int:
    """K1/K15: the next seat clockwise after ``seat`` that still holds cards."""
    n = _players(position)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if position["hands"][s]:
            return s
    raise AssertionError("nobody holds cards")


def legal_actions(position: Position) -> list[str]:
    if hand_over(position) or position.get("to_move") is None:
        return []
    p: int = position["to_move"]
    hand: list[str] = position["hands"][p]
    pile: list[str] = position.get("pile", [])
    trump = position["trumps"][p]
    if position.get("owes_second", False):
        return sort_cards(list(hand))  # K10: any second card
    if not pile:
        return sort_cards(list(hand))  # K7/K13: lead any card
    top = pile[-1]
    beaters = sort_cards([c for c in hand if beats(c, top, trump)])  # K8/K9
    if rule(position, "voluntary_pickup"):
        return [*beaters, "take"]  # K11 `true`: picking up always allowed
    return beaters if beaters else ["take"]  # K11 default: take only when unable to beat


def position_key(position: Position) -> tuple[Any, ...]:
    """K17: what makes two positions the same (hands, pile in order, mover, owed card)."""
    return (
        tuple(frozenset(h) for h in position["hands"]),
        tuple(position.get("pile", [])),
        position.get("to_move"),
        bool(position.get("owes_second", False)),
    )


def _finish(
    position: Position, winners: list[int], losers: list[int], draw: bool, reason: str
) -> None:
    position["outcome"] = {"winners": winners, "losers": losers, "draw": draw, "reason": reason}
    position["to_move"] = None
    position["owes_second"] = False


def apply(
    position: Position, action: str, seen: Counter[tuple[Any, ...]] | None = None
) -> Position:
    """The position after ``action`` (which must be legal).  ``seen`` (optional, updated
    in place) counts earlier positions for the K17 repetition draw."""
    return _apply(position, action, seen)[0]


def _apply(
    position: Position, action: str, seen: Counter[tuple[Any, ...]] | None
) -> tuple[Position, tuple[Any, ...] | None]:
    """``apply``, also returning the key it counted in ``seen`` (None if none)."""
    if action not in legal_actions(position):
        raise ValueError(f"{action!r} is not legal here")
    pos: Position = json.loads(json.dumps(position))  # a deep copy (positions are JSON)
    pos.setdefault("pile", [])
    pos.setdefault("owes_second", False)
    pos.setdefault("ply", 0)
    pos.setdefault("out", [s for s, h in enumerate(pos["hands"]) if not h])
    pos.setdefault("outcome", None)
    p: int = pos["to_move"]
    hands: list[list[str]] = pos["hands"]
    pile: list[str] = pos["pile"]
    trump = pos["trumps"][p]

    if action == "take":
        # K12: the top card as seen by the picker decides how many; K13: next player.
        n = pickup_count(pile[-1], trump, len(pile))
        taken = pile[len(pile) - n :]
        del pile[len(pile) - n :]
        hands[p] = sort_cards(hands[p] + taken)
        pos["to_move"] = _next_holder(pos, p)
        pos["owes_second"] = False
    else:
        leading = not pile
        owed = pos["owes_second"]
        hands[p] = [c for c in hands[p] if c != action]
        pile.append(action)
        if not hands[p]:
            pos["out"].append(p)  # K14: out by leading, second card or beating
        if owed or leading:
            # K10/K7: the second card or a lead passes the turn.
            pos["owes_second"] = False
            pos["to_move"] = _next_holder(pos, p)
        elif hands[p]:
            pos["owes_second"] = True  # K10: a beat owes a second card
        else:
            # K14: beat with the last card: no second card, the next player faces it.
            pos["owes_second"] = False
            pos["to_move"] = _next_holder(pos, p)
    pos["ply"] += 1

    # K16: the hand ends as soon as only one player holds cards.
    holders = [s for s, h in enumerate(hands) if h]
    if len(holders) == 1:
        loser = holders[0]
        last = hands[loser]
        if len(last) == 1 and beats(last[0], pile[-1], pos["trumps"][loser]):
            _finish(pos, [], [], True, "draw_rule")
        else:
            winners = [s for s in range(len(hands)) if s != loser]
            _finish(pos, winners, [loser], False, "out_of_cards")
        return pos, None

    # K17: repetition (third occurrence), then the ply cap.
    key = None
    if seen is not None:
        key = position_key(pos)
        seen[key] += 1
        limit = rule(pos, "repetition_draw")
        if limit and seen[key] >= limit:
            _finish(pos, [], [], True, "repetition")
            return pos, key
    if pos["ply"] >= rule(pos, "max_plies"):
        _finish(pos, [], [], True, "max_plies")
    return pos, key


def perft(position: Position, depth: int) -> int:
    """Number of action sequences of length ``depth``; an ended hand is a leaf (1)."""
    seen: Counter[tuple[Any, ...]] = Counter([position_key(position)])
    return _perft(position, depth, seen)


def _perft(position: Position, depth: int, seen: Counter[tuple[Any, ...]]) -> int:
    if depth == 0 or hand_over(position):
        return 1
    total = 0
    for action in legal_actions(position):
        child, key = _apply(position, action, seen)
        total += _perft(child, depth - 1, seen)
        if key is not None:
            seen[key] -= 1
    return total


def perft_counts(position: Position, depth: int) -> dict[str, int]:
    """Perft for every depth 1..``depth`` as the vector files store them."""
    return {str(d): perft(position, d) for d in range(1, depth + 1)}
