"""The worked example of docs/research.md runs: imitate ``medium`` on a few games, then
seat the learned policy in ``trumps arena`` as ``examples/linear_bot.py:LinearBot``."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from trumps.commands.arena import arena

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_imitate_then_play_in_the_arena(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    imitate_medium = importlib.import_module("imitate_medium")  # the example script

    weights = tmp_path / "policy.npz"
    imitate_medium.main(
        [
            "--game",
            "kozyri",
            "--players",
            "3",
            "--games",
            "6",
            "--epochs",
            "2",
            "--out",
            str(weights),
        ]
    )
    said = capsys.readouterr().out
    assert "decisions of medium in 6 games" in said and "held-out decisions" in said
    with np.load(weights) as data:
        assert str(data["game"]) == "kozyri" and data["w"].shape == (290, 41)
    monkeypatch.setenv("TRUMPS_LINEAR_POLICY", str(weights))
    out = tmp_path / "arena.json"
    bot = f"{EXAMPLES / 'linear_bot.py'}:LinearBot"
    result = CliRunner().invoke(
        arena,
        [
            "--game",
            "kozyri",
            "--players",
            "3",
            "--bots",
            f"{bot},easy",
            "--games",
            "6",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--out",
            str(out),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["bots"][bot]["games"] == 6
    # A policy trained for another game is refused in one line.
    result = CliRunner().invoke(
        arena,
        [
            "--game",
            "twentyfive",
            "--bots",
            f"{bot},easy",
            "--games",
            "2",
            "--seed",
            "1",
            "--jobs",
            "1",
        ],
    )
    assert result.exit_code == 2 and "trained for kozyri, not twentyfive" in result.output
    assert "Traceback" not in result.output
    sys.modules.pop("imitate_medium", None)
