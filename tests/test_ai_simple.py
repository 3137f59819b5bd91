"""The simple bots: legal, deterministic, and ``easy`` clearly better than ``random``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from trumps import Game, new_game
from trumps.ai import BOTS, Bot, Decision, Limits, make_bot
from trumps.ai.simple import TrickRanker, kozyri_beats, kozyri_pickup_count, trump_order
from trumps.cards import parse_card

LIMITS = Limits(time=1.0)


class _Checking(Bot):
    """Wraps a bot and checks what it is given and what it returns."""

    name = "Checking"
    level = "checking"

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.game_id)
        self.inner = inner
        self.decisions = 0

    def decide(
        self, view: dict[str, Any], legal: list[str], limits: Limits, rng: random.Random
    ) -> Decision:
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


@pytest.mark.parametrize("rules", ["as-written", {"joker": True}, {"teams": 2}])
def test_easy_twentyfive_under_other_rules(rules: str | dict[str, object]) -> None:
    for seed in range(6):
        bots = [_Checking(make_bot("easy", "twentyfive")) for _ in range(4)]
        game = new_game("twentyfive", players=4, rules=rules, seed=seed)
        assert play_out(game, list(bots), random.Random(seed)).is_over


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


def test_kozyri_helpers() -> None:
    qs, ks, ah, six_c = (parse_card(c) for c in ("QS", "KS", "AH", "6C"))
    assert kozyri_beats(ks, qs, None) and not kozyri_beats(qs, ks, None)
    assert kozyri_beats(six_c, ah, 3) and not kozyri_beats(six_c, ah, 1)
    assert kozyri_pickup_count(10, ks, 1) == 3  # K12: not the picker's trump
    assert kozyri_pickup_count(10, ks, 0) == 5  # K12: own trump, not the ace
    assert kozyri_pickup_count(10, parse_card("AS"), 0) == 10  # K12: own trump ace


def test_twentyfive_ranking() -> None:
    order = [parse_card(c) for c in ("5C", "JC", "AH", "AC", "KC", "QC", "2C", "3C", "4C")]
    assert trump_order(3)[: len(order)] == order
    assert len(trump_order(1)) == 13 and len(trump_order(2)) == 14
    r = TrickRanker(2)  # diamonds trumps
    led = parse_card("KS")
    assert r.power(parse_card("2D"), led) > r.power(led, led) > r.power(parse_card("JS"), led)
    assert r.power(parse_card("AH"), led) > r.power(parse_card("AD"), led)
    assert r.power(parse_card("QH"), led) == 0  # a discard never wins (F15)
