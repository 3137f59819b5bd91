"""Svoi Kozyri positions (docs/positions.md: round trip, defaults, rejections) and views (docs/views.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.games.kozyri import Kozyri
from trumps.games.viewtypes import hidden_hand


def pos(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "kozyri", "trumps": ["S", "H"], "pile": [], "to_move": 0}
    data.update(fields)
    return data


def random_states(players: int, seed: int, rules: Any = None) -> list[trumps.Game]:
    """Clones of a random game after every action (trump choice, play, hand changes, end)."""
    g = trumps.new_game("kozyri", players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    out = [g.clone()]
    while not g.is_over:
        g.play(rng.choice(g.legal_actions()))
        out.append(g.clone())
    return out


# -- round trip ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_round_trip_through_whole_games(players: int) -> None:
    rules = {"match_losses": 2, "max_plies": 120}
    states = random_states(players, players + 10, rules)
    assert states[-1].to_json()["hand"] >= 2
    for g in states:
        j = g.to_json()
        h = trumps.from_json(j)
        assert h.to_json() == j
        assert h.legal_actions() == g.legal_actions()
        assert h.current_player == g.current_player and h.outcome == g.outcome


def test_json_round_trip_continues_identically() -> None:
    g = trumps.new_game("kozyri", seed=3, rules={"match_losses": 2, "max_plies": 100})
    rng = random.Random(1)
    for _ in range(40):
        g.play(rng.choice(g.legal_actions()))
    h = trumps.from_json(g.to_json())
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        g.play(a)
        h.play(a)
        assert h.to_json() == g.to_json()


def test_json_keys_and_sorted_hands() -> None:
    g = trumps.new_game("kozyri", seed=2, trumps=["D", "C"])
    j = g.to_json()
    assert list(j) == [
        "game",
        "rules",
        "dealer",
        "trumps",
        "hands",
        "pile",
        "to_move",
        "owes_second",
        "out",
        "ply",
        "outcome",
        "seed",
        "hand",
        "losses",
        "known",
    ]
    order = "6789TJQKA"
    for h in j["hands"]:
        assert h == sorted(h, key=lambda c: (order.index(c[0]), "SHDC".index(c[1])))
    assert j["rules"] == {
        "sixes_to_owner": True,
        "voluntary_pickup": False,
        "repetition_draw": 3,
        "max_plies": 10000,
        "match_losses": 1,
    }
    assert j["seed"] == 2 and j["hand"] == 1 and j["losses"] == [0, 0]


def test_json_trump_choice_position() -> None:
    g = trumps.new_game("kozyri", players=3, seed=5)
    g.play("trump H")
    j = g.to_json()
    assert j["hands"] == [[], [], []] and j["pile"] == [] and j["out"] == []
    assert j["trumps"].count(None) == 2
    assert trumps.from_json(j).to_json() == j
    # the deal of a loaded choice position comes from seed and hand
    h = trumps.from_json(j)
    for a in ("trump S", "trump D"):
        g.play(a)
        h.play(a)
    assert h.to_json() == g.to_json()


def test_json_resigned_game_round_trips_and_undoes() -> None:
    g = trumps.new_game("kozyri", players=3, seed=6, trumps=["S", "H", "D"])
    g.play(g.legal_actions()[0])
    g.resign(2)
    j = g.to_json()
    assert j["outcome"] == {"winners": [0, 1], "losers": [2], "draw": False, "reason": "resigned"}
    assert j["to_move"] is None
    h = trumps.from_json(j)
    assert h.to_json() == j and h.is_over and h.legal_actions() == []
    with pytest.raises(trumps.IllegalAction, match="does not say who was to move"):
        h.undo()
    # given the seat to move, the loaded resignation can be taken back
    mover = g.core.to_move()
    h = trumps.from_json(dict(j, to_move=mover))
    assert h.to_json() == j
    h.undo()
    g.undo()
    assert h.outcome is None and h.legal_actions() == g.legal_actions() != []
    assert h.to_json() == g.to_json()
    # during the trump choice the chooser follows from dealer and choices
    c = trumps.new_game("kozyri", players=3, seed=6)
    c.play(c.legal_actions()[0])
    c.resign(0)
    h = trumps.from_json(c.to_json())
    assert h.to_json() == c.to_json()
    h.undo()
    c.undo()
    assert h.to_json() == c.to_json()
    timeout = dict(
        j, outcome={"winners": [1, 2], "losers": [0], "draw": False, "reason": "timeout"}
    )
    assert trumps.from_json(timeout).outcome == trumps.Outcome([1, 2], [0], False, "timeout")


# -- defaults on input -----------------------------------------------------------------


def test_json_defaults() -> None:
    g = Kozyri.from_json(pos(hands=[["6S", "KD"], ["AH"]], pile=["7C"], to_move=1))
    j = g.to_json()
    assert j["rules"] == {
        "sixes_to_owner": True,
        "voluntary_pickup": False,
        "repetition_draw": 3,
        "max_plies": 10000,
        "match_losses": 1,
    }
    assert j["dealer"] == 0  # the seat before the player to move
    assert j["owes_second"] is False and j["out"] == [] and j["ply"] == 0
    assert j["outcome"] is None and j["seed"] == 0 and j["hand"] == 1 and j["losses"] == [0, 0]
    assert j["known"] == [["6S"], []]  # own trump six under the sixes rule
    j = Kozyri.from_json(pos(hands=[["6S"], ["AH"]], rules={"sixes_to_owner": False})).to_json()
    assert j["known"] == [[], []] and j["dealer"] == 1
    # out defaults to the seats with empty hands; a preset name is accepted as rules
    j = Kozyri.from_json(
        pos(trumps=["S", "H", "D"], hands=[["7S"], [], ["8S"]], rules="pagat")
    ).to_json()
    assert j["out"] == [1] and j["rules"]["voluntary_pickup"] is True
    # during the trump choice: dealer is the seat before the first chooser
    j = Kozyri.from_json(pos(trumps=[None, "D", None], hands=[[], [], []], to_move=2)).to_json()
    assert j["dealer"] == 0 and j["out"] == [] and j["known"] == [[], [], []]
    # no pile given: an empty pile
    assert (
        Kozyri.from_json(
            {"game": "kozyri", "trumps": ["S", "H"], "hands": [["7S"], ["8S"]], "to_move": 0}
        ).to_json()["pile"]
        == []
    )


def test_json_loaded_terminal_position_gets_its_outcome() -> None:
    g = Kozyri.from_json(pos(hands=[[], ["QH", "AS"]], pile=["KH"], to_move=None))
    assert g.outcome == trumps.Outcome([0], [1], False, "out_of_cards")
    j = g.to_json()
    assert j["losses"] == [0, 1] and j["to_move"] is None and j["out"] == [0]
    assert trumps.from_json(j).to_json() == j
    g = Kozyri.from_json(pos(hands=[[], ["AH"]], pile=["KH"], to_move=None))
    assert g.outcome == trumps.Outcome([], [], True, "draw_rule")
    # a loaded position at the ply cap is drawn
    g = Kozyri.from_json(pos(hands=[["7S"], ["8S"]], ply=10000))
    assert g.outcome == trumps.Outcome([], [], True, "max_plies")
    # in a longer match, the loaded finished hand is counted and the next one begins
    g = Kozyri.from_json(
        pos(hands=[[], ["QH", "AS"]], pile=["KH"], to_move=None, rules={"match_losses": 2})
    )
    j = g.to_json()
    assert g.outcome is None and j["losses"] == [0, 1] and j["hand"] == 2 and j["dealer"] == 1


def test_json_given_outcomes_that_fit_are_accepted() -> None:
    over = {"winners": [0], "losers": [1], "draw": False, "reason": "out_of_cards"}
    g = Kozyri.from_json(pos(hands=[[], ["QH", "AS"]], pile=["KH"], to_move=None, outcome=over))
    assert g.to_json()["losses"] == [0, 1]  # default: the loser's loss is counted
    rep = {"winners": [], "losers": [], "draw": True, "reason": "repetition"}
    g = Kozyri.from_json(pos(hands=[["7S"], ["8S"]], pile=["9D"], to_move=None, outcome=rep))
    assert g.outcome is not None and g.outcome.reason == "repetition" and g.legal_actions() == []


# -- rejections ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "must be an object"),
        (pos(game="chess", hands=[["7S"], ["8S"]]), "'game' must be"),
        (pos(hands=[["7S"], ["8S"]], colour="red"), "unknown keys: 'colour'"),
        (pos(hands=[["7S"], ["7S"]]), "card 7S appears twice"),
        (pos(hands=[["7S"], ["8S"]], pile=["8S"]), "card 8S appears twice"),
        (pos(hands=[["XX"], ["8S"]]), "is not a card"),
        (pos(hands=[["2S"], ["8S"]]), "2S in hands.0. is not in the 36-card pack"),
        (pos(hands=[["7S"], ["8S"]], pile=["JK"]), "JK in pile is not in the 36-card pack"),
        (pos(hands=[["7S"]], trumps=["S"]), "'hands' has 1 seats"),
        (pos(hands=[["7S"], ["8S"]], trumps=["S", "H", "D"]), "one suit letter .or null. per seat"),
        (pos(hands=[["7S"], ["8S"]], trumps=["S", "S"]), "seats 0 and 1 both have S"),
        (pos(hands=[["7S"], ["8S"]], trumps=["S", "Z"]), "'trumps' item 1 must be a suit"),
        (pos(hands=[["7S"], ["8S"]], to_move=None), "'to_move' is null, but the game is not over"),
        (pos(hands=[["7S"], ["8S"]], to_move=2), "'to_move' must be a seat number 0..1"),
        (
            pos(trumps=["S", "H", "D"], hands=[["7S"], [], ["8S"]], to_move=1),
            "'to_move' is seat 1, which holds no cards",
        ),
        (pos(hands=[["7S"], ["8S"]], owes_second=True), "'owes_second' is true"),
        (pos(hands=[["7S"], ["8S"]], pile=["9D", "6D"], owes_second=True), "'owes_second' is true"),
        (pos(hands=[["7S"], ["8S"]], pile=["9D", "TH"], owes_second=True), "'owes_second' is true"),
        (pos(hands=[[], []]), "no seat holds a card"),
        (
            pos(trumps=["S", "H", "D"], hands=[["7S"], [], ["8S"]], out=[]),
            "'out' must list exactly",
        ),
        (
            pos(trumps=["S", "H", "D"], hands=[["7S"], [], ["8S"]], out=[1, 1]),
            "'out' must list exactly",
        ),
        (pos(hands=[["7S"], ["8S"]], known=[["8S"], []]), "'known' lists 8S for seat 0"),
        (pos(hands=[["7S"], ["8S"]], rules={"colour": 1}), "no rule option 'colour'"),
        (pos(hands=[["7S"], ["8S"]], rules="nope"), "no rule preset 'nope'"),
        (pos(hands=[["7S"], ["8S"]], ply=-1), "'ply' must be at least 0"),
        (pos(hands=[["7S"], ["8S"]], hand=0), "'hand' must be at least 1"),
        (pos(hands=[["7S"], ["8S"]], losses=[0]), "'losses' must be a list of 2"),
        (pos(hands=[["7S"], ["8S"]], losses=[0, 1]), "'losses' .0, 1. contradicts"),
        (
            pos(
                hands=[["7S"], ["8S"]],
                outcome={"winners": [0], "losers": [1], "draw": False, "reason": "out_of_cards"},
                to_move=None,
            ),
            "2 seats still hold cards",
        ),
        (
            pos(
                hands=[[], ["8S"]],
                pile=["7S"],
                to_move=None,
                outcome={"winners": [1], "losers": [0], "draw": False, "reason": "out_of_cards"},
            ),
            "by K16 it is",
        ),
        (
            pos(
                hands=[["7S"], ["8S"]],
                to_move=None,
                outcome={"winners": [], "losers": [], "draw": True, "reason": "max_plies"},
            ),
            "max_plies contradicts 'ply' 0",
        ),
        (
            pos(
                hands=[["7S"], ["8S"]],
                to_move=None,
                outcome={"winners": [], "losers": [], "draw": True, "reason": "target"},
            ),
            "reason 'target' is not possible",
        ),
        (
            pos(
                hands=[["7S"], ["8S"]],
                to_move=None,
                rules={"match_losses": 2},
                outcome={"winners": [], "losers": [], "draw": True, "reason": "repetition"},
            ),
            "a drawn game is impossible with match_losses > 1",
        ),
        (
            pos(
                hands=[["7S"], ["8S"]],
                outcome={"winners": [], "losers": [], "draw": True, "reason": "repetition"},
            ),
            "'to_move' must be null",
        ),
        (
            pos(
                hands=[["7S"], ["8S"]],
                outcome={"winners": [0], "losers": [1, 0], "draw": False, "reason": "resigned"},
            ),
            "one loser and everyone else wins",
        ),
        (
            pos(
                hands=[[], ["8S"]],
                pile=["7S"],
                to_move=None,
                outcome={"winners": [0], "losers": [1], "draw": False, "reason": "resigned"},
            ),
            "cannot end by resignation",
        ),
        (
            pos(hands=[["7S"], ["8S"]], outcome={"winners": []}),
            "outcome must have exactly the keys",
        ),
        (
            pos(trumps=[None, "H"], hands=[["7S"], []], to_move=0),
            "hands must be empty during the trump choice",
        ),
        (pos(trumps=[None, None], hands=[[], []], to_move=None), "a seat must choose a trump"),
        (pos(trumps=[None, None], hands=[[], []], ply=3), "'ply' 0"),
        (
            pos(trumps=[None, None, "D"], hands=[[], [], []], to_move=0, dealer=0),
            "chosen in seat order",
        ),
        (pos(trumps=["S", None, None], hands=[[], [], []], to_move=2), "chosen in seat order"),
        (
            pos(
                trumps=[None, None],
                hands=[[], []],
                outcome={"winners": [0], "losers": [1], "draw": False, "reason": "out_of_cards"},
            ),
            "trumps are being chosen",
        ),
    ],
)
def test_json_rejects_bad_positions(data: Any, message: str) -> None:
    with pytest.raises(trumps.InvalidPosition, match=message):
        trumps.from_json(data)


def test_json_rejection_names_the_position_and_direct_class_call() -> None:
    with pytest.raises(
        trumps.InvalidPosition, match="kozyri position: kozyri has no rule option 'nope'"
    ):
        Kozyri.from_json(pos(hands=[["7S"], ["8S"]], rules={"nope": 1}))


# -- views -----------------------------------------------------------------------------


def test_view_two_players_whole_other_hand() -> None:
    g = trumps.new_game("kozyri", seed=4, trumps=["S", "H"])
    full = g.to_json()
    for seat in (0, 1):
        v = g.view(seat)
        assert v["seat"] == seat and "seed" not in v and "voids" not in v and "known" not in v
        assert v["hands"][seat] == full["hands"][seat]
        other = 1 - seat
        assert v["hands"][other] == {"count": 18, "known": full["hands"][other]}
        # K19: what the other seat knows of this hand from public play (its trump six).
        assert v["own_known"] == full["known"][seat]
        rest = {k: x for k, x in v.items() if k not in ("hands", "seat", "take_count", "own_known")}
        assert rest == {k: x for k, x in full.items() if k not in ("hands", "seed", "known")}


def test_view_during_the_trump_choice() -> None:
    g = trumps.new_game("kozyri", players=3, seed=4)
    v = g.view(1)
    assert v["hands"] == [{"count": 0, "known": []}, [], {"count": 0, "known": []}]
    assert "seed" not in v


def test_view_three_players_known_cards() -> None:
    g = Kozyri.from_json(
        pos(
            trumps=["S", "H", "D"],
            hands=[["6S", "7C", "9C"], ["6H", "8C", "KD"], ["6D", "JC", "QC"]],
            pile=["TC", "AH"],
            to_move=1,
        )
    )
    v = g.view(0)
    assert v["hands"][1] == {"count": 3, "known": ["6H"]}  # own trump six (K6)
    assert v["hands"][2] == {"count": 3, "known": ["6D"]}
    assert v["hands"][0] == ["6S", "7C", "9C"]
    g.play("take")  # seat 1 faces its own trump ace: takes the whole pile, now public
    v = g.view(2)
    assert v["hands"][1] == {"count": 5, "known": ["6H", "TC", "AH"]}
    assert v["hands"][0] == {"count": 3, "known": ["6S"]}
    g.play("JC")  # seat 2 leads on the empty pile (K13)
    assert g.view(0)["hands"][2] == {"count": 2, "known": ["6D"]}


def test_view_three_players_known_cards_leave_with_the_card() -> None:
    g = Kozyri.from_json(
        pos(
            trumps=["S", "H", "D"],
            hands=[["6S", "7C"], ["8C", "9C"], ["TC", "QC"]],
            pile=["KD", "AS"],
            to_move=0,
        )
    )
    g.play("take")  # seat 0 faces its own trump ace: takes KD and AS
    assert g.view(1)["hands"][0] == {"count": 4, "known": ["6S", "KD", "AS"]}
    g.play("8C")  # seat 1 leads
    g.play("TC")  # seat 2 beats ...
    g.play("QC")  # ... and goes out with the second card
    assert g.current_player == 0
    g.play("AS")  # seat 0 beats QC with its trump
    assert g.view(1)["hands"][0] == {"count": 3, "known": ["6S", "KD"]}
    g.play("KD")  # the second card
    assert g.view(1)["hands"][0] == {"count": 2, "known": ["6S"]}


def test_view_sixes_rule_off_hides_the_six() -> None:
    g = trumps.new_game(
        "kozyri", players=4, seed=8, rules={"sixes_to_owner": False}, trumps=["S", "H", "D", "C"]
    )
    v = g.view(0)
    for s in (1, 2, 3):
        assert v["hands"][s] == {"count": 9, "known": []}
    g = trumps.new_game("kozyri", players=4, seed=8, trumps=["S", "H", "D", "C"])
    v = g.view(0)
    for s in (1, 2, 3):
        assert hidden_hand(v, s)["known"] == ["6" + "SHDC"[s]]


@pytest.mark.parametrize("players", [3, 4])
def test_view_never_shows_a_hidden_card(players: int) -> None:
    for g in random_states(players, 30 + players, {"max_plies": 200}):
        full = g.to_json()
        for seat in range(players):
            v = g.view(seat)
            assert "seed" not in v
            for s in range(players):
                if s == seat:
                    assert v["hands"][s] == full["hands"][s]
                    continue
                assert hidden_hand(v, s)["count"] == len(full["hands"][s])
                assert set(hidden_hand(v, s)["known"]) <= set(full["hands"][s])
                assert hidden_hand(v, s)["known"] == full["known"][s]


def test_view_bad_seat() -> None:
    g = trumps.new_game("kozyri", seed=1)
    with pytest.raises(ValueError, match="no seat 2"):
        g.view(2)
