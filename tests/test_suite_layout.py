"""The suite's own layout (docs/architecture.md#tests): shared fixtures live in conftest.py
files and shared helpers in kit modules, so that no test module imports another (importing
one runs its module-level code and, under xdist, collects nothing twice by accident)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


def test_no_test_module_imports_another() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for module in _imported(tree):
            if module.rsplit(".", 1)[-1].startswith("test_"):
                found.append(f"{path.relative_to(TESTS)} imports {module}")
    assert found == []


def test_the_check_sees_an_import_of_a_test_module() -> None:
    tree = ast.parse("from server.test_hub import run\nimport web.test_browser as b\n")
    assert _imported(tree) == ["server.test_hub", "web.test_browser"]
