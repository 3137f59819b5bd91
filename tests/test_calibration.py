"""Bots' calibrated ratings on file (docs/ratings.md): the loader refuses every malformed
file with one line, the writer's text reads back, a merge keeps the other families, and the
shipped file covers every family and level."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from trumps.ai import BOTS
from trumps.ratings import (
    CALIBRATION_VERSION,
    FAMILIES,
    MIN_DEVIATION,
    Rating,
    calibration_json,
    load_calibration,
    merge_calibration,
    shipped_calibration,
)


def _doc(**levels: Any) -> dict[str, Any]:
    """A valid calibration document of the duel with ``levels`` (default: two)."""
    return {
        "version": 1,
        "families": {
            "kozyri-duel": {
                "measured": "by hand",
                "levels": levels
                or {
                    "random": {"rating": 900.0, "deviation": 50.0, "games": 40},
                    "easy": {"rating": 1300.5, "deviation": 60.0},
                },
            }
        },
    }


def test_a_valid_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    path.write_text(json.dumps(_doc()), encoding="utf-8")
    for source in (path, json.dumps(_doc())):
        got = load_calibration(source)
        assert got == {
            "kozyri-duel": {
                "random": Rating(900.0, 50.0, games=40),
                "easy": Rating(1300.5, 60.0, games=0),
            }
        }
    assert load_calibration(path, levels=BOTS)["kozyri-duel"]["easy"].value == 1300.5
    assert load_calibration('{"version": 1, "families": {}}') == {}


def _with(path: list[str], value: Any) -> str:
    """The valid document's text with the value at ``path`` replaced (or removed when
    ``value`` is ``_GONE``)."""
    doc: Any = _doc()
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is _GONE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return json.dumps(doc)


_GONE = object()
_DUEL = ["families", "kozyri-duel"]
_RANDOM = [*_DUEL, "levels", "random"]

BAD: list[tuple[str, str]] = [
    ("{", "not JSON"),
    ("[]", "the file must be an object"),
    ('"text"', "the file must be an object"),
    (_with(["version"], _GONE), "lacks 'version'"),
    (_with(["families"], _GONE), "lacks 'families'"),
    (_with(["extra"], 1), "unknown key 'extra'"),
    (_with(["version"], 2), "version 2 is not 1"),
    (_with(["version"], "1"), 'version "1" is not 1'),
    (_with(["version"], True), "version true is not 1"),
    (_with(["families"], []), "'families' must be an object"),
    (_with(["families", "chess"], {"levels": {}}), "no rating family 'chess'"),
    (_with(_DUEL, 3), "kozyri-duel must be an object"),
    (_with([*_DUEL, "levels"], _GONE), "kozyri-duel lacks 'levels'"),
    (_with([*_DUEL, "note"], "x"), "kozyri-duel has unknown key 'note'"),
    (_with([*_DUEL, "measured"], 5), "kozyri-duel.measured must be text"),
    (_with([*_DUEL, "levels"], {}), "at least one level"),
    (_with([*_DUEL, "levels"], ["random"]), "at least one level"),
    (
        _with([*_DUEL, "levels", "Hard"], {"rating": 1, "deviation": 50}),
        "'Hard' is not a level name",
    ),
    (_with([*_DUEL, "levels", ""], {"rating": 1, "deviation": 50}), "'' is not a level name"),
    (_with([*_DUEL, "levels", "a b"], {"rating": 1, "deviation": 50}), "not a level name"),
    (_with([*_DUEL, "levels", "x" * 33], {"rating": 1, "deviation": 50}), "not a level name"),
    (_with(_RANDOM, 900), "kozyri-duel.levels.random must be an object"),
    (_with([*_RANDOM, "deviation"], _GONE), "kozyri-duel.levels.random lacks 'deviation'"),
    (_with([*_RANDOM, "rating"], _GONE), "kozyri-duel.levels.random lacks 'rating'"),
    (_with([*_RANDOM, "volatility"], 0.06), "unknown key 'volatility'"),
    (_with([*_RANDOM, "rating"], "900"), "rating must be a number from 0 to 5000"),
    (_with([*_RANDOM, "rating"], True), "rating must be a number"),
    (_with([*_RANDOM, "rating"], None), "rating must be a number"),
    (_with([*_RANDOM, "rating"], -1), "rating must be a number from 0 to 5000, not -1"),
    (_with([*_RANDOM, "rating"], 5000.5), "rating must be a number"),
    (_with([*_RANDOM, "rating"], float("nan")), "rating must be a number"),
    (_with([*_RANDOM, "rating"], float("inf")), "rating must be a number"),
    (_with([*_RANDOM, "deviation"], 10), "deviation must be a number from 45 to 350, not 10"),
    (_with([*_RANDOM, "deviation"], 351), "deviation must be a number from 45 to 350"),
    (_with([*_RANDOM, "games"], -1), "games must be a whole number ≥ 0, not -1"),
    (_with([*_RANDOM, "games"], 2.5), "games must be a whole number"),
    (_with([*_RANDOM, "games"], False), "games must be a whole number"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m for _, m in BAD])
def test_every_malformed_calibration_is_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=r"^calibration: ") as info:
        load_calibration(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_unknown_levels_are_refused_when_the_levels_are_given() -> None:
    text = json.dumps(_doc(wizard={"rating": 2000, "deviation": 50}))
    assert load_calibration(text)["kozyri-duel"]["wizard"].value == 2000
    with pytest.raises(ValueError, match=r"no bot level 'wizard' \(levels: random, easy"):
        load_calibration(text, levels=BOTS)


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^cannot read calibration .*missing\.json: No such file"):
        load_calibration(tmp_path / "missing.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00{")
    with pytest.raises(ValueError, match=r"bin\.json: not UTF-8 text$"):
        load_calibration(binary)
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1,\n "families": }', encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json: not JSON \(.*line 2\)$"):
        load_calibration(broken)
    with pytest.raises(ValueError, match="cannot read"):
        load_calibration(tmp_path)  # a folder


def test_the_writer_reads_back() -> None:
    calibration = {
        "twentyfive": {"easy": Rating(1412.345, 51.26, games=100), "random": Rating(1222.0, 45.0)},
        "kozyri-duel": {"hard": Rating(1811.04, 47.0, games=30)},
    }
    text = calibration_json(calibration, {"kozyri-duel": "trumps arena … --calibrate FILE"})
    doc = json.loads(text)
    assert doc["version"] == CALIBRATION_VERSION
    assert list(doc["families"]) == ["kozyri-duel", "twentyfive"]  # the families' order
    assert doc["families"]["kozyri-duel"]["measured"] == "trumps arena … --calibrate FILE"
    assert "measured" not in doc["families"]["twentyfive"]
    back = load_calibration(text)
    assert back == {
        "kozyri-duel": {"hard": Rating(1811.0, 47.0, games=30)},
        "twentyfive": {"easy": Rating(1412.3, 51.3, games=100), "random": Rating(1222.0, 45.0)},
    }
    assert calibration_json(back, {"kozyri-duel": "trumps arena … --calibrate FILE"}) == text


@pytest.mark.parametrize(
    ("calibration", "message"),
    [
        ({"chess": {"easy": Rating()}}, "no rating family 'chess'"),
        ({"twentyfive": {}}, "at least one level"),
        ({"twentyfive": {"Easy": Rating()}}, "not a level name"),
        ({"twentyfive": {"easy": Rating(1500.0, MIN_DEVIATION - 1)}}, "deviation must be"),
    ],
)
def test_the_writer_refuses_what_the_loader_would(
    calibration: dict[str, dict[str, Rating]], message: str
) -> None:
    with pytest.raises(ValueError, match=f"^cannot write this calibration: .*{message}"):
        calibration_json(calibration)


def test_a_merge_replaces_one_family_and_keeps_the_others() -> None:
    first = merge_calibration(
        None, "kozyri-duel", {"random": Rating(800.0, 50.0), "easy": Rating(1200.0, 50.0)}, "one"
    )
    second = merge_calibration(first, "twentyfive", {"easy": Rating(1450.0, 60.0)}, "two")
    third = merge_calibration(second, "kozyri-duel", {"hard": Rating(1900.0, 55.0)}, "three")
    got = load_calibration(third)
    assert got == {
        "kozyri-duel": {"hard": Rating(1900.0, 55.0)},  # the family replaced whole
        "twentyfive": {"easy": Rating(1450.0, 60.0)},
    }
    notes = {f: e.get("measured") for f, e in json.loads(third)["families"].items()}
    assert notes == {"kozyri-duel": "three", "twentyfive": "two"}
    with pytest.raises(ValueError, match=r"^calibration: not JSON"):
        merge_calibration("{oops", "twentyfive", {"easy": Rating()}, "x")


def test_the_shipped_calibration_rates_every_level_in_every_family() -> None:
    shipped = shipped_calibration(levels=BOTS)
    assert set(shipped) == set(FAMILIES)
    for family, levels in shipped.items():
        assert set(levels) == set(BOTS), family
        assert min(levels, key=lambda lv: levels[lv].value) == "random", family
        assert all(r.games > 0 for r in levels.values()), family
        mean = sum(r.value for r in levels.values()) / len(levels)
        assert mean == pytest.approx(1500.0, abs=0.5), family
