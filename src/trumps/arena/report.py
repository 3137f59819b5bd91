"""The results of an arena run: the JSON document, a CSV of games, a PNG plot, a table.

``results.json`` (format ``trumps-arena/1``)::

    {"format": "trumps-arena/1",
     "settings": {"game", "players", "rules", "bots", "levels", "scheme", "games",
                  "deals", "rotations", "complete", "seed", "time_limit", "executor",
                  "jobs", "versions"},
     "bots": {NAME: {"games", "wins", "draws", "losses", "ci95": [lo, hi],
                     "win_rate", "decided", "decided_win_rate", "decided_ci95",
                     "score", "fair_share", "vs_fair_share", "seat_games", "moves",
                     "seconds_per_move": {"mean", "max"},
                     "openskill": {"mu", "sigma", "ordinal"}, "level"}},
     "elo": {"bot", "over", "score", "diff", "ci95"} | null,
     "run": {"seconds", "games_per_second", "batch_size", "tasks"},
     "games": [ROW, ...]}

Each ROW is ``trumps.arena.run.play_game``'s: ``game``, ``deal``, ``rotation``, ``seed``,
``seats`` (bot per seat), ``outcome``, ``actions``, ``results`` (bot → win/draw/loss),
``sides``, ``moves`` and ``seconds`` (bot → mean/max seconds per move).  The statistics
are defined in ``trumps.arena.stats``.
"""

from __future__ import annotations

import csv
import json
import platform
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from trumps.arena.run import Plan, RunInfo
from trumps.arena.stats import bot_stats, elo_estimate, openskill_ratings

__all__ = ["FORMAT", "build_results", "print_table", "write_csv", "write_json", "write_plot"]

FORMAT = "trumps-arena/1"


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def versions(executor: str) -> dict[str, str | None]:
    """The versions that produced a run."""
    out = {
        "trumps": _version("trumps"),
        "python": platform.python_version(),
        "openskill": _version("openskill"),
    }
    if executor == "ray":
        out["ray"] = _version("ray")
    return out


def build_results(
    plan: Plan,
    rows: Sequence[dict[str, Any]],
    executor: str,
    jobs: int,
    info: RunInfo | None = None,
) -> dict[str, Any]:
    """The results document of a run (see the module docstring)."""
    m = plan.matchup
    stats = bot_stats(m, rows)
    ratings = openskill_ratings(m, rows)
    elo = elo_estimate(m, stats)
    for name, s in stats.items():
        s["openskill"] = ratings[name]
        s["elo"] = None
        if elo is not None:
            diff = elo["diff"]
            s["elo"] = None if diff is None else (diff if name == elo["bot"] else -diff)
    seconds = info.seconds if info is not None else 0.0
    return {
        "format": FORMAT,
        "settings": {
            "game": m.game,
            "players": m.players,
            "rules": m.rules,
            "bots": list(m.bots),
            "levels": list(m.levels),
            "scheme": m.scheme,
            "games": len(rows),
            "deals": plan.deals,
            "rotations": m.rotations,
            "complete": plan.complete,
            "seed": plan.seed,
            "time_limit": m.time_limit,
            "executor": executor,
            "jobs": jobs,
            "versions": versions(executor),
        },
        "bots": stats,
        "elo": elo,
        "run": {
            "seconds": seconds,
            "games_per_second": len(rows) / seconds if seconds > 0 else None,
            "batch_size": info.batch_size if info is not None else None,
            "tasks": info.tasks if info is not None else None,
        },
        "games": list(rows),
    }


def write_json(results: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


def write_csv(results: dict[str, Any], path: Path) -> None:
    """One row per game: its seats, outcome, and each bot's result and move times."""
    bots: list[str] = results["settings"]["bots"]
    players: int = results["settings"]["players"]
    header = ["game", "deal", "rotation", "seed"]
    header += [f"seat{s}" for s in range(players)]
    header += ["winners", "losers", "draw", "reason", "actions"]
    for b in bots:
        header += [f"result_{b}", f"moves_{b}", f"mean_s_{b}", f"max_s_{b}"]
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in results["games"]:
            o = row["outcome"]
            line: list[object] = [row["game"], row["deal"], row["rotation"], row["seed"]]
            line += row["seats"]
            line += [
                " ".join(str(s) for s in o["winners"]),
                " ".join(str(s) for s in o["losers"]),
                "true" if o["draw"] else "false",
                o["reason"],
                row["actions"],
            ]
            for b in bots:
                sec = row["seconds"][b]
                line += [
                    row["results"][b],
                    row["moves"][b],
                    f"{sec['mean']:.6f}",
                    f"{sec['max']:.6f}",
                ]
            w.writerow(line)


def write_plot(results: dict[str, Any], path: Path) -> None:
    """A PNG: per bot, the win rate over all games and over decided games with 95%
    Wilson error bars, and the fair share of decided games as a dashed mark."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    s = results["settings"]
    bots: list[str] = s["bots"]
    stats = results["bots"]
    fig = Figure(figsize=(max(4.0, 1.6 * len(bots) + 2.0), 4.0), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    width = 0.38
    for k, (key, ci_key, label, offset) in enumerate(
        (
            ("win_rate", "ci95", "all games (draw = no win)", -width / 2),
            ("decided_win_rate", "decided_ci95", "decided games", width / 2),
        )
    ):
        xs, ys, lows, highs = [], [], [], []
        for i, b in enumerate(bots):
            rate = stats[b][key]
            ci = stats[b][ci_key]
            if rate is None or ci is None:
                continue
            xs.append(i + offset)
            ys.append(rate)
            lows.append(max(0.0, rate - ci[0]))
            highs.append(max(0.0, ci[1] - rate))
        ax.bar(
            xs,
            ys,
            width,
            yerr=[lows, highs],
            capsize=4,
            label=label,
            color=("#9ab7d3" if k == 0 else "#2f6690"),
        )
    labelled = False
    for i, b in enumerate(bots):
        fair = stats[b]["fair_share"]
        if fair is not None:
            ax.hlines(
                fair,
                i - 0.03,
                i + width + 0.03,
                colors="#c0392b",
                linestyles="dashed",
                label="_nolegend_" if labelled else "fair share",
            )
            labelled = True
    ax.set_xticks(range(len(bots)), bots)
    ax.set_ylim(0.0, 1.22)
    ax.set_yticks([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(
        f"{s['game']}, {s['players']} players, {s['games']} games (seed {s['seed']})",
        fontsize=10,
    )
    ax.legend(fontsize=8, loc="upper center", ncol=3, frameon=False)
    fig.tight_layout()
    fig.savefig(str(path), format="png")


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _interval(ci: Sequence[float] | None) -> str:
    return "—" if ci is None else f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def print_table(results: dict[str, Any], console: Console | None = None) -> None:
    """The per-bot table (and the Elo line for a head-to-head match) on ``console``
    (default: stdout, 120 columns wide when it is not a terminal)."""
    if console is None:
        console = Console(file=sys.stdout)
        if not console.is_terminal:
            console = Console(file=sys.stdout, width=120)
    s = results["settings"]
    table = Table(
        title=(
            f"{s['game']} · {s['players']} players · rules {s['rules']} · "
            f"{s['games']} games on {s['deals']} deals · seed {s['seed']}"
        ),
        box=box.SIMPLE_HEAD,
        caption=(
            "decided: draws left out; vs fair: decided win rate ÷ what an equal bot would "
            "win in its place; rating: OpenSkill ordinal μ − 3σ"
        ),
    )
    table.add_column("Bot")
    for col in (
        "Games",
        "W/D/L",
        "Win rate",
        "95% CI",
        "Decided",
        "95% CI",
        "Fair",
        "vs fair",
        "Rating",
        "μ ± σ",
    ):
        table.add_column(col, justify="right")
    for name in s["bots"]:
        b = results["bots"][name]
        r = b["openskill"]
        vs = b["vs_fair_share"]
        table.add_row(
            name,
            str(b["games"]),
            f"{b['wins']}/{b['draws']}/{b['losses']}",
            _pct(b["win_rate"]),
            _interval(b["ci95"]),
            _pct(b["decided_win_rate"]),
            _interval(b["decided_ci95"]),
            _pct(b["fair_share"]),
            "—" if vs is None else f"{vs:.2f}×",
            f"{r['ordinal']:.1f}",
            f"{r['mu']:.1f} ± {r['sigma']:.1f}",
        )
    console.print(table)
    elo = results.get("elo")
    if elo is not None:
        diff = elo["diff"]
        lo, hi = elo["ci95"]

        def show(x: float | None, inf: str) -> str:
            return inf if x is None else f"{x:+.0f}"

        console.print(
            f"Elo: {elo['bot']} over {elo['over']} {show(diff, '±∞')} "
            f"(95% CI {show(lo, '−∞')} to {show(hi, '+∞')}), score {_pct(elo['score'])}"
        )
    if not s["complete"]:
        console.print(
            f"Note: {s['games']} games is not a multiple of {s['rotations']} rotations: "
            "the last deal was not played in every seat arrangement."
        )
