"""Build hook: compile the hot engine cores with mypyc (see trumps/_accel.py).

Set TRUMPS_NO_MYPYC=1 at install time for a pure-Python install.
"""

import os

from setuptools import setup

CORES = [
    "src/trumps/games/kozyri/_core.py",
    "src/trumps/games/twentyfive/_core.py",
    "src/trumps/ai/_ismcts.py",
    "src/trumps/ai/_kozyri_search.py",
]

ext_modules: list = []
if os.environ.get("TRUMPS_NO_MYPYC", "0") in ("", "0"):
    from mypyc.build import mypycify

    ext_modules = mypycify([path for path in CORES if os.path.exists(path)], opt_level="3")

setup(ext_modules=ext_modules)
