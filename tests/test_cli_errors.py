"""Every ``trumps`` command fails the same way: one line on stderr, ``Error: …``, no
traceback; exit code 2 when the command line is wrong (click's usage errors), 1 when
the work fails (files, positions, records, a server that cannot start).  See the
``trumps.cli`` module doc."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import trumps
from trumps.cli import cli
from trumps.records import dumps, record_of

DUEL = {
    "game": "kozyri",
    "trumps": ["S", "H"],
    "hands": [["TD", "7C", "JS", "QH"], ["QS", "TC"]],
    "pile": ["JH"],
    "to_move": 0,
}


def one_error(args: list[str], code: int, *fragments: str, stdin: str = "") -> str:
    """Run ``trumps ARGS``: exit ``code`` and a single ``Error:`` line on stderr
    holding every fragment; that line."""
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exit_code == code, (args, result.output)
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, (args, result.stderr)
    line = lines[0]
    assert line.startswith("Error: "), line
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def a_record() -> str:
    """An unfinished Svoi Kozyri record of 8 actions."""
    game = trumps.new_game("kozyri", seed=9, trumps=["S", "H"])
    for _ in range(6):
        game.play(game.legal_actions()[-1])
    assert len(game.history) == 8  # the two trump choices, then six moves
    return dumps(record_of(game))


# -- record check ----------------------------------------------------------------------


def test_record_check_accepts_a_byte_order_mark(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.json", "\ufeff" + a_record())
    result = CliRunner().invoke(cli, ["record", "check", path])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "ok: kozyri, 8 actions, not finished"


def test_solve_accepts_a_byte_order_mark(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.json", "\ufeff" + json.dumps(DUEL))
    result = CliRunner().invoke(cli, ["solve", path, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["best"] == "JS"


def test_record_check_bad_files(tmp_path: Path) -> None:
    one_error(["record", "check", str(tmp_path / "nowhere.json")], 1, "cannot read", "nowhere")
    one_error(["record", "check", str(tmp_path)], 1, "cannot read")
    one_error(["record", "check", write(tmp_path, "bin.json", b"\xff\xfe\x00")], 1, "UTF-8")
    one_error(["record", "check", write(tmp_path, "x.json", "{not json")], 1, "not JSON")
    data = json.loads(a_record())
    data["actions"][-2] = "take" if data["actions"][-2] != "take" else "AS"
    one_error(["record", "check", write(tmp_path, "t.json", json.dumps(data))], 1, "replay")
    one_error(["record", "check"], 2, "Missing argument", "--help")


# -- play, rules -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "nosuchgame"], "nosuchgame"),
        (["play", "kozyri", "--rules", "nosuch"], "no preset 'nosuch'"),
        (["play", "kozyri", "--players", "7"], "2–4 players"),
        (["play", "kozyri", "--players", "many"], "many"),
        (["play", "twentyfive", "--opponent", "genius"], "genius"),
        (["play", "twentyfive", "--players", "3", "--seat", "3"], "seat must be"),
        (["play", "kozyri", "--seed", "-1"], "--seed"),
        (["play", "kozyri", "--nope"], "--nope"),
        (["rules", "poker"], "poker"),
        (["nosuchcommand"], "nosuchcommand"),
    ],
)
def test_usage_errors(args: list[str], fragment: str) -> None:
    line = one_error(args, 2, fragment)
    assert "--help" in line


def test_play_reports_a_record_it_cannot_write(tmp_path: Path) -> None:
    save = str(tmp_path / "no" / "such" / "dir" / "game.json")
    one_error(["play", "kozyri", "--seed", "1", "--save", save], 1, "cannot write", save)


# -- solve -------------------------------------------------------------------------------


def test_solve_bad_input(tmp_path: Path) -> None:
    one_error(["solve", str(tmp_path / "nowhere.json")], 1, "cannot read")
    one_error(["solve", write(tmp_path, "x.json", "{not json")], 1, "not JSON")
    bad = {**DUEL, "hands": [["TD", "TD"], ["QS"]]}
    one_error(["solve", write(tmp_path, "bad.json", json.dumps(bad))], 1, "invalid position")
    three = trumps.new_game("kozyri", players=3, seed=1, trumps=["S", "H", "D"]).to_json()
    one_error(["solve", write(tmp_path, "three.json", json.dumps(three))], 1, "2-player")
    ok = write(tmp_path, "ok.json", json.dumps(DUEL))
    one_error(["solve", ok, "--time-limit", "0"], 2, "--time-limit", "--help")
    one_error(["solve", ok, "--node-limit", "x"], 2, "--node-limit")


# -- arena -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ("--game kozyri --bots random,wizard --games 2 --seed 1", "wizard"),
        ("--game kozyri --bots random,easy --games 0 --seed 1", "--games"),
        ("--game kozyri --bots random,easy --games 2 --seed 1 --rules nope", "nope"),
        ("--game kozyri --bots random,easy --games 2", "--seed"),
    ],
)
def test_arena_usage_errors(args: str, fragment: str) -> None:
    one_error(["arena", *args.split()], 2, fragment, "--help")


def test_arena_unwritable_output(tmp_path: Path) -> None:
    out = str(tmp_path / "no" / "dir" / "out.json")
    args = ["arena", "--game", "kozyri", "--bots", "random,random", "--games", "2"]
    one_error([*args, "--seed", "1", "--jobs", "1", "--out", out], 1, "cannot write", out)


# -- serve, connect ----------------------------------------------------------------------


def test_serve_bad_input(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    one_error(["serve", "--db", "mysql://root@localhost/x"], 2, "--db", "sqlite+aiosqlite")
    one_error(["serve", "--port", "70000"], 2, "--port")
    monkeypatch.setenv("TRUMPS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("TRUMPS_SECRET", raising=False)
    secret = write(tmp_path, "secret.key", "short\n")
    one_error(["serve", "--secret-file", secret, "--bot-workers", "0"], 1, "too short", secret)
    one_error(["serve", "--secret-file", str(tmp_path), "--bot-workers", "0"], 2, "directory")


def test_connect_bad_input() -> None:
    one_error(["connect", "ftp://example.org"], 2, "http://127.0.0.1:8000")
    one_error(["connect"], 2, "Missing argument")


# -- the installed command ---------------------------------------------------------------


def test_the_real_command_prints_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "trumps", "record", "check", str(tmp_path / "none.json")],
        env={**os.environ, "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"Error: cannot read {tmp_path / 'none.json'}: No such file or directory"
    ]
    done = subprocess.run(
        [sys.executable, "-m", "trumps", "play", "chess"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("Error: ")
