"""``GET /api/catalog``: the games, presets, rule options and bot levels, as the registries
have them (the browser's lobby builds its lists from this)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.e2e import ServerProc
from trumps.ai import BOTS
from trumps.games import GAMES, new_game


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The catalog as a real ``trumps serve`` answers it."""
    workdir: Path = tmp_path_factory.mktemp("catalog")
    proc = ServerProc(f"sqlite+aiosqlite:///{workdir / 'catalog.db'}", workdir).start()
    try:
        response = proc.get("/api/catalog")
    finally:
        proc.stop()
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    yield response.json()


def test_games_match_the_registry(served: dict[str, Any]) -> None:
    assert [g["id"] for g in served["games"]] == list(GAMES)
    for entry in served["games"]:
        cls = GAMES[entry["id"]]
        assert entry["title"] == cls.title
        assert (entry["min_players"], entry["max_players"], entry["default_players"]) == (
            cls.min_players,
            cls.max_players,
            cls.default_players,
        )
        assert entry["default_preset"] == cls.DEFAULT_PRESET
        assert [p["name"] for p in entry["presets"]] == list(cls.PRESETS)
        for p in entry["presets"]:
            preset = cls.PRESETS[p["name"]]
            assert (p["doc"], p["players"], p["aliases"], p["options"]) == (
                preset.doc,
                preset.players,
                list(preset.aliases),
                dict(preset.options),
            )
        assert [o["name"] for o in entry["options"]] == list(cls.OPTIONS)
        for o in entry["options"]:
            option = cls.OPTIONS[o["name"]]
            assert o["default"] == option.default and type(o["default"]) is type(option.default)
            assert o["choices"] == list(option.choices)
            assert (o["doc"], o["minimum"], o["maximum"]) == (
                option.doc,
                option.minimum,
                option.maximum,
            )


def test_what_the_lobby_relies_on(served: dict[str, Any]) -> None:
    """The facts the page shows: Svoi Kozyri's default preset is ``standard`` (alias
    ``seed``, docs/rules/kozyri.md §1.6) and Twenty-Five seats up to ten."""
    games = {g["id"]: g for g in served["games"]}
    kozyri = games["kozyri"]
    assert kozyri["default_preset"] == "standard"
    standard = next(p for p in kozyri["presets"] if p["name"] == "standard")
    assert standard["aliases"] == ["seed"]
    assert games["twentyfive"]["max_players"] == 10
    # Every preset the catalog names starts a game with the count it gives.
    for game in served["games"]:
        for p in game["presets"]:
            players = p["players"] or game["default_players"]
            assert new_game(game["id"], rules=p["name"], seed=1).players == players


def test_levels_match_the_bot_registry(served: dict[str, Any]) -> None:
    assert served["levels"] == [{"level": k, "name": b.name} for k, b in BOTS.items()]
