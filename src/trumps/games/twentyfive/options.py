"""Twenty-Five's rule options and presets (docs/rules/options.md) and how they configure the core."""

from __future__ import annotations

from collections.abc import Mapping

from trumps.errors import InvalidRules
from trumps.games.options import Option, Preset
from trumps.games.twentyfive._core import (
    BONUS_NONE,
    BONUS_PLUS10,
    BONUS_WINS_GAME,
    RANK_AS_WRITTEN,
    RANK_CLASSIC,
    RENEGE_FIVE_ONLY,
    RENEGE_NONE,
    RENEGE_TOP3,
    ROB_MANDATORY,
    ROB_OFF,
    ROB_OPTIONAL,
    Config,
)

GAME_ID = "twentyfive"

OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("teams", "none", "team size: none, pairs (2) or threes (3) (F1)", ("none", 2, 3)),
        Option("joker", False, "add a joker, the third-best trump (F2, F17a)"),
        Option("deal_packets", "2-3", "packets of the deal (F4)", ("2-3", "3-2", "4-1")),
        Option("ranking", "classic", "card ranking (F5–F8)", ("classic", "as-written")),
        Option(
            "rob", "optional", "robbing the turn-up (F9, F10)", ("optional", "mandatory", "off")
        ),
        Option(
            "renege_cards", "top3", "trumps that may renege (F14)", ("top3", "five_only", "none")
        ),
        Option("renege_limit", "lower_led", "when they may renege (F14)", ("lower_led", "always")),
        Option("points_per_trick", 5, "points for each trick won (F16)", minimum=1),
        Option("target", 25, "points that win the game (F16)", minimum=1),
        Option("play_out_hand", False, "finish the hand after the target is reached (F16)"),
        Option(
            "five_trick_bonus",
            "none",
            "reward for taking all five tricks of a hand (F17)",
            ("none", "plus10", "wins_game"),
        ),
    )
}

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("classic", "every rule with its default (docs/rules/options.md)"),
        Preset(
            "as-written",
            "the seed text's wording",
            {"ranking": "as-written", "renege_limit": "always"},
        ),
        Preset("forty-five", "a longer game: target 45", {"target": 45}),
    )
}

POSITION_KEYS = (
    "rules",
    "dealer",
    "turnup",
    "trump",
    "robbed",
    "hands",
    "stock",
    "tricks",
    "trick",
    "leader",
    "to_move",
    "scores",
    "teams",
    "outcome",
    "seed",
    "hand",
    "joker_discard",
)
_PACKETS = {"2-3": (2, 3), "3-2": (3, 2), "4-1": (4, 1)}
RANKING_CODES = {"classic": RANK_CLASSIC, "as-written": RANK_AS_WRITTEN}
_ROB = {"optional": ROB_OPTIONAL, "mandatory": ROB_MANDATORY, "off": ROB_OFF}
RENEGE_CODES = {"top3": RENEGE_TOP3, "five_only": RENEGE_FIVE_ONLY, "none": RENEGE_NONE}
_BONUS = {"none": BONUS_NONE, "plus10": BONUS_PLUS10, "wins_game": BONUS_WINS_GAME}


def seat_teams(players: int, team_size: object) -> list[list[int]] | None:
    """F1: the teams a new game seats (seat s in team s mod number-of-teams), or None."""
    if team_size == "none":
        return None
    fits = {2: (4, 6, 8, 10), 3: (6, 9)}
    if not isinstance(team_size, int) or players not in fits.get(team_size, ()):
        raise InvalidRules(
            f"twentyfive rule teams={team_size!r} does not fit {players} players "
            "(pairs need 4, 6, 8 or 10 players; threes need 6 or 9)",
            option="teams",
            fits=fits.get(team_size, ()) if isinstance(team_size, int) else (),
        )
    count = players // team_size
    return [[s for s in range(players) if s % count == t] for t in range(count)]


def make_config(
    players: int, rules: Mapping[str, object], teams: list[list[int]] | None, seed: int
) -> Config:
    if teams is None:
        side_of = list(range(players))
        sides = players
    else:
        side_of = [0] * players
        for t, members in enumerate(teams):
            for s in members:
                side_of[s] = t
        sides = len(teams)
    ppt = rules["points_per_trick"]
    target = rules["target"]
    assert isinstance(ppt, int) and isinstance(target, int)
    return Config(
        players=players,
        side_of=side_of,
        sides=sides,
        joker=bool(rules["joker"]),
        packets=_PACKETS[str(rules["deal_packets"])],
        ranking=RANKING_CODES[str(rules["ranking"])],
        rob=_ROB[str(rules["rob"])],
        renege_cards=RENEGE_CODES[str(rules["renege_cards"])],
        renege_always=rules["renege_limit"] == "always",
        points_per_trick=ppt,
        target=target,
        play_out_hand=bool(rules["play_out_hand"]),
        bonus=_BONUS[str(rules["five_trick_bonus"])],
        seed=seed,
    )
