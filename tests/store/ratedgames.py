"""Finished games to rate, for the tests of ratings (store, page, terminal client)."""

from __future__ import annotations

import random

import trumps


def resigned_duel(seed: int, winner: int) -> trumps.Game:
    """A finished 2-player Svoi Kozyri game that ``winner`` won: four random moves, then
    the other player resigned."""
    game = trumps.new_game("kozyri", players=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(4):
        game.play(rng.choice(game.legal_actions()))
    game.resign(1 - winner)
    return game
