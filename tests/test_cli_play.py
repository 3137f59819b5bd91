"""The ``trumps`` command driven as a user would: a real process on a terminal (pexpect)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from trumps import new_game
from trumps.records import dumps, loads, record_of
from trumps.tui.cardtext import typed_action

ENV = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
LEGAL = r"\nLegal: ([^\r\n]*)\r\n"
AGAIN = r"Play again\? \[y/N\] "


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "trumps", *args],
        env=ENV,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 220),
    )


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trumps", *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def first_action(legal_line: str) -> str:
    """The first action of a ``Legal:`` line (``trump S``, ``rob XX`` and ``discard XX`` are two words)."""
    words = legal_line.split()
    assert words, "an empty Legal: line"
    if words[0] in ("trump", "rob", "discard"):
        return " ".join(words[:2])
    return words[0]


def wait_legal(child: pexpect.spawn) -> str:
    child.expect(LEGAL)
    line = str(child.match.group(1))
    child.expect_exact("> ")
    return line


def play_to_the_end(child: pexpect.spawn, limit: int = 5000) -> str:
    """Type the first legal action at every turn until the result; the result text."""
    for _ in range(limit):
        i = child.expect([LEGAL, AGAIN])
        if i == 1:
            return str(child.before)
        action = first_action(str(child.match.group(1)))
        child.expect_exact("> ")
        child.sendline(action)
    raise AssertionError("the game did not end")


def finish(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "Traceback" not in str(child.before)


@pytest.mark.parametrize(
    ("game", "args"),
    [
        ("kozyri", ["--players", "2", "--seed", "3"]),
        ("twentyfive", ["--players", "2", "--seed", "5"]),
        ("twentyfive", ["--seed", "8"]),
    ],
)
def test_whole_game_then_decline_to_play_again(game: str, args: list[str]) -> None:
    child = spawn("play", game, *args)
    result = play_to_the_end(child)
    assert "Game over:" in result
    assert "You win!" in result or "You lose." in result or "a draw" in result
    child.sendline("n")
    finish(child)


def test_play_again_starts_a_new_game_with_a_new_seed() -> None:
    child = spawn("play", "twentyfive", "--players", "2", "--seed", "21")
    child.expect("New game of Twenty-Five, seed 21")
    play_to_the_end(child)
    child.sendline("y")
    child.expect("New game of Twenty-Five, seed 22")
    wait_legal(child)
    child.sendline("quit")
    finish(child)


def test_screen_shows_the_table() -> None:
    child = spawn("play", "twentyfive", "--seed", "2", "--players", "3")
    child.expect(LEGAL)
    screen = str(child.before)
    assert "Twenty-Five · rules: classic · hand 1" in screen
    assert "Scores (first to 25): You 0 · Bot 1 0 · Bot 2 0" in screen
    assert "Trumps: " in screen and "turn-up" in screen
    assert "Your hand (5" in screen or "Your hand (6" in screen
    child.expect_exact("> ")
    child.sendline("quit")
    finish(child)


def test_bad_entry_gets_a_message_and_the_game_goes_on() -> None:
    child = spawn("play", "kozyri", "--seed", "4")
    legal = wait_legal(child)
    child.sendline("zz")
    child.expect("'zz' is not an action")
    child.expect_exact("> ")
    child.sendline("take 7")
    child.expect("is not an action")
    child.expect_exact("> ")
    child.sendline(first_action(legal))
    second = wait_legal(child)
    assert second
    child.sendline("quit")
    finish(child)


def test_illegal_card_is_refused() -> None:
    child = spawn("play", "twentyfive", "--seed", "1")
    legal = re.findall(r"(?:rob|discard) \S+|\S+", wait_legal(child))  # like the hand: 10♠ …
    typed = {typed_action(w) for w in legal}
    not_legal = next(c for c in ("2S", "3D", "KC", "9H", "QC", "4S") if c not in typed)
    child.sendline(not_legal.lower())
    # The refusal says why, with the rule (F13/F14), or that the card is not held.
    child.expect(r"(You do not hold [^\r\n]*|\((F13|F14|F10)\)) Legal: ")
    child.expect_exact("> ")
    child.sendline(legal[0])
    wait_legal(child)
    child.sendline("quit")
    finish(child)


def test_take_when_a_card_beats_says_why_and_names_the_beaters() -> None:
    # K11 (default rules): picking up is only for when nothing beats; the refusal names
    # the cards that beat, each of them legal, and the game goes on.
    child = spawn("play", "kozyri", "--seed", "4")
    reasons: set[str] = set()
    for _ in range(200):
        legal = wait_legal(child)
        if "take" in legal.split() or legal.startswith("trump"):
            child.sendline(first_action(legal))
            continue
        child.sendline("take")
        i = child.expect(
            [
                r"You must beat when you can \(([^)]*) can beat the top card\)[^\r\n]*\(K11\)",
                r"nothing to pick up[^\r\n]*\(K7\)",
                r"now play a second card[^\r\n]*\(K10\)",
            ]
        )
        reasons.add(("K11", "K7", "K10")[i])
        if i == 0:
            beaters = str(child.match.group(1)).split(", ")  # written like the Legal: line
            assert set(beaters) <= set(legal.split()), (beaters, legal)
            child.expect_exact("> ")
            break
        child.expect_exact("> ")
        child.sendline(first_action(legal))
    else:
        raise AssertionError(f"no turn where a card beat the top card: {reasons}")
    child.sendline("quit")
    finish(child)


@pytest.mark.parametrize(
    ("game", "first"), [("kozyri", "Before the deal"), ("twentyfive", "Five cards")]
)
def test_rules_shows_how_to_play_and_the_game_goes_on(game: str, first: str) -> None:
    child = spawn("play", game, "--seed", "4")
    legal = wait_legal(child)
    child.sendline("rules")
    child.expect_exact("How to play ")
    child.expect(rf"1\. {first}[^\r\n]*\((K3|F4, F16)\)")
    assert wait_legal(child) == legal
    child.sendline("quit")
    finish(child)


def held_cards(screen: str) -> list[str]:
    """The cards of the last ``Your hand (n): ♥ A 3 2   ♦ 8 4`` line of a screen."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", screen)  # bold stays without colour
    line = [x for x in plain.splitlines() if x.startswith("Your hand")][-1]
    cards: list[str] = []
    suit = ""
    for word in line.split(":", 1)[1].split():
        if word in "♠♥♦♣":
            suit = "SHDC"["♠♥♦♣".index(word)]
        elif word == "Joker":
            cards.append("JK")
        elif suit and (word == "10" or (len(word) == 1 and word in "23456789JQKA")):
            cards.append(("T" if word == "10" else word) + suit)
    return cards


def test_a_held_card_that_may_not_be_played_says_why() -> None:
    # F13/F14 (or F10 when a rob must come first): the refusal of a card in hand names the
    # rule, and the game goes on.
    child = spawn("play", "twentyfive", "--players", "4", "--seed", "2")
    for _ in range(300):
        i = child.expect([LEGAL, AGAIN])
        if i == 1:
            child.sendline("y")
            continue
        legal = str(child.match.group(1))
        hand = held_cards(str(child.before))
        child.expect_exact("> ")
        typed = {typed_action(a) for a in re.findall(r"(?:rob|discard) \S+|\S+", legal)}
        blocked = [c for c in hand if c not in typed]
        if blocked:
            child.sendline(blocked[0])
            child.expect(
                r"(You must follow|A trump was led|may be kept back only|must rob)[^\r\n]*\((F13|F14|F10)\) Legal: "
            )
            child.expect_exact("> ")
            break
        child.sendline(first_action(legal))
    else:
        raise AssertionError("no held card was ever refused")
    child.sendline("quit")
    finish(child)


def test_undo_takes_back_to_the_previous_decision() -> None:
    child = spawn("play", "kozyri", "--seed", "6")
    first = wait_legal(child)
    child.sendline("undo")
    child.expect_exact("Nothing to undo.")
    child.expect_exact("> ")
    child.sendline(first_action(first))
    wait_legal(child)
    child.sendline("undo")
    child.expect_exact("Took back your last move")
    again = wait_legal(child)
    assert again == first
    child.sendline("quit")
    finish(child)


def test_help_explains_the_commands() -> None:
    child = spawn("play", "kozyri", "--seed", "2")
    wait_legal(child)
    child.sendline("help")
    child.expect_exact("Commands:")
    child.expect_exact("take")
    child.expect_exact("Svoi Kozyri in brief")
    wait_legal(child)
    child.sendline("quit")
    finish(child)


@pytest.mark.parametrize("game", ["kozyri", "twentyfive"])
def test_hint_names_a_legal_move_and_the_game_goes_on(game: str) -> None:
    child = spawn("play", game, "--seed", "4")
    legal = wait_legal(child)
    child.sendline("hint")
    # A sentence for people (the bot's structured reason), not the engine's log line.
    child.expect(r"Hint: (?:play )?(.+?)(?:\.| is your only)([^\r\n]*)\r\n")
    suggested = typed_action(str(child.match.group(1)))
    line = str(child.match.group(0))
    assert not any(w in line for w in ("PIMC", "ISMCTS", "determinization", "nodes", "depth "))
    actions = re.findall(r"(?:trump|rob|discard) \S+|\S+", legal)  # 10♠ trump ♠ rob 9♠ …
    assert suggested in [typed_action(a) for a in actions]
    child.expect_exact("> ")
    child.sendline(first_action(legal))
    wait_legal(child)
    child.sendline("quit")
    finish(child)


def test_quit_and_eof_exit_cleanly() -> None:
    child = spawn("play", "twentyfive", "--seed", "3")
    wait_legal(child)
    child.sendline("quit")
    finish(child)
    child = spawn("play", "kozyri", "--seed", "3")
    wait_legal(child)
    child.sendeof()
    finish(child)


def test_eof_with_no_terminal_exits_cleanly() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "trumps", "play", "kozyri", "--seed", "1"],
        env=ENV,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert "Legal: " in done.stdout
    assert "\x1b[" not in done.stdout  # no colour codes when not a terminal
    assert "Traceback" not in done.stderr


def test_save_writes_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = spawn("play", "twentyfive", "--players", "2", "--seed", "11", "--save", str(path))
    play_to_the_end(child)
    child.sendline("n")
    finish(child)
    game = loads(path.read_text(encoding="utf-8"))
    assert game.is_over
    assert json.loads(path.read_text(encoding="utf-8"))["players"] == ["You", "Bot 1"]
    checked = run("record", "check", str(path))
    assert checked.returncode == 0
    assert checked.stdout.startswith(f"ok: twentyfive, {len(game.history)} actions, ")


def test_record_check_rejects_a_tampered_record(tmp_path: Path) -> None:
    game = new_game("kozyri", seed=9, trumps=["S", "H"])
    for _ in range(6):
        game.play(game.legal_actions()[-1])
    good = tmp_path / "good.json"
    good.write_text(dumps(record_of(game)), encoding="utf-8")
    done = run("record", "check", str(good))
    assert done.returncode == 0
    assert done.stdout.strip() == f"ok: kozyri, {len(game.history)} actions, not finished"
    data = json.loads(good.read_text(encoding="utf-8"))
    data["actions"][-2] = "take" if data["actions"][-2] != "take" else "AS"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = run("record", "check", str(bad))
    assert done.returncode == 1
    assert "does not replay" in done.stderr
    assert "Traceback" not in done.stderr
    bad.write_text("{not json", encoding="utf-8")
    done = run("record", "check", str(bad))
    assert done.returncode == 1
    assert "not JSON" in done.stderr


def test_rules_lists_options_and_presets() -> None:
    done = run("rules")
    assert done.returncode == 0
    for text in ("voluntary_pickup", "pagat", "match_losses", "renege_limit", "forty-five"):
        assert text in done.stdout
    done = run("rules", "kozyri")
    assert "sixes_to_owner" in done.stdout and "renege_limit" not in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "nosuchgame"], "nosuchgame"),
        (["play", "kozyri", "--rules", "nosuch"], "no preset 'nosuch'"),
        (["play", "kozyri", "--players", "7"], "2–4 players"),
        (["play", "twentyfive", "--opponent", "genius"], "genius"),
        (["play", "twentyfive", "--players", "3", "--seat", "3"], "seat must be"),
        (["rules", "poker"], "poker"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout.startswith("trumps ")


def test_old_preset_name_is_still_accepted() -> None:
    """The Svoi Kozyri preset `standard` was called `seed`; that name still works."""
    child = spawn("play", "kozyri", "--rules", "seed", "--seed", "3")
    child.expect("standard")
    wait_legal(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
