"""Twenty-Five positions (docs/positions.md) and views (docs/views.md): round trip, defaults, rejection,
the shared examples, and what each seat may see."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.cards import parse_card
from trumps.errors import InvalidPosition
from trumps.games.twentyfive import TwentyFive
from trumps.games.viewtypes import hidden_hand, twentyfive_view

# The public examples of the position formats.
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples.json"


def load(**fields: Any) -> TwentyFive:
    return TwentyFive.from_json({"game": "twentyfive", **fields})


def play_through(g: TwentyFive, rng: random.Random) -> Iterator[TwentyFive]:
    """Yields ``g`` before and after every random action until it is over."""
    yield g
    while not g.is_over:
        g.play(rng.choice(g.legal_actions()))
        yield g


def random_games(count: int, seed: int) -> Iterator[TwentyFive]:
    """Random games under random rules; yields the game after every action."""
    rng = random.Random(seed)
    for k in range(count):
        players = rng.choice([2, 3, 4, 4, 5, 6, 9, 10])
        rules: dict[str, Any] = {
            "joker": rng.random() < 0.6,
            "rob": rng.choice(["optional", "mandatory", "off"]),
            "five_trick_bonus": rng.choice(["none", "plus10", "wins_game"]),
            "play_out_hand": rng.random() < 0.5,
            "target": rng.choice([10, 25]),
        }
        if players in (4, 6, 10) and rng.random() < 0.5:
            rules["teams"] = 2
        elif players in (6, 9) and rng.random() < 0.5:
            rules["teams"] = 3
        g = trumps.new_game("twentyfive", players=players, rules=rules, seed=seed * 1000 + k)
        assert isinstance(g, TwentyFive)
        yield from play_through(g, rng)


# -- round trip and defaults ------------------------------------------------------------


def test_round_trip_through_random_games() -> None:
    for g in random_games(30, 1):
        d = g.to_json()
        again = trumps.from_json(json.loads(json.dumps(d)))
        assert again.to_json() == d
        assert again.legal_actions() == g.legal_actions()
        assert all(h == sorted(h, key=parse_card) for h in d["hands"])
        assert set(d) == {
            "game",
            "rules",
            "dealer",
            "turnup",
            "trump",
            "robbed",
            "hands",
            "stock",
            "tricks",
            "trick",
            "leader",
            "to_move",
            "scores",
            "teams",
            "outcome",
            "seed",
            "hand",
            "joker_discard",
        }


def test_round_trip_keeps_resignation() -> None:
    g = trumps.new_game("twentyfive", seed=3)
    g.resign(1)
    d = g.to_json()
    assert d["outcome"] == {
        "winners": [0, 2, 3],
        "losers": [1],
        "draw": False,
        "reason": "resigned",
    }
    assert d["to_move"] is None
    again = trumps.from_json(d)
    assert again.to_json() == d and again.legal_actions() == []


def test_defaults_on_input() -> None:
    g = load(turnup="9C", hands=[["2D", "3D"], ["4D", "5D"], ["6D", "7D"]], to_move=1)
    d = g.to_json()
    assert d["rules"] == trumps.new_game("twentyfive", seed=0).rules
    assert d["dealer"] == 0 and d["leader"] == 1 and d["trump"] == "C"
    assert d["robbed"] is None and d["tricks"] == [] and d["trick"] == []
    assert d["scores"] == [0, 0, 0] and d["teams"] is None and d["outcome"] is None
    assert d["seed"] == 0 and d["hand"] == 1 and d["joker_discard"] is None
    listed = {"9C", "2D", "3D", "4D", "5D", "6D", "7D"}
    assert sorted(d["stock"], key=parse_card) == d["stock"]
    assert set(d["stock"]) == {r + s for r in "23456789TJQKA" for s in "SHDC"} - listed
    # The leader defaults to whoever started the current trick.
    d = load(
        turnup="9C", hands=[["2D"], ["4D", "5D"], ["6D"]], trick=["3D", "7D"], to_move=1
    ).to_json()
    assert d["leader"] == 2 and d["dealer"] == 1
    # With teams the scores are per team.
    d = load(
        turnup="9C", hands=[["2D"], ["4D"], ["6D"], ["8D"]], to_move=1, teams=[[0, 2], [1, 3]]
    ).to_json()
    assert d["scores"] == [0, 0] and d["teams"] == [[0, 2], [1, 3]]


def test_explicit_stock_may_leave_cards_out_of_play() -> None:
    d = load(turnup="9C", hands=[["2D"], ["4D"]], to_move=0, stock=["KS", "QS"]).to_json()
    assert d["stock"] == ["QS", "KS"]


def test_shared_examples() -> None:
    examples = [
        e for e in json.loads(EXAMPLES.read_text()) if e["position"]["game"] == "twentyfive"
    ]
    assert examples
    for e in examples:
        g = trumps.from_json(e["position"])
        assert set(g.legal_actions()) == set(e["legal"]), e["name"]
        for a in e["play"]:
            g.play(a)
        d = g.to_json()
        for key, value in e["after"].items():
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                assert set(d[key]) == set(value), (e["name"], key)
            else:
                assert d[key] == value, (e["name"], key)


# -- rejection ------------------------------------------------------------------------

BASE: dict[str, Any] = {
    "turnup": "9D",
    "hands": [["3C", "4C", "6C"], ["2C", "JD", "AH", "9S"], ["QH", "8H", "7H", "6H"]],
    "tricks": [{"leader": 0, "cards": ["KS", "QS", "JS"], "winner": 0}],
    "trick": ["KC"],
    "to_move": 1,
    "scores": [5, 0, 0],
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"hands": [["3C", "4C", "6C"], ["2C", "JD", "AH", "9S"], ["QH", "8H", "7H", "3C"]]},
            "card 3C appears twice",
        ),
        ({"trick": ["KX"]}, "'KX' is not a card"),
        (
            {"hands": [["3C", "4C", "6C"], ["2C", "JD", "AH", "JK"], ["QH", "8H", "7H", "6H"]]},
            "card JK is not in the pack",
        ),
        ({"hands": [["3C"]]}, "'hands' has 1 seats"),
        ({"hands": [[]] * 11}, "'hands' has 11 seats"),
        ({"colour": "red"}, "unknown keys: 'colour'"),
        ({"to_move": 2}, "'to_move' must be seat 1, not 2"),
        ({"to_move": None}, "'to_move' must be seat 1, not None"),
        ({"trump": "C"}, "'trump' must be 'D'"),
        (
            {"hands": [["3C", "4C", "6C"], ["2C", "JD", "AH"], ["QH", "8H", "7H", "6H"]]},
            "hand sizes do not fit the tricks played: seat 1 has held 4",
        ),
        (
            {"tricks": [{"leader": 0, "cards": ["KS", "QS", "JS"], "winner": 1}]},
            "tricks[0] was won by seat 0 (F15), not seat 1",
        ),
        (
            {"tricks": [{"leader": 0, "cards": ["KS", "QS", "JS"], "winner": 0}], "dealer": 0},
            "trick 1 must be led by seat 1, left of dealer 0",
        ),
        ({"tricks": [{"leader": 0, "cards": ["KS", "QS"], "winner": 0}]}, "tricks[0] has 2 cards"),
        ({"tricks": [{"leader": 0, "cards": ["KS", "QS", "JS"]}]}, "tricks[0] must be"),
        ({"leader": 2}, "'leader' must be seat 0"),
        ({"scores": [5, 0]}, "'scores' has 2 entries, expected one per seat (3)"),
        ({"scores": [0, 0, 0]}, "are lower than this hand's tricks give"),
        ({"scores": [25, 0, 0]}, "target was reached at tricks[0]"),
        ({"scores": [5, 25, 0]}, "a side had reached the target 25 before this hand"),
        ({"scores": [5, -1, 0]}, "'scores' must be a list of whole numbers"),
        (
            {"outcome": {"winners": [0], "losers": [1, 2], "draw": False, "reason": "target"}},
            "contradicts the position",
        ),
        ({"teams": [[0, 1], [1, 2]]}, "'teams' must split the seats"),
        ({"teams": [[0, 1, 2]]}, "'teams' must split the seats"),
        ({"turnup": None}, "'turnup' is required"),
        ({"rules": {"teams": 2}}, "teams=2 does not fit 3 players"),
        ({"rules": {"colour": 1}}, "no rule option 'colour'"),
        ({"seed": -1}, "'seed' must be at least 0"),
        ({"hand": 0}, "'hand' must be at least 1"),
        ({"joker_discard": "2D"}, "'joker_discard' is set but rule joker is off"),
        ({"robbed": {"seat": 1}}, "'robbed' must be null or"),
        (
            {"robbed": {"seat": 1, "discard": "2D"}},
            "seat 1 could not rob: it does not hold the trump ace AD",
        ),
    ],
)
def test_rejects_bad_positions(change: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidPosition) as e:
        load(**{**BASE, **change})
    assert message in str(e.value)
    with pytest.raises(InvalidPosition):
        trumps.from_json({"game": "twentyfive", **BASE, **change})


def test_base_position_is_valid() -> None:
    assert load(**BASE).legal_actions() == ["2C", "JD", "AH"]


def test_rejects_an_illegal_past_play() -> None:
    # Seat 1 threw a spade on a club lead while holding the 2♣.
    with pytest.raises(InvalidPosition, match="seat 1 could not play 9S to trick 2"):
        load(
            **{
                **BASE,
                "trick": ["KC", "9S"],
                "to_move": 2,
                "hands": [["3C", "4C", "6C"], ["2C", "JD", "AH"], ["QH", "8H", "7H", "6H"]],
            }
        )
    # Seat 1 reneged the trump 2♣ on a trump lead in trick 1 (only privileged trumps may).
    with pytest.raises(InvalidPosition, match="seat 1 could not play QS to trick 1"):
        load(
            turnup="9C",
            hands=[["3D"], ["2C"], ["4D"]],
            tricks=[{"leader": 0, "cards": ["KC", "QS", "JS"], "winner": 0}],
            to_move=0,
            scores=[5, 0, 0],
        )


def test_rejects_bad_robs() -> None:
    rob = {
        "turnup": "7S",
        "hands": [["AS", "7S", "3D"], ["2C", "3C", "4C"], ["6C", "8C", "9C"]],
        "to_move": 0,
    }
    assert load(**rob, robbed={"seat": 0, "discard": "KD"}).legal_actions() == ["3D", "7S", "AS"]
    with pytest.raises(InvalidPosition, match="rule rob is off"):
        load(**rob, robbed={"seat": 0, "discard": "KD"}, rules={"rob": "off"})
    with pytest.raises(InvalidPosition, match="card 7S appears twice"):
        load(**rob)  # the turn-up in a hand without a rob
    with pytest.raises(InvalidPosition, match="must be in seat 0's hand or played by it"):
        load(
            **{**rob, "hands": [["AS", "2D", "3D"], ["2C", "3C", "4C"], ["6C", "8C", "9C"]]},
            robbed={"seat": 0, "discard": "KD"},
        )
    with pytest.raises(InvalidPosition, match="robbed before its first turn"):
        load(
            turnup="7S",
            hands=[["2D", "3D", "4D"], ["AS", "7S", "3H"], ["6C", "8C", "9C"]],
            to_move=0,
            robbed={"seat": 1, "discard": "KD"},
        )
    with pytest.raises(InvalidPosition, match="seat 0 had to rob before playing"):
        load(
            turnup="7S",
            hands=[["AS", "3D"], ["2C", "3C", "4C"], ["6C", "8C", "9C"]],
            trick=["2D"],
            to_move=1,
            rules={"rob": "mandatory"},
        )


def test_rejects_bad_joker_positions() -> None:
    rules = {"joker": True}
    pending = {
        "rules": rules,
        "turnup": "JK",
        "hands": [["2D", "3D"], ["2H", "3H", "JK"]],
        "dealer": 1,
        "to_move": 1,
    }
    g = load(**pending)
    assert g.to_json()["leader"] == 0 and g.to_json()["stock"][0] == "2S"
    with pytest.raises(InvalidPosition, match="'trump' must be null"):
        load(**pending, trump="S")
    with pytest.raises(InvalidPosition, match="joker must be in the dealer's hand"):
        load(**{**pending, "hands": [["2D", "JK"], ["2H", "3H", "4H"]]})
    with pytest.raises(InvalidPosition, match="no card can have been played"):
        load(
            **{**pending, "trick": ["4D"], "leader": 0, "hands": [["2D", "3D"], ["2H", "3H", "JK"]]}
        )
    with pytest.raises(InvalidPosition, match="neither holds nor played JK"):
        load(rules=rules, turnup="9C", hands=[["2D"], ["3D"]], to_move=0, joker_discard="4D")
    assert (
        load(
            rules=rules, turnup="9C", hands=[["2D"], ["JK"]], to_move=0, joker_discard="4D"
        ).to_json()["joker_discard"]
        == "4D"
    )


def test_rejects_contradicting_ends() -> None:
    over = {
        "turnup": "9C",
        "hands": [["3D"], ["AC"]],
        "tricks": [{"leader": 0, "cards": ["KS", "2H"], "winner": 0}],
        "scores": [25, 20],
    }
    g = load(**over, to_move=None)
    assert g.outcome is not None and g.outcome.winners == [0]
    with pytest.raises(InvalidPosition, match="'to_move' must be null: the game is over"):
        load(**over, to_move=0)
    with pytest.raises(InvalidPosition, match="outcome 'resigned' contradicts the position"):
        load(
            **over,
            to_move=None,
            outcome={"winners": [0], "losers": [1], "draw": False, "reason": "resigned"},
        )
    with pytest.raises(InvalidPosition, match="the hand is finished and nobody has won"):
        load(
            turnup="9C",
            hands=[[], []],
            tricks=[{"leader": 0, "cards": ["KS", "2H"], "winner": 0}],
            scores=[5, 0],
            to_move=None,
        )
    with pytest.raises(InvalidPosition, match="no seat holds or has played any card"):
        load(turnup="9C", hands=[[], []], to_move=0)
    with pytest.raises(InvalidPosition, match="a hand is five"):
        load(
            turnup="9C",
            hands=[["2D", "3D", "4D", "5D", "6D", "7D"], ["2S", "3S", "4S", "5S", "6S", "7S"]],
            to_move=0,
        )


# -- views ------------------------------------------------------------------------------


def strings(x: object) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from strings(v)


def reference_voids(d: dict[str, Any]) -> list[list[str]]:
    """F18 voids straight from the rule text, from the public trick record."""
    n = len(d["hands"])
    trump = d["trump"]
    voids: list[set[str]] = [set() for _ in range(n)]

    def is_trump(c: str) -> bool:
        return c in ("AH", "JK") or c[1] == trump

    tricks = [(t["leader"], t["cards"]) for t in d["tricks"]]
    if d["trick"]:
        tricks.append((d["leader"], d["trick"]))
    for leader, cards in tricks:
        if is_trump(cards[0]):
            continue
        for j, c in enumerate(cards[1:], 1):
            if c[1] != cards[0][1] and not is_trump(c):
                voids[(leader + j) % n].add(cards[0][1])
    return [[s for s in "SHDC" if s in v] for v in voids]


def test_views_show_exactly_what_a_seat_may_know() -> None:
    seen_rob = seen_joker = False
    joker = TwentyFive.new(players=4, seed=58, rules={"joker": True})
    assert joker.to_json()["turnup"] == "JK"
    for g in chain(random_games(20, 2), play_through(joker, random.Random(3))):
        d = g.to_json()
        for seat in range(g.players):
            v = g.view(seat)
            assert v["seat"] == seat
            assert "seed" not in v and "stock" not in v
            assert v["hands"][seat] == d["hands"][seat]
            assert v["voids"] == reference_voids(d)
            hidden = set(d["stock"])
            for s, h in enumerate(d["hands"]):
                if s == seat:
                    continue
                known = set(hidden_hand(v, s)["known"])
                assert hidden_hand(v, s)["count"] == len(h) and known <= set(h)
                expected = set()
                if d["robbed"] and d["robbed"]["seat"] == s and d["turnup"] in h:
                    expected.add(d["turnup"])
                if s == d["dealer"] and "JK" in h and (d["joker_discard"] or d["turnup"] == "JK"):
                    expected.add("JK")
                assert known == expected
                hidden |= set(h) - known
            if d["robbed"]:
                seen_rob = True
                if d["robbed"]["seat"] != seat:
                    assert v["robbed"] == {"seat": d["robbed"]["seat"]}
                    hidden.add(d["robbed"]["discard"])
                else:
                    assert v["robbed"] == d["robbed"]
            if d["joker_discard"]:
                seen_joker = True
                if seat != d["dealer"]:
                    assert v["joker_discard"] is None
                    hidden.add(d["joker_discard"])
                else:
                    assert v["joker_discard"] == d["joker_discard"]
            assert not hidden & set(strings(v)), (seat, hidden & set(strings(v)))
            rest = {
                k: x
                for k, x in v.items()
                if k not in ("hands", "robbed", "joker_discard", "voids", "seat")
            }
            assert rest == {k: x for k, x in d.items() if k in rest}
    assert seen_rob and seen_joker


def test_view_right_after_the_deal_knows_nothing() -> None:
    g = trumps.new_game("twentyfive", seed=8, rules={"rob": "off"})
    for seat in range(4):
        v = g.view(seat)
        assert all(v["hands"][s] == {"count": 5, "known": []} for s in range(4) if s != seat)
        assert twentyfive_view(v)["voids"] == [[], [], [], []]


def test_view_of_a_pending_joker() -> None:
    g = load(
        rules={"joker": True},
        turnup="JK",
        hands=[["2D", "3D"], ["2H", "3H", "JK"]],
        dealer=1,
        to_move=1,
    )
    assert g.view(0)["hands"][1] == {"count": 3, "known": ["JK"]}
    assert "2S" not in set(strings(g.view(0)))  # the next turn-up stays hidden
    g.play("discard 3H")
    assert g.view(0)["joker_discard"] is None and g.view(1)["joker_discard"] == "3H"
    assert g.view(0)["hands"][1] == {"count": 2, "known": ["JK"]}


def test_view_rejects_a_bad_seat() -> None:
    g = trumps.new_game("twentyfive", seed=8)
    with pytest.raises(ValueError, match="no seat 4"):
        g.view(4)


def test_finished_sweep_with_plus10_bonus_loads() -> None:
    # Seat 0 took all five tricks at 1 point each: 14 + 5 + 10 = 29 ≥ 25 by the bonus (F17).
    tricks = [
        {"leader": 0, "cards": [lead, low], "winner": 0}
        for lead, low in (("KS", "2H"), ("QS", "3H"), ("JS", "4H"), ("TS", "6H"), ("9S", "7H"))
    ]
    rules = {"points_per_trick": 1, "five_trick_bonus": "plus10"}
    g = load(rules=rules, turnup="9C", hands=[[], []], tricks=tricks, to_move=None, scores=[29, 3])
    assert g.outcome is not None and g.outcome.winners == [0]
    assert TwentyFive.from_json(g.to_json()).to_json() == g.to_json()
    # Without the bonus those scores would have ended the game at the first trick.
    with pytest.raises(InvalidPosition, match="target was reached at tricks"):
        load(
            rules={"points_per_trick": 1},
            turnup="9C",
            hands=[[], []],
            tricks=tricks,
            to_move=None,
            scores=[29, 3],
        )
