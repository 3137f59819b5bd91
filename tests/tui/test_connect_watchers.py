"""``trumps connect`` shows who watches a table (issue 11): the count and names the server
sends in ``table_state`` and in ``spectators`` messages, the first names and how many more."""

from __future__ import annotations

from typing import Any

from trumps.games import new_game
from trumps.tui.connect.model import ClientState
from trumps.tui.connect.text import watchers_text


def snapshot(**extra: Any) -> dict[str, Any]:
    return {
        "type": "table_state", "table_id": "t-1", "game": "kozyri", "rules": {},
        "seats": [{"seat": 0, "name": "Olena"}, {"seat": 1, "name": "hard bot", "bot": "hard"}],
        "seat": 0, "event": 0, "view": dict(new_game("kozyri", seed=1).view(0)),
        "legal": [], "to_move": None, **extra,
    }  # fmt: skip


def test_the_table_says_who_watches() -> None:
    state = ClientState()
    state.apply(snapshot())
    t = state.tables["t-1"]
    assert watchers_text(t) == ""
    state.apply(snapshot(spectators={"count": 1, "names": ["Marta"]}))
    assert watchers_text(t) == "1 watching: Marta"
    change = state.apply(
        {"type": "spectators", "table_id": "t-1", "count": 2, "names": ["Marta", "Jin"]}
    )
    assert change.table_id == "t-1"
    assert watchers_text(t) == "2 watching: Marta, Jin"
    names = [f"P{i}" for i in range(10)]
    state.apply({"type": "spectators", "table_id": "t-1", "count": 14, "names": names})
    assert watchers_text(t) == "14 watching: " + ", ".join(names) + " (+4 more)"
    state.apply({"type": "spectators", "table_id": "t-1", "count": 0, "names": []})
    assert watchers_text(t) == ""
