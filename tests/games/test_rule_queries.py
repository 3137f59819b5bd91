"""The games' rule queries, public views and action secrecy: what bots, clients and the
server ask instead of restating a rule.  Each query is checked against the engine itself
(the legal moves and the tricks it plays) or against the rule text."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.cards import card_str, cards_of, mask_of, parse_card, parse_suit
from trumps.games.kozyri.rules import (
    beaters,
    beats_str,
    next_holder,
    pack,
    take_count,
    take_count_str,
)
from trumps.games.twentyfive.rules import TrickRules
from trumps.games.viewtypes import hidden_hand, kozyri_view, twentyfive_view
from trumps.records import record_of, replay

# ---------------------------------------------------------------------------------------
# Svoi Kozyri


def kozyri(**fields: Any) -> trumps.Game:
    return trumps.from_json({"game": "kozyri", "trumps": ["S", "H"], "to_move": 0, **fields})


def test_k9_beats_queries() -> None:
    # K9: a higher card of the same suit, or the player's own trump on another suit.
    assert beats_str("KC", "QC", "S") and not beats_str("QC", "KC", "S")
    assert beats_str("6S", "AC", "S") and not beats_str("6S", "AC", "H")
    assert not beats_str("AS", "AS", "S")
    assert not beats_str("6H", "7S", None)  # no trump chosen: only same-suit beats
    assert beats_str("7S", "6S", "S") and not beats_str("TH", "6S", "D")
    hand = mask_of(parse_card(c) for c in ("7C", "9C", "6S", "AH"))
    got = {card_str(c) for c in cards_of(beaters(hand, parse_card("8C"), parse_suit("S")))}
    assert got == {"9C", "6S"}


@pytest.mark.parametrize(
    ("top", "trump", "pile", "want"),
    [
        ("9C", "S", 7, 3),  # K12: not the picker's trump: three
        ("9C", "S", 2, 2),
        ("9S", "S", 7, 5),  # own trump, not its ace: five
        ("9S", "S", 4, 4),
        ("AS", "S", 9, 9),  # the ace of one's own trump: the whole pile
        ("AH", "S", 9, 3),
    ],
)
def test_k12_take_count_queries(top: str, trump: str, pile: int, want: int) -> None:
    assert take_count_str(top, trump, pile) == want
    assert take_count(parse_card(top), parse_suit(trump), pile) == want


@pytest.mark.parametrize(
    ("pile", "want"),
    [
        (["6C", "7C", "8C", "9C", "TC", "JC", "QC"], 3),  # K12: clubs are nobody's: three
        (["6C", "7C", "8C", "9C", "TC", "JC", "QS"], 5),  # seat 0's own trump: five
        (["6C", "7C", "8C", "9C", "TC", "JC", "AS"], 7),  # its ace: all seven
    ],
)
def test_k12_views_carry_take_count(pile: list[str], want: int) -> None:
    g = kozyri(hands=[["7D", "8D", "9D"], ["6D", "6H"]], pile=pile)
    assert "take" in g.legal_actions()
    for seat in (0, 1, None):
        assert kozyri_view(g.view(seat))["take_count"] == want
    g.play("take")
    assert len(g.to_json()["hands"][0]) == 3 + want


def test_k2_pack_and_k15_next_holder() -> None:
    cards = pack()
    assert len(cards) == 36 and {card_str(c)[0] for c in cards} == set("6789TJQKA")  # K2
    # K1, K15: clockwise, skipping players who are out; alone, the seat itself.
    assert next_holder([3, 0, 2, 5], 0) == 2
    assert next_holder([3, 4, 0, 0], 1) == 0
    assert next_holder([0, 4, 0], 1) == 1


def test_take_count_is_null_without_a_pick_up() -> None:
    lead = kozyri(hands=[["KC"], ["6D"]], pile=[])
    assert kozyri_view(lead.view(0))["take_count"] is None  # K7: lead
    owes = kozyri(hands=[["KC", "7D"], ["6D"]], pile=["9C", "QC"], owes_second=True)
    assert kozyri_view(owes.view(0))["take_count"] is None  # K10: the second card is owed
    choosing = trumps.new_game("kozyri", seed=3)
    assert kozyri_view(choosing.view(0))["take_count"] is None  # K3: trumps being chosen


def test_k19_public_view_shows_only_what_everyone_knows() -> None:
    g = trumps.new_game("kozyri", seed=4, trumps=["S", "H"])
    public = g.view(None)
    assert public["seat"] is None and "seed" not in public and "known" not in public
    full = g.to_json()
    known = full["known"]
    for s in (0, 1):
        # Players deduce the other duel hand (K19); a spectator sees only public cards.
        assert public["hands"][s] == {"count": len(full["hands"][s]), "known": known[s]}
        assert hidden_hand(g.view(1 - s), s)["known"] == full["hands"][s]
    with pytest.raises(ValueError, match="no seat 2"):
        g.view(2)


def test_standard_preset_and_its_old_name() -> None:
    # docs/rules/options.md: the default preset is `standard`; `seed` is still accepted.
    assert "standard" in trumps.games.Kozyri.PRESETS and "seed" not in trumps.games.Kozyri.PRESETS
    assert trumps.games.Kozyri.DEFAULT_PRESET == "standard"
    base = trumps.new_game("kozyri", seed=1).rules
    assert trumps.new_game("kozyri", rules="standard", seed=1).rules == base
    assert trumps.new_game("kozyri", rules="seed", seed=1).rules == base
    assert trumps.new_game("kozyri", rules={"preset": "seed"}, seed=1).rules == base
    with pytest.raises(trumps.InvalidRules, match="no rule preset 'seeds'"):
        trumps.new_game("kozyri", rules="seeds")


# ---------------------------------------------------------------------------------------
# Twenty-Five


def test_f6_f7_f8_card_orders() -> None:
    def names(cards: list[int]) -> str:
        return " ".join(card_str(c) for c in cards)

    hearts = TrickRules(parse_suit("H"))
    assert names(hearts.trump_order()) == "5H JH AH KH QH TH 9H 8H 7H 6H 4H 3H 2H"
    assert names(TrickRules(parse_suit("D")).trump_order()) == (
        "5D JD AH AD KD QD TD 9D 8D 7D 6D 4D 3D 2D"
    )
    assert names(TrickRules(parse_suit("C")).trump_order()) == (
        "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C TC"
    )
    assert names(hearts.plain_order(parse_suit("D"))) == ("KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD")
    assert names(hearts.plain_order(parse_suit("S"))) == ("KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S TS")
    spades = TrickRules(parse_suit("S"))
    assert names(spades.plain_order(parse_suit("H"))) == "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
    assert hearts.plain_order(parse_suit("H")) == []
    written = TrickRules(parse_suit("C"), {"ranking": "as-written"})
    assert names(written.trump_order()) == "5C JC AH AC KC QC TC 9C 8C 7C 6C 4C 3C 2C"
    # F2: the joker is the third-best trump, between the J and the A♥.
    joker = TrickRules(parse_suit("S"), {"joker": True})
    assert names(joker.trump_order()[:4]) == "5S JS JK AH"


def test_f12_f14_trumps_and_reneging() -> None:
    r = TrickRules(parse_suit("S"))
    assert r.is_trump(parse_card("AH")) and r.is_trump(parse_card("2S"))
    assert not r.is_trump(parse_card("KH"))
    # F14: the 5, J and A♥ may renege (the trump ace never), on a lower trump led.
    assert [r.may_renege(parse_card(c)) for c in ("5S", "JS", "AH", "AS")] == [
        True,
        True,
        True,
        False,
    ]
    assert r.privileged(parse_card("JS"), parse_card("AS"))
    assert not r.privileged(parse_card("JS"), parse_card("5S"))
    assert not r.privileged(parse_card("JS"), parse_card("KH"))  # not a trump lead
    five = TrickRules(parse_suit("S"), {"renege_cards": "five_only"})
    assert five.may_renege(parse_card("5S")) and not five.may_renege(parse_card("JS"))
    always = TrickRules(parse_suit("S"), {"renege_limit": "always"})
    assert always.privileged(parse_card("JS"), parse_card("5S"))


def names_of(mask: int) -> set[str]:
    return {card_str(c) for c in cards_of(mask)}


def test_f2_f5_f9_f12_masks_packs_and_the_robbing_card() -> None:
    spades, hearts = TrickRules(parse_suit("S")), TrickRules(parse_suit("H"), {"joker": True})
    assert names_of(spades.trump_mask()) == {r + "S" for r in "23456789TJQKA"} | {"AH", "JK"}
    assert len(names_of(hearts.plain_mask(parse_suit("H")))) == 0  # hearts are trumps
    assert names_of(spades.plain_mask(parse_suit("H"))) == {r + "H" for r in "23456789TJQK"}
    assert len(spades.pack()) == 52 and len(hearts.pack()) == 53  # F2: the joker option
    assert card_str(spades.trump_ace) == "AS" and card_str(hearts.trump_ace) == "AH"  # F9
    assert TrickRules(-1).trump_ace == -1


def test_f13_f14_f18_what_a_play_shows_was_not_held() -> None:
    r = TrickRules(parse_suit("S"))
    c = parse_card
    # F13: a diamond on a club lead: no plain club (trumps are still possible).
    assert names_of(r.withheld(c("7D"), c("9C"))) == {x + "C" for x in "23456789TJQKA"}
    assert r.withheld(c("7C"), c("9C")) == 0  # followed
    assert r.withheld(c("2S"), c("9C")) == 0  # trumped
    # F14: a plain card to the A♠ led: no trump but the privileged 5, J and A♥ above it.
    shown = names_of(r.withheld(c("7D"), c("AS")))
    assert "KS" in shown and "2S" in shown and not shown & {"5S", "JS", "AH"}
    # ... to the J led: the J is no longer above it, so only the 5 could have reneged.
    assert names_of(r.withheld(c("7D"), c("JS"))) >= {"AH", "KS"}
    assert "5S" not in names_of(r.withheld(c("7D"), c("JS")))
    always = TrickRules(parse_suit("S"), {"renege_limit": "always"})
    assert not names_of(always.withheld(c("7D"), c("5S"))) & {"JS", "AH"}
    assert TrickRules(-1).withheld(c("7D"), c("9C")) == 0  # F17a: nothing played yet
    assert r.withheld(c("7D"), -1) == 0 and not r.privileged(c("5S"), -1)  # F11: a lead


def test_f17a_no_trumps_while_the_joker_discard_is_owed() -> None:
    g = trumps.new_game("twentyfive", players=4, rules={"joker": True}, seed=58)
    view = g.view(g.current_player)
    assert twentyfive_view(view)["trump"] is None
    r = TrickRules.of_view(view)
    assert r.trump == -1 and r.trump_order() == []
    assert not any(r.is_trump(c) for c in range(53))
    assert r.value(parse_card("KD")) > r.value(parse_card("QD"))


def twentyfive_states(seed: int, rules: dict[str, object]) -> list[trumps.Game]:
    g = trumps.new_game("twentyfive", players=4, rules=rules, seed=seed)
    rng = random.Random(seed)
    out = []
    while not g.is_over:
        out.append(g.clone())
        g.play(rng.choice(g.legal_actions()))
    return out


RULE_SETS: list[dict[str, object]] = [
    {},
    {"joker": True},
    {"ranking": "as-written"},
    {"renege_cards": "five_only"},
    {"renege_cards": "none"},
    {"renege_limit": "always"},
    {"rob": "mandatory", "joker": True},
]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_f13_f15_queries_agree_with_the_engine(rules: dict[str, object]) -> None:
    """The legal cards are ``follow_mask`` of the hand, no legal card rules out a card
    held (``withheld``), and each finished trick went to ``winner`` — on random games
    under each rule option."""
    checked = 0
    for seed in range(12):
        for g in twentyfive_states(seed, rules):
            seat = g.current_player
            assert seat is not None
            view = g.view(seat)
            r = TrickRules.of_view(view)
            hand = mask_of(parse_card(c) for c in view["hands"][seat])
            trick = [parse_card(c) for c in twentyfive_view(view)["trick"]]
            led = trick[0] if trick else -1
            cards = {a for a in g.legal_actions() if " " not in a}
            if twentyfive_view(view)["trump"] is not None and cards:
                assert {card_str(c) for c in cards_of(r.follow_mask(hand, led))} == cards
                # F18: whatever legal card is played, the hand held none of what it rules out.
                assert all(r.withheld(parse_card(a), led) & hand == 0 for a in cards)
                checked += 1
            for t in twentyfive_view(view)["tricks"]:
                played = [parse_card(c) for c in t["cards"]]
                assert r.winner(played, t["leader"], 4) == t["winner"]
    assert checked > 100


def test_winner_of_an_empty_trick_is_refused() -> None:
    with pytest.raises(ValueError, match="empty trick"):
        TrickRules(0).winner([], 0, 4)


def test_f10_f17a_public_actions_hide_the_discard() -> None:
    g = trumps.new_game("twentyfive", players=4, rules={"joker": True}, seed=58)
    assert g.public_action("rob 9S", None) == "rob"
    assert g.public_action("discard 9S", 2) == "discard"
    assert g.public_action("9S", None) == "9S"
    k = trumps.new_game("kozyri", seed=1, trumps=["S", "H"])
    assert k.public_action("take", None) == "take"


def test_f17a_old_records_with_rob_for_the_joker_discard_still_load() -> None:
    g = trumps.new_game("twentyfive", players=4, rules={"joker": True}, seed=58)
    discard = g.legal_actions()[0]
    assert discard.startswith("discard ")
    g.play(discard)
    g.play(g.legal_actions()[0])
    record = record_of(g, ["a", "b", "c", "d"])
    assert record["actions"][0] == discard
    old = {**record, "actions": ["rob " + discard.split()[1], *record["actions"][1:]]}
    assert replay(old).to_json() == g.to_json()
    # A real rob is not rewritten: "rob XX" where no rob is legal stays illegal.
    bad = {**record, "actions": [record["actions"][0], "rob 2C"]}
    with pytest.raises(trumps.InvalidRecord, match="does not replay"):
        replay(bad)
