"""Why an action is not legal now (``Game.why_not``, games/<game>/why.py): a reason for
every illegal action and none for a legal one, checked against the legal-action generator
on random positions of both games; then one test per rule the reasons cite."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.cards import RANKS, SUITS
from trumps.errors import InvalidAction
from trumps.games.base import Why
from trumps.games.kozyri import Kozyri
from trumps.games.twentyfive import TwentyFive

CARDS = [r + s for r in RANKS for s in SUITS] + ["JK"]
CANDIDATES = (
    CARDS
    + ["take"]
    + [f"trump {s}" for s in SUITS]
    + [f"rob {c}" for c in CARDS]
    + [f"discard {c}" for c in CARDS]
)

SETUPS: list[tuple[str, int, dict[str, Any] | None]] = [
    ("kozyri", 2, None),
    ("kozyri", 3, {"voluntary_pickup": True}),
    ("kozyri", 4, {"match_losses": 2, "max_plies": 200}),
    ("twentyfive", 4, None),
    ("twentyfive", 2, {"joker": True, "rob": "mandatory"}),
    ("twentyfive", 5, {"renege_limit": "always", "joker": True}),
    ("twentyfive", 3, {"renege_cards": "five_only", "ranking": "as-written"}),
    ("twentyfive", 6, {"renege_cards": "none", "rob": "off", "teams": 2}),
]


@pytest.mark.parametrize(("game", "players", "rules"), SETUPS)
def test_a_reason_exactly_for_every_illegal_action(
    game: str, players: int, rules: dict[str, Any] | None
) -> None:
    codes: set[str] = set()
    ended = False
    for seed in range(6):
        g = trumps.new_game(game, players=players, rules=rules, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while True:
            legal = set(g.legal_actions())
            view = g.view(g.current_player)
            for action in CANDIDATES:
                why = type(g).why_not_in(view, action)  # the game's why.py, on the view
                assert (why is None) == (action in legal), (action, why, g.to_json())
                if why is not None:
                    assert isinstance(why, Why)
                    codes.add(why.code)
            to_move = g.current_player
            for seat in range(players):
                if seat != to_move:  # everyone else is told it is not their turn
                    why = g.why_not(sorted(legal)[0] if legal else "take", seat)
                    assert why is not None and why.code in ("not_your_turn", "game_over")
            if g.is_over or steps > 400:
                break
            g.play(rng.choice(sorted(legal)))
            steps += 1
            ended |= g.is_over
    assert "not_in_hand" in codes
    assert ("game_over" in codes) == ended


def test_malformed_actions_are_not_reasons() -> None:
    g = trumps.new_game("kozyri", seed=1)
    with pytest.raises(InvalidAction):
        g.why_not("beat it")


def test_reasons_are_json() -> None:
    why = Why("must_follow", "F13", ("9S", "KC"), "C")
    assert why.to_json() == {
        "code": "must_follow",
        "rule": "F13",
        "cards": ["9S", "KC"],
        "suit": "C",
    }


# -- Svoi Kozyri (docs/rules/kozyri.md) ---------------------------------------------------


def kozyri(**fields: Any) -> Kozyri:
    data: dict[str, Any] = {"game": "kozyri", "trumps": ["C", "D"], "to_move": 0, "dealer": 1}
    data.update(fields)
    return Kozyri.from_json(data)


def test_k3_a_trump_taken_and_the_choice_first() -> None:
    g = trumps.new_game("kozyri", seed=3)
    first = g.current_player
    assert g.why_not("AS") == Why("choose_trump_first", "K3")
    g.play("trump C")
    assert g.why_not("trump C") == Why("trump_taken", "K3", suit="C")
    assert g.why_not("trump D") is None
    assert g.why_not("trump D", first) is not None


def test_k9_a_card_that_does_not_beat_the_top() -> None:
    # K9 example: trump ♣ against ♦; J♠ on top; ♥ and ♦ give no power.
    g = kozyri(hands=[["9H", "KD", "QS", "6C"], ["7S", "8S"]], pile=["JS"])
    assert g.why_not("9H") == Why("does_not_beat", "K9", ("9H", "JS"), "C")
    assert g.why_not("KD") == Why("does_not_beat", "K9", ("KD", "JS"), "C")
    assert g.why_not("QS") is None and g.why_not("6C") is None


def test_k9_ones_own_trump_on_top() -> None:
    g = kozyri(hands=[["8C", "AS", "TC"], ["7S", "8S"]], pile=["9C"])
    assert g.why_not("8C") == Why("own_trump_on_top", "K9", ("8C", "9C"), "C")
    assert g.why_not("AS") == Why("own_trump_on_top", "K9", ("AS", "9C"), "C")
    assert g.why_not("TC") is None
    g = kozyri(hands=[["8C", "AS"], ["7S", "8S"]], pile=["AC"])
    assert g.why_not("AS") == Why("own_trump_ace_on_top", "K9", ("AC",), "C")


def test_k10_the_second_card_is_owed() -> None:
    g = kozyri(hands=[["8S", "QS", "6C", "AH"], ["7S", "9S"]], pile=["JS"])
    g.play("6C")
    assert g.why_not("take") == Why("owe_second_card", "K10")
    assert g.why_not("8S") is None


def test_k11_must_beat_when_able_unless_voluntary_pickup() -> None:
    g = kozyri(hands=[["8S", "QS", "6C", "AH"], ["7S", "9S"]], pile=["JS"])
    assert g.why_not("take") == Why("must_beat_when_able", "K11", ("6C", "QS"), "C")
    g = kozyri(
        hands=[["8S", "QS", "6C", "AH"], ["7S", "9S"]],
        pile=["JS"],
        rules={"voluntary_pickup": True},
    )
    assert g.why_not("take") is None
    g = kozyri(hands=[["7H", "8S"], ["7S", "9S"]], pile=["6S", "7C", "QD"])
    assert g.why_not("take") is None  # K12 example: nothing beats Q♦


def test_k7_nothing_to_take_from_an_empty_pile() -> None:
    g = kozyri(hands=[["7H", "8S"], ["7S", "9S"]], pile=[])
    assert g.why_not("take") == Why("nothing_to_take", "K7")


# -- Twenty-Five (docs/rules/twentyfive.md) ------------------------------------------------


def twentyfive(**fields: Any) -> TwentyFive:
    return TwentyFive.from_json({"game": "twentyfive", **fields})


def reply(turnup: str, lead: str, hand: list[str], **rules: Any) -> TwentyFive:
    """Two players: seat 0 has led ``lead``; seat 1, holding ``hand``, is to move."""
    used = {turnup, lead, *hand}
    filler = [c for c in ("2S", "3S", "4S", "6S", "7S", "8S") if c not in used]
    return twentyfive(
        rules={"rob": "off", **rules},
        turnup=turnup,
        hands=[filler[: len(hand) - 1], hand],
        trick=[lead],
        to_move=1,
    )


def test_f13_must_follow_the_plain_suit_led() -> None:
    # F13 example: diamonds trumps, K♣ led; 2♣ J♦ A♥ may be played, 9♠ not.
    g = reply("7D", "KC", ["2C", "JD", "AH", "9S"])
    assert g.why_not("9S") == Why("must_follow", "F13", ("9S", "KC"), "C")
    assert all(g.why_not(c) is None for c in ("2C", "JD", "AH"))


def test_f14_must_play_a_trump_on_a_trump_lead() -> None:
    # F14 example 2: A♠ led, J♠ 3♠ 8♦ held: a trump must be played.
    g = reply("7S", "AS", ["JS", "3S", "8D"])
    assert g.why_not("8D") == Why("must_play_trump", "F14", ("8D", "AS"), "S")
    # F14 example 4: the trump ace never reneges.
    g = reply("7S", "AH", ["AS", "7H"])
    assert g.why_not("7H") == Why("must_play_trump", "F14", ("7H", "AH"), "S")


def test_f14_a_top_trump_reneges_only_against_a_lower_lead() -> None:
    # F14 example 3: 5♠ led, J♠ 7♥ 8♦ held: the J does not rank above the 5.
    g = reply("7S", "5S", ["JS", "7H", "8D"])
    assert g.why_not("7H") == Why("renege_only_vs_lower", "F14", ("JS", "5S"), "S")
    # F14 example 1: against A♠ the J may renege.
    g = reply("7S", "AS", ["JS", "7H", "8D"])
    assert g.why_not("7H") is None
    # renege_limit = always: the J stays back whatever was led.
    g = reply("7S", "5S", ["JS", "7H", "8D"], renege_limit="always")
    assert g.why_not("7H") is None


def rob_position(turnup: str, hand0: list[str], **extra: Any) -> TwentyFive:
    others = [
        c
        for c in ("2C", "3C", "4C", "6C", "7C", "8C", "9C", "TC", "QC", "KC")
        if c not in hand0 and c != turnup
    ]
    fields: dict[str, Any] = {
        "turnup": turnup,
        "hands": [hand0, others[:5], others[5:10]],
        "to_move": 0,
    }
    fields.update(extra)
    return twentyfive(**fields)


def test_f9_only_the_trump_ace_robs() -> None:
    g = rob_position("7D", ["AH", "3D", "9H", "KD", "4H"])
    assert g.why_not("rob 3D") == Why("rob_needs_trump_ace", "F9", ("AD",), "D")
    assert g.why_not("rob 5S") == Why("not_in_hand", "", ("5S",))


def test_f10_rob_off_mandatory_and_first_trick_only() -> None:
    hand = ["AS", "3D", "9H", "KD", "4H"]
    assert rob_position("7S", hand, rules={"rob": "off"}).why_not("rob 3D") == Why("rob_off", "F10")
    g = rob_position("7S", hand, rules={"rob": "mandatory"})
    assert g.why_not("3D") == Why("must_rob", "F10")
    assert g.why_not("rob 3D") is None
    g = rob_position("7S", hand)
    g.play("rob 3D")
    assert g.why_not("rob 4H") == Why("already_robbed", "F10")


def test_f17a_the_joker_discard_comes_first() -> None:
    for seed in range(200):
        g = trumps.new_game("twentyfive", players=2, rules={"joker": True}, seed=seed)
        if g.to_json()["trump"] is None:
            break
    else:
        raise AssertionError("no seed turned up the joker")
    card = g.to_json()["hands"][g.current_player][0]
    assert g.why_not(card) == Why("joker_discard_first", "F17a")
    assert g.why_not("discard JK") == Why("joker_kept", "F17a", ("JK",))
    assert g.why_not(f"discard {card}") is None
