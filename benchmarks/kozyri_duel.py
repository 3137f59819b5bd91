"""Svoi Kozyri duel head to head: ``expert`` against ``hard`` (issue 12: ≥ 70% of the
decided games), each at the same share of its own budget (``--budget-scale``).

``--handicap F`` has the second level think F times slower (its budget divided by F): the
same level against itself as the page's interpreted engine plays it (issue 28;
``benchmarks/offline.py`` measures how far each looks in the page and here).

Run: ``python benchmarks/kozyri_duel.py --games 100 --seed 1 --budget-scale 0.25``
(one process, one core).  Each seeded deal is played twice, the seats swapped; prints
the first level's wins, losses and draws, and its share of the decided games with a
95% Wilson interval.  ``trumps arena --game kozyri --bots expert,hard --games N --seed
S --jobs 1`` plays the same match at the full budgets.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import trumps
from trumps.ai.base import Limits
from trumps.ai.levels import LEVEL_BOTS, level_limits


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def play(levels: list[str], seed: int, scales: list[float]) -> int | None:
    """One game, ``levels[s]`` in seat s at ``scales[s]`` of its own time budget: the
    winning seat, or None for a draw."""
    bots = [LEVEL_BOTS[level]("kozyri") for level in levels]
    limits = []
    for level, scale in zip(levels, scales, strict=True):
        own = level_limits("kozyri", level, 2)
        limits.append(Limits(time=None if own.time is None else own.time * scale))
    game = trumps.new_game("kozyri", seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        legal = game.legal_actions()
        game.play(bots[seat].decide(game.view(seat), legal, limits[seat], rng).action)
    outcome = game.outcome
    assert outcome is not None
    return None if outcome.draw else outcome.winners[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="expert,hard")
    parser.add_argument("--games", type=int, default=100, help="games (two per deal)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-scale", type=float, default=1.0)
    parser.add_argument(
        "--handicap", type=float, default=1.0,
        help="the second level thinks this many times slower (a search in the page's "
        "interpreted engine: its budget divided by this)",
    )  # fmt: skip
    args = parser.parse_args()
    first, second = args.levels.split(",")
    own, other = args.budget_scale, args.budget_scale / args.handicap
    wins = losses = draws = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i // 2
        seat = i % 2
        levels = [first, second] if seat == 0 else [second, first]
        scales = [own, other] if seat == 0 else [other, own]
        winner = play(levels, seed, scales)
        if winner is None:
            draws += 1
        elif winner == seat:
            wins += 1
        else:
            losses += 1
    decided = wins + losses
    lo, hi = wilson(wins, decided)
    share = wins / decided if decided else 0.0
    print(
        f"{first} vs {second}, {args.budget_scale:g} x own budgets"
        + (f" (the second {args.handicap:g}x slower)" if args.handicap != 1 else "")
        + f", {args.games} games "
        f"(seed {args.seed}): {wins} won, {losses} lost, {draws} drawn; "
        f"{100 * share:.1f}% of decided games (95% {100 * lo:.1f}-{100 * hi:.1f}%); "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
