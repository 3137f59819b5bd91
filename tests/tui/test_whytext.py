"""Every reason code of docs/api.md#rule-queries is worded by both clients: the terminal's
English sentence (``tui/whytext.py``) and the page's translated one (``web/static/why.js``);
the connect client's action box offers only what may be typed now."""

from __future__ import annotations

import re
from pathlib import Path

from trumps.games.base import Why
from trumps.games.viewtypes import View, view_of_json
from trumps.tui.connect.model import TableModel
from trumps.tui.connect.text import action_prompt
from trumps.tui.whytext import why_not_text, why_text

ROOT = Path(__file__).resolve().parents[2]


def documented_codes() -> set[str]:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    rows = [
        line
        for line in text.splitlines()
        if line.startswith("| both")
        or line.startswith("| kozyri")
        or line.startswith("| twentyfive")
    ]
    codes = {c for row in rows for c in re.findall(r"`([a-z_]+)`", row.split("|")[2])}
    return codes - {"take"}


def test_every_documented_code_has_a_sentence_in_both_clients() -> None:
    codes = documented_codes()
    assert {"must_follow", "must_beat_when_able", "renege_only_vs_lower"} <= codes
    page = (ROOT / "src" / "trumps" / "web" / "static" / "why.js").read_text(encoding="utf-8")
    for code in codes:
        why = Why(code, "K9", ("7D", "QS", "JC"), "D")
        assert not why_text(why).startswith("That is not allowed now"), code
        assert f'case "{code}":' in page, code


def test_the_sentence_cites_the_rule_and_names_the_cards() -> None:
    text = why_text(Why("must_follow", "F13", ("9S", "KC"), "C"))
    assert text == "You must follow clubs (K♣ was led) or play a trump; 9♠ is neither. (F13)"


def kozyri_model(legal: list[str]) -> TableModel:
    view = {
        "game": "kozyri",
        "seat": 0,
        "to_move": 0,
        "outcome": None,
        "trumps": ["D", "S"],
        "owes_second": False,
        "rules": {},
        "hands": [["AS", "7D"], {"count": 2, "known": []}],
        "pile": ["9C", "JC"],
        # The rest of a Svoi Kozyri view, as the server sends it (docs/views.md).
        "dealer": 1,
        "out": [],
        "ply": 4,
        "hand": 1,
        "losses": [0, 0],
        "own_known": [],
        "take_count": 2,
    }
    seats = [{"seat": 0, "name": "Olena"}, {"seat": 1, "bot": "easy"}]
    return TableModel(
        "t-1", game="kozyri", seats=seats, seat=0, view=view_of_json(view), legal=legal, to_move=0
    )


def view_of(t: TableModel) -> View:
    assert t.view is not None
    return t.view


def test_the_action_box_offers_take_only_when_it_is_legal() -> None:
    # K11: with 7♦ (a trump for seat 0) able to beat J♣, picking up is not allowed.
    t = kozyri_model(["7D"])
    assert "take" not in action_prompt(t)
    assert why_not_text(view_of(t), "take") == (
        "You must beat when you can (7♦ can beat the top card): picking up is only for when "
        "nothing beats. (K11)"
    )
    assert why_not_text(view_of(t), "AS") is not None
    assert "take" in action_prompt(kozyri_model(["take"]))


def test_the_terminal_shows_each_game_s_rules_in_brief() -> None:
    """``trumps play``'s ``rules`` shows the game's own lines (``Game.BRIEF``, which the
    page's How to play shows from the catalog), numbered, each with its rule ids."""
    from trumps.games import GAMES
    from trumps.tui.rulestext import rules_text

    for game, prefix in (("kozyri", "K"), ("twentyfive", "F")):
        brief = GAMES[game].BRIEF
        shown = rules_text(game, GAMES[game].title).splitlines()
        assert shown[0] == f"How to play {GAMES[game].title}:"
        assert shown[1:] == [f"  {i}. {text} ({ids})" for i, (ids, text) in enumerate(brief, 1)]
        # Each line cites rule ids that the rules documents have.
        doc = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
        assert len(brief) >= 5
        for ids, _ in brief:
            for rule in ids.split(", "):
                assert rule.startswith(prefix) and f"**{rule}**" in doc, rule
