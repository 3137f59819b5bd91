"""Twenty-Five rules (docs/rules/twentyfive.md): one or more tests per rule id, every option and preset."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.cards import JOKER, card_str, parse_card
from trumps.errors import IllegalAction, InvalidRules
from trumps.games.base import below, deal_rng, shuffled
from trumps.games.twentyfive import TwentyFive
from trumps.games.twentyfive._core import PVAL, TVAL, shuffle_pack


def load(**fields: Any) -> TwentyFive:
    return TwentyFive.from_json({"game": "twentyfive", **fields})


def trick_winner(turnup: str, cards: list[str], **rules: Any) -> int:
    """The seat winning one trick where seat i (seat 0 leading) plays ``cards[i]``.

    With ``target`` 1 the game ends on that trick, so the trick stays in the position."""
    g = load(rules={"target": 1, **rules}, turnup=turnup, hands=[[c] for c in cards], to_move=0)
    for c in cards:
        g.play(c)
    d = g.to_json()
    assert d["tricks"][0]["cards"] == cards
    winner: int = d["tricks"][0]["winner"]
    assert g.outcome is not None and g.outcome.winners == [winner]
    return winner


def new(players: int = 4, seed: int = 1, **rules: Any) -> TwentyFive:
    g = trumps.new_game("twentyfive", players=players, rules=rules or None, seed=seed)
    assert isinstance(g, TwentyFive)
    return g


def reply(turnup: str, lead: str, hand: list[str], **rules: Any) -> TwentyFive:
    """Two players: seat 0 has led ``lead``; seat 1, holding ``hand``, is to move."""
    used = {turnup, lead, *hand}
    filler = [c for c in ("2S", "3S", "4S", "6S", "7S", "8S") if c not in used]
    return load(
        rules={"rob": "off", **rules},  # robbing is tested on its own
        turnup=turnup,
        hands=[filler[: len(hand) - 1], hand],
        trick=[lead],
        to_move=1,
    )


def order(trump: str | None, ranking: int, cards: list[str]) -> list[str]:
    """Cards sorted high → low by trump value (trump suit given) or plain value."""
    if trump is None:
        return sorted(cards, key=lambda c: -PVAL[ranking][parse_card(c)])
    table = TVAL[ranking * 4 + "SHDC".index(trump)]
    return sorted(cards, key=lambda c: -table[parse_card(c)])


# -- 2.1 Players, pack, deal ---------------------------------------------------------------


def test_f1_player_counts() -> None:
    assert TwentyFive.default_players == 4
    assert trumps.new_game("twentyfive", seed=0).players == 4
    for n in range(2, 11):
        assert new(players=n).players == n
    for n in (1, 11):
        with pytest.raises(InvalidRules):
            new(players=n)


@pytest.mark.parametrize(
    ("players", "size", "teams"),
    [
        (4, 2, [[0, 2], [1, 3]]),
        (6, 2, [[0, 3], [1, 4], [2, 5]]),
        (8, 2, [[0, 4], [1, 5], [2, 6], [3, 7]]),
        (10, 2, [[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]]),
        (6, 3, [[0, 2, 4], [1, 3, 5]]),
        (9, 3, [[0, 3, 6], [1, 4, 7], [2, 5, 8]]),
    ],
)
def test_f1_teams_seating(players: int, size: int, teams: list[list[int]]) -> None:
    g = new(players=players, teams=size)
    assert g.to_json()["teams"] == teams
    assert g.to_json()["scores"] == [0] * len(teams)
    assert g.side_of(teams[0][-1]) == teams[0]
    assert new(players=players).to_json()["teams"] is None


@pytest.mark.parametrize(("players", "size"), [(5, 2), (3, 2), (2, 2), (4, 3), (8, 3), (10, 3)])
def test_f1_teams_invalid_combinations(players: int, size: int) -> None:
    with pytest.raises(InvalidRules, match="does not fit"):
        new(players=players, teams=size)


def test_f1_team_scores_and_team_win() -> None:
    # Seat 2 (team 0 with seat 0) wins the trick; the team reaches 25 and wins together.
    g = load(
        turnup="9C",
        hands=[["2D"], ["3D"], ["KD"], ["5D"]],
        tricks=[],
        trick=[],
        to_move=1,
        dealer=0,
        scores=[20, 15],
        teams=[[0, 2], [1, 3]],
        rules={"teams": 2},
    )
    for a in ("3D", "KD", "5D", "2D"):
        g.play(a)
    assert g.to_json()["scores"] == [25, 15]
    assert g.outcome is not None
    assert (g.outcome.winners, g.outcome.losers, g.outcome.reason) == ([0, 2], [1, 3], "target")


def test_f2_pack_has_52_cards_and_no_joker() -> None:
    d = new(players=10, seed=3).to_json()
    cards = [c for h in d["hands"] for c in h] + [d["turnup"], *d["stock"]]
    assert len(cards) == len(set(cards)) == 52
    assert "JK" not in cards


def test_f2_joker_option_adds_the_joker() -> None:
    d = new(players=10, seed=3, joker=True).to_json()
    cards = [c for h in d["hands"] for c in h] + [d["turnup"], *d["stock"]]
    assert len(set(cards)) == 53
    assert "JK" in cards


def test_f2_joker_ranks_between_jack_and_ace_of_hearts() -> None:
    for trump in "SHDC":
        ranked = order(trump, 0, [f"5{trump}", f"J{trump}", "JK", "AH", f"K{trump}"])
        assert ranked == [f"5{trump}", f"J{trump}", "JK", "AH", f"K{trump}"]
    # In play: clubs trumps, the joker beats the A♥ and loses to the J♣.
    assert trick_winner("9C", ["2D", "AH", "JK"], joker=True) == 2
    assert trick_winner("9C", ["JK", "2D", "JC"], joker=True) == 2


def test_f3_first_dealer_is_seeded_and_the_deal_passes_left() -> None:
    for seed in range(20):
        g = new(players=5, seed=seed, target=1000)
        dealer = below(deal_rng("twentyfive", seed, 0), 5)
        assert g.to_json()["dealer"] == dealer
        rng = random.Random(seed)
        while g.to_json()["hand"] == 1:
            g.play(rng.choice(g.legal_actions()))
        d = g.to_json()
        assert d["hand"] == 2
        assert d["dealer"] == (dealer + 1) % 5
        assert d["tricks"] == [] and d["trick"] == []


@pytest.mark.parametrize(("packets", "sizes"), [("2-3", (2, 3)), ("3-2", (3, 2)), ("4-1", (4, 1))])
def test_f4_deal_in_packets_then_turn_up(packets: str, sizes: tuple[int, int]) -> None:
    for seed in range(5):
        g = new(players=4, seed=seed, deal_packets=packets)
        d = g.to_json()
        dealer = d["dealer"]
        deck = shuffled(deal_rng("twentyfive", seed, 1), list(range(52)))
        hands: list[list[int]] = [[] for _ in range(4)]
        i = 0
        for packet in sizes:
            for k in range(1, 5):
                hands[(dealer + k) % 4] += deck[i : i + packet]
                i += packet
        assert d["hands"] == [[card_str(c) for c in sorted(h)] for h in hands]
        assert d["turnup"] == card_str(deck[i])
        assert d["trump"] == card_str(deck[i])[1]
        assert sorted(d["stock"], key=parse_card) == [card_str(c) for c in sorted(deck[i + 1 :])]


def test_f4_compiled_shuffle_matches_base() -> None:
    for seed in range(10):
        for size in (52, 53):
            assert shuffle_pack(deal_rng("twentyfive", seed, 2), size) == shuffled(
                deal_rng("twentyfive", seed, 2), list(range(size))
            )


# -- 2.2 Card ranking ---------------------------------------------------------------------

CLASSIC_TRUMPS = {
    "H": "5H JH AH KH QH TH 9H 8H 7H 6H 4H 3H 2H",
    "D": "5D JD AH AD KD QD TD 9D 8D 7D 6D 4D 3D 2D",
    "C": "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C TC",
    "S": "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S TS",
}
CLASSIC_PLAIN = {
    "H": "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "D": "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD",
    "C": "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C TC",
    "S": "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
}


def test_f5_ace_of_hearts_is_always_a_trump_never_a_heart() -> None:
    for trump in "SDC":
        assert TVAL[0 * 4 + "SHDC".index(trump)][parse_card("AH")] > 0
        assert TVAL[1 * 4 + "SHDC".index(trump)][parse_card("AH")] > 0
    # Hearts led, spades trumps: holding only the A♥ among "hearts" is holding no heart.
    g = reply("9S", "KH", ["AH", "2D", "3C"])
    assert sorted(g.legal_actions()) == ["2D", "3C", "AH"]
    # With a real heart it must follow (or trump with the A♥).
    g = reply("9S", "KH", ["AH", "2H", "3C"])
    assert sorted(g.legal_actions()) == ["2H", "AH"]


@pytest.mark.parametrize("trump", "HDCS")
def test_f6_classic_trump_order(trump: str) -> None:
    cards = CLASSIC_TRUMPS[trump].split()
    assert order(trump, 0, list(reversed(cards))) == cards
    table = TVAL[0 * 4 + "SHDC".index(trump)]
    trumps_ = [card_str(c) for c in range(52) if table[c]]
    assert sorted(trumps_) == sorted(cards)
    assert len(cards) == (13 if trump == "H" else 14)


def test_f6_in_play_black_trumps_run_low_numbers_high() -> None:
    assert trick_winner("9C", ["TC", "2C", "QC"]) == 2  # Q♣ > 2♣ > T♣
    assert trick_winner("9C", ["TC", "2C", "3D"]) == 1


@pytest.mark.parametrize("suit", "HDCS")
def test_f7_classic_plain_order(suit: str) -> None:
    cards = CLASSIC_PLAIN[suit].split()
    assert order(None, 0, list(reversed(cards))) == cards


def test_f7_plain_diamond_ace_is_lowest_and_plain_black_two_beats_ten() -> None:
    assert trick_winner("9C", ["KD", "2D", "3D", "AD"]) == 0
    assert trick_winner("9H", ["7S", "TS", "2S", "KD"]) == 2


def test_f8_as_written_ranking() -> None:
    for trump in "SHDC":
        expected = f"5{trump} J{trump} AH" + ("" if trump == "H" else f" A{trump}")
        expected += " " + " ".join(f"{r}{trump}" for r in "KQT98764 32".replace(" ", ""))
        cards = expected.split()
        assert order(trump, 1, list(reversed(cards))) == cards
    assert order(None, 1, ["2D", "AD", "TD", "KD", "QD", "JD"]) == [
        "KD",
        "QD",
        "JD",
        "AD",
        "TD",
        "2D",
    ]
    assert order(None, 1, ["TH", "2H", "KH"]) == ["KH", "TH", "2H"]
    assert order(None, 1, ["TS", "2S", "AS", "KS"]) == ["KS", "AS", "2S", "TS"]
    # In play: spades trumps, as-written: T♠ beats 2♠; classic: 2♠ beats T♠.
    for rules, winner in (({"ranking": "as-written"}, 0), ({}, 1)):
        assert trick_winner("9S", ["TS", "2S"], **rules) == winner
    # Plain diamonds: the ace is above the ten as written, lowest classically.
    for rules, winner in (({"ranking": "as-written"}, 1), ({}, 0)):
        assert trick_winner("9S", ["TD", "AD"], **rules) == winner


def test_f8_as_written_preset() -> None:
    rules = trumps.new_game("twentyfive", rules="as-written", seed=1).rules
    assert rules["ranking"] == "as-written" and rules["renege_limit"] == "always"
    assert trumps.new_game("twentyfive", rules="forty-five", seed=1).rules["target"] == 45
    classic = trumps.new_game("twentyfive", rules="classic", seed=1).rules
    assert classic == {o.name: o.default for o in TwentyFive.OPTIONS.values()}


# -- 2.3 Robbing ----------------------------------------------------------------------------


def rob_position(turnup: str, hand0: list[str], **extra: Any) -> TwentyFive:
    """Three players, dealer 2; seat 0 (holding ``hand0``) leads trick 1."""
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
    return load(**fields)


def test_f9_trump_ace_holder_robs_then_plays() -> None:
    g = rob_position("7S", ["AS", "3D", "9H", "KD", "4H"])
    legal = g.legal_actions()
    assert [a for a in legal if a.startswith("rob")] == [
        "rob 3D",
        "rob 4H",
        "rob 9H",
        "rob KD",
        "rob AS",
    ]
    assert legal[:5] == ["3D", "4H", "9H", "KD", "AS"]
    g.play("rob 3D")
    d = g.to_json()
    assert d["hands"][0] == ["4H", "7S", "9H", "KD", "AS"]
    assert d["robbed"] == {"seat": 0, "discard": "3D"}
    assert d["to_move"] == 0
    assert g.legal_actions() == ["4H", "7S", "9H", "KD", "AS"]
    assert "3D" not in d["stock"]
    g.undo()
    assert g.to_json()["robbed"] is None


def test_f9_ace_of_hearts_robs_only_when_hearts_are_trumps() -> None:
    g = rob_position("7D", ["AH", "3D", "9H", "KD", "4H"])
    assert not any(a.startswith("rob") for a in g.legal_actions())
    g = rob_position("7H", ["AH", "3D", "9H", "KD", "4S"])
    assert "rob 3D" in g.legal_actions()


def test_f9_dealer_robs_a_turned_up_ace() -> None:
    g = load(
        turnup="AS", hands=[["3D"], ["3H"], ["4D", "5D"]], trick=["2D", "2H"], leader=0, to_move=2
    )
    assert g.legal_actions() == ["4D", "5D", "rob 4D", "rob 5D"]
    g.play("rob 5D")
    assert g.to_json()["hands"][2] == ["4D", "AS"]
    assert g.legal_actions() == ["4D", "AS"]
    # Another seat never robs a turned-up ace.
    g = load(turnup="AS", hands=[["2D", "3D"], ["2H", "3H"], ["4D", "5D"]], to_move=0)
    assert not any(a.startswith("rob") for a in g.legal_actions())


def test_f9_nobody_robs_when_the_trump_ace_is_in_the_stock() -> None:
    g = rob_position("7S", ["KS", "3D", "9H", "KD", "4H"])
    assert not any(a.startswith("rob") for a in g.legal_actions())
    rng = random.Random(5)
    for seed in range(40):
        g = new(seed=seed)
        d = g.to_json()
        ace = "A" + d["trump"]
        holder = next((s for s, h in enumerate(d["hands"]) if ace in h), None)
        if d["turnup"][0] == "A":
            holder = d["dealer"]
        while g.to_json()["hand"] == 1 and not g.is_over and not g.to_json()["tricks"]:
            robs = [a for a in g.legal_actions() if a.startswith("rob")]
            assert bool(robs) == (g.current_player == holder), (seed, d)
            g.play(rng.choice([a for a in g.legal_actions() if not a.startswith("rob")]))


def test_f10_rob_lapses_after_playing_to_trick_one() -> None:
    # Seat 0 still holds the A♠ but has played to trick 1: no rob.
    g = load(
        turnup="7S",
        hands=[["AS", "3D"], ["2C", "3C"], ["4C", "6C"]],
        tricks=[{"leader": 0, "cards": ["9H", "TC", "8C"], "winner": 0}],
        to_move=0,
        scores=[5, 0, 0],
    )
    assert g.legal_actions() == ["3D", "AS"]


def test_f10_rob_at_first_turn_when_following() -> None:
    g = load(
        turnup="7S",
        hands=[["2C", "3C"], ["AS", "3D", "4D"], ["4C", "6C", "8C"]],
        trick=["KC"],
        to_move=1,
        leader=0,
    )
    assert g.legal_actions() == ["3D", "4D", "AS", "rob 3D", "rob 4D", "rob AS"]


def test_f10_rob_mandatory_and_off() -> None:
    g = rob_position("7S", ["AS", "3D", "9H", "KD", "4H"], rules={"rob": "mandatory"})
    assert all(a.startswith("rob") for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.play("3D")
    g.play("rob 9H")
    assert not any(a.startswith("rob") for a in g.legal_actions())
    g = rob_position("7S", ["AS", "3D", "9H", "KD", "4H"], rules={"rob": "off"})
    assert g.legal_actions() == ["3D", "4H", "9H", "KD", "AS"]


# -- 2.4 Play -----------------------------------------------------------------------------


def test_f11_left_of_dealer_leads_and_winner_leads_next() -> None:
    for seed in range(5):
        g = new(seed=seed, rob="off")
        d = g.to_json()
        assert d["to_move"] == d["leader"] == (d["dealer"] + 1) % 4
        assert sorted(g.legal_actions()) == sorted(d["hands"][d["to_move"]])  # any card
        for _ in range(4):
            g.play(g.legal_actions()[0])
        d = g.to_json()
        assert d["to_move"] == d["leader"] == d["tricks"][0]["winner"]


def test_f12_ace_of_hearts_lead_is_a_trump_lead() -> None:
    g = reply("9C", "AH", ["2C", "KH", "QD"])
    assert g.legal_actions() == ["2C"]
    g = reply("9C", "AH", ["KH", "QD"])
    assert g.legal_actions() == ["QD", "KH"]


def test_f13_plain_lead_follow_or_trump() -> None:
    g = load(
        turnup="9D",
        dealer=2,
        hands=[["3C", "4C", "6C"], ["2C", "JD", "AH", "9S"], ["QH", "8H", "7H", "6H"]],
        tricks=[{"leader": 0, "cards": ["KS", "QS", "JS"], "winner": 0}],
        trick=["KC"],
        to_move=1,
        scores=[5, 0, 0],
    )
    assert sorted(g.legal_actions()) == ["2C", "AH", "JD"]
    g = reply("9D", "KC", ["JD", "AH", "9S"])
    assert sorted(g.legal_actions()) == ["9S", "AH", "JD"]
    with pytest.raises(IllegalAction):
        load(
            turnup="9D",
            dealer=2,
            hands=[["3C", "4C", "6C"], ["2C", "JD", "AH", "9S"], ["QH", "8H", "7H", "6H"]],
            tricks=[{"leader": 0, "cards": ["KS", "QS", "JS"], "winner": 0}],
            trick=["KC"],
            to_move=1,
            scores=[5, 0, 0],
        ).play("9S")


@pytest.mark.parametrize(
    ("lead", "hand", "legal", "rules"),
    [
        ("AS", ["JS", "7H", "8D"], ["7H", "8D", "JS"], {}),
        ("AS", ["JS", "3S", "8D"], ["3S", "JS"], {}),
        ("5S", ["JS", "7H", "8D"], ["JS"], {}),
        ("AH", ["AS", "7H"], ["AS"], {}),
        ("JS", ["5S", "AH", "8D"], ["AH", "5S"], {}),
        ("JS", ["5S", "7H"], ["7H", "5S"], {}),
        ("5S", ["JS", "7H", "8D"], ["7H", "8D", "JS"], {"renege_limit": "always"}),
        ("AS", ["JS", "7H", "8D"], ["JS"], {"renege_cards": "five_only"}),
        ("AS", ["5S", "7H", "8D"], ["7H", "8D", "5S"], {"renege_cards": "five_only"}),
        ("AS", ["5S", "7H", "8D"], ["5S"], {"renege_cards": "none"}),
        ("5S", ["JS", "7H", "8D"], ["7H", "8D", "JS"], {"rules": "as-written"}),
    ],
)
def test_f14_trump_lead_and_reneging(
    lead: str, hand: list[str], legal: list[str], rules: dict[str, Any]
) -> None:
    if "rules" in rules:
        rules = {"preset": rules["rules"]}
    g = reply("9S", lead, hand, **rules)
    assert sorted(g.legal_actions(), key=parse_card) == sorted(legal, key=parse_card)


def test_f14_hearts_trumps_ace_of_hearts_is_top_three() -> None:
    g = reply("9H", "KH", ["AH", "7S"])
    assert sorted(g.legal_actions()) == ["7S", "AH"]
    g = reply("9H", "JH", ["AH", "7S"])
    assert g.legal_actions() == ["AH"]


def test_f14_joker_is_privileged() -> None:
    g = reply("9S", "AS", ["JK", "7H"], joker=True)
    assert sorted(g.legal_actions()) == ["7H", "JK"]
    g = reply("9S", "JS", ["JK", "7H"], joker=True)
    assert g.legal_actions() == ["JK"]


def test_f15_highest_trump_wins_else_highest_of_suit_led() -> None:
    assert trick_winner("9C", ["AC", "AH"]) == 1
    # A discard of a higher card never wins.
    assert trick_winner("9C", ["3D", "KS", "2D"]) == 0
    # A low trump beats the suit led.
    assert trick_winner("9C", ["KD", "TC"]) == 1


# -- 2.5 Scoring ----------------------------------------------------------------------------


def two_trick_game(**rules: Any) -> TwentyFive:
    """Seat 0 wins trick 1 (to 25), then seat 1 trumps trick 2 (to 25 as well)."""
    return load(
        rules=rules or None,
        turnup="9C",
        hands=[["KS", "3D"], ["2H", "AC"]],
        to_move=0,
        scores=[20, 20],
    )


def test_f16_points_per_trick_and_scores_carry_over() -> None:
    g = load(
        rules={"points_per_trick": 3, "target": 100},
        turnup="9C",
        hands=[["KS"], ["2H"]],
        to_move=0,
        scores=[7, 4],
        hand=3,
        seed=9,
    )
    g.play("KS")
    g.play("2H")
    d = g.to_json()
    assert d["scores"] == [10, 4]
    assert d["hand"] == 4 and d["dealer"] == 0 and d["tricks"] == []
    assert all(len(h) == 5 for h in d["hands"])


def test_f16_target_ends_the_game_at_once() -> None:
    g = two_trick_game()
    g.play("KS")
    g.play("2H")
    d = g.to_json()
    assert g.is_over and d["to_move"] is None and d["scores"] == [25, 20]
    assert d["outcome"] == {"winners": [0], "losers": [1], "draw": False, "reason": "target"}
    assert d["hands"] == [["3D"], ["AC"]]
    assert g.legal_actions() == []


def test_f16_play_out_hand_keeps_the_first_to_reach_the_target() -> None:
    g = two_trick_game(play_out_hand=True)
    g.play("KS")
    g.play("2H")
    assert not g.is_over and g.current_player == 0
    g.play("3D")
    g.play("AC")
    d = g.to_json()
    assert d["scores"] == [25, 25]
    assert d["outcome"] == {"winners": [0], "losers": [1], "draw": False, "reason": "target"}


def test_f16_target_and_forty_five_preset() -> None:
    g = load(rules="forty-five", turnup="9C", hands=[["KS"], ["2H"]], to_move=0, scores=[40, 0])
    g.play("KS")
    g.play("2H")
    assert g.outcome is not None and g.outcome.winners == [0]
    g = load(rules={"target": 50}, turnup="9C", hands=[["KS"], ["2H"]], to_move=0, scores=[40, 0])
    g.play("KS")
    g.play("2H")
    assert g.outcome is None and g.to_json()["scores"] == [45, 0]


SWEEP = {
    "turnup": "9C",
    "hands": [["9S"], ["7H"]],
    "tricks": [
        {"leader": 0, "cards": ["KS", "2H"], "winner": 0},
        {"leader": 0, "cards": ["QS", "3H"], "winner": 0},
        {"leader": 0, "cards": ["JS", "4H"], "winner": 0},
        {"leader": 0, "cards": ["TS", "6H"], "winner": 0},
    ],
    "to_move": 0,
    "scores": [20, 0],
}


def test_f17_no_bonus_by_default() -> None:
    g = load(rules={"target": 100}, **SWEEP)
    g.play("9S")
    g.play("7H")
    assert g.to_json()["scores"] == [25, 0]


def test_f17_plus10_for_all_five_tricks() -> None:
    g = load(rules={"target": 100, "five_trick_bonus": "plus10"}, **SWEEP)
    g.play("9S")
    g.play("7H")
    d = g.to_json()
    assert d["scores"] == [35, 0] and d["hand"] == 2 and not g.is_over
    g = load(rules={"target": 35, "five_trick_bonus": "plus10"}, **SWEEP)
    g.play("9S")
    g.play("7H")
    assert g.outcome is not None and g.outcome.winners == [0]
    # Not for four tricks out of five.
    sweep = dict(SWEEP, hands=[["9S"], ["7C"]])
    g = load(rules={"target": 100, "five_trick_bonus": "plus10"}, **sweep)
    g.play("9S")
    g.play("7C")
    assert g.to_json()["scores"] == [20, 5]


def test_f17_wins_game_for_all_five_tricks() -> None:
    g = load(rules={"target": 100, "five_trick_bonus": "wins_game"}, **SWEEP)
    g.play("9S")
    g.play("7H")
    d = g.to_json()
    assert d["scores"] == [25, 0]
    assert d["outcome"] == {"winners": [0], "losers": [1], "draw": False, "reason": "target"}


def joker_game(players: int, seed: int, **rules: Any) -> TwentyFive:
    g = new(players=players, seed=seed, joker=True, **rules)
    assert g.to_json()["turnup"] == "JK"
    return g


def test_f17a_turned_up_joker_goes_to_the_dealer_who_discards() -> None:
    g = joker_game(4, 58)  # seed 58 turns up the joker (checked above)
    d = g.to_json()
    dealer = d["dealer"]
    assert d["trump"] is None and g.current_player == dealer
    assert "JK" in d["hands"][dealer] and len(d["hands"][dealer]) == 6
    assert trumps.from_json(d).to_json() == d  # the pending discard round-trips
    nxt = d["stock"][0]
    deck = shuffled(deal_rng("twentyfive", 58, 1), list(range(53)))
    assert nxt == card_str(deck[21])
    # F17a: the discard is its own action word, never a rob.
    assert g.legal_actions() == ["discard " + c for c in d["hands"][dealer] if c != "JK"]
    discard = d["hands"][dealer][0]
    with pytest.raises(IllegalAction):
        g.play("rob " + discard)
    g.play("discard " + discard)
    d = g.to_json()
    assert d["turnup"] == nxt and d["trump"] == nxt[1]
    assert d["joker_discard"] == discard and nxt not in d["stock"]
    assert len(d["hands"][dealer]) == 5 and "JK" in d["hands"][dealer]
    assert g.current_player == (dealer + 1) % 4
    assert trumps.from_json(d).to_json() == d


def test_f17a_joker_then_an_ace_turned_up_is_robbed_by_the_dealer() -> None:
    g = load(
        rules={"joker": True},
        turnup="JK",
        hands=[["2D", "3D"], ["2H", "3H", "JK"]],
        stock=["AS", "KS"],
        dealer=1,
        to_move=1,
    )
    assert g.legal_actions() == ["discard 2H", "discard 3H"]
    g.play("discard 3H")
    g.play("2D")
    assert g.legal_actions() == ["2H", "JK", "rob 2H", "rob JK"]
    g.play("rob 2H")
    assert g.to_json()["hands"][1] == ["AS", "JK"]


# -- 2.6 Information ------------------------------------------------------------------------


def test_f18_views_hide_hands_discards_stock_and_show_voids() -> None:
    g = rob_position("7S", ["AS", "3D", "9H", "KD", "4H"])
    g.play("rob 3D")
    g.play("9H")
    g.play("2C")  # seat 1 shows it has no hearts
    v1 = g.view(1)
    assert v1["hands"][0] == {"count": 4, "known": ["7S"]}
    assert v1["robbed"] == {"seat": 0}
    assert "stock" not in v1 and "seed" not in v1
    assert v1["voids"] == [[], ["H"], []]
    v0 = g.view(0)
    assert v0["robbed"] == {"seat": 0, "discard": "3D"}
    assert v0["hands"][0] == ["4H", "7S", "KD", "AS"]
    assert "3D" not in str(v1) and "3D" not in str(g.view(2))


# -- Engine properties ---------------------------------------------------------------------


def random_rules(rng: random.Random, players: int) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    for name, opt in TwentyFive.OPTIONS.items():
        if opt.choices:
            rules[name] = rng.choice(opt.choices)
        elif isinstance(opt.default, bool):
            rules[name] = rng.random() < 0.5
    rules["points_per_trick"] = rng.choice([1, 5, 7])
    rules["target"] = rng.choice([5, 25, 45])
    if rules["teams"] == 2 and players not in (4, 6, 8, 10):
        rules["teams"] = "none"
    if rules["teams"] == 3 and players not in (6, 9):
        rules["teams"] = "none"
    return rules


def test_undo_restores_exactly_through_random_games() -> None:
    rng = random.Random(11)
    most_hands = 0
    for seed in range(25):
        players = rng.randint(2, 10)
        g = new(players=players, seed=seed, **random_rules(rng, players))
        states = [g.to_json()]
        while not g.is_over:
            g.play(rng.choice(g.legal_actions()))
            states.append(g.to_json())
        most_hands = max(most_hands, len({s["hand"] for s in states}))
        while g.history:
            g.undo()
            states.pop()
            assert g.to_json() == states[-1]
    assert most_hands >= 3  # undo crossed new deals


def test_core_apply_and_step_agree_with_play() -> None:
    rng = random.Random(12)
    for seed in range(25):
        players = rng.randint(2, 10)
        rules = random_rules(rng, players)
        g = new(players=players, seed=seed, **rules)
        h = new(players=players, seed=seed, **rules)
        fast = h.core.copy()
        while not g.is_over:
            codes = g.legal_codes()
            assert h.core.legal_moves() == codes == fast.legal_moves()
            code = rng.choice(codes)
            g.play(trumps.cards.action_str(code))
            h.core.apply(code)
            fast.step(code)
            assert g.to_json() == h.to_json()
            assert fast.hands == h.core.hands and fast.scores == h.core.scores
        assert h.core.over() and fast.over() and h.core.to_move() == -1


def test_clone_is_independent() -> None:
    g = new(seed=4)
    g.play(g.legal_actions()[0])
    c = g.clone()
    assert c == g and c.history == g.history
    c.play(c.legal_actions()[0])
    assert c != g
    c.undo()
    c.undo()
    g.undo()
    assert c == g


def test_joker_card_code_is_the_spec_joker() -> None:
    assert card_str(JOKER) == "JK"


def test_f17_plus10_with_play_out_hand_after_the_target() -> None:
    # Seat 0 reaches 25 on the fifth trick: at once the game ends (no bonus); with
    # play_out_hand the hand is finished, so the sweep earns its bonus.
    g = load(**SWEEP, rules={"five_trick_bonus": "plus10"})
    g.play("9S")
    g.play("7H")
    assert g.to_json()["scores"] == [25, 0] and g.outcome is not None
    g = load(**SWEEP, rules={"five_trick_bonus": "plus10", "play_out_hand": True})
    g.play("9S")
    g.play("7H")
    assert g.to_json()["scores"] == [35, 0] and g.outcome is not None
    assert g.outcome.winners == [0]
