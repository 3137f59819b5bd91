"""Every rule fact has one home: its game package (``src/trumps/games/<game>/``).

Outside ``trumps.games`` nothing may reach into a game's private engine core (it asks
``trumps.games.<game>.rules``, the views and ``Game`` instead), except the compiled
search modules, which work on cores by design; and nothing may define a function named
like a rule fact (a second copy of beats, pick-up counts, card orders, following …),
except the few listed below that only read what a view already says.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import trumps

SRC = Path(trumps.__file__).parent

# The search modules that run on engine cores (compiled with mypyc): they may import a
# game's ``_core``.  Paths relative to src/trumps; globs for the split search modules.
CORE_USERS = (
    "ai/_ismcts.py",
    "ai/_ismcts_*.py",
    "ai/_kozyri_search.py",
    "ai/determinize.py",
    # The duel search's front end: loads a position into the KozyriCore it searches.
    "ai/kozyri_search.py",
    # The arena's oracle: loads the true deal into the core its search runs on.
    "ai/oracle.py",
)
# The names of rule facts (after leading underscores; also as a prefix or suffix word).
RULE_NAMES = (
    "beats",
    "beaters",
    "take_count",
    "pickup_count",
    "trump_order",
    "plain_order",
    "follow_mask",
    "play_mask",
    "top_cards",
    "is_trump",
    "may_renege",
    "privileged",
    "trick_winner",
)
# Functions with such a name that read the answer from a view (path, name): reason.
VIEW_READERS = {
    ("tui/board.py", "take_count"): "returns the view's take_count (the game's K12 answer)",
    ("tui/play.py", "_trick_winner"): "reads the winner game.closed() records for the trick",
}
_RULE_NAME = re.compile(
    r"^(?:\w+_)?(?:" + "|".join(RULE_NAMES) + r")(?:_\w+)?$",
)


def _outside_games() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p.relative_to(SRC).parts[0] != "games")


def _core_imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[-1] == "_core"]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[-1] == "_core":
                found.append(node.module)
            found += [f"{node.module}.{a.name}" for a in node.names if a.name == "_core"]
    return [name for name in found if name.startswith("trumps.games.")]


def _is_core_user(rel: str) -> bool:
    return any(Path(rel).match(pattern) for pattern in CORE_USERS)


def test_only_the_search_modules_import_a_games_core() -> None:
    offenders = []
    for path in _outside_games():
        rel = path.relative_to(SRC).as_posix()
        imports = _core_imports(ast.parse(path.read_text(encoding="utf-8")))
        if imports and not _is_core_user(rel) and rel != "_accel.py":
            offenders.append(f"{rel}: {', '.join(imports)}")
    assert not offenders, "ask trumps.games.<game>.rules instead:\n" + "\n".join(offenders)


def test_no_function_outside_games_is_named_like_a_rule_fact() -> None:
    offenders = []
    for path in _outside_games():
        rel = path.relative_to(SRC).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            name = node.name.lstrip("_")
            if _RULE_NAME.match(name) and (rel, node.name) not in VIEW_READERS:
                offenders.append(f"{rel}:{node.lineno} {node.name}")
    assert not offenders, "a rule fact restated outside its game:\n" + "\n".join(offenders)


def test_the_checks_catch_what_they_look_for() -> None:
    # The detectors themselves: a restated rule and a core import are found.
    tree = ast.parse(
        "from trumps.games.kozyri._core import beats\nimport trumps.games.twentyfive._core\n"
    )
    assert _core_imports(tree) == ["trumps.games.kozyri._core", "trumps.games.twentyfive._core"]
    assert _core_imports(ast.parse("from trumps.games.kozyri import _core")) == [
        "trumps.games.kozyri._core"
    ]
    for name in ("kozyri_beats", "kozyri_pickup_count", "trump_order", "is_trump_25", "beats"):
        assert _RULE_NAME.match(name), name
    for name in ("beater_value", "p_can_beat", "follow", "score", "decide"):
        assert not _RULE_NAME.match(name), name
    assert _is_core_user("ai/_ismcts_env.py") and not _is_core_user("ai/simple.py")
    # The listed view readers still exist (a stale exception would hide nothing).
    for rel, name in VIEW_READERS:
        tree = ast.parse((SRC / rel).read_text(encoding="utf-8"))
        assert any(isinstance(n, ast.FunctionDef) and n.name == name for n in ast.walk(tree))
