"""One decision judged from the player's own view by the ``expert`` search (issue 13 §3).

For Twenty-Five and Svoi Kozyri with 3–4 players the hands are hidden, so judging a move
with the real deal would blame a player for cards they could not see.  Instead the
position is rebuilt from the seat's view (``Game.view(seat)``: never a hidden card), and
``expert``'s search (flat Monte Carlo over determinizations, ``trumps.ai.ismcts``, with its
own rollouts and reward) scores every legal action on the same sampled deals.  Each score
is the mean reward over the deals: the searching seat's estimated chance to win the game
(Twenty-Five) or not to lose the hand (Svoi Kozyri).

Because every action is scored on the same deals, the difference between the best action
and the one played is a paired estimate with a standard error.  A move is marked only when
its loss is at least ``INACCURACY`` points *and* ``Z`` standard errors: a gap inside the
sampling noise is no result.  With a fixed number of deals and a seed the result is the
same on every machine.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from trumps.ai._ismcts import PIMC
from trumps.ai.base import Explain
from trumps.ai.ismcts import ISMCTSExpertBot
from trumps.cards import action_str, parse_action
from trumps.games.viewtypes import View

__all__ = ["BLUNDER", "DEFAULT_DEALS", "INACCURACY", "MISTAKE", "ViewJudgement", "Z", "judge_view"]

DEFAULT_DEALS = 300
"""Determinizations per decision when none is given (each scores every legal action)."""

BLUNDER = 20.0
MISTAKE = 10.0
INACCURACY = 5.0
"""The marks' thresholds, in points of the estimated chance (0–100)."""

Z = 2.5
"""A loss must also be this many standard errors of the paired difference."""


@dataclass(frozen=True)
class ViewJudgement:
    """The search's verdict on one decision: ``best`` and its score ``before``, the played
    action's score ``after`` (both 0–1, for the seat that moved), the points ``lost``
    (0–100), the paired standard error of that loss (points) and the ``mark``."""

    best: str
    before: float
    after: float
    lost: float
    error: float
    mark: str | None
    deals: int

    @property
    def explain(self) -> Explain:
        """The hint's structured reason for ``best`` (``sampled``, docs/protocol.md#hint)."""
        return Explain("sampled", {"percent": round(self.before * 100), "deals": self.deals})


def _mark(lost: float, error: float) -> str | None:
    if lost < INACCURACY or lost < Z * error:
        return None
    if lost >= BLUNDER:
        return "blunder"
    return "mistake" if lost >= MISTAKE else "inaccuracy"


def judge_view(
    view: View, legal: list[str], played: str, deals: int, rng: random.Random
) -> ViewJudgement:
    """Score ``legal`` (two or more, ``played`` among them) from the seat's ``view`` over
    ``deals`` determinizations and judge ``played`` against the best."""
    if len(legal) < 2 or played not in legal:
        raise ValueError(
            "a judged decision has two or more legal actions, the played one among them"
        )
    codes = [parse_action(a) for a in legal]
    search = PIMC(ISMCTSExpertBot(str(view["game"])).search_env(view), codes)
    # Each determinization scores every action once: keep each deal's scores to pair them.
    rows: list[list[float]] = []
    last = [0.0] * len(codes)
    for _ in range(max(deals, 2)):
        search.iterate(rng)
        totals = search.totals
        rows.append([totals[i] - last[i] for i in range(len(codes))])
        last = list(totals)
    n = len(rows)
    means = [sum(r[i] for r in rows) / n for i in range(len(codes))]
    b = max(range(len(codes)), key=lambda i: (means[i], -codes[i]))
    p = codes.index(parse_action(played))
    diffs = [r[b] - r[p] for r in rows]
    mean_diff = sum(diffs) / n
    var = sum((d - mean_diff) ** 2 for d in diffs) / (n - 1)
    lost = 100.0 * (means[b] - means[p])
    error = 100.0 * math.sqrt(var / n)
    return ViewJudgement(
        best=action_str(codes[b]),
        before=means[b],
        after=means[p],
        lost=lost,
        error=error,
        mark=_mark(lost, error) if b != p else None,
        deals=n,
    )
