"""Details players noticed in the terminal (issue 11, part 4): a Twenty-Five hand in the
order the game ranks it, the legal list written like the hand, hand results that name the
players, and rules written as options on the command line."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from trumps import Game, from_json, new_game
from trumps.cli import cli
from trumps.records import loads
from trumps.tui.cardtext import typed_action
from trumps.tui.connect.model import TableModel
from trumps.tui.connect.text import choices, hand_line
from trumps.tui.play import HELP_COMMON, HELP_KOZYRI, HELP_TWENTYFIVE, Session
from trumps.tui.render import render_plain, seat_names

DOCS = Path(__file__).resolve().parents[1] / "docs"


def twentyfive_hand() -> Game:
    """Hearts are trumps; seat 0 leads holding K♠ 8♠ 2♠ and A♦ 2♦ (all plain cards)."""
    return from_json(
        {
            "game": "twentyfive",
            "turnup": "9H",
            "dealer": 1,
            "hands": [["8S", "2S", "KS", "AD", "2D"], ["6S", "7C", "9C", "TC", "AH"]],
            "leader": 0,
            "to_move": 0,
            "scores": [0, 0],
        }
    )


# -- 1. the hand in the game's own order, the legal list written like it ------------------


def test_twentyfive_hand_is_in_true_rank_order() -> None:
    # F7: in a plain black suit the 2 ranks above the 8 (K Q J A 2 … 10); in a plain red
    # suit the A ranks lowest (K Q J 10 … 2 A).
    game = twentyfive_hand()
    plain = render_plain(game.view(0), game.legal_actions(), seat_names(2, 0))
    assert "Your hand (5): ♠ K 2 8   ♦ 2 A" in plain
    assert plain.splitlines()[-1] == "Legal: K♠ 2♠ 8♠ 2♦ A♦"


def test_the_legal_list_is_written_like_the_hand_and_can_be_typed_back() -> None:
    game = new_game("twentyfive", players=2, seed=5)  # seat 1 leads holding 10♣ and may rob
    assert game.current_player == 1
    view = game.view(1)
    plain = render_plain(view, game.legal_actions(), seat_names(2, 1))
    words = plain.splitlines()[-1].removeprefix("Legal: ")
    assert "TC" not in words and "10♣" in words
    assert not re.search(r"\b[2-9TJQKA][SHDC]\b", words), words
    shown = re.findall(r"rob \S+|\S+", words)
    assert sorted(typed_action(w) for w in shown) == sorted(game.legal_actions())


def test_the_online_hand_bar_is_in_true_rank_order() -> None:
    game = twentyfive_hand()
    t = TableModel("t-1", game="twentyfive", seat=0, view=game.view(0))
    t.seats = [{"seat": 0, "name": "Ana"}, {"seat": 1, "bot": "easy", "name": "easy bot"}]
    t.legal, t.to_move = game.legal_actions(), 0
    assert choices(t) == ["KS", "2S", "8S", "2D", "AD"]
    assert hand_line(t, 0).plain.startswith("Your hand: ♠ 1:K♠ 2:2♠ 3:8♠   ♦ 4:2♦ 5:A♦")


# -- 1. hand results name the players -------------------------------------------------------


def session_output(game: Game) -> str:
    """``trumps play`` at seat 0 typing the first legal action every time, to the end."""
    out = io.StringIO()
    session = Session(
        game,
        0,
        "random",
        Console(file=out, highlight=False, soft_wrap=True),
        lambda _prompt: game.legal_actions()[0],
    )
    assert session.run()
    return out.getvalue()


def test_twentyfive_hand_result_names_the_players() -> None:
    printed = session_output(new_game("twentyfive", players=2, seed=21))
    found = re.findall(
        r"Hand (\d+) is over: You \+(\d+), Bot 1 \+(\d+) \(scores: You (\d+) · Bot 1 (\d+)\)\. "
        r"New deal\.",
        printed,
    )
    assert found, printed
    totals = [0, 0]
    for number, (hand, you, bot, you_total, bot_total) in enumerate(found, start=1):
        assert int(hand) == number
        totals = [totals[0] + int(you), totals[1] + int(bot)]
        assert totals == [int(you_total), int(bot_total)]


def test_kozyri_match_hand_result_names_the_loser() -> None:
    game = new_game("kozyri", players=2, seed=4, rules={"match_losses": 2})
    printed = session_output(game)
    found = re.findall(
        r"Hand 1 is over: (You|Bot 1) lost it \(lost hands: You (\d) · Bot 1 (\d)\)\. New deal\.",
        printed,
    )
    assert len(found) == 1, printed
    loser, you, bot = found[0]
    assert (int(you), int(bot)) == ((1, 0) if loser == "You" else (0, 1))


# -- 2. every terminal command is in the rules docs' command tables --------------------------


def commands(help_text: str) -> list[str]:
    """The command words of ``trumps play``'s help: the first word of each command row."""
    return re.findall(r"^  (?:a card|([a-z]+))\b", help_text, flags=re.M)


@pytest.mark.parametrize(
    ("doc", "extra"), [("kozyri.md", HELP_KOZYRI), ("twentyfive.md", HELP_TWENTYFIVE)]
)
def test_rules_docs_list_every_terminal_command(doc: str, extra: str) -> None:
    text = (DOCS / "rules" / doc).read_text(encoding="utf-8")
    table = text.split("## Playing in the terminal", 1)[1].split("\n## ", 1)[0]
    typed = re.findall(r"^\| `([a-z]+)", table, flags=re.M)
    wanted = [w for w in commands(HELP_COMMON + "\n" + extra) if w]
    assert "hint" in wanted and len(wanted) >= 6
    missing = [w for w in wanted if w not in typed]
    assert not missing, f"{doc} does not list {missing}"


# -- 5. rule options on the command line ----------------------------------------------------


def test_play_accepts_a_preset_with_options(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["play", "twentyfive", "--players", "2", "--seed", "3", "--save", str(save)]
    result = CliRunner().invoke(cli, [*args, "--rules", "classic,target=40"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Scores (first to 40)" in result.stdout
    assert "rules: custom: target=40" in result.stdout
    assert loads(save.read_text(encoding="utf-8")).rules["target"] == 40
    # classic with target 45 is the forty-five preset, and the title says so
    result = CliRunner().invoke(cli, [*args, "--rules", "classic,target=45"], input="quit\n")
    assert result.exit_code == 0 and "rules: forty-five" in result.stdout, result.output


def test_play_accepts_options_alone() -> None:
    args = ["play", "twentyfive", "--players", "2", "--seed", "3", "--rules", "rob=off,target=30"]
    result = CliRunner().invoke(cli, args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Scores (first to 30)" in result.stdout and 'rob="off"' in result.stdout


@pytest.mark.parametrize(
    ("rules", "fragments"),
    [
        ("classic,target=abc", ["rule option 'target' takes a whole number, not 'abc'"]),
        ("classic,target=0", ["rule option 'target' must be at least 1, not 0"]),
        ("rob=sometimes", ["rule option 'rob' takes one of optional, mandatory, off"]),
        ("joker=maybe", ["rule option 'joker' takes true or false, not 'maybe'"]),
        ("tagret=45", ["no rule option 'tagret'", "options: teams, joker"]),
        ("classic,forty-five", ["give one rule preset"]),
        ("target=30,target=40", ["'target' is given twice"]),
        ("nosuch", ["no preset 'nosuch'", "presets: classic"]),
    ],
)
def test_bad_rule_options_are_one_line_errors(rules: str, fragments: list[str]) -> None:
    result = CliRunner().invoke(cli, ["play", "twentyfive", "--rules", rules], input="")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "--rules" in lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
