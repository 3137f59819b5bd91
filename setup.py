"""Build hook: compile the hot modules with mypyc (see trumps/_accel.py), or fall back.

The compiled build needs a working C compiler and the Python headers (on Debian or Ubuntu:
``apt install gcc python3-dev``).  When either is missing, or mypyc or the compiler fails,
the install goes on with the pure-Python modules — the same code, interpreted, slower —
and says why in one line (``pip install -v`` shows it).  ``TRUMPS_NO_MYPYC=1`` at install
time skips compiling on purpose.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from typing import Any

CORES = [
    "src/trumps/games/kozyri/_core.py",
    "src/trumps/games/twentyfive/_core.py",
    "src/trumps/ai/_ismcts_sample.py",
    "src/trumps/ai/_ismcts_policy.py",
    "src/trumps/ai/_ismcts_env.py",
    "src/trumps/ai/_ismcts.py",
    "src/trumps/ai/_kozyri_search.py",
]


def compiler_problem(environ: dict[str, str] | None = None) -> str | None:
    """Why C extensions cannot be built here (no compiler, no headers), or None."""
    env = os.environ if environ is None else environ
    if env.get("TRUMPS_NO_MYPYC", "0") not in ("", "0"):
        return "TRUMPS_NO_MYPYC is set"
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        return f"the Python headers are missing (no Python.h in {include})"
    cc = env.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler ({cc!r} not found)"
    return None


def fallback_line(reason: str) -> str:
    return (
        f"trumps: installing the pure-Python engine: {reason}. The compiled one needs a C "
        "compiler and the Python headers (e.g. apt install gcc python3-dev)."
    )


def say_fallback(reason: str) -> None:
    print(fallback_line(reason), file=sys.stderr, flush=True)


# pip runs this file several times (requirements, metadata, the build): say it once, when
# building.
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


def extensions(argv: list[str] | None = None) -> list[Any]:
    """The mypyc extensions to build, or [] (after saying why) when they cannot be."""
    problem = compiler_problem()
    if problem is not None:
        building = BUILD_COMMANDS & set(sys.argv[1:] if argv is None else argv)
        if problem != "TRUMPS_NO_MYPYC is set" and building:
            say_fallback(problem)
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify([p for p in CORES if os.path.exists(p)], opt_level="3"))
    except (Exception, SystemExit) as e:  # mypyc reports its own errors with SystemExit
        say_fallback(f"mypyc failed ({type(e).__name__}: {e})")
        return []


def build_ext_class() -> type:
    from setuptools.command.build_ext import build_ext

    class OptionalBuildExt(build_ext):
        """``build_ext`` that falls back to pure Python when compiling fails."""

        def run(self) -> None:
            try:
                super().run()
            except Exception as e:  # CompileError, LinkError, a missing tool …
                say_fallback(f"compiling failed ({type(e).__name__}: {e})")
                # A half-built set of extensions would shadow the sources: remove it.
                for path in self.get_outputs():
                    if os.path.exists(path):
                        os.remove(path)
                self.extensions = []

    return OptionalBuildExt


if __name__ == "__main__":
    from setuptools import setup

    setup(ext_modules=extensions(), cmdclass={"build_ext": build_ext_class()})
