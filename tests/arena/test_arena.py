"""The arena: plans and seat rotation, executors, determinism, the ``arena`` command."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from trumps.arena import (
    ArenaSetupError,
    InlineExecutor,
    ProcessExecutor,
    RunInfo,
    make_executor,
    make_matchup,
    plan_games,
    play_batch,
    run_games,
)
from trumps.arena.run import ONE_EACH, ONE_VS_MANY, choose_batch_size, deal_seed
from trumps.commands.arena import arena

# ---------------------------------------------------------------------------------------
# Plans: deals and seat rotation


def test_two_bots_two_seats_play_each_deal_twice_with_seats_swapped() -> None:
    m = make_matchup("kozyri", ["random", "easy"])
    assert m.players == 2 and m.scheme == ONE_EACH and m.rotations == 2
    plan = plan_games(m, 8, seed=5)
    assert plan.deals == 4 and plan.complete
    for deal in range(4):
        a, b = plan.specs[2 * deal], plan.specs[2 * deal + 1]
        assert a.deal == b.deal == deal
        assert a.seed == b.seed == deal_seed("kozyri", 5, deal)
        assert a.seats == ("random", "easy") and b.seats == ("easy", "random")
    assert len({s.seed for s in plan.specs}) == 4


def test_one_against_many_rotates_the_single_seat_over_every_seat() -> None:
    m = make_matchup("twentyfive", ["easy", "random"], players=4)
    assert m.scheme == ONE_VS_MANY
    plan = plan_games(m, 12, seed=0)
    assert plan.deals == 3 and plan.complete
    for spec in plan.specs:
        assert spec.seats[spec.rotation] == "easy"
        assert Counter(spec.seats) == {"easy": 1, "random": 3}
    for deal in range(3):
        specs = [s for s in plan.specs if s.deal == deal]
        assert [s.rotation for s in specs] == [0, 1, 2, 3]
        assert len({s.seed for s in specs}) == 1


@pytest.mark.parametrize(("players", "games"), [(3, 9), (4, 8)])
def test_one_each_puts_every_bot_in_every_seat_equally_often(players: int, games: int) -> None:
    levels = ["random", "easy", "medium", "easy"][:players]
    m = make_matchup("kozyri", levels, players=players)
    assert m.scheme == ONE_EACH
    if players == 4:  # a repeated level gets a distinct name
        assert m.bots == ("random", "easy", "medium", "easy#2")
    plan = plan_games(m, games, seed=3)
    seat_counts = Counter((name, s) for spec in plan.specs for s, name in enumerate(spec.seats))
    assert set(seat_counts.values()) == {games // players}
    assert len(seat_counts) == players * players
    for spec in plan.specs:  # cyclic rotation keeps the order round the table
        assert list(spec.seats) == [m.bots[(s - spec.rotation) % players] for s in range(players)]


def test_incomplete_plan_is_flagged() -> None:
    plan = plan_games(make_matchup("kozyri", ["random", "easy"]), 5, seed=1)
    assert plan.deals == 3 and not plan.complete


@pytest.mark.parametrize(
    ("game", "bots", "players", "rules", "param"),
    [
        ("chess", ["random", "easy"], None, None, "--game"),
        ("kozyri", ["random", "wizard"], None, None, "--bots"),
        ("kozyri", ["random"], None, None, "--bots"),
        ("kozyri", ["random", "easy", "easy"], 4, None, "--bots"),
        ("kozyri", ["random", "easy"], 7, None, "--players"),
        ("kozyri", ["random", "easy"], None, "nope", "--rules"),
    ],
)
def test_bad_settings_name_the_option(
    game: str, bots: list[str], players: int | None, rules: str | None, param: str
) -> None:
    with pytest.raises(ArenaSetupError) as info:
        make_matchup(game, bots, players, rules)
    assert info.value.param == param


def test_preset_players_and_games_at_least_one() -> None:
    m = make_matchup("kozyri", ["easy", "random"], rules="pagat")
    assert m.players == 4 and m.scheme == ONE_VS_MANY
    with pytest.raises(ArenaSetupError):
        plan_games(m, 0, seed=1)


def test_batch_size_targets_a_second_per_task_but_feeds_every_worker() -> None:
    assert choose_batch_size(0.01, 1000, 2) == 100
    assert choose_batch_size(0.01, 50, 2) == 25
    assert choose_batch_size(3.0, 1000, 2) == 1
    assert choose_batch_size(0.0, 10, 4) == 3


# ---------------------------------------------------------------------------------------
# Executors


@pytest.mark.parametrize("kind", ["inline", "process"])
def test_executor_returns_each_result_once(kind: str) -> None:
    ex = InlineExecutor(math.factorial) if kind == "inline" else ProcessExecutor(math.factorial, 2)
    with ex:
        for n in range(8):
            ex.submit(n)
        got = sorted(ex.results())
    assert got == sorted(math.factorial(n) for n in range(8))


def test_make_executor() -> None:
    assert isinstance(make_executor("process", math.factorial, 1), InlineExecutor)
    with make_executor("process", math.factorial, 2) as ex:
        assert isinstance(ex, ProcessExecutor) and ex.workers == 2
    with pytest.raises(ValueError, match="no executor"):
        make_executor("dask", math.factorial, 2)


def _stable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows without wall-clock times (the only part that may differ between runs)."""
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def test_results_do_not_depend_on_executor_or_batching() -> None:
    m = make_matchup("kozyri", ["easy", "medium"])
    plan = plan_games(m, 10, seed=11)
    info = RunInfo()
    inline = run_games(plan, InlineExecutor(play_batch), info=info)
    assert info.tasks >= 1 and [r["game"] for r in inline] == list(range(10))
    with ProcessExecutor(play_batch, 2) as ex:
        seen: list[int] = []
        pooled = run_games(plan, ex, on_progress=seen.append, batch_size=3)
    assert sum(seen) == 10
    assert _stable(pooled) == _stable(inline)
    for row in inline:
        assert row["actions"] > 0
        assert set(row["results"]) == {"easy", "medium"}
        assert set(row["seconds"]) == {"easy", "medium"}
        assert sum(row["moves"].values()) <= row["actions"]


def test_same_deals_mirrored_in_a_duel() -> None:
    m = make_matchup("kozyri", ["easy", "easy"])
    plan = plan_games(m, 4, seed=2)
    rows = run_games(plan, InlineExecutor(play_batch), batch_size=4)
    for a, b in (rows[0:2], rows[2:4]):
        assert a["seed"] == b["seed"]
        assert a["seats"] == ["easy", "easy#2"] and b["seats"] == ["easy#2", "easy"]


# ---------------------------------------------------------------------------------------
# The command


def _invoke(args: str, *more: str) -> Any:
    """Run ``trumps arena`` with the words of ``args`` and then ``more``."""
    return CliRunner().invoke(arena, [*args.split(), *more], catch_exceptions=False)


def test_command_writes_json_csv_and_png(tmp_path: Path) -> None:
    out, table, plot = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "r.png"
    args = "--game kozyri --bots random,easy --games 8 --seed 4 --jobs 1"
    result = _invoke(args, "--out", str(out), "--csv", str(table), "--plot", str(plot))
    assert result.exit_code == 0, result.output
    assert "random" in result.output and "easy" in result.output and "Elo" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "trumps-arena/1"
    settings = data["settings"]
    keys = {"game", "players", "rules", "bots", "games", "seed", "time_limit", "executor"}
    assert keys | {"jobs", "versions"} <= set(settings)
    assert settings["game"] == "kozyri" and settings["players"] == 2
    assert settings["rules"] == "standard" and settings["bots"] == ["random", "easy"]
    assert settings["games"] == 8 and settings["seed"] == 4 and settings["jobs"] == 1
    assert settings["time_limit"] is None and settings["executor"] == "process"
    assert settings["deals"] == 4 and settings["complete"] is True
    for name in ("random", "easy"):
        b = data["bots"][name]
        assert {"games", "wins", "draws", "losses", "ci95", "decided_win_rate"} <= set(b)
        assert b["games"] == 8 and b["wins"] + b["draws"] + b["losses"] == 8
        assert b["ci95"][0] <= b["wins"] / 8 <= b["ci95"][1]
        assert {"mu", "sigma", "ordinal"} == set(b["openskill"])
        assert b["seat_games"] == [4, 4]
    # random against easy in Svoi Kozyri: easy wins (nearly) every game
    assert data["bots"]["easy"]["wins"] >= 7
    assert (
        data["bots"]["easy"]["openskill"]["ordinal"]
        > data["bots"]["random"]["openskill"]["ordinal"]
    )
    assert data["elo"]["bot"] == "random" and data["elo"]["over"] == "easy"
    assert len(data["games"]) == 8
    with table.open(encoding="utf-8", newline="") as f:
        lines = list(csv.DictReader(f))
    assert len(lines) == 8
    assert lines[0]["seat0"] == "random" and lines[1]["seat0"] == "easy"
    assert {lines[i]["result_easy"] for i in range(8)} <= {"win", "draw", "loss"}
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_command_results_are_the_same_with_one_or_two_jobs(tmp_path: Path) -> None:
    rows = []
    for jobs in (1, 2):
        out = tmp_path / f"r{jobs}.json"
        args = f"--game twentyfive --bots easy,random --games 8 --seed 9 --jobs {jobs}"
        result = _invoke(args, "--out", str(out))
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text(encoding="utf-8"))
        assert data["settings"]["jobs"] == jobs
        rows.append(_stable(data["games"]))
        assert data["bots"]["easy"]["fair_share"] == 0.25
        assert data["bots"]["easy"]["seat_games"] == [2, 2, 2, 2]
        assert data["elo"] is None
    assert rows[0] == rows[1]


@pytest.mark.parametrize(
    "args",
    [
        "--game chess --bots random,easy --games 2 --seed 1",
        "--game kozyri --bots random,wizard --games 2 --seed 1",
        "--game kozyri --bots random,easy --games 0 --seed 1",
        "--game kozyri --bots random,easy,easy --games 2 --seed 1",
        "--game kozyri --bots random,easy --games 2 --seed 1 --rules nope",
        "--game kozyri --bots random,easy --games 2 --seed 1 --players 9",
        "--game kozyri --bots random,easy --games 2 --seed 1 --executor dask",
        "--game kozyri --bots random,easy --games 2",
    ],
)
def test_command_bad_input_is_a_usage_error(args: str) -> None:
    result = _invoke(args)
    assert result.exit_code == 2
    assert "Error" in result.output
    assert "Traceback" not in result.output


def test_command_ray_executor(tmp_path: Path) -> None:
    args = "--game kozyri --bots random,easy --games 4 --seed 1"
    if importlib.util.find_spec("ray") is None:
        result = _invoke(args, "--executor", "ray")
        assert result.exit_code == 1
        assert "pip install -e '.[distributed]'" in result.output
        return
    outs = []
    for executor in ("ray", "process"):
        out = tmp_path / f"{executor}.json"
        result = _invoke(args, "--jobs", "2", "--executor", executor, "--out", str(out))
        assert result.exit_code == 0, result.output
        outs.append(_stable(json.loads(out.read_text(encoding="utf-8"))["games"]))
    assert outs[0] == outs[1]
