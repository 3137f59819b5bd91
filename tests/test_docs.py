"""The README and docs/ document the repository's own contracts and stay true: they link
only inside the repository, every relative link resolves, their examples run, and
docs/architecture.md names every module."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

import trumps
from trumps.records import replay

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
IDS = [str(p.relative_to(ROOT)) for p in PAGES]

# Files outside the repository that an earlier version cited; a reader does not have them.
OUTSIDE = [
    (re.compile(r"\.\./shared\b"), "a link outside the repository (../shared)"),
    (re.compile(r"\bSPEC\b"), "a citation of SPEC (cite docs/api.md, positions.md … instead)"),
    (re.compile(r"RULES\.md"), "a citation of RULES.md (cite docs/rules/ instead)"),
]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.M | re.S)


def _anchors(text: str) -> set[str]:
    """GitHub's anchors of a page's headings."""
    out = set()
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_pages_cite_only_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    found = [
        f"line {text.count(chr(10), 0, m.start()) + 1}: {what}: {m.group()!r}"
        for pattern, what in OUTSIDE
        for m in pattern.finditer(text)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_relative_links_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    bad = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        linked = (page.parent / path_part).resolve() if path_part else page
        if not linked.is_relative_to(ROOT):
            bad.append(f"{target}: outside the repository")
        elif not linked.exists():
            bad.append(f"{target}: no such file")
        elif (
            anchor
            and linked.suffix == ".md"
            and anchor not in _anchors(linked.read_text(encoding="utf-8"))
        ):
            bad.append(f"{target}: no heading #{anchor} in {linked.name}")
    assert not bad, "\n".join(bad)


def test_readme_keeps_its_two_opening_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.index("pip install -e '.[server]' && trumps serve --open") < text.index(
        "pip install -e . && trumps play kozyri"
    )
    assert "pip install -e '.[test,distributed]' && pytest -n 2" in text


EXAMPLE_PAGES = [p for p in PAGES if "```pycon" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=[p.name for p in EXAMPLE_PAGES])
def test_interactive_examples_show_true_output(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for k, block in enumerate(_blocks(text, "pycon")):
        test = parser.get_doctest(block, {"trumps": trumps}, f"{page.name}[{k}]", str(page), 0)
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 0, runner.summarize(verbose=False)


def test_python_examples_run() -> None:
    ran = 0
    for page in PAGES:
        for block in _blocks(page.read_text(encoding="utf-8"), "python"):
            exec(compile(block, str(page), "exec"), {})
            ran += 1
    assert ran >= 2


def test_position_examples_load() -> None:
    blocks = _blocks((ROOT / "docs" / "positions.md").read_text(encoding="utf-8"), "json")
    assert {json.loads(b)["game"] for b in blocks} == {"kozyri", "twentyfive"}
    for block in blocks:
        position = json.loads(block)
        game = trumps.from_json(position)
        written = game.to_json()
        assert {k: written[k] for k in position} == position
        if set(position) == set(written):  # a complete position round-trips exactly
            assert written == position


def test_record_example_replays() -> None:
    (block,) = _blocks((ROOT / "docs" / "records.md").read_text(encoding="utf-8"), "json")
    game = replay(json.loads(block))
    assert game.history == json.loads(block)["actions"]


def test_rule_option_page_lists_every_option_and_preset() -> None:
    text = (ROOT / "docs" / "rules" / "options.md").read_text(encoding="utf-8")
    for cls in trumps.GAMES.values():
        for option in cls.OPTIONS.values():
            default = json.dumps(option.default)
            assert re.search(rf"^\| `{option.name}` \| `{re.escape(default)}` \|", text, re.M), (
                f"{cls.game_id} option {option.name} (default {default}) is not in options.md"
            )
        for preset in cls.PRESETS.values():
            mark = " (default)" if preset.name == cls.DEFAULT_PRESET else ""
            assert f"| `{preset.name}`{mark} |" in text, f"{cls.game_id} preset {preset.name}"


# -- docs/architecture.md names every module, and only modules that exist ------------------

SRC = ROOT / "src" / "trumps"


def _modules() -> list[str]:
    return sorted(
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if p.name != "__init__.py" and "migrations" not in p.parts
    )


def test_architecture_names_every_module() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [m for m in _modules() if f"`{m}`" not in text]
    assert not missing, f"add to the layer table of docs/architecture.md: {', '.join(missing)}"
    assert "`store/migrations/`" in text


def test_architecture_names_no_missing_module() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/]+\.py)`", text))
    gone = sorted(
        n for n in named if "/" in n and not (SRC / n).exists() and not (ROOT / n).exists()
    )
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"
