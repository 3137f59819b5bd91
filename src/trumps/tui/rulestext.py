"""The rules in brief for ``trumps play``'s ``rules`` command: each game's own lines
(``Game.BRIEF``, which the page's "How to play" shows too), each with its rule ids."""

from __future__ import annotations

from trumps.games import GAMES


def rules_text(game_id: str, title: str) -> str:
    """The rules of ``game_id`` as numbered lines under ``How to play <title>``."""
    lines = [f"How to play {title}:"]
    for i, (ids, text) in enumerate(GAMES[game_id].BRIEF, 1):
        lines.append(f"  {i}. {text} ({ids})")
    return "\n".join(lines)


__all__ = ["rules_text"]
