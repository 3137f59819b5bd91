"""The policy ``examples/imitate_medium.py`` trained, as a bot ``trumps arena`` can seat:

    trumps arena --game twentyfive --players 4 --games 400 --seed 1 \\
        --bots examples/linear_bot.py:LinearBot,medium --reference random

Like every bot it decides from the seat's view and the legal actions alone.  The weights
are read from ``TRUMPS_LINEAR_POLICY`` or ``examples/linear_policy.npz``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import ClassVar

import numpy as np

from trumps.ai import Bot, Decision, Limits
from trumps.envs.observation import encode
from trumps.games import game_class
from trumps.games.viewtypes import View

WEIGHTS = Path(__file__).resolve().parent / "linear_policy.npz"


class LinearBot(Bot):
    """The legal action the linear policy scores highest."""

    name: ClassVar[str] = "Linear"
    level: ClassVar[str] = "linear"

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        with np.load(os.environ.get("TRUMPS_LINEAR_POLICY", WEIGHTS)) as data:
            trained = str(data["game"])
            self.w, self.b = data["w"], data["b"]
        if trained != game_id:
            raise ValueError(f"the policy was trained for {trained}, not {game_id}")
        self.space = game_class(game_id).ACTIONS

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        scores = np.asarray(encode(view), dtype=np.float32) @ self.w + self.b
        best = max(legal, key=lambda a: float(scores[self.space.to_id(a)]))
        return Decision(best, "the linear policy's highest-scoring legal action")
