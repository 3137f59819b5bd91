"""A finished game's analysis made by the page's own engine (issue 28), one decision at a
time, so that the Web Worker running it stays free between decisions for a game under way.

The same analysis as the server's (``trumps.ai.analysis``: each decision judged, then the
game's summary), with a budget for the page, whose engine searches 14-19 times slower
than the server's compiled one: the duel solver keeps the server's time per position (it
sees less far in it), Twenty-Five samples fewer deals.
"""

from __future__ import annotations

import json
from typing import Final

from trumps.ai.analysis import Budget, MoveAnalysis, analysis_of, analyze_ply, judged_plies
from trumps.ai.kozyri_search import SolveResult
from trumps.host.archive import start_of

__all__ = ["PAGE_BUDGET", "GameAnalysis"]

#: The page's analysis budget (the server's: 1 s a duel position, 300 deals a decision).
PAGE_BUDGET: Final = Budget(time_limit=1.0, deals=60, seed=0)


class GameAnalysis:
    """The analysis of the record ``record_text`` (JSON), made by ``step`` calls."""

    def __init__(self, record_text: str, budget: Budget = PAGE_BUDGET) -> None:
        self.start, self.actions = start_of(json.loads(record_text))
        self.plies = judged_plies(self.start, self.actions)
        self.budget = budget
        self.moves: list[MoveAnalysis] = []
        self.solved: dict[int, SolveResult] = {}  # the duel solver's answers, kept between steps

    @property
    def total(self) -> int:
        return len(self.plies)

    @property
    def done(self) -> int:
        return len(self.moves)

    def step(self) -> bool:
        """Judge the next decision; whether all are judged now."""
        if self.done < self.total:
            ply = self.plies[self.done]
            self.moves.append(analyze_ply(self.start, self.actions, ply, self.budget, self.solved))
        return self.done >= self.total

    def result_text(self) -> str:
        """The analysis as JSON (docs/analysis.md), once every decision is judged."""
        if self.done < self.total:
            raise RuntimeError("the analysis is not finished")
        return json.dumps(analysis_of(self.start, self.moves, self.budget).to_json())
