"""Bot strength: the level ladder of one game and seat count, each step with its interval.

Run: ``python benchmarks/strength.py --game twentyfive --players 4 --games 8000 --seed 1``
(options below).  For every field (three ``random``, three ``easy``, three ``medium`` at
four seats) each level plays one seat against it on the same seeded deals, seats rotated
(``trumps.arena.ladder``).  Printed per field and level:

* its share of games and that share over fair (1 / seats, per side with teams);
* its *step*: its score minus the level below it in the same seat of the same games,
  averaged per deal, with a 95% Student t interval — the level earns its name in that
  field when the interval is above zero (``✔``); inside the noise is no result (``·``);
* mean and worst seconds per move (the level's budget, or ``--time-limit``);
* with ``--oracle``, the oracle (it sees every card; measurement only) after the
  strongest level: the ceiling of the seat, and how much of the gap between fair share
  and that ceiling each level closes;
* the ``trumps arena`` command that replays the step's games.

Search levels cost far more than rules of thumb: ``--search-games`` plays fewer games
for ``hard``, ``expert`` and the oracle (a step is measured on the games both levels
played); ``--budget-scale F`` gives each searching level F times its own default budget
(``hard`` 0.2 s, ``expert`` 1 s: the ratio between levels is kept) and ``--time-limit`` one
budget to every bot (their strength at the default budget is at least this).  ``--json FILE`` writes every figure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from trumps.arena import ArenaSetupError, default_jobs, make_executor, play_batch
from trumps.arena.ladder import Cell, Ladder, run_ladder


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _step(cell: Cell) -> str:
    step = cell.step
    if step is None:
        return "—"
    mean, ci = step["mean"], step["ci95"]
    if mean is None:
        return "no complete deal"
    if ci is None:
        return f"{100 * mean:+.1f}"
    mark = "✔" if ci[0] > 0 else ("✘" if ci[1] < 0 else "·")
    return f"{100 * mean:+5.1f} ({100 * ci[0]:+.1f} to {100 * ci[1]:+.1f}) {mark}"


def _budget(args: argparse.Namespace) -> str:
    if args.time_limit is not None:
        return f"every bot {args.time_limit:g} s a move"
    if args.budget_scale is not None:
        return f"each level {args.budget_scale:g} × its own budget"
    return "each level's own budget"


def print_cell(cell: Cell, ceiling: float | None = None) -> None:
    closes = ""
    if ceiling is not None and ceiling > cell.fair and cell.level != "oracle":
        closes = f"  closes {(cell.share - cell.fair) / (ceiling - cell.fair):4.0%} of the gap"
    print(
        f"  {cell.level:7} {cell.games:6} games  {_pct(cell.share)} = "
        f"{cell.share / cell.fair:4.2f}× fair   step over {cell.below or '—':7} "
        f"{_step(cell):34}  {cell.seconds_mean:6.3f} s mean, {cell.seconds_max:6.3f} s worst"
        f"{closes}"
    )
    if cell.below is not None:
        print(f"          {cell.command}")


def print_summary(ladder: Ladder, levels: list[str], fields: list[str]) -> None:
    print("\nsummary (step over the level below; ✔ above zero, · inside the noise, ✘ below)")
    print(f"  {'field':14}" + "".join(f"{lv:>30}" for lv in levels[1:]))
    for fld in fields:
        cells = [ladder.cell(lv, fld) for lv in levels[1:]]
        print(f"  {'three ' + fld:14}" + "".join(f"{_step(c) if c else '—':>30}" for c in cells))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="twentyfive")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--rules", default=None, help="rules as trumps arena --rules takes them (teams=2)"
    )
    ap.add_argument("--levels", default="random,easy,medium,hard,expert")
    ap.add_argument("--fields", default="random,easy,medium")
    ap.add_argument("--games", type=int, default=4000, help="games per level and field")
    ap.add_argument("--search-games", type=int, default=None, help="for hard, expert, oracle")
    ap.add_argument("--seed", type=int, default=1)
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--time-limit", type=float, default=None, help="s per move (searches)")
    budget.add_argument(
        "--budget-scale", type=float, default=None, help="this share of each level's own budget"
    )
    ap.add_argument("--oracle", action="store_true", help="also the all-seeing oracle")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    fields = [x.strip() for x in args.fields.split(",") if x.strip()]
    workers = args.jobs or default_jobs()
    print(
        f"bot strength: {args.game}, {args.players} players, seed {args.seed}, "
        f"{args.games} games a cell ({args.search_games or args.games} for searches), "
        f"{_budget(args)}, {workers} workers"
    )
    start = time.perf_counter()
    current = [""]

    def on_cell(cell: Cell) -> None:
        if cell.field != current[0]:
            current[0] = cell.field
            print(f"\nfield: every other seat {cell.field}")
        print_cell(cell)

    try:
        with make_executor("process", play_batch, workers) as pool:
            ladder = run_ladder(
                args.game,
                args.players,
                levels,
                fields,
                games=args.games,
                seed=args.seed,
                executor=pool,
                rules=args.rules,
                time_limit=args.time_limit,
                search_games=args.search_games,
                budget_scale=args.budget_scale,
                oracle=args.oracle,
                on_cell=on_cell,
            )
    except ArenaSetupError as e:
        sys.exit(f"strength.py: {e}")
    if args.oracle:
        print("\nshare of the gap between fair share and the oracle's, per field:")
        for fld in fields:
            top = ladder.cell("oracle", fld)
            if top is None:
                continue
            for lv in levels:
                c = ladder.cell(lv, fld)
                if c is not None and top.share > c.fair and c.share > c.fair:
                    gap = (c.share - c.fair) / (top.share - c.fair)
                    print(
                        f"  three {fld:7} {lv:7} {gap:5.0%}  ({_pct(c.share)} of {_pct(top.share)})"
                    )
    print_summary(ladder, levels, fields)
    print(f"\n{time.perf_counter() - start:.0f} s in all")
    if args.json is not None:
        args.json.write_text(json.dumps(ladder.to_json(), indent=1))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
