"""A bot of your own in ``trumps arena`` (issue 14 §4, docs/research.md): ``--bots
file.py:Class`` or ``module:Class`` seats any ``trumps.ai.Bot`` subclass beside the levels,
in this process and in ``--jobs`` workers alike, and it gets a seat's view, never the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from trumps.commands.arena import arena

BOT = '''
import random

from trumps.ai import Bot, Decision, Limits
from trumps.games.viewtypes import View


class Lowest(Bot):
    """Always the lowest legal action; checks it is only ever given a seat's view."""

    name = "Lowest"
    level = "lowest"

    def decide(
        self, view: View, legal: list[str], limits: Limits, rng: random.Random
    ) -> Decision:
        seat = view["seat"]
        assert isinstance(seat, int) and "seed" not in view
        assert all(isinstance(h, dict) for s, h in enumerate(view["hands"]) if s != seat)
        return Decision(legal[0], "the lowest legal action")
'''


def _invoke(*args: str) -> Any:
    return CliRunner().invoke(arena, list(args), catch_exceptions=False)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bot_from_a_file_plays_the_levels(tmp_path: Path, jobs: str) -> None:
    source = tmp_path / "lowest.py"
    source.write_text(BOT)
    out = tmp_path / "r.json"
    spec = f"{source}:Lowest"
    result = _invoke("--game", "kozyri", "--players", "3", "--bots", f"{spec},easy",
                     "--games", "6", "--seed", "2", "--jobs", jobs, "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["settings"]["bots"] == [spec, "easy"]
    assert data["bots"][spec]["games"] == 6


def test_a_bot_from_a_module_on_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_trumps_bot.py").write_text(BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = _invoke("--game", "twentyfive", "--players", "4", "--bots",
                     "my_trumps_bot:Lowest,random", "--games", "4", "--seed", "1", "--jobs", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "my_trumps_bot:Lowest" in result.output


@pytest.mark.parametrize(
    ("content", "spec", "message"),
    [
        (None, "{dir}/missing.py:Lowest", "cannot load"),
        ("x = 1\n", "{dir}/bot.py:Lowest", "no Bot subclass 'Lowest'"),
        ("class Lowest:\n    pass\n", "{dir}/bot.py:Lowest", "no Bot subclass 'Lowest'"),
        ("def broken(:\n", "{dir}/bot.py:Lowest", "cannot load"),
        (None, "no_such_module_here:Lowest", "cannot load 'no_such_module_here'"),
        (None, ":Lowest", "is not module:Class"),
    ],
)
def test_a_bot_that_cannot_be_loaded_is_one_line(
    tmp_path: Path, content: str | None, spec: str, message: str
) -> None:
    if content is not None:
        (tmp_path / "bot.py").write_text(content)
    result = _invoke("--game", "kozyri", "--bots", f"{spec.format(dir=tmp_path)},easy",
                     "--games", "2", "--seed", "1", "--jobs", "1")  # fmt: skip
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output
