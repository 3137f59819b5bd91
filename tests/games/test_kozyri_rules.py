"""Svoi Kozyri rules, one test (or more) per rule id of docs/rules/kozyri.md (K1–K19)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.cards import TAKE, TRUMP, action_str, mask_of, parse_card
from trumps.games.base import below, deal_rng, shuffled
from trumps.games.kozyri import Kozyri
from trumps.games.kozyri._core import BEAT, KozyriCore, beats, take_count

# The public examples of the position formats.
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples.json"
RANKS = "6789TJQKA"
PACK = [r + s for r in RANKS for s in "SHDC"]
DEFAULTS = {
    "sixes_to_owner": True,
    "voluntary_pickup": False,
    "repetition_draw": 3,
    "max_plies": 10000,
    "match_losses": 1,
}


def load(**fields: Any) -> Kozyri:
    """A composed position (2 players, trumps S and H unless given)."""
    data: dict[str, Any] = {"game": "kozyri", "trumps": ["S", "H"], "pile": [], "to_move": 0}
    data.update(fields)
    return Kozyri.from_json(data)


def play_all(g: trumps.Game, actions: list[str]) -> None:
    for a in actions:
        g.play(a)


def dealt(players: int = 2, seed: int = 1, rules: Any = None) -> trumps.Game:
    """A new game with trumps chosen (the first still-free suits in seat order)."""
    return trumps.new_game(
        "kozyri", players=players, seed=seed, rules=rules, trumps=list("SHDC"[:players])
    )


def random_finish(g: trumps.Game, rng: random.Random, limit: int = 100000) -> None:
    while not g.is_over and limit:
        g.play(rng.choice(g.legal_actions()))
        limit -= 1


# -- the public examples ------------------------------------------------------


def _examples() -> list[dict[str, Any]]:
    data = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    return [e for e in data if e["position"]["game"] == "kozyri"]


@pytest.mark.parametrize("example", _examples(), ids=lambda e: e["name"])
def test_k_shared_examples(example: dict[str, Any]) -> None:
    g = trumps.from_json(example["position"])
    assert set(g.legal_actions()) == set(example["legal"])
    play_all(g, example["play"])
    after = g.to_json()
    for key, want in example["after"].items():
        got = after[key]
        if key == "hands":
            assert [set(h) for h in got] == [set(h) for h in want]
        elif key == "pile":
            assert got == want  # the pile is ordered (bottom → top)
        else:
            assert got == want, key


# -- K1 players ------------------------------------------------------------------------


def test_k1_player_counts() -> None:
    assert trumps.new_game("kozyri", seed=1).players == 2
    for n in (2, 3, 4):
        assert trumps.new_game("kozyri", players=n, seed=1).players == n
    for n in (1, 5):
        with pytest.raises(trumps.InvalidRules, match="2–4 players"):
            trumps.new_game("kozyri", players=n, seed=1)
    assert Kozyri.title == "Svoi Kozyri" and Kozyri.game_id == "kozyri"


def test_k1_k15_next_player_skips_seats_that_are_out() -> None:
    g = load(
        trumps=["S", "H", "D", "C"],
        hands=[["7C"], [], ["8C", "9C", "JC"], ["TC"]],
        pile=["6C"],
        out=[1],
        to_move=0,
    )
    # Seat 0 beats with its last card (K14): seat 1 is out, so seat 2 moves next (K15).
    g.play("7C")
    assert g.current_player == 2 and g.outcome is None
    assert g.to_json()["out"] == [1, 0]
    g.play("8C")
    g.play("9C")  # seat 2's second card: seat 3 faces it
    assert g.current_player == 3


# -- K2 pack ---------------------------------------------------------------------------


def test_k2_the_36_card_pack_is_dealt() -> None:
    for n in (2, 3, 4):
        g = dealt(n, seed=5)
        cards = [c for h in g.to_json()["hands"] for c in h]
        assert sorted(cards) == sorted(PACK)
    with pytest.raises(
        trumps.InvalidPosition, match=r"5S in hands\[0\] is not in the 36-card pack"
    ):
        load(hands=[["5S"], ["7H"]])


# -- K3 trump choice -------------------------------------------------------------------


def test_k3_trump_choice_in_seat_order_from_the_dealers_left() -> None:
    g = trumps.new_game("kozyri", players=3, seed=4)
    j = g.to_json()
    first = (j["dealer"] + 1) % 3
    assert g.current_player == first
    assert j["trumps"] == [None, None, None] and j["hands"] == [[], [], []]
    assert g.legal_actions() == ["trump S", "trump H", "trump D", "trump C"]
    g.play("trump D")
    assert g.current_player == (first + 1) % 3
    assert g.legal_actions() == ["trump S", "trump H", "trump C"]
    with pytest.raises(trumps.IllegalAction):
        g.play("trump D")  # a taken suit is rejected
    g.play("trump S")
    assert g.to_json()["hands"] == [[], [], []]  # no deal before the last choice
    g.play("trump C")
    j = g.to_json()
    assert j["trumps"][first] == "D" and j["trumps"][(first + 1) % 3] == "S"
    assert j["trumps"][(first + 2) % 3] == "C"
    assert all(j["hands"])
    assert "trump H" not in g.legal_actions()


def test_k3_trumps_keyword_plays_the_choices_as_actions() -> None:
    g = trumps.new_game("kozyri", players=3, seed=2, trumps=["C", "S", "H"])
    first = (g.to_json()["dealer"] + 1) % 3
    assert g.to_json()["trumps"] == ["C", "S", "H"]
    assert g.history == ["trump " + "CSH"[(first + i) % 3] for i in range(3)]
    replay = trumps.new_game("kozyri", players=3, seed=2)
    play_all(replay, g.history)
    assert replay == g


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (["S", "S"], "seats 0 and 1 both chose S"),
        (["S"], "list of 2 suit letters"),
        (["S", "X"], r"trumps\[1\] must be a suit letter"),
        (["S", 3], r"trumps\[1\] must be a suit letter"),
        ("SH", "list of 2 suit letters"),
    ],
)
def test_k3_bad_trumps_keyword(value: Any, message: str) -> None:
    with pytest.raises(trumps.InvalidRules, match=message):
        trumps.new_game("kozyri", seed=1, trumps=value)


# -- K4 dealer -------------------------------------------------------------------------


def test_k4_first_dealer_is_seeded() -> None:
    for seed in range(8):
        for n in (2, 3, 4):
            g = trumps.new_game("kozyri", players=n, seed=seed)
            assert g.to_json()["dealer"] == below(deal_rng("kozyri", seed, 0), n)


def test_k4_k18_loser_deals_next_and_draw_passes_left() -> None:
    # A hand lost by seat 1 in a match to two losses: seat 1 deals hand 2.
    g = load(hands=[["KH"], ["QH"]], rules={"match_losses": 2}, dealer=0, seed=9, hand=3)
    g.play("KH")
    j = g.to_json()
    assert j["outcome"] is None and j["losses"] == [0, 1] and j["hand"] == 4
    assert j["dealer"] == 1 and j["to_move"] == 0 and j["trumps"] == [None, None]
    assert g.legal_actions() == ["trump S", "trump H", "trump D", "trump C"]
    # A drawn hand (K16 draw rule): the deal passes left.
    g = load(hands=[["KH"], ["AH"]], rules={"match_losses": 2}, dealer=1, trumps=["S", "D"])
    g.play("KH")
    j = g.to_json()
    assert j["outcome"] is None and j["losses"] == [0, 0] and j["dealer"] == 0 and j["hand"] == 2
    assert j["to_move"] == 1


# -- K5 deal, K6 sixes -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_k5_deal_one_at_a_time_from_the_dealers_left(players: int) -> None:
    g = dealt(players, seed=11, rules={"sixes_to_owner": False})
    j = g.to_json()
    order = shuffled(deal_rng("kozyri", 11, 1), list(range(16, 52)))
    want = [0] * players
    for i, c in enumerate(order):
        want[(j["dealer"] + 1 + i) % players] |= 1 << c
    assert [mask_of(parse_card(c) for c in h) for h in j["hands"]] == want
    assert [len(h) for h in j["hands"]] == [36 // players] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_k6_sixes_go_to_their_owners(players: int) -> None:
    for seed in range(6):
        off = dealt(players, seed=seed, rules={"sixes_to_owner": False}).to_json()["hands"]
        on = dealt(players, seed=seed).to_json()
        suits = "SHDC"[:players]
        for s, trump in enumerate(suits):
            assert "6" + trump in on["hands"][s]
            assert on["known"][s] == ["6" + trump]
        for unowned in "SHDC"[players:]:  # sixes of unowned suits stay where dealt
            six = "6" + unowned
            assert [six in h for h in on["hands"]] == [six in h for h in off]
        want = [set(h) for h in off]
        for s, trump in enumerate(suits):
            for h in want:
                h.discard("6" + trump)
            want[s].add("6" + trump)
        assert [set(h) for h in on["hands"]] == want


# -- K7 first lead ---------------------------------------------------------------------


def test_k7_left_of_dealer_leads_any_card() -> None:
    g = dealt(3, seed=3)
    j = g.to_json()
    assert g.current_player == (j["dealer"] + 1) % 3
    assert sorted(g.legal_actions()) == sorted(j["hands"][g.current_player])
    assert "take" not in g.legal_actions()


# -- K8, K9 beating --------------------------------------------------------------------


def test_k9_beat_predicate() -> None:
    S, H, D = 0, 1, 2
    c = parse_card
    assert beats(c("KD"), c("QD"), S)  # same suit, higher
    assert not beats(c("JD"), c("QD"), S)
    assert beats(c("6S"), c("AD"), S)  # own trump on a plain suit
    assert not beats(c("6S"), c("AD"), H)  # someone else's trump suit is plain for me
    assert beats(c("AH"), c("6S"), H)  # my trump beats even a card of the opponent's trump
    assert not beats(c("6S"), c("AH"), H)  # only a higher heart beats my own trump
    assert not beats(c("KD"), c("AD"), D)  # my own trump ace: I cannot beat it
    assert BEAT[c("AD") * 4 + D] == 0
    # the table agrees with the predicate everywhere in the pack
    for t in range(16, 52):
        for trump in range(4):
            assert BEAT[t * 4 + trump] == mask_of(x for x in range(16, 52) if beats(x, t, trump))


def test_k8_k9_beat_or_pick_up() -> None:
    # Seat 1 (trump H) faces 9S: beats with TS (higher spade) or 6H (own trump); not 8S, KD.
    g = load(hands=[["AC"], ["8S", "TS", "6H", "KD"]], pile=["9S"], to_move=1)
    assert g.legal_actions() == ["6H", "TS"]
    # Seat 0 (trump S) faces its opponent's trump 9H: a higher heart beats it, a spade too.
    g = load(hands=[["TH", "7S", "7H"], ["KD"]], pile=["9H"], to_move=0)
    assert g.legal_actions() == ["7S", "TH"]


# -- K10 second card -------------------------------------------------------------------


def test_k10_second_card_after_beating() -> None:
    g = load(hands=[["TS", "AD", "7C"], ["KH", "9C"]], pile=["9S"], to_move=0)
    g.play("TS")
    j = g.to_json()
    assert j["owes_second"] is True and j["to_move"] == 0
    assert g.legal_actions() == ["7C", "AD"]  # any card, no pick-up
    g.play("7C")
    j = g.to_json()
    assert j["owes_second"] is False and j["to_move"] == 1 and j["pile"] == ["9S", "TS", "7C"]
    assert g.legal_actions() == ["9C", "KH"]  # seat 1 faces the second card 7C


def test_k10_second_card_as_last_card_goes_out() -> None:
    g = load(hands=[["TS", "AD"], ["KH", "9C"]], pile=["9S"], to_move=0)
    play_all(g, ["TS", "AD"])
    assert g.to_json()["out"] == [0]
    assert g.outcome is not None and g.outcome.losers == [1]


# -- K11 when picking up is allowed ----------------------------------------------------


def test_k11_pick_up_only_when_unable_to_beat() -> None:
    g = load(hands=[["TS", "7D"], ["KH"]], pile=["9S"], to_move=0)
    assert g.legal_actions() == ["TS"]
    with pytest.raises(trumps.IllegalAction):
        g.play("take")
    g = load(hands=[["8S", "7D"], ["KH"]], pile=["9S"], to_move=0)
    assert g.legal_actions() == ["take"]


def test_k11_voluntary_pickup_option_and_pagat_preset() -> None:
    g = load(hands=[["TS", "7D"], ["KH"]], pile=["9S"], rules={"voluntary_pickup": True})
    assert g.legal_actions() == ["TS", "take"]
    g.play("take")
    assert g.to_json()["hands"][0] == ["7D", "9S", "TS"]
    # leading and the second card never allow a pick-up, even voluntary
    g = load(hands=[["TS", "7D"], ["KH"]], rules={"voluntary_pickup": True})
    assert g.legal_actions() == ["7D", "TS"]
    p = trumps.new_game("kozyri", rules="pagat", seed=1)
    assert p.players == 4 and p.rules["voluntary_pickup"] is True
    assert p.rules == {**DEFAULTS, "voluntary_pickup": True}
    s = trumps.new_game("kozyri", rules="seed", seed=1)
    assert s.players == 2 and s.rules == DEFAULTS


# -- K12 how many a pick-up takes ------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "taken"),
    [
        (["6C", "7C", "8C", "9C", "TC", "JC", "KD"], 3),  # not the picker's trump: three
        (["KD", "QD"], 2),  # fewer cards than three: all
        (["6C", "7C", "8C", "9C", "TC", "JC", "KS"], 5),  # own trump, not the ace: five
        (["6C", "7C", "KS"], 3),
        (["6C", "7C", "8C", "9C", "TC", "JC", "QC", "AS"], 8),  # own trump ace: the whole pile
    ],
)
def test_k12_pick_up_counts(pile: list[str], taken: int) -> None:
    g = load(hands=[["6D"], ["KH"]], pile=pile, to_move=0)
    assert g.legal_actions() == ["take"]
    g.play("take")
    j = g.to_json()
    assert j["pile"] == pile[: len(pile) - taken]
    assert set(j["hands"][0]) == {"6D", *pile[len(pile) - taken :]}
    assert take_count(parse_card("AS"), 1, 8) == 3  # an ace of another suit: three


# -- K13 after a pick-up ---------------------------------------------------------------


def test_k13_next_player_faces_the_exposed_card_or_leads() -> None:
    # Seat 0 takes three; seat 1 (trump H) faces 9S as if just played.
    g = load(hands=[["6D"], ["TS", "7S", "8D"]], pile=["9S", "QD", "KD", "AD"], to_move=0)
    g.play("take")
    assert g.current_player == 1 and g.to_json()["owes_second"] is False
    assert g.legal_actions() == ["TS"]
    # The pile emptied: the next player leads any card.
    g = load(hands=[["6D"], ["TS", "7S"]], pile=["QD", "KD"], to_move=0)
    g.play("take")
    assert g.to_json()["pile"] == [] and g.legal_actions() == ["7S", "TS"]


def test_k13_three_players_next_after_the_picker() -> None:
    g = load(
        trumps=["S", "H", "D"],
        hands=[["6C"], ["7C", "8C"], ["9C", "TC"]],
        pile=["AC", "KC"],
        to_move=2,
    )
    assert g.legal_actions() == ["take"]  # seat 2 (trump D) cannot beat KC
    g.play("take")
    assert g.current_player == 0 and g.legal_actions() == ["6C"]  # leads: pile is empty


# -- K14 going out ---------------------------------------------------------------------


def test_k14_out_by_leading_the_last_card() -> None:
    g = load(trumps=["S", "H", "D"], hands=[["7C"], ["8C", "9S"], ["TC", "JC"]])
    g.play("7C")
    j = g.to_json()
    assert j["out"] == [0] and j["to_move"] == 1 and g.outcome is None


def test_k14_beating_with_the_last_card_owes_nothing() -> None:
    g = load(trumps=["S", "H", "D"], hands=[["7C"], ["8C", "9S"], ["TC", "JC"]], pile=["6C"])
    g.play("7C")
    j = g.to_json()
    assert j["out"] == [0] and j["owes_second"] is False
    assert j["to_move"] == 1 and j["pile"] == ["6C", "7C"]
    assert g.legal_actions() == ["8C"]  # seat 1 faces the beating card


# -- K16 end of hand -------------------------------------------------------------------


def test_k16_last_holder_loses() -> None:
    g = load(hands=[["KH"], ["QH", "AS"]])
    g.play("KH")
    assert g.outcome == trumps.Outcome([0], [1], False, "out_of_cards")
    assert g.current_player is None and g.legal_actions() == []


def test_k16_draw_rule_single_card_that_beats() -> None:
    g = load(hands=[["KH"], ["AH"]])  # seat 1's AH beats KH
    g.play("KH")
    assert g.outcome == trumps.Outcome([], [], True, "draw_rule")
    # beating under the holder's own trump counts (K9 under L's trump)
    g = load(hands=[["KD"], ["6H"]])
    g.play("KD")
    assert g.outcome is not None and g.outcome.reason == "draw_rule"
    # two cards, even if both beat: a loss
    g = load(hands=[["KD"], ["6H", "AD"]])
    g.play("KD")
    assert g.outcome == trumps.Outcome([0], [1], False, "out_of_cards")


def test_k16_three_players_loser_and_order_of_going_out() -> None:
    g = load(trumps=["S", "H", "D"], hands=[["7C"], ["8C"], ["9C", "TC"]], to_move=0)
    play_all(g, ["7C", "8C"])  # seat 1 beats 7C with its last card
    j = g.to_json()
    assert j["out"] == [0, 1]
    assert g.outcome == trumps.Outcome([0, 1], [2], False, "out_of_cards")
    g = load(trumps=["S", "H", "D"], hands=[["7C"], ["8C"], ["9C"]], to_move=0)
    play_all(g, ["7C", "8C"])  # seat 2's last card 9C beats 8C
    assert g.outcome == trumps.Outcome([], [], True, "draw_rule")


# -- K17 repetition and the ply cap ----------------------------------------------------

CYCLE_POSITION: dict[str, Any] = {
    "game": "kozyri",
    "trumps": ["S", "H"],
    "hands": [["AS", "8S", "AH", "9H"], ["QC", "KD"]],
    "pile": ["6H"],
    "to_move": 0,
}
CYCLE = ["8S", "9H", "take", "AS", "9H", "8S", "take", "6H"]  # back to the start


def test_k17_third_occurrence_is_a_draw() -> None:
    g = trumps.from_json(CYCLE_POSITION)
    start = g.to_json()
    play_all(g, CYCLE)
    same = ("hands", "pile", "to_move", "owes_second")  # K17's notion of "the same"
    assert [g.to_json()[k] for k in same] == [start[k] for k in same]
    assert g.outcome is None  # second occurrence
    play_all(g, CYCLE[:-1])
    assert g.outcome is None
    g.play(CYCLE[-1])
    assert g.outcome == trumps.Outcome([], [], True, "repetition")
    assert g.to_json()["ply"] == 16


def test_k17_repetition_option() -> None:
    g = trumps.from_json({**CYCLE_POSITION, "rules": {"repetition_draw": 2}})
    play_all(g, CYCLE)
    assert g.outcome is not None and g.outcome.reason == "repetition"
    g = trumps.from_json({**CYCLE_POSITION, "rules": {"repetition_draw": 0}})
    play_all(g, CYCLE * 5)
    assert g.outcome is None
    with pytest.raises(trumps.InvalidRules, match="at least 0"):
        trumps.new_game("kozyri", seed=1, rules={"repetition_draw": -1})


def test_k17_loading_restarts_the_count_and_undo_restores_it() -> None:
    g = trumps.from_json(CYCLE_POSITION)
    play_all(g, CYCLE * 2)
    assert g.outcome is not None
    g.undo()
    assert g.outcome is None
    g.play(CYCLE[-1])
    assert g.outcome is not None
    # undo a whole loop: the count is back to two occurrences of the start
    for _ in range(9):
        g.undo()
    play_all(g, CYCLE[-1:] + CYCLE[:-1])
    assert g.outcome is None
    g.play(CYCLE[-1])
    assert g.outcome is not None and g.outcome.reason == "repetition"
    # a reloaded position is a first occurrence again
    h = trumps.from_json({k: v for k, v in g.to_json().items() if k != "outcome"} | {"to_move": 0})
    play_all(h, CYCLE)
    assert h.outcome is None


def test_k17_max_plies() -> None:
    g = trumps.from_json({**CYCLE_POSITION, "rules": {"max_plies": 5, "repetition_draw": 0}})
    play_all(g, CYCLE[:4])
    assert g.outcome is None
    g.play(CYCLE[4])
    assert g.outcome == trumps.Outcome([], [], True, "max_plies")
    assert g.to_json()["ply"] == 5
    g = trumps.from_json({**CYCLE_POSITION, "ply": 7, "rules": {"max_plies": 8}})
    g.play(CYCLE[0])
    assert g.outcome is not None and g.outcome.reason == "max_plies"
    # trump choices are not plies
    g = trumps.new_game("kozyri", seed=3, rules={"max_plies": 1}, trumps=["S", "H"])
    assert g.to_json()["ply"] == 0 and g.outcome is None
    g.play(g.legal_actions()[0])
    assert g.outcome is not None and g.outcome.reason == "max_plies"
    with pytest.raises(trumps.InvalidRules, match="at least 1"):
        trumps.new_game("kozyri", seed=1, rules={"max_plies": 0})


# -- K18 matches -----------------------------------------------------------------------


def test_k18_one_hand_by_default() -> None:
    g = dealt(2, seed=7)
    random_finish(g, random.Random(7))
    j = g.to_json()
    assert g.outcome is not None and j["hand"] == 1
    if not g.outcome.draw:
        assert j["losses"][g.outcome.losers[0]] == 1


@pytest.mark.parametrize("players", [2, 3])
def test_k18_match_until_a_player_has_lost_n_hands(players: int) -> None:
    g = trumps.new_game("kozyri", players=players, seed=21, rules={"match_losses": 2})
    rng = random.Random(3)
    hands_seen = set()
    while not g.is_over:
        j = g.to_json()
        hands_seen.add(j["hand"])
        if j["trumps"].count(None) == players:  # every hand starts with a trump choice
            assert j["hands"] == [[]] * players and j["ply"] == 0
        g.play(rng.choice(g.legal_actions()))
    j = g.to_json()
    assert g.outcome is not None and not g.outcome.draw
    loser = g.outcome.losers[0]
    assert j["losses"][loser] == 2 and all(x < 2 for s, x in enumerate(j["losses"]) if s != loser)
    assert g.outcome.winners == [s for s in range(players) if s != loser]
    assert len(hands_seen) >= 2 and j["hand"] == max(hands_seen)
    # the record replays from a fresh game
    replay = trumps.new_game("kozyri", players=players, seed=21, rules={"match_losses": 2})
    play_all(replay, g.history)
    assert replay == g
    with pytest.raises(trumps.InvalidRules, match="at least 1"):
        trumps.new_game("kozyri", seed=1, rules={"match_losses": 0})


def test_k18_later_hands_deal_from_the_seed_and_hand_number() -> None:
    g = load(hands=[["KH"], ["QH"]], rules={"match_losses": 3, "sixes_to_owner": False}, seed=4)
    g.play("KH")
    play_all(g, ["trump C", "trump D"])  # seat 1 lost and deals; seat 0 chooses first
    j = g.to_json()
    order = shuffled(deal_rng("kozyri", 4, 2), list(range(16, 52)))
    assert mask_of(parse_card(c) for c in j["hands"][0]) == mask_of(order[0::2])
    assert j["to_move"] == 0 and j["trumps"] == ["C", "D"]


# -- undo, core vs public --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_undo_restores_exactly_through_hands_and_the_end(players: int) -> None:
    rules = {"match_losses": 2, "max_plies": 150}
    g = trumps.new_game("kozyri", players=players, seed=players, rules=rules)
    rng = random.Random(players)
    snapshots = [g.to_json()]
    while not g.is_over:
        g.play(rng.choice(g.legal_actions()))
        snapshots.append(g.to_json())
    assert g.to_json()["hand"] >= 2
    for want in reversed(snapshots[:-1]):
        g.undo()
        assert g.to_json() == want
    with pytest.raises(trumps.IllegalAction):
        g.undo()


def test_undo_then_replay_reaches_the_same_states() -> None:
    g = trumps.new_game("kozyri", seed=8, rules={"match_losses": 2, "max_plies": 120})
    rng = random.Random(8)
    random_finish(g, rng)
    end, actions = g.to_json(), list(g.history)
    for _ in actions:
        g.undo()
    play_all(g, actions)
    assert g.to_json() == end


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_agrees_with_the_public_game(players: int) -> None:
    for seed in range(3):
        rules = {"match_losses": 2, "max_plies": 200}
        g = trumps.new_game("kozyri", players=players, seed=seed, rules=rules)
        base = g.core
        assert isinstance(base, KozyriCore)
        core = base.copy()
        stepper = base.copy()
        rng = random.Random(seed)
        while not g.is_over:
            moves = core.legal_moves()
            assert [action_str(m) for m in moves] == g.legal_actions()
            assert moves == sorted(moves)
            assert core.to_move() == g.current_player
            # step() inlines apply() for speed: both must stay the same rules, ply by ply.
            assert stepper.legal_moves() == moves and stepper.to_move() == core.to_move()
            assert stepper.key() == core.key() and stepper.ply == core.ply
            m = rng.choice(moves)
            core.apply(m)
            stepper.step(m)
            g.play(action_str(m))
        assert core.over() and stepper.over() and core.to_move() == -1
        assert core.losses == stepper.losses == g.to_json()["losses"]
        assert core.legal_moves() == []


def test_copy_is_independent() -> None:
    g = dealt(2, seed=5)
    c = g.clone()
    g.play(g.legal_actions()[0])
    assert c.to_json()["ply"] == 0 and c.history != g.history
    base = g.core
    assert isinstance(base, KozyriCore)
    core = base.copy()
    core.apply(core.legal_moves()[0])
    assert g.to_json()["ply"] == 1 and core.ply == 2


def test_copy_then_undo_across_a_hand_end_keeps_the_original_intact() -> None:
    g = trumps.from_json({**CYCLE_POSITION, "rules": {"match_losses": 2}})
    play_all(g, CYCLE * 2)  # drawn by repetition: hand 2 starts
    assert g.to_json()["hand"] == 2 and g.to_json()["losses"] == [0, 0]
    c = g.clone()
    for _ in range(10):
        c.undo()  # back into hand 1, taking back repetitions in c only
    for _ in range(3):
        g.undo()
    play_all(g, CYCLE[-3:])
    assert g.to_json()["hand"] == 2  # g's counts were untouched by c
    play_all(c, CYCLE[-2:])
    assert c.to_json()["hand"] == 1 and c.to_json()["ply"] == 8
    play_all(c, CYCLE)
    assert c.to_json()["hand"] == 2


def test_resign_and_undo() -> None:
    g = dealt(3, seed=1)
    g.resign(1)
    assert g.outcome == trumps.Outcome([0, 2], [1], False, "resigned")
    assert g.legal_actions() == []
    g.undo()
    assert g.outcome is None


def test_cross_check_with_the_reference_rules() -> None:
    from reference import kozyri_ref as ref  # tests/reference, on the path under pytest

    for seed in range(30):
        players = 2 + seed % 3
        rules = {
            "voluntary_pickup": seed % 2 == 1,
            "repetition_draw": [3, 2, 0][seed % 3],
            "max_plies": 250,
        }
        g = dealt(players, seed=seed, rules=rules)
        rng = random.Random(seed)
        pos = {k: v for k, v in g.to_json().items() if k not in ("known", "losses", "hand")}
        seen = Counter([ref.position_key(pos)])
        while not g.is_over:
            assert g.legal_actions() == ref.legal_actions(pos)
            a = rng.choice(g.legal_actions())
            g.play(a)
            pos = ref.apply(pos, a, seen)
            j = g.to_json()
            assert [sorted(h) for h in j["hands"]] == [sorted(h) for h in pos["hands"]]
            for k in ("pile", "to_move", "owes_second", "out", "ply", "outcome"):
                assert j[k] == pos[k], (seed, k)


def test_legal_codes_constants() -> None:
    g = trumps.new_game("kozyri", seed=1)
    assert g.legal_codes() == [TRUMP, TRUMP + 1, TRUMP + 2, TRUMP + 3]
    h = load(hands=[["8S"], ["KH"]], pile=["9S"])
    assert h.legal_codes() == [TAKE]
