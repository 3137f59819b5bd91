"""The ``hint`` example of docs/protocol.md is what the server sends: the message the
server builds from a real expert decision (``botplay.hint_message``) has the example's fields,
its reason code and numbers, and its ``reasoning`` written the same way."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import msgspec

import trumps
from trumps.ai import make_bot
from trumps.ai.base import Limits
from trumps.server.tables.botplay import HINT_LEVEL, hint_message

ROOT = Path(__file__).resolve().parents[2]


def doc_example() -> dict[str, object]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    start = text.index("### hint\nThe strongest bot's choice")
    begin = text.index("```json\n", start) + len("```json\n")
    block = text[begin : text.index("\n```", begin)]
    return dict(json.loads(block))


def test_the_documented_hint_is_what_the_server_sends() -> None:
    example = doc_example()
    game = trumps.new_game("twentyfive", players=4, seed=7)
    while game.legal_actions()[0].startswith("rob "):  # to a card play, as in the example
        game.play(game.legal_actions()[0])
    seat = game.current_player
    assert seat is not None
    bot = make_bot(HINT_LEVEL, "twentyfive")
    decision = bot.decide(game.view(seat), game.legal_actions(), Limits(iterations=40),
                          random.Random(1))  # fmt: skip
    sent = json.loads(msgspec.json.encode(hint_message("t-42", 17, decision)))
    assert set(sent) == set(example)
    assert sent["why"]["code"] == example["why"]["code"] == "sampled"  # type: ignore[index]
    assert set(sent["why"]["numbers"]) == set(example["why"]["numbers"])  # type: ignore[index]
    pattern = r"PIMC [\d,]+ determinizations \([\d,]+ rollouts\); \w+ scores \d+%"
    assert re.fullmatch(pattern, sent["reasoning"]), sent["reasoning"]
    assert re.fullmatch(pattern, str(example["reasoning"]))
    deals = f"{sent['why']['numbers']['deals']:,.0f}"
    assert f"PIMC {deals} determinizations" in sent["reasoning"]
    shown = example["why"]["numbers"]  # type: ignore[index]
    assert f"PIMC {shown['deals']:,} determinizations" in str(example["reasoning"])
    assert f"scores {shown['percent']}%" in str(example["reasoning"])
