"""Packaging: the install extras, the message when a command's extra is missing, and the
fallback to the pure-Python engine when nothing can be compiled (setup.py)."""

from __future__ import annotations

import importlib.metadata
import os
import re
import runpy
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
EXTRAS: dict[str, list[str]] = PROJECT["optional-dependencies"]


def _name(requirement: str) -> str:
    """The normalized distribution name of a requirement string."""
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group()).lower()


def _closure(names: set[str]) -> set[str]:
    """The installed distributions ``names`` need, themselves included (extras' own
    optional requirements left out)."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        todo += [_name(r) for r in requires if "extra ==" not in r]
    return seen


def _run(code: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        input=stdin,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


# -- extras --------------------------------------------------------------------------


def test_the_engine_installs_with_few_dependencies() -> None:
    base = {_name(r) for r in PROJECT["dependencies"]}
    assert base == {"click", "rich", "openskill"}
    server = {_name(r) for r in EXTRAS["server"]}
    assert {"uvicorn", "sqlalchemy", "asyncpg", "starlette", "redis"} <= server
    assert {_name(r) for r in EXTRAS["tui"]} >= {"textual"}
    assert {_name(r) for r in EXTRAS["plot"]} == {"matplotlib"}


def test_the_test_extra_pulls_every_extra_the_suite_needs() -> None:
    # The README's test command is `pip install -e '.[test,distributed]'`.
    assert "trumps[server,tui,plot,envs,openspiel,offline]" in EXTRAS["test"]
    assert {_name(r) for r in EXTRAS["offline"]} == {"babel", "resvg-py"}
    assert {_name(r) for r in EXTRAS["envs"]} == {"pettingzoo", "gymnasium", "numpy"}
    assert {_name(r) for r in EXTRAS["openspiel"]} == {"open-spiel", "numpy"}


# Without any extra: every package of an extra that the base does not also need is
# blocked, then the commands of the base must still run.
_BLOCKED_RUN = """
import importlib.abc, sys
blocked = set(sys.argv[1].split(","))

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in blocked or name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Block())
from trumps.cli import main
main(sys.argv[2:])
"""


def _extra_only_modules() -> list[str]:
    """Top-level modules that only the extras (not the base dependencies) provide."""
    base = _closure({_name(r) for r in PROJECT["dependencies"]})
    extras = (
        _closure(
            {
                _name(r)
                for e in ("server", "tui", "plot", "envs", "openspiel", "offline")
                for r in EXTRAS[e]
            }
        )
        - base
    )
    modules = {
        module
        for module, dists in importlib.metadata.packages_distributions().items()
        if {_name(d) for d in dists} <= extras and not module.startswith("_")
    }
    assert {"uvicorn", "textual", "matplotlib", "sqlalchemy", "msgspec"} <= modules
    return sorted(modules)


@pytest.mark.parametrize(
    ("args", "stdin", "expected"),
    [
        (["rules"], "", "Svoi Kozyri (kozyri)"),
        (["play", "kozyri", "--seed", "1"], "quit\n", "Bye."),
        (["solve", "--help"], "", "Usage"),
        (
            ["arena", "--game", "kozyri", "--bots", "random,random", "--games", "2", "--seed", "1"],
            "",
            "random",
        ),
    ],
)
def test_the_base_commands_need_no_extra(args: list[str], stdin: str, expected: str) -> None:
    result = _run(_BLOCKED_RUN, ",".join(_extra_only_modules()), *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout


@pytest.mark.parametrize(
    ("module", "args", "extra"),
    [
        ("uvicorn", ["serve"], "server"),
        ("sqlalchemy", ["serve"], "server"),
        ("textual", ["connect", "http://127.0.0.1:9"], "tui"),
        ("websockets", ["connect", "http://127.0.0.1:9"], "tui"),
        ("babel", ["site", "never-written"], "offline"),
        (
            "matplotlib",
            ["arena", "--game", "kozyri", "--bots", "random,random", "--games", "2",
             "--seed", "1", "--plot", "never.png"],
            "plot",
        ),
    ],
)  # fmt: skip
def test_a_missing_extra_is_one_line(module: str, args: list[str], extra: str) -> None:
    result = _run(_BLOCKED_RUN, module, *args)
    assert result.returncode == 1
    assert result.stdout == ""  # arena --plot fails before playing any game
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"needs the '{extra}' extra" in lines[0]
    assert f"pip install 'trumps[{extra}]'" in lines[0]
    assert not (ROOT / "never.png").exists()
    assert not (ROOT / "never-written").exists()


def test_a_missing_trumps_module_is_not_blamed_on_an_extra() -> None:
    result = _run(_BLOCKED_RUN, "trumps.server", "serve")
    assert result.returncode == 1
    assert "Traceback" in result.stderr and "extra" not in result.stderr


# -- setup.py: the pure-Python fallback --------------------------------------------------


@pytest.fixture
def setup_py() -> dict[str, Any]:
    """setup.py's functions, without running setup()."""
    return runpy.run_path(str(ROOT / "setup.py"), run_name="setup_under_test")


def test_no_compiler_means_pure_python(setup_py: dict[str, Any]) -> None:
    problem = setup_py["compiler_problem"]({"CC": "/nonexistent/cc"})
    assert problem == "no C compiler ('/nonexistent/cc' not found)"
    assert setup_py["compiler_problem"]({"TRUMPS_NO_MYPYC": "1"}) == "TRUMPS_NO_MYPYC is set"


def test_without_a_compiler_no_extension_is_built(
    setup_py: dict[str, Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.delenv("TRUMPS_NO_MYPYC", raising=False)
    assert setup_py["extensions"](["egg_info"]) == []  # decided before mypyc runs: no wait
    assert capsys.readouterr().err == ""  # pip's metadata steps say nothing ...
    assert setup_py["extensions"](["bdist_wheel", "--dist-dir", "x"]) == []
    err = capsys.readouterr().err.strip().splitlines()  # ... the build says it once
    assert err == [
        "trumps: installing the pure-Python engine: no C compiler ('/nonexistent/cc' not "
        "found). The compiled one needs a C compiler and the Python headers (e.g. apt "
        "install gcc python3-dev)."
    ]


def test_a_working_compiler_is_used(setup_py: dict[str, Any]) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TRUMPS_NO_MYPYC"}
    if setup_py["compiler_problem"](env) is not None:
        pytest.skip(f"cannot compile here: {setup_py['compiler_problem'](env)}")
    assert setup_py["compiler_problem"](env) is None


def test_a_failed_compile_falls_back(
    setup_py: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    setuptools = pytest.importorskip("setuptools")
    if setup_py["compiler_problem"]({}) is not None:
        pytest.skip("no C compiler or headers here")
    source = tmp_path / "broken.c"
    source.write_text("this is not C;\n")
    monkeypatch.chdir(tmp_path)
    dist = setuptools.Distribution(
        {
            "name": "broken",
            "ext_modules": [setuptools.Extension("broken", [source.name])],
            "cmdclass": {"build_ext": setup_py["build_ext_class"]()},
        }
    )
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(tmp_path / "lib")
    cmd.build_temp = str(tmp_path / "temp")
    cmd.ensure_finalized()
    cmd.run()  # does not raise
    assert not list(tmp_path.rglob("broken*.so"))
    assert cmd.extensions == []
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("trumps:")]
    assert len(lines) == 1 and "compiling failed" in lines[0]
