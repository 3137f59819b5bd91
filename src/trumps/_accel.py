"""Which modules are compiled with mypyc, and the pure-Python fallback switch.

``pip install -e .`` compiles the hot modules listed in ``COMPILED`` (the engine cores
and the search) with mypyc, unless ``TRUMPS_NO_MYPYC=1`` at install time.  Python
imports a compiled extension in preference to the ``.py`` beside it, so setting
``TRUMPS_PURE=1`` in the environment before ``trumps`` is first imported puts a finder
in front that loads these modules from their source instead: the same code,
interpreted.  The test suite runs the engine both ways.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from types import ModuleType

COMPILED = (
    "trumps.games.kozyri._core",
    "trumps.games.twentyfive._core",
    "trumps.ai._ismcts_sample",
    "trumps.ai._ismcts_policy",
    "trumps.ai._ismcts_env",
    "trumps.ai._ismcts",
    "trumps.ai._kozyri_search",
)


class _SourceFinder(MetaPathFinder):
    """Finds the modules of ``COMPILED`` as plain source files."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.exists(source):
                loader = importlib.machinery.SourceFileLoader(fullname, source)
                return importlib.util.spec_from_file_location(fullname, source, loader=loader)
        return None


def install_pure_fallback() -> None:
    """Load the cores from source when ``TRUMPS_PURE`` is set (to anything but ``0``)."""
    wanted = os.environ.get("TRUMPS_PURE", "0") not in ("", "0")
    if wanted and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())


def compiled_modules() -> dict[str, bool]:
    """For each core module, whether the loaded one is a compiled extension."""
    out: dict[str, bool] = {}
    for name in COMPILED:
        module = sys.modules.get(name) or importlib.import_module(name)
        out[name] = not (module.__file__ or "").endswith(".py")
    return out
