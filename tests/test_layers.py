"""Architecture: each layer imports only the layers before it; the engine is pure.

cards/errors → games → ai → records/store/host → server → web/tui → cli (STYLE habit 1).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import trumps

SRC = Path(trumps.__file__).parent

LAYERS = [
    "cards", "errors", "games", "ai", "envs", "records", "arena", "store", "host", "server", "web", "tui",
    "commands", "cli",
]  # fmt: skip
# What each layer may import from trumps (besides itself).
ALLOWED = {
    "cards": {"errors"},
    "errors": set(),
    "games": {"cards", "errors"},
    "ai": {"cards", "errors", "games"},
    # Research interfaces (PettingZoo, OpenSpiel): the games, and the bots to play against.
    "envs": {"cards", "errors", "games", "ai"},
    "records": {"cards", "errors", "games"},
    "arena": {"cards", "errors", "games", "ai", "records"},
    "store": {"cards", "errors", "games", "records"},
    # A table host's parts without I/O, and the page's own host of games against bots.
    "host": {"cards", "errors", "games", "ai", "records"},
    "server": {"cards", "errors", "games", "ai", "records", "store", "host"},
    # The page and its translations; the games' rules in brief are msgids of its catalogs.
    "web": {"cards", "errors", "games"},
    # The terminal client speaks the wire protocol: it imports trumps.server.wire.protocol and
    # trumps.server.wire.wiretypes.
    "tui": {"cards", "errors", "games", "ai", "records", "server"},
    # (``commands/serve.py`` starts the server with its page: server and web, before it)
    "commands": {"cards", "errors", "games", "ai", "records", "arena", "host", "server", "web"},
    "cli": set(LAYERS) | {"_accel"},
}
# The engine may use only these standard-library modules: no I/O, clocks, logging, asyncio.
ENGINE_STDLIB = {
    "__future__",
    "builtins",
    "abc",
    "collections",
    "dataclasses",
    "typing",
    "random",
    "itertools",
    "functools",
    "enum",
    "math",
    "secrets",
}


# Modules that belong to a layer named otherwise: the fair-deal scheme is part of records.
PART_OF = {"fairdeal": "records", "ratings": "records"}


def _layer(path: Path) -> str | None:
    parts = path.relative_to(SRC).with_suffix("").parts
    top = PART_OF.get(parts[0], parts[0])
    return top if top in ALLOWED else None


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_layers_import_only_earlier_layers() -> None:
    bad = []
    for path in SRC.rglob("*.py"):
        layer = _layer(path)
        if layer is None:
            continue
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "trumps" and len(parts) > 1:
                target = PART_OF.get(parts[1], parts[1])
                if target != layer and target not in ALLOWED[layer]:
                    bad.append(f"{path.relative_to(SRC)} imports {name}")
    assert bad == []


def test_engine_is_pure() -> None:
    bad = []
    for path in [SRC / "cards.py", SRC / "errors.py", *(SRC / "games").rglob("*.py")]:
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "trumps":
                continue
            if top not in ENGINE_STDLIB:
                bad.append(f"{path.relative_to(SRC)} imports {name}")
    assert bad == []


def test_stdlib_list_is_really_stdlib() -> None:
    assert ENGINE_STDLIB <= set(sys.stdlib_module_names) | {"__future__"}
