"""The terminal client's ratings as text, and what it keeps of a rated request: pure parts,
no server (issue 13, part 1)."""

from __future__ import annotations

from typing import Any

from trumps.tui.connect.model import ClientState
from trumps.tui.connect.ratingtext import (
    change_text,
    family_histories,
    game_change,
    profile_ratings,
    profile_results,
    rating_text,
    table_family,
)


def test_a_tables_family_is_the_games_own() -> None:
    assert table_family("kozyri", 2, {}) == "kozyri-duel"
    assert table_family("kozyri", 4, "standard") == "kozyri-multi"
    assert table_family("twentyfive", 4, {}) == "twentyfive"
    assert table_family("twentyfive", 4, {"teams": 2}) == "twentyfive-teams"
    assert table_family("twentyfive", 5, {"teams": 2}) is None  # five seats make no pairs
    assert table_family("chess", 2, {}) is None


def test_a_games_change_is_the_players_own_seat() -> None:
    row = {
        "seat": 1,
        "rated": True,
        "rating_changes": [
            {"seat": 0, "before": 1500, "after": 1512},
            {"seat": 1, "before": 1490, "after": 1478},
        ],
    }
    assert game_change(row) == (1490, 1478)
    assert change_text(1490, 1478) == "1490 → 1478 (-12)"
    assert change_text(1500, 1523) == "1500 → 1523 (+23)"
    assert game_change({**row, "seat": None}) is None  # not the player's game
    assert game_change({"seat": 0, "rated": False, "rating_changes": []}) is None


def test_a_profile_as_text() -> None:
    profile: dict[str, Any] = {
        "ratings": {
            "twentyfive": {"rating": 1500, "deviation": 300, "provisional": True, "games": 1},
            "kozyri-duel": {
                "rating": 1540, "deviation": 90, "provisional": False, "games": 3, "like": "easy"
            },
        },
        "history": [
            {"family": "kozyri-duel", "before": 1500, "after": 1520},
            {"family": "twentyfive", "before": 1500, "after": 1500},
            {"family": "kozyri-duel", "before": 1520, "after": 1510},
            {"family": "kozyri-duel", "before": 1510, "after": 1540},
        ],
        "results": {"twentyfive": {"won": 0, "drawn": 0, "lost": 1},
                    "kozyri": {"won": 2, "drawn": 0, "lost": 1}},
    }  # fmt: skip
    assert family_histories(profile["history"]) == {
        "kozyri-duel": [1500, 1520, 1510, 1540],
        "twentyfive": [1500, 1500],
    }
    lines = profile_ratings(profile).plain.split("\n")
    assert lines == [
        "Svoi Kozyri, two players               1540  ±90   3 games  ▁▅▃█  1500 → 1540"
        "  plays like easy",
        "Twenty-Five, everyone for themselves  1500?  ±300  1 game  ▄▄  1500 → 1500",
        "? provisional: too few games yet to be sure",
    ]
    assert rating_text({"rating": 1612, "provisional": False}) == "1612"
    assert profile_results(profile) == (
        "Results: Svoi Kozyri: 2 won, 0 drawn, 1 lost · Twenty-Five: 0 won, 0 drawn, 1 lost"
    )
    assert profile_ratings({"ratings": {}}).plain == "No rated games yet."


def test_a_quick_match_asked_again_after_a_reconnect_keeps_rated_or_casual() -> None:
    """A casual request must not come back rated (the server's default for an account)."""
    state = ClientState()
    state.apply({"type": "waiting", "game": "kozyri", "rules": "seed", "rated": False})
    welcome = state.apply(
        {"type": "welcome", "player_id": "7", "name": "Ana", "resume_token": "t",
         "account": "ana", "tables": []}
    )  # fmt: skip
    assert {"type": "quick_match", "game": "kozyri", "rules": "seed", "rated": False} in (
        welcome.send
    )
    assert state.signed_in
