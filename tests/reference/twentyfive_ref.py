"""Reference rules of Twenty-Five within one hand (docs/rules/ F5–F16), on position dicts.

Written for clarity, straight from the rule text; it never imports the engine.
The deal (F3, F4, F17a) is out of scope: a hand that ends — the fifth trick played, or
the target reached (F16) — is a leaf.

* ``legal_actions(position)`` — canonical action strings in the documented order
  (cards rank-then-suit with the joker last, then ``rob XX`` by the discarded card).
* ``apply(position, action)`` — a new dict (the input is not mutated).  When the hand
  ends, ``to_move`` is null and ``leader`` is dropped (what the engine shows there is not
  specified); the game's ``outcome`` is set when a side reached the target.
* ``hand_over(position)`` — the fifth trick is done or the game is over.

Not modelled: ``five_trick_bonus`` other than ``none`` (F17: applies at the hand's end,
which is a leaf here anyway).
"""

from __future__ import annotations

import json
from typing import Any

from reference import sort_cards

Position = dict[str, Any]

DEFAULT_RULES: dict[str, Any] = {
    "ranking": "classic",
    "rob": "optional",
    "renege_cards": "top3",
    "renege_limit": "lower_led",
    "joker": False,
    "target": 25,
    "points_per_trick": 5,
    "play_out_hand": False,
    "five_trick_bonus": "none",
}

JOKER = "JK"
ACE_OF_HEARTS = "AH"


def rule(position: Position, name: str) -> Any:
    """A rule option of the position, defaulting to the `classic` preset (docs/rules/options.md)."""
    rules = position.get("rules")
    if isinstance(rules, dict) and name in rules:
        return rules[name]
    return DEFAULT_RULES[name]


def trump_suit(position: Position) -> str:
    trump = position.get("trump")
    return str(trump) if trump else str(position["turnup"][1])


def is_trump(card: str, trump: str) -> bool:
    """F12 (and F2): the trump suit, the A♥ and the joker are trumps."""
    return card in (JOKER, ACE_OF_HEARTS) or card[1] == trump


def trump_order(trump: str, ranking: str) -> list[str]:
    """F6 / F8: the trumps, high to low (the joker, F2, between the J and the A♥)."""
    top = ["5" + trump, "J" + trump, JOKER, ACE_OF_HEARTS]
    if trump != "H":
        top.append("A" + trump)
    top += ["K" + trump, "Q" + trump]
    if ranking == "classic" and trump in "SC":
        numbers = "2346789T"  # F6: black trumps run 2 (high) … 10 (low)
    else:
        numbers = "T9876432"  # F6 red trumps, F8 as-written: every trump suit 10 → 2
    return top + [r + trump for r in numbers]


def plain_order(suit: str, ranking: str) -> list[str]:
    """F7 / F8: a plain suit, high to low (the A♥ is never a heart, F5)."""
    if ranking == "classic":
        ranks = {"H": "KQJT98765432", "D": "KQJT98765432A", "S": "KQJA23456789T"}[
            "S" if suit == "C" else suit
        ]
    else:  # F8 as-written: K Q J A then numbers, red 10 → 2, black 2 → 10
        ranks = "KQJA" + ("T98765432" if suit in "HD" else "23456789T")
    return [r + suit for r in ranks if r + suit != ACE_OF_HEARTS]


def _players(position: Position) -> int:
    return len(position["hands"])


def _played_this_hand(position: Position, seat: int) -> bool:
    n = _players(position)
    for trick in position.get("tricks", []):
        if seat in ((trick["leader"] + i) % n for i in range(len(trick["cards"]))):
            return True
    trick = position.get("trick", [])
    leader = _leader(position)
    return seat in ((leader + i) % n for i in range(len(trick)))


def can_rob(position: Position, seat: int) -> bool:
    """F9/F10: the trump ace's holder (the A♥ only with hearts trumps), or the dealer
    when the turn-up is an ace, before playing to trick 1; once per hand."""
    if rule(position, "rob") == "off" or position.get("robbed") is not None:
        return False
    if _played_this_hand(position, seat):
        return False
    trump = trump_suit(position)
    if "A" + trump in position["hands"][seat]:
        return True
    return position["turnup"][0] == "A" and seat == _dealer(position)


def _dealer(position: Position) -> int:
    if position.get("dealer") is not None:
        return int(position["dealer"])
    n = _players(position)
    first = position["tricks"][0]["leader"] if position.get("tricks") else _leader(position)
    return (first - 1) % n  # docs/positions.md: the seat before trick 1's leader


def _leader(position: Position) -> int:
    leader = position.get("leader")
    return int(position["to_move"] if leader is None else leader)


def privileged(card: str, led: str, position: Position) -> bool:
    """F14: a top trump that may be withheld on a trump lead (the joker counts as one)."""
    trump = trump_suit(position)
    cards = rule(position, "renege_cards")
    if cards == "top3":
        top = {"5" + trump, "J" + trump, JOKER, ACE_OF_HEARTS}
    elif cards == "five_only":
        top = {"5" + trump}
    else:
        top = set()
    if card not in top:
        return False
    if rule(position, "renege_limit") == "always":
        return True
    order = trump_order(trump, rule(position, "ranking"))
    return order.index(card) < order.index(led)  # lower_led: only above the led trump


def playable(position: Position) -> list[str]:
    """F11/F13/F14: the cards the player to move may play to the current trick."""
    p: int = position["to_move"]
    hand: list[str] = position["hands"][p]
    trick: list[str] = position.get("trick", [])
    trump = trump_suit(position)
    if not trick:
        return sort_cards(list(hand))  # F11: any card may be led
    led = trick[0]
    if is_trump(led, trump):
        # F14: a non-privileged trump in hand forces a trump; otherwise anything (renege).
        trumps = [c for c in hand if is_trump(c, trump)]
        if any(not privileged(c, led, position) for c in trumps):
            return sort_cards(trumps)
        return sort_cards(list(hand))
    # F13: plain suit led: follow with a non-trump of that suit or trump, else anything.
    followers = [c for c in hand if not is_trump(c, trump) and c[1] == led[1]]
    if followers:
        return sort_cards(followers + [c for c in hand if is_trump(c, trump)])
    return sort_cards(list(hand))


def hand_over(position: Position) -> bool:
    return position.get("outcome") is not None or all(not h for h in position["hands"])


def legal_actions(position: Position) -> list[str]:
    if hand_over(position) or position.get("to_move") is None:
        return []
    p: int = position["to_move"]
    robs = []
    if can_rob(position, p):
        robs = ["rob " + c for c in sort_cards(list(position["hands"][p]))]
        if rule(position, "rob") == "mandatory":
            return robs  # F10 `mandatory`: rob before playing
    return playable(position) + robs


def trick_winner(cards: list[str], leader: int, position: Position) -> int:
    """F15: the highest trump, else the highest card of the suit led; discards never win."""
    n = _players(position)
    trump = trump_suit(position)
    ranking = rule(position, "ranking")
    trumps = [c for c in cards if is_trump(c, trump)]
    if trumps:
        order = trump_order(trump, ranking)
    else:
        order = plain_order(cards[0][1], ranking)
        trumps = [c for c in cards if c[1] == cards[0][1]]
    best = min(trumps, key=order.index)
    return (leader + cards.index(best)) % n


def side(position: Position, seat: int) -> int:
    """Index into ``scores``: the seat's team when teams are set, else the seat."""
    teams = position.get("teams")
    if not teams:
        return seat
    for t, members in enumerate(teams):
        if seat in members:
            return int(t)
    raise AssertionError(f"seat {seat} in no team")


def side_seats(position: Position, index: int) -> list[int]:
    teams = position.get("teams")
    return sorted(teams[index]) if teams else [index]


def apply(position: Position, action: str) -> Position:
    """The position after ``action`` (which must be legal)."""
    if action not in legal_actions(position):
        raise ValueError(f"{action!r} is not legal here")
    pos: Position = json.loads(json.dumps(position))  # a deep copy (positions are JSON)
    n = _players(pos)
    p: int = pos["to_move"]
    pos.setdefault("tricks", [])
    pos.setdefault("trick", [])
    pos.setdefault("robbed", None)
    if pos.get("leader") is None:
        pos["leader"] = p
    if not pos.get("scores"):
        pos["scores"] = [0] * (len(pos["teams"]) if pos.get("teams") else n)
    hands: list[list[str]] = pos["hands"]

    if action.startswith("rob "):
        # F9: discard face down, take the turn-up; the same player still plays.
        discard = action.split()[1]
        hands[p] = sort_cards([c for c in hands[p] if c != discard] + [pos["turnup"]])
        pos["robbed"] = {"seat": p, "discard": discard}
        return pos

    hands[p] = [c for c in hands[p] if c != action]
    pos["trick"].append(action)
    if len(pos["trick"]) < n:
        pos["to_move"] = (p + 1) % n
        return pos

    # The trick is complete (F15, F16).
    leader = pos["leader"]
    winner = trick_winner(pos["trick"], leader, pos)
    pos["tricks"].append({"leader": leader, "cards": pos["trick"], "winner": winner})
    pos["trick"] = []
    pos["leader"] = winner
    pos["to_move"] = winner
    s = side(pos, winner)
    pos["scores"][s] += rule(pos, "points_per_trick")
    target = rule(pos, "target")
    if not rule(pos, "play_out_hand"):
        if pos["scores"][s] >= target:
            _game_won(pos, s)  # F16: the target wins at once
            return pos
    elif all(not h for h in hands):
        first = _first_to_target(pos)
        if first is not None:
            _game_won(pos, first)
            return pos
    if all(not h for h in hands):
        pos["to_move"] = None  # the hand is over (a leaf here)
        del pos["leader"]
    return pos


def _first_to_target(pos: Position) -> int | None:
    """F16 with ``play_out_hand``: the side that reached the target first this hand."""
    scores = list(pos["scores"])
    per = rule(pos, "points_per_trick")
    for trick in pos["tricks"]:
        scores[side(pos, trick["winner"])] -= per
    for trick in pos["tricks"]:
        s = side(pos, trick["winner"])
        scores[s] += per
        if scores[s] >= rule(pos, "target"):
            return s
    return None


def _game_won(pos: Position, s: int) -> None:
    winners = side_seats(pos, s)
    losers = [x for x in range(_players(pos)) if x not in winners]
    pos["outcome"] = {"winners": winners, "losers": losers, "draw": False, "reason": "target"}
    pos["to_move"] = None
    pos.pop("leader", None)


def perft(position: Position, depth: int) -> int:
    """Number of action sequences of length ``depth``; an ended hand is a leaf (1)."""
    if depth == 0 or hand_over(position):
        return 1
    return sum(perft(apply(position, a), depth - 1) for a in legal_actions(position))


def perft_counts(position: Position, depth: int) -> dict[str, int]:
    """Perft for every depth 1..``depth`` as the vector files store them."""
    return {str(d): perft(position, d) for d in range(1, depth + 1)}
