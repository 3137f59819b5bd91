"""The easy and medium bots give a structured reason with every move, as the searching bots
do (issue 11, part 3: "bots return structured reasons"): a code of docs/protocol.md#hint,
which the terminal words in a sentence of its own (not the bare "Hint: play X.") and the page
has a sentence for (``why.js``; its translations are checked in Chromium by
tests/web/test_hint_reasons.py)."""

from __future__ import annotations

import random
import re

import pytest

import trumps
from ai.reasons import hint_codes
from trumps.ai import make_bot
from trumps.ai.base import Limits
from trumps.tui.whytext import hint_text


def decisions(game_id: str, players: int, level: str, seeds: range) -> list[tuple[str, object]]:
    """(action, explain) of ``level`` at every turn of games where it plays every seat."""
    bot = make_bot(level, game_id)
    out: list[tuple[str, object]] = []
    for seed in seeds:
        game = trumps.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.history) < 400:
            seat = game.current_player
            assert seat is not None
            d = bot.decide(game.view(seat), game.legal_actions(), Limits(), rng)
            out.append((d.action, d.explain))
            game.play(d.action)
    return out


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize(("game_id", "players"), [("kozyri", 2), ("kozyri", 3), ("twentyfive", 4)])
def test_every_move_of_the_rules_of_thumb_has_a_documented_reason(
    level: str, game_id: str, players: int
) -> None:
    codes = hint_codes()
    seen: set[str] = set()
    for action, explain in decisions(game_id, players, level, range(6)):
        assert explain is not None, (level, game_id, action)
        code = explain.code  # type: ignore[attr-defined]
        assert code in codes, code
        assert set(explain.numbers) <= set(codes[code]), (code, explain.numbers)  # type: ignore[attr-defined]
        seen.add(code)
    assert len(seen) >= 4, seen  # the reasons vary with the position


def test_the_terminal_words_every_documented_reason() -> None:
    codes = hint_codes()
    assert {"guess", "win_cheaply", "shed_low", "all_win"} <= set(codes)
    for code, numbers in codes.items():
        text = hint_text("7D", {"code": code, "numbers": dict.fromkeys(numbers, 2)})
        assert text != "Hint: play 7♦." and text.startswith("Hint: "), code
        for name in numbers:  # every number the reason carries is said
            assert "2" in text, (code, name)


def test_the_solved_hints_read_as_plain_language() -> None:
    """No engine words ("line", "best play", "by force") in what the terminal says."""
    for code in ("solved_win", "solved_loss", "solved_draw", "all_win"):
        text = hint_text("take", {"code": code, "numbers": {"moves": 5}})
        assert not re.search(r"\bline\b|best play|by force", text), text
    text = hint_text("KC", {"code": "all_win", "numbers": {"deals": 40}})
    assert text == "Hint: you win this hand whatever you play; K♣ is as good as any."
