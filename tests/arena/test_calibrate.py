"""Calibrating bots' ratings (``trumps arena --calibrate``, docs/ratings.md): the round robin
of levels, the fit through the server's rating update, per-level budgets, the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from trumps.ai import Limits
from trumps.arena import ArenaSetupError, make_matchup
from trumps.arena.calibrate import (
    RatedGame,
    calibration_family,
    calibration_matchups,
    fit_levels,
)
from trumps.arena.run import ONE_EACH, ONE_VS_MANY, TEAM_VS_TEAM
from trumps.commands.arena import arena
from trumps.games import Outcome
from trumps.ratings import load_calibration

LEVELS = ["random", "easy", "medium", "hard", "expert"]


# ---------------------------------------------------------------------------- round robin


def test_a_duel_plays_every_pair() -> None:
    ms = calibration_matchups("kozyri", LEVELS[:3])
    assert [m.levels for m in ms] == [("random", "easy"), ("random", "medium"), ("easy", "medium")]
    assert {m.scheme for m in ms} == {ONE_EACH} and {m.players for m in ms} == {2}


def test_a_table_of_four_plays_every_four_levels() -> None:
    ms = calibration_matchups("kozyri", LEVELS, players=4)
    assert len(ms) == 5 and {m.scheme for m in ms} == {ONE_EACH}
    assert {frozenset(m.levels) for m in ms} == {
        frozenset(LEVELS) - {left_out} for left_out in LEVELS
    }
    five = calibration_matchups("twentyfive", LEVELS, players=5)
    assert [m.levels for m in five] == [tuple(LEVELS)]


def test_fewer_levels_than_seats_play_each_against_a_field_of_the_other() -> None:
    ms = calibration_matchups("twentyfive", ["random", "easy"], players=4)
    assert [m.levels for m in ms] == [("random", "easy"), ("easy", "random")]
    assert {m.scheme for m in ms} == {ONE_VS_MANY}


def test_teams_play_every_pair_team_against_team() -> None:
    ms = calibration_matchups("twentyfive", LEVELS[:3], players=4, rules="teams=2")
    assert len(ms) == 3 and {m.scheme for m in ms} == {TEAM_VS_TEAM}
    assert calibration_family("twentyfive", 4, "teams=2")[0] == "twentyfive-teams"
    assert calibration_family("kozyri", 3)[0] == "kozyri-multi"
    assert calibration_family("kozyri")[0] == "kozyri-duel"


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        (["easy"], "two levels or more"),
        (["easy", "easy"], "each level once"),
        (["easy", "oracle"], "no rating"),
        (["easy", "wizard"], "no bot 'wizard'"),
    ],
)
def test_bad_round_robins_name_the_bots_option(levels: list[str], message: str) -> None:
    with pytest.raises(ArenaSetupError, match=message) as info:
        calibration_matchups("kozyri", levels)
    assert info.value.param == "--bots"


# ---------------------------------------------------------------------------- budgets


def test_a_budget_scale_keeps_each_levels_own_budget_ratio() -> None:
    m = make_matchup("kozyri", ["hard", "expert"], budget_scale=0.1)
    assert m.limits("hard").time == pytest.approx(0.02)  # its own 0.2 s
    assert m.limits("expert").time == pytest.approx(0.1)  # its own 1 s
    assert m.limits("random") == Limits()  # no budget of its own
    assert m.limits("oracle").time == pytest.approx(0.1)  # the strongest level's
    timed = make_matchup("kozyri", ["hard", "expert"], time_limit=0.05)
    assert timed.limits("hard") == timed.limits("expert") == Limits(time=0.05)
    assert make_matchup("kozyri", ["hard", "easy"]).limits("hard") == Limits()
    with pytest.raises(ArenaSetupError, match="not both") as info:
        make_matchup("kozyri", ["hard", "expert"], time_limit=0.05, budget_scale=0.1)
    assert info.value.param == "--budget-scale"
    with pytest.raises(ArenaSetupError, match="positive"):
        make_matchup("kozyri", ["hard", "expert"], budget_scale=0.0)


# ---------------------------------------------------------------------------- the fit


def _duel(winner: str, loser: str) -> RatedGame:
    return RatedGame((winner, loser), Outcome([0], [1], False, "test"), ((0,), (1,)))


def _results(wins: dict[tuple[str, str], int]) -> list[RatedGame]:
    games = []
    for (a, b), n in wins.items():
        games += [_duel(a, b)] * n + [_duel(b, a)] * (10 - n)
    return games


def test_the_fit_orders_the_levels_by_their_results_around_1500() -> None:
    games = _results({("a", "b"): 7, ("b", "c"): 7, ("a", "c"): 9})
    fits = fit_levels("kozyri-duel", games, seed=3)
    a, b, c = (fits[x].rating.value for x in "abc")
    assert a > b > c
    assert (a + b + c) / 3 == pytest.approx(1500.0)
    assert all(f.games == 20 and f.rating.games == 20 for f in fits.values())
    assert all(f.spread > 0 for f in fits.values())  # the order of the games moved them
    assert fit_levels("kozyri-duel", games, seed=3) == fits  # reproducible
    assert fit_levels("kozyri-duel", games, seed=4) != fits


def test_equal_results_fit_equal_ratings() -> None:
    fits = fit_levels("twentyfive", _results({("a", "b"): 5}), passes=8, seed=1)
    assert fits["a"].rating.value == pytest.approx(fits["b"].rating.value, abs=25.0)


def test_copies_of_a_level_move_it_once_per_game() -> None:
    # one-against-many in Svoi Kozyri with four: "a" never loses to a field of "b"
    games = [
        RatedGame(
            ("a", "b", "b", "b"), Outcome([0, 1, 2], [3], False, "test"), ((0,), (1,), (2,), (3,))
        )
    ] * 20
    fits = fit_levels("kozyri-multi", games, passes=4)
    assert fits["a"].rating.value > fits["b"].rating.value
    assert fits["a"].games == fits["b"].games == 20


def test_the_fit_refuses_nothing_to_fit() -> None:
    with pytest.raises(ValueError, match="no games"):
        fit_levels("kozyri-duel", [])
    with pytest.raises(ValueError, match="one pass or more"):
        fit_levels("kozyri-duel", [_duel("a", "b")], passes=0)


# ---------------------------------------------------------------------------- the command


def _invoke(args: str, *more: str) -> Any:
    return CliRunner().invoke(arena, [*args.split(), *more], catch_exceptions=False)


TINY = "--game kozyri --bots random,easy --games 4 --seed 2 --jobs 1"


def test_the_command_writes_and_merges_a_calibration(tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    result = _invoke(TINY, "--calibrate", str(path))
    assert result.exit_code == 0, result.output
    assert "kozyri-duel" in result.output and f"wrote {path}" in result.output
    duel = load_calibration(path)["kozyri-duel"]
    assert set(duel) == {"random", "easy"}
    assert duel["easy"].value > duel["random"].value  # easy wins these duels
    assert duel["easy"].value + duel["random"].value == pytest.approx(3000.0, abs=0.2)
    assert duel["easy"].games == 4
    note = json.loads(path.read_text(encoding="utf-8"))["families"]["kozyri-duel"]["measured"]
    assert note.startswith("trumps arena --game kozyri --players 2 --bots random,easy --games 4")
    first = path.read_text(encoding="utf-8")

    more = "--game twentyfive --players 3 --bots easy,random --games 3 --seed 1 --jobs 1"
    result = _invoke(more, "--calibrate", str(path))
    assert result.exit_code == 0, result.output
    both = load_calibration(path)
    assert set(both) == {"kozyri-duel", "twentyfive"}
    assert both["kozyri-duel"] == load_calibration(first)["kozyri-duel"]  # kept
    assert set(both["twentyfive"]) == {"easy", "random"}
    assert both["twentyfive"]["easy"].games == 6  # two matches: each against a field

    again = tmp_path / "again.json"
    assert _invoke(TINY, "--calibrate", str(again)).exit_code == 0
    assert again.read_text(encoding="utf-8") == first  # the same run, the same file


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--out", "r.json"], "drop --out"),
        (["--csv", "r.csv"], "drop --csv"),
        (["--plot", "r.png"], "drop --plot"),
        (["--reference", "medium"], "drop --reference"),
        (["--time-limit", "0.1", "--budget-scale", "0.1"], "not both"),
        (["--players", "9"], "2–4 players"),
    ],
)
def test_bad_combinations_are_a_usage_error(tmp_path: Path, extra: list[str], message: str) -> None:
    path = tmp_path / "bots.json"
    result = _invoke(TINY, "--calibrate", str(path), *extra)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not path.exists()


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("random", "two levels or more"),
        ("random,random", "each level once"),
        ("easy,oracle", "no rating"),
    ],
)
def test_bad_levels_are_a_usage_error(tmp_path: Path, bots: str, message: str) -> None:
    path = tmp_path / "bots.json"
    args = f"--game kozyri --bots {bots} --games 2 --seed 1 --jobs 1"
    result = _invoke(args, "--calibrate", str(path))
    assert result.exit_code == 2 and message in result.output
    assert not path.exists()


def test_a_file_that_is_not_a_calibration_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"my": "notes"}', encoding="utf-8")
    result = _invoke(TINY, "--calibrate", str(path))
    assert result.exit_code == 2
    assert "lacks 'families'" in result.output and "Traceback" not in result.output
    assert path.read_text(encoding="utf-8") == '{"my": "notes"}'
    missing = tmp_path / "no" / "bots.json"
    result = _invoke(TINY, "--calibrate", str(missing))
    assert result.exit_code == 1
    assert "does not exist" in result.output


def test_an_ordinary_match_takes_a_budget_scale(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    args = "--game kozyri --bots hard,easy --games 2 --seed 1 --jobs 1 --budget-scale 0.02"
    result = _invoke(args, "--out", str(out))
    assert result.exit_code == 0, result.output
    settings = json.loads(out.read_text(encoding="utf-8"))["settings"]
    assert settings["budget_scale"] == 0.02 and settings["time_limit"] is None
    both = _invoke(args, "--time-limit", "0.1")
    assert both.exit_code == 2 and "not both" in both.output
