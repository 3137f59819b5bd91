"""Team matches in the arena: ``--rules`` as ``trumps play`` takes it, and two bots with
teams playing team against team (Twenty-Five F1: seat s is in team s mod the number of
teams), every deal once with the first bot in each team's seats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from trumps.arena import (
    ArenaSetupError,
    InlineExecutor,
    make_matchup,
    plan_games,
    play_batch,
    run_games,
)
from trumps.arena.ladder import arena_command
from trumps.arena.run import ONE_EACH, ONE_VS_MANY, TEAM_VS_TEAM, Matchup
from trumps.arena.stats import bot_stats, paired_stats
from trumps.cli import cli
from trumps.commands.arena import arena

# ---------------------------------------------------------------------------------------
# --rules: a preset, options, or both


def test_rules_take_options_and_presets_as_play_does() -> None:
    m = make_matchup("twentyfive", ["easy", "random"], rules="teams=2")
    assert m.rules == "classic,teams=2" and m.players == 4
    assert make_matchup("twentyfive", ["easy", "random"]).rules == "classic"
    m = make_matchup("twentyfive", ["easy", "random"], 6, "forty-five,teams=3")
    assert m.rules == "forty-five,teams=3" and m.teams == ((0, 2, 4), (1, 3, 5))
    assert m.game_rules() == {"preset": "forty-five", "teams": 3}
    m = make_matchup("twentyfive", ["easy", "random"], rules="target=45,joker=true")
    assert m.rules == "classic,target=45,joker=true" and m.teams == ()
    assert m.scheme == ONE_VS_MANY
    assert make_matchup("kozyri", ["easy", "random"], rules="standard").rules == "standard"


@pytest.mark.parametrize(
    ("rules", "players", "fragment"),
    [
        ("teams=2,colour=red", None, "no rule option 'colour'"),
        ("teams=4", None, "teams"),
        ("target=many", None, "target"),
        ("nope", None, "no preset 'nope'"),
        ("classic,forty-five", None, "one rule preset"),
        ("teams=3", 4, "does not fit 4 players"),
        ("teams=2", 5, "does not fit 5 players"),
    ],
)
def test_bad_rules_are_one_line_errors(rules: str, players: int | None, fragment: str) -> None:
    with pytest.raises(ArenaSetupError) as e:
        make_matchup("twentyfive", ["easy", "random"], players, rules)
    assert e.value.param == "--rules" and fragment in str(e.value)
    args = ["arena", "--game", "twentyfive", "--bots", "easy,random", "--games", "2"]
    args += ["--seed", "1", "--rules", rules]
    if players is not None:
        args += ["--players", str(players)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "--rules" in lines[0] and fragment in lines[0]
    assert "Traceback" not in result.output


def test_teams_take_two_bots_or_one_per_seat() -> None:
    assert make_matchup("twentyfive", ["easy"] * 4, rules="teams=2").scheme == ONE_EACH
    with pytest.raises(ArenaSetupError, match="one team's seats") as e:
        make_matchup("twentyfive", ["easy"] * 3, rules="teams=2")
    assert e.value.param == "--bots"


# ---------------------------------------------------------------------------------------
# Seats: the first bot holds every seat of one team, the second every other seat


@pytest.mark.parametrize(
    ("players", "rules", "teams"),
    [
        (4, "teams=2", [[0, 2], [1, 3]]),
        (6, "teams=3", [[0, 2, 4], [1, 3, 5]]),
        (6, "teams=2", [[0, 3], [1, 4], [2, 5]]),
        (8, "teams=2", [[0, 4], [1, 5], [2, 6], [3, 7]]),
    ],
)
def test_plan_gives_the_first_bot_each_teams_seats_once_per_deal(
    players: int, rules: str, teams: list[list[int]]
) -> None:
    m = make_matchup("twentyfive", ["medium", "easy"], players, rules)
    assert m.scheme == TEAM_VS_TEAM and [list(t) for t in m.teams] == teams
    assert m.rotations == len(teams)
    plan = plan_games(m, 3 * len(teams), seed=2)
    assert plan.deals == 3 and plan.complete
    for deal in range(3):
        specs = [s for s in plan.specs if s.deal == deal]
        assert [s.rotation for s in specs] == list(range(len(teams)))
        assert len({s.seed for s in specs}) == 1
        for spec in specs:
            first = [s for s, who in enumerate(spec.seats) if who == "medium"]
            assert first == teams[spec.rotation]
            assert all(who == "easy" for s, who in enumerate(spec.seats) if s not in first)
        # turning the seats: rotation r is rotation 0 turned r places
        base = specs[0].seats
        for spec in specs:
            r = spec.rotation
            assert spec.seats == tuple(base[(s - r) % players] for s in range(players))


@pytest.mark.parametrize(("players", "rules"), [(4, "teams=2"), (6, "teams=3"), (6, "teams=2")])
def test_played_games_put_each_bot_in_its_teams_seats(players: int, rules: str) -> None:
    m = make_matchup("twentyfive", ["easy", "random"], players, rules)
    plan = plan_games(m, 2 * m.rotations, seed=7)
    rows = run_games(plan, InlineExecutor(play_batch))
    assert len(rows) == 2 * m.rotations
    for row in rows:
        first = [s for s, who in enumerate(row["seats"]) if who == "easy"]
        assert first == list(m.teams[row["rotation"]])
        assert first in row["sides"]  # the game seated the same teams
        assert row["moves"]["easy"] > 0 and row["moves"]["random"] > 0
        winners = set(row["outcome"]["winners"])
        won = set(first) <= winners
        assert won or not (set(first) & winners)  # a team wins or loses together
        assert row["results"]["easy"] == ("win" if won else "loss")
        assert row["results"]["random"] == ("loss" if won else "win")
    stats = bot_stats(m, rows)
    assert stats["easy"]["fair_share"] == pytest.approx(1 / m.rotations)
    team_size = players // m.rotations
    assert stats["easy"]["seat_games"] == [2] * players
    assert sum(stats["random"]["seat_games"]) == 2 * m.rotations * (players - team_size)


# ---------------------------------------------------------------------------------------
# The share: from team results, paired per deal


def _row(deal: int, rotation: int, m: Matchup, winners: list[int]) -> dict[str, Any]:
    seats = list(m.lineup(rotation))
    losers = [s for s in range(m.players) if s not in winners]
    first = m.bots[0]
    won = seats.index(first) in winners
    return {
        "game": deal * m.rotations + rotation,
        "deal": deal,
        "rotation": rotation,
        "seed": deal,
        "seats": seats,
        "outcome": {"winners": winners, "losers": losers, "draw": False, "reason": "target"},
        "results": {first: "win" if won else "loss", m.bots[1]: "loss" if won else "win"},
        "sides": [list(t) for t in m.teams],
        "moves": dict.fromkeys(m.bots, 1),
        "seconds": {b: {"mean": 0.0, "max": 0.0} for b in m.bots},
    }


def test_team_share_is_the_first_teams_wins_paired_per_deal() -> None:
    m = make_matchup("twentyfive", ["expert", "medium"], 4, "teams=2")
    even, odd = [0, 2], [1, 3]
    rows = [
        # deal 0: the first bot's team wins both (seats 0, 2 then 1, 3)
        _row(0, 0, m, even),
        _row(0, 1, m, odd),
        # deal 1: the team holding seats 0, 2 wins both: one each
        _row(1, 0, m, even),
        _row(1, 1, m, even),
        # deal 2: the first bot's team loses both
        _row(2, 0, m, odd),
        _row(2, 1, m, even),
        # deal 3: like deal 1
        _row(3, 0, m, odd),
        _row(3, 1, m, odd),
    ]
    paired = paired_stats(m, rows)
    share = paired["share"]
    assert share["team"] is True and share["bot"] == "expert"
    assert share["n"] == 4 and share["mean"] == pytest.approx(0.5)
    # per deal 1, ½, 0, ½: sd = sqrt(1/6)
    assert share["sd"] == pytest.approx((1 / 6) ** 0.5)
    assert paired["above_fair"]["expert"]["mean"] == pytest.approx(0.0)
    assert paired["differences"][0]["mean"] == pytest.approx(0.0)
    # one deal less where the first bot's team lost: the share rises to 2/3
    paired = paired_stats(m, rows[:4] + rows[6:])
    assert paired["share"]["mean"] == pytest.approx(2 / 3)
    stats = bot_stats(m, rows)
    assert stats["expert"]["wins"] == 4 and stats["medium"]["wins"] == 4
    assert stats["expert"]["fair_share"] == stats["medium"]["fair_share"] == 0.5


def test_three_teams_share_and_fair_share() -> None:
    m = make_matchup("twentyfive", ["expert", "medium"], 6, "teams=2")
    assert m.rotations == 3
    rows = [_row(0, r, m, list(m.teams[0])) for r in range(3)]
    paired = paired_stats(m, rows)
    assert paired["share"]["mean"] == pytest.approx(1 / 3)
    assert paired["above_fair"]["expert"]["mean"] == pytest.approx(0.0)
    stats = bot_stats(m, rows)
    assert stats["expert"]["fair_share"] == pytest.approx(1 / 3)
    assert stats["medium"]["fair_share"] == pytest.approx(2 / 3)


# ---------------------------------------------------------------------------------------
# The command


def test_command_plays_a_team_match_and_records_the_rules(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    args = ["--game", "twentyfive", "--rules", "teams=2", "--bots", "easy,random"]
    args += ["--games", "8", "--seed", "3", "--jobs", "1", "--out", str(out)]
    result = CliRunner().invoke(arena, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "easy's team won" in result.output and "paired over 4 deals" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    s = data["settings"]
    assert s["rules"] == "classic,teams=2" and s["rule_options"]["teams"] == 2
    assert s["scheme"] == TEAM_VS_TEAM and s["teams"] == [[0, 2], [1, 3]]
    assert s["rotations"] == 2 and s["deals"] == 4 and s["complete"] is True
    for row in data["games"]:
        team = s["teams"][row["rotation"]]
        assert row["seats"] == ["easy" if seat in team else "random" for seat in range(4)]
    wins = sum(1 for row in data["games"] if row["results"]["easy"] == "win")
    share = data["paired"]["share"]
    assert share["team"] is True and share["mean"] == pytest.approx(wins / 8)
    assert data["bots"]["easy"]["seat_games"] == [4, 4, 4, 4]


def test_ladder_commands_give_the_rules() -> None:
    m = make_matchup("twentyfive", ["medium", "easy"], 6, "teams=3")
    command = arena_command(m, 40, 3)
    assert "--rules classic,teams=3" in command and "--players 6" in command
    assert "--rules" not in arena_command(make_matchup("twentyfive", ["medium", "easy"]), 8, 1)
