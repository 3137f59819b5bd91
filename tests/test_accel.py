"""The mypyc-compiled engine cores and their pure-Python fallback (TRUMPS_PURE=1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from trumps._accel import compiled_modules

ROOT = Path(__file__).resolve().parent.parent


def _run(code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return out.stdout


def test_ci_tests_the_compiled_build() -> None:
    """CI sets TRUMPS_EXPECT_COMPILED: there every core must be a compiled extension."""
    if os.environ.get("TRUMPS_EXPECT_COMPILED") == "1":
        assert all(compiled_modules().values()), compiled_modules()


def test_pure_switch_loads_the_sources() -> None:
    flags = json.loads(
        _run(
            "import json, trumps\nfrom trumps._accel import compiled_modules\n"
            "print(json.dumps(compiled_modules()))",
            TRUMPS_PURE="1",
        )
    )
    assert flags and not any(flags.values())


_PLAY = """
import json, random, trumps
out = []
for game, players in (("kozyri", 2), ("kozyri", 3), ("twentyfive", 4), ("twentyfive", 6)):
    g = trumps.new_game(game, players=players, seed=11)
    rng = random.Random(5)
    while not g.is_over and len(g.history) < 3000:
        g.play(rng.choice(g.legal_actions()))
    out.append(g.to_json())
    # The integer API too (the Svoi Kozyri core numbers its own legal ids).
    g = trumps.new_game(game, players=players, seed=12)
    while not g.is_over and len(g.history) < 300:
        ids = g.legal_action_ids()
        out.append(ids)
        g.play_id(rng.choice(ids))
    out.append(g.to_json())
print(json.dumps(out, sort_keys=True))
"""


def test_pure_and_default_builds_play_identically() -> None:
    assert _run(_PLAY, TRUMPS_PURE="1") == _run(_PLAY, TRUMPS_PURE="0")
