"""Ctrl-C (SIGINT) at a real ``trumps`` process: a clean exit (code 130, one line, no
traceback) wherever it lands, and ``trumps play --save`` keeps the game so far.

The interrupts that matter most land inside the compiled duel search (an ``expert``
turn, a ``hint``, ``trumps solve``): before the fix they aborted the process
("fatal: out of memory", SIGABRT) and the game was lost.  Each test waits for the
output that precedes the search (pexpect ``expect``), then sends SIGINT.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

import trumps

ENV = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
LEGAL = r"\nLegal: ([^\r\n]*)\r\n"


def _default_sigint() -> None:
    # As a user's shell starts it: a runner started in the background (``cmd &`` in a
    # script) ignores SIGINT, and an ignored SIGINT would be inherited by the child.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "trumps", *args],
        env=ENV,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 220),
        preexec_fn=_default_sigint,
    )


def interrupt(child: pexpect.spawn, within: float = 15.0) -> list[str]:
    """Send SIGINT, wait for the exit; the non-empty lines printed after the signal."""
    child.kill(signal.SIGINT)
    child.expect(pexpect.EOF, timeout=within)
    child.close()
    text = str(child.before).replace("^C", "")
    assert "Traceback" not in text and "fatal" not in text, text
    assert child.signalstatus is None, f"killed by signal {child.signalstatus}: {text!r}"
    assert child.exitstatus == 130, text
    return [line.strip() for line in text.splitlines() if line.strip()]


def record_check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trumps", "record", "check", str(path)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def start_duel(path: Path) -> pexpect.spawn:
    """``trumps play kozyri --opponent expert`` (seed 3: the bot chooses its trump
    first, and leads from a full hand after ours, so that lead is a long search)."""
    child = spawn("play", "kozyri", "--opponent", "expert", "--seed", "3", "--save", str(path))
    child.expect(LEGAL)
    assert str(child.match.group(1)).startswith("trump ")
    child.expect_exact("> ")
    return child


def assert_saved(path: Path, lines: list[str], actions: int) -> None:
    assert lines == [f"Interrupted. Saved the game record to {path}."]
    record = json.loads(path.read_text(encoding="utf-8"))
    assert len(record["actions"]) == actions
    done = record_check(path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"ok: kozyri, {actions} actions, not finished")


def test_ctrl_c_during_an_expert_turn_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = start_duel(path)
    child.sendline("trump S")
    child.expect_exact("You choose ♠ as trumps.")  # the bot's lead (a search) comes next
    assert_saved(path, interrupt(child), 2)


def test_ctrl_c_during_a_hint_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = start_duel(path)
    child.sendline("trump S")
    child.expect(LEGAL)  # the bot has led: seat 0 beats or takes
    assert len(str(child.match.group(1)).split()) >= 2
    child.expect_exact("> ")
    child.sendline("hint")
    child.expect_exact("hint\r\n")  # echoed: the expert search for the hint is running
    assert_saved(path, interrupt(child), 3)


def test_ctrl_c_at_the_prompt_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = start_duel(path)
    child.sendline("trump S")
    child.expect(LEGAL)
    child.expect_exact("> ")
    assert_saved(path, interrupt(child), 3)


def test_ctrl_c_without_save_says_one_line() -> None:
    child = spawn("play", "kozyri", "--opponent", "expert", "--seed", "3")
    child.expect(LEGAL)
    child.expect_exact("> ")
    child.sendline("trump S")
    child.expect_exact("You choose ♠ as trumps.")
    assert interrupt(child) == ["Interrupted."]


def test_ctrl_c_during_solve_stops_the_search(tmp_path: Path) -> None:
    """A full deal is far beyond a minute's search: the interrupt must stop it early."""
    position = tmp_path / "deal.json"
    deal = trumps.new_game("kozyri", seed=4, trumps=["S", "H"])
    position.write_text(json.dumps(deal.to_json()), encoding="utf-8")
    child = spawn("solve", str(position), "--time-limit", "600")
    child.expect(r"Searching \(Ctrl-C stops\)[^\r\n]*\r\n")
    assert interrupt(child, within=10.0) == ["Interrupted."]
