"""``Game.undealt_view`` (docs/fairness.md): what a seat is shown before a server deals the
game as it starts.  Nothing in it may depend on the deal: two games that differ only in
their seed give the same undealt view, for every seat and for spectators."""

from __future__ import annotations

import pytest

import trumps
from trumps.games.viewtypes import twentyfive_view


@pytest.mark.parametrize(
    ("game_id", "players", "rules"),
    [
        ("kozyri", 2, None),
        ("kozyri", 4, None),
        ("twentyfive", 2, None),
        ("twentyfive", 4, {"teams": 2}),
        ("twentyfive", 5, {"joker": True}),
    ],
)
def test_the_undealt_view_does_not_depend_on_the_deal(
    game_id: str, players: int, rules: dict[str, object] | None
) -> None:
    games = [trumps.new_game(game_id, players=players, rules=rules, seed=s) for s in range(12)]
    assert len({str(g.to_json()) for g in games}) == len(games)  # twelve other deals
    for seat in [None, *range(players)]:
        views = [g.undealt_view(seat) for g in games]
        assert all(v == views[0] for v in views), seat
        assert views[0]["seat"] == seat and views[0]["to_move"] is None
        assert not [h for h in views[0]["hands"] if not isinstance(h, dict) or h["known"]]


def test_the_twentyfive_undealt_view_shows_no_turn_up() -> None:
    """F4: the turn-up and its trump come with the deal."""
    view = trumps.new_game("twentyfive", players=4, seed=3).undealt_view(1)
    assert (
        twentyfive_view(view)["turnup"] is None
        and twentyfive_view(view)["trump"] is None
        and view["dealer"] is None
    )
