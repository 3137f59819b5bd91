"""The arena's duplicate mode (issue 12): the paired table and ``--reference``, and the
oracle accepted by name and marked in every output."""

from __future__ import annotations

import csv
import json
import math
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from trumps.arena import ArenaSetupError, make_matchup, with_reference
from trumps.commands.arena import arena


def _invoke(args: str, *more: str) -> Any:
    """Run ``trumps arena`` with the words of ``args`` (shell-quoted) and then ``more``."""
    return CliRunner().invoke(arena, [*shlex.split(args), *more], catch_exceptions=False)


def test_with_reference_replaces_the_first_bot_only() -> None:
    m = make_matchup("twentyfive", ["expert", "medium"], players=4, time_limit=0.1)
    ref = with_reference(m, "medium")
    assert ref.levels == ("medium", "medium") and ref.bots == ("medium", "medium#2")
    assert (ref.game, ref.players, ref.rules, ref.scheme, ref.time_limit) == (
        m.game,
        m.players,
        m.rules,
        m.scheme,
        m.time_limit,
    )
    each = make_matchup("kozyri", ["easy", "random", "medium"], players=3)
    assert with_reference(each, "oracle").levels == ("oracle", "random", "medium")
    with pytest.raises(ArenaSetupError) as e:
        with_reference(m, "wizard")
    assert e.value.param == "--reference"


def test_command_paired_table_reference_and_oracle_mark(tmp_path: Path) -> None:
    out, table = tmp_path / "r.json", tmp_path / "r.csv"
    result = _invoke(
        "--game twentyfive --bots oracle,random --games 8 --seed 3 --jobs 1 "
        "--time-limit 0.003 --reference easy",
        "--out",
        str(out),
        "--csv",
        str(table),
    )
    assert result.exit_code == 0, result.output
    text = result.output
    assert "oracle*" in text and "* oracle: sees every card (measurement only)" in text
    assert "Paired over 2 complete deals" in text
    assert "oracle above its fair share" in text
    assert "oracle − random (per seat, same games)" in text
    assert "oracle − easy in its place (same deals, seats)" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["settings"]["measurement_only"] == {"oracle": "sees every card (measurement only)"}
    assert data["bots"]["oracle"]["sees_every_card"] is True
    assert data["bots"]["random"]["sees_every_card"] is False
    paired = data["paired"]
    assert paired["deals"] == 2 and paired["games"] == 8
    ref = data["reference"]
    assert ref["level"] == "easy" and ref["bot"] == "easy"
    assert len(ref["games"]) == 8
    # The reference played the same games: the same seeds, deals and rotations.
    assert [(g["seed"], g["rotation"]) for g in ref["games"]] == [
        (g["seed"], g["rotation"]) for g in data["games"]
    ]
    assert ref["bots"]["easy"]["sees_every_card"] is False
    # The CSV carries what the paired numbers are made of; recompute them from it.
    with table.open(encoding="utf-8", newline="") as f:
        lines = list(csv.DictReader(f))
    assert len(lines) == 8
    above: dict[int, list[float]] = {}
    versus: dict[int, list[float]] = {}
    for line in lines:
        deal = int(line["deal"])
        above.setdefault(deal, []).append(float(line["score_oracle"]) - float(line["fair"]))
        versus.setdefault(deal, []).append(
            float(line["score_oracle"]) - float(line["reference_score"])
        )
        assert line["reference"] == "easy"
    means = [sum(v) / len(v) for v in above.values()]
    assert math.isclose(paired["above_fair"]["oracle"]["mean"], sum(means) / 2, abs_tol=1e-5)
    ref_means = [sum(v) / len(v) for v in versus.values()]
    assert math.isclose(paired["reference"]["mean"], sum(ref_means) / 2, abs_tol=1e-5)
    assert paired["reference"]["reference_level"] == "easy"


def test_command_without_reference_has_none(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = _invoke(
        "--game kozyri --bots random,easy --games 4 --seed 1 --jobs 1", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["reference"] is None and data["paired"]["reference"] is None
    assert data["settings"]["measurement_only"] == {}
    assert "sees every card" not in result.output
    assert [d["vs"] for d in data["paired"]["differences"]] == ["easy"]


@pytest.mark.parametrize(
    "args",
    [
        "--game kozyri --bots random,easy --games 2 --seed 1 --reference wizard",
        "--game kozyri --bots random,easy --games 2 --seed 1 --reference ''",
    ],
)
def test_command_bad_reference_is_a_usage_error(args: str) -> None:
    result = _invoke(args)
    assert result.exit_code == 2
    assert "--reference" in result.output and "Traceback" not in result.output


def test_command_help_names_the_oracle() -> None:
    result = _invoke("--help")
    assert "oracle" in result.output and "--reference" in result.output
