"""``trumps play --save`` never loses a game, and ``trumps arena`` never loses a run, to a
file that cannot be written: the path is refused before anything is played; a game played
again goes to a new file instead of over the one just saved (Ctrl-C saving the game so far
is in ``test_cli_interrupt``)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from trumps.cli import cli
from trumps.records import loads

ENV = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
LEGAL = r"\nLegal: ([^\r\n]*)\r\n"
AGAIN = r"Play again\? \[y/N\] "


def refused(args: list[str], *fragments: str) -> str:
    """``trumps ARGS`` fails at once: exit 1, one ``Error:`` line, nothing played."""
    result = CliRunner().invoke(cli, args, input="")
    assert result.exit_code == 1, result.output
    assert result.stdout == "", "something was played before the error"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def test_play_refuses_a_missing_folder_before_the_game(tmp_path: Path) -> None:
    save = tmp_path / "no" / "such" / "game.json"
    refused(
        ["play", "kozyri", "--seed", "1", "--save", str(save)],
        f"cannot write {save} (--save)",
        f"the folder {save.parent} does not exist",
    )


@pytest.mark.parametrize("option", ["--out", "--csv", "--plot"])
def test_arena_checks_its_output_paths_before_playing(tmp_path: Path, option: str) -> None:
    target = tmp_path / "missing" / "result.out"
    args = ["arena", "--game", "kozyri", "--bots", "random,random", "--games", "2"]
    refused(
        [*args, "--seed", "1", "--jobs", "1", option, str(target)],
        f"cannot write {target} ({option})",
        "does not exist",
    )


def first_action(legal_line: str) -> str:
    words = legal_line.split()
    if words[0] in ("trump", "rob", "discard"):
        return " ".join(words[:2])
    return words[0]


def play_to_the_end(child: pexpect.spawn) -> None:
    for _ in range(5000):
        if child.expect([LEGAL, AGAIN]) == 1:
            return
        action = first_action(str(child.match.group(1)))
        child.expect_exact("> ")
        child.sendline(action)
    raise AssertionError("the game did not end")


def test_play_again_saves_to_a_new_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    (tmp_path / "game-2.json").write_text("kept", encoding="utf-8")  # an earlier session's
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "trumps",
            "play",
            "twentyfive",
            "--players",
            "2",
            "--seed",
            "21",
            "--save",
            str(path),
        ],
        env=ENV,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 220),
    )
    play_to_the_end(child)
    assert f"Saved the game record to {path}" in str(child.before)
    first = path.read_text(encoding="utf-8")
    child.sendline("y")
    child.expect("New game of Twenty-Five, seed 22")
    play_to_the_end(child)
    second = tmp_path / "game-3.json"
    assert f"Saved the game record to {second}" in str(child.before)
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert path.read_text(encoding="utf-8") == first, "the first game was overwritten"
    assert (tmp_path / "game-2.json").read_text(encoding="utf-8") == "kept"
    assert json.loads(first)["seed"] == 21
    assert json.loads(second.read_text(encoding="utf-8"))["seed"] == 22
    assert loads(second.read_text(encoding="utf-8")).is_over
