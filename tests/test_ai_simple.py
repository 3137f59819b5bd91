"""The simple bots: legal, deterministic, and ``easy`` clearly better than ``random``."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps import Game, new_game
from trumps.ai import BOTS, Bot, Decision, Limits, make_bot
from trumps.games.viewtypes import View, twentyfive_view

LIMITS = Limits(time=1.0)


class _Checking(Bot):
    """Wraps a bot and checks what it is given and what it returns."""

    name = "Checking"
    level = "checking"

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.game_id)
        self.inner = inner
        self.decisions = 0

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        assert isinstance(view, dict) and "seed" not in view
        d = self.inner.decide(view, legal, limits, rng)
        assert isinstance(d, Decision) and d.action in legal and d.reasoning
        self.decisions += 1
        return d


def play_out(game: Game, bots: list[Bot], rng: random.Random) -> Game:
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        legal = game.legal_actions()
        game.play(bots[seat].decide(game.view(seat), legal, LIMITS, rng).action)
    return game


def test_registry_and_make_bot() -> None:
    assert {"random", "easy", "medium"} <= set(BOTS)
    for level in BOTS:
        for game_id in ("kozyri", "twentyfive"):
            bot = make_bot(level, game_id)
            assert bot.level == level and bot.game_id == game_id
    with pytest.raises(ValueError, match="random, easy, medium"):
        make_bot("grandmaster", "kozyri")
    with pytest.raises(ValueError, match="kozyri"):
        make_bot("easy", "poker")


@pytest.mark.parametrize(
    ("game_id", "players", "seeds"),
    [
        ("kozyri", 2, range(8)),
        ("kozyri", 3, range(3)),
        ("kozyri", 4, range(3)),
        ("twentyfive", 2, range(10)),
        ("twentyfive", 4, range(10)),
        ("twentyfive", 6, range(6)),
        ("twentyfive", 10, range(3)),
    ],
)
def test_bots_play_only_legal_actions(game_id: str, players: int, seeds: range) -> None:
    for seed in seeds:
        levels = [("easy", "random", "medium")[(seed + s) % 3] for s in range(players)]
        bots: list[Bot] = [_Checking(make_bot(level, game_id)) for level in levels]
        game = play_out(new_game(game_id, players=players, seed=seed), bots, random.Random(seed))
        assert game.outcome is not None
        assert sum(b.decisions for b in bots if isinstance(b, _Checking)) == len(game.history)


@pytest.mark.parametrize("rules", ["as-written", {"teams": 2}])
def test_easy_twentyfive_under_other_rules(rules: str | dict[str, object]) -> None:
    for seed in range(6):
        bots = [_Checking(make_bot("easy", "twentyfive")) for _ in range(4)]
        game = new_game("twentyfive", players=4, rules=rules, seed=seed)
        assert play_out(game, list(bots), random.Random(seed)).is_over


# -- the joker (F2, F17a): positions built to reach each case ---------------------------


def _joker_position(**fields: Any) -> Game:
    """Four players, spades trumps, the joker in the pack; seat 0 dealt."""
    base = {"game": "twentyfive", "rules": {"joker": True}, "dealer": 0, "turnup": "9S"}
    return trumps.from_json({**base, **fields})


_PLAIN = [["2D", "3D", "4D", "6D", "7D"], ["8D", "TD", "QD", "KD"], ["2C", "3C", "4C", "6C", "7C"]]

JOKER_CASES: dict[str, Game] = {
    # F17a: the joker was turned up; the dealer (seat 1) owes "discard XX", trump is null.
    "turned up": new_game("twentyfive", players=4, rules={"joker": True}, seed=58),
    # F2: seat 1 leads holding the joker and two low trumps.
    "held": _joker_position(
        hands=[
            _PLAIN[0],
            ["JK", "2S", "3S", "7H", "8H"],
            _PLAIN[2],
            ["8C", "TC", "QC", "KC", "AC"],
        ],
        to_move=1,
    ),
    # F12, F14: the joker led is a trump lead; the 5 (above it) may renege.
    "led": _joker_position(
        hands=[_PLAIN[0], _PLAIN[1], ["5S", "7H", "8H", "9H", "TH"], _PLAIN[2]],
        leader=1,
        trick=["JK"],
        to_move=2,
    ),
    # F14: the joker is privileged on a lower trump led: it may renege.
    "reneging": _joker_position(
        hands=[_PLAIN[0], _PLAIN[1], ["JK", "7H", "8H", "9H", "TH"], _PLAIN[2]],
        leader=1,
        trick=["2S"],
        to_move=2,
    ),
}


def _decide(level: str, game: Game, seed: int = 0) -> Decision:
    seat = game.current_player
    assert seat is not None
    bot = make_bot(level, game.game_id)
    limits = Limits(iterations=40)
    return bot.decide(game.view(seat), game.legal_actions(), limits, random.Random(seed))


def test_the_joker_cases_are_reached() -> None:
    # The positions really are what they claim (else the tests below prove nothing).
    turned = JOKER_CASES["turned up"]
    assert twentyfive_view(turned.view(1))["trump"] is None and turned.current_player == 1
    assert all(a.startswith("discard ") for a in turned.legal_actions())
    assert "JK" in JOKER_CASES["held"].legal_actions()
    assert set(JOKER_CASES["led"].legal_actions()) == {"5S", "7H", "8H", "9H", "TH"}  # F14
    assert set(JOKER_CASES["reneging"].legal_actions()) == {"JK", "7H", "8H", "9H", "TH"}


@pytest.mark.parametrize("case", sorted(JOKER_CASES))
@pytest.mark.parametrize("level", sorted(BOTS))
def test_every_level_decides_the_joker_cases(level: str, case: str) -> None:
    """The turned-up joker used to crash ``easy`` (``trump`` is null while the discard is
    owed, F17a), which online stopped the seat's clock for good."""
    game = JOKER_CASES[case]
    for seed in range(3):
        assert _decide(level, game, seed).action in game.legal_actions()


def test_easy_plays_the_joker_as_a_trump() -> None:
    # F2: third-best trump: with three trumps easy leads its best one, the joker.
    assert _decide("easy", JOKER_CASES["held"]).action == "JK"
    # F15: only the 5 beats the joker led; easy wins as cheaply as it can.
    assert _decide("easy", JOKER_CASES["led"]).action == "5S"
    assert _decide("easy", JOKER_CASES["reneging"]).action == "JK"
    assert _decide("easy", JOKER_CASES["turned up"]).action.startswith("discard ")


# -- F14: which trumps are top trumps ---------------------------------------------------


def _lead_position(trump_card: str, hand: list[str]) -> Game:
    others = [
        "2D",
        "3D",
        "4D",
        "6D",
        "7D",
        "8C",
        "TC",
        "QC",
        "KC",
        "2C",
        "3C",
        "4C",
        "6C",
        "7C",
        "9C",
    ]
    return trumps.from_json(
        {
            "game": "twentyfive",
            "rules": {"rob": "off"},  # the trump ace's holder would rob first (F9)
            "dealer": 3,
            "turnup": trump_card,
            "hands": [hand, others[:5], others[5:10], others[10:]],
            "to_move": 0,
        }
    )


@pytest.mark.parametrize(
    ("turnup", "hand", "top"),
    [
        ("9H", ["JH", "2H", "7S", "8S", "9D"], True),  # the J of trumps (F14)
        ("9S", ["JS", "2S", "7H", "8H", "9D"], True),
        ("9H", ["KH", "2H", "7S", "8S", "9D"], False),  # next below the A♥: not a top trump
        ("9S", ["AS", "2S", "7H", "8H", "9D"], False),  # the trump ace never reneges (F14)
    ],
)
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_two_trumps_with_a_top_one_lead_high(
    level: str, turnup: str, hand: list[str], top: bool
) -> None:
    """The rule of thumb "two trumps, one of them a top trump: lead it" must know the top
    trumps: the trump ace and, with hearts trumps, the K♥ were once taken for them."""
    game = _lead_position(turnup, hand)
    decision = _decide(level, game)
    assert (decision.action == hand[0]) == top, decision


def test_pagat_kozyri_with_voluntary_pickup() -> None:
    for seed in range(3):
        bots: list[Bot] = [_Checking(make_bot("easy", "kozyri")) for _ in range(4)]
        assert play_out(
            new_game("kozyri", rules="pagat", seed=seed), bots, random.Random(1)
        ).is_over


@pytest.mark.parametrize(("game_id", "players"), [("kozyri", 2), ("twentyfive", 5)])
def test_deterministic_for_a_seed(game_id: str, players: int) -> None:
    def history(seed: int) -> list[str]:
        bots = [make_bot(("easy", "random")[s % 2], game_id) for s in range(players)]
        game = new_game(game_id, players=players, seed=seed)
        return play_out(game, bots, random.Random(seed)).history

    assert history(3) == history(3)
    assert history(3) != history(4)


def win_rate(game_id: str, players: int, games: int) -> float:
    """How often one ``easy`` bot (rotating seats) wins against ``random`` bots."""
    wins = 0
    for seed in range(games):
        seat = seed % players
        bots = [make_bot("easy" if s == seat else "random", game_id) for s in range(players)]
        game = play_out(new_game(game_id, players=players, seed=seed), bots, random.Random(seed))
        assert game.outcome is not None
        wins += seat in game.outcome.winners
    return wins / games


def test_easy_beats_random_at_two_player_kozyri() -> None:
    assert win_rate("kozyri", 2, 60) >= 0.75  # measured ≈ 0.95; a coin flip is 0.5


def test_easy_beats_random_at_four_player_twentyfive() -> None:
    assert win_rate("twentyfive", 4, 300) >= 0.35  # measured ≈ 0.45; chance is 0.25
