"""``trumps solve POSITION.json`` (issue 3 §4): text and JSON output, errors, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import trumps
from trumps.commands.solve import solve

WIN = {
    "game": "kozyri",
    "trumps": ["S", "H"],
    "hands": [["TD", "7C", "JS", "QH"], ["QS", "TC"]],
    "pile": ["JH"],
    "to_move": 0,
}


def _write(tmp_path: Path, data: object, name: str = "position.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def _run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(solve, list(args), input=stdin)


def test_text_output(tmp_path: Path) -> None:
    res = _run(_write(tmp_path, WIN))
    assert res.exit_code == 0, res.output
    assert "seat 0 to move: win in" in res.output
    assert "best: JS" in res.output
    assert "nodes:" in res.output and "time:" in res.output


def test_json_output(tmp_path: Path) -> None:
    res = _run(_write(tmp_path, WIN), "--json", "--node-limit", "100000")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert set(out) == {"value", "best", "nodes", "seconds"}
    assert out["value"] == "win" and out["best"] == "JS"
    assert isinstance(out["nodes"], int) and out["nodes"] > 0
    assert isinstance(out["seconds"], float)


def test_null_value_when_the_budget_runs_out(tmp_path: Path) -> None:
    deal = trumps.new_game("kozyri", seed=4, trumps=["S", "H"])
    res = _run(_write(tmp_path, deal.to_json()), "--json", "--node-limit", "500")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["value"] is None and out["best"] in deal.legal_actions()
    assert out["nodes"] <= 500
    text = _run(_write(tmp_path, deal.to_json()), "--node-limit", "500")
    assert "unknown" in text.output and "best guess:" in text.output


def test_reads_stdin() -> None:
    res = _run("-", "--json", stdin=json.dumps(WIN))
    assert res.exit_code == 0 and json.loads(res.output)["best"] == "JS"


def _over() -> dict[str, Any]:
    g = trumps.from_json(
        {
            "game": "kozyri",
            "trumps": ["S", "H"],
            "hands": [["AC", "7D"], ["8D", "6S"]],
            "pile": [],
            "to_move": 0,
        }
    )
    for a in ["AC", "take", "7D"]:
        g.play(a)
    return g.to_json()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "position object"),
        ({"game": "twentyfive"}, "kozyri position"),
        ({**WIN, "hands": [["TD", "TD"], ["QS"]]}, "invalid position"),
        (
            trumps.new_game("kozyri", players=3, seed=1, trumps=["S", "H", "D"]).to_json(),
            "2-player",
        ),
        (trumps.new_game("kozyri", seed=1).to_json(), "trump choice"),
        (_over(), "over"),
    ],
)
def test_errors_exit_1(tmp_path: Path, content: object, message: str) -> None:
    res = _run(_write(tmp_path, content))
    assert res.exit_code == 1
    assert message in res.output and "Traceback" not in res.output


def test_missing_file_exits_1(tmp_path: Path) -> None:
    res = _run(str(tmp_path / "nowhere.json"))
    assert res.exit_code == 1 and "cannot read" in res.output


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    path = _write(tmp_path, WIN)
    assert _run(path, "--time-limit", "0").exit_code == 2
    assert _run(path, "--node-limit", "-3").exit_code == 2
    assert _run().exit_code == 2


def test_the_trumps_command_runs_solve(tmp_path: Path) -> None:
    """The installed command (``python -m trumps solve``), not just the click object."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "trumps", "solve", _write(tmp_path, WIN), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["value"] == "win" and out["best"] == "JS"
