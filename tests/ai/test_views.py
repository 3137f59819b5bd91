"""trumps.ai.views: a view plus the true hidden cards gives back the true position."""

from __future__ import annotations

import random

import pytest

import trumps
from trumps.ai.views import game_from_view, seen_cards, unseen_cards
from trumps.cards import parse_card

SETUPS = [("kozyri", 3), ("kozyri", 4), ("twentyfive", 2), ("twentyfive", 4), ("twentyfive", 7)]


def _positions(game_id: str, players: int) -> list[trumps.Game]:
    out = []
    for seed in range(25):
        game = trumps.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 40)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_actions()))
        if not game.is_over:
            out.append(game)
    return out


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
def test_true_hidden_cards_rebuild_the_position(game_id: str, players: int) -> None:
    for game in _positions(game_id, players):
        seat = game.current_player
        assert seat is not None
        full = game.to_json()
        view = game.view(seat)
        hands = {s: [parse_card(c) for c in full["hands"][s]] for s in range(players) if s != seat}
        robbed = full.get("robbed")
        rebuilt = game_from_view(
            view,
            hands,
            robbed_discard=parse_card(robbed["discard"]) if robbed else None,
        ).to_json()
        for key in ("seed", "stock"):
            rebuilt.pop(key, None)
            full.pop(key, None)
        assert rebuilt == full
        # What the seat cannot place is exactly the other seats' unknown cards plus the
        # cards in no hand (stock, secret discards).
        hidden = {c for s, h in hands.items() for c in h} - seen_cards(view)
        assert hidden <= set(unseen_cards(view))
        assert not set(unseen_cards(view)) & {parse_card(c) for c in view["hands"][seat]}


def test_a_hidden_hand_must_be_given() -> None:
    game = trumps.new_game("twentyfive", seed=1)
    with pytest.raises(ValueError, match="seat"):
        game_from_view(game.view(0), {})
