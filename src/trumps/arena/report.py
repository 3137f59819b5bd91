"""The results of an arena run: the JSON document, a CSV of games, a PNG plot, a table.

``results.json`` (format ``trumps-arena/1``)::

    {"format": "trumps-arena/1",
     "settings": {"game", "players", "rules", "rule_options", "teams", "bots",
                  "levels", "scheme", "games", "deals", "rotations", "complete", "seed",
                  "time_limit", "budget_scale", "executor", "jobs", "versions",
                  "measurement_only": {NAME: NOTE}},
     "bots": {NAME: {"games", "wins", "draws", "losses", "ci95": [lo, hi],
                     "win_rate", "decided", "decided_win_rate", "decided_ci95",
                     "score", "fair_share", "vs_fair_share", "seat_games", "moves",
                     "seconds_per_move": {"mean", "max"},
                     "openskill": {"mu", "sigma", "ordinal"}, "level",
                     "sees_every_card"}},
     "elo": {"bot", "over", "score", "diff", "ci95"} | null,
     "paired": {"unit": "deal", "deals", "games",
                "above_fair": {NAME: INTERVAL},
                "differences": [{"bot", "vs", **INTERVAL}, ...],
                "share": {"bot", "team", **INTERVAL},
                "reference": {"bot", "reference", "reference_level", "deals",
                              **INTERVAL} | null},
     "reference": {"level", "bot", "bots": {NAME: {…as "bots"…}},
                   "games": [ROW, ...]} | null,
     "run": {"seconds", "games_per_second", "batch_size", "tasks"},
     "games": [ROW, ...]}

An INTERVAL is ``{"n", "mean", "sd", "se", "ci95": [lo, hi]}`` over complete deals (in
score points: a win 1, a draw ½); ``trumps.arena.stats`` defines the paired statistics.
``rules`` is the rules as ``--rules`` takes them (``classic,teams=2``), ``rule_options``
every option's value, ``teams`` the seats of each team (``[]`` without teams).
A bot with ``sees_every_card`` is the oracle: it was given every hidden card
(measurement only), so its numbers are a ceiling, not a level's strength.

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

from trumps.arena.run import TEAM_VS_TEAM, Matchup, Plan, RunInfo
from trumps.arena.stats import (
    bot_stats,
    elo_estimate,
    openskill_ratings,
    paired_stats,
    reference_stats,
    seat_scores,
)
from trumps.games import GAMES
from trumps.games.options import resolve_rules

__all__ = [
    "FORMAT",
    "build_results",
    "print_paired",
    "print_table",
    "write_csv",
    "write_json",
    "write_plot",
]

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
    *,
    reference: tuple[Matchup, Sequence[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The results document of a run (see the module docstring); ``reference`` is the
    reference matchup (``trumps.arena.run.with_reference``) and its rows of the same
    games, when one was played."""
    m = plan.matchup
    stats = bot_stats(m, rows)
    marked = m.measurement_only
    for name, s in stats.items():
        s["sees_every_card"] = name in marked
    paired = paired_stats(m, rows)
    paired["reference"] = None
    ref_doc: dict[str, Any] | None = None
    if reference is not None:
        ref_m, ref_rows = reference
        paired["reference"] = reference_stats(m, rows, ref_m, ref_rows)
        ref_stats = bot_stats(ref_m, ref_rows)
        for name, s in ref_stats.items():
            s["sees_every_card"] = name in ref_m.measurement_only
        ref_doc = {
            "level": ref_m.levels[0],
            "bot": ref_m.bots[0],
            "bots": ref_stats,
            "games": list(ref_rows),
        }
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
            "rule_options": _rule_options(m),
            "teams": [list(t) for t in m.teams],
            "bots": list(m.bots),
            "levels": list(m.levels),
            "scheme": m.scheme,
            "games": len(rows),
            "deals": plan.deals,
            "rotations": m.rotations,
            "complete": plan.complete,
            "seed": plan.seed,
            "time_limit": m.time_limit,
            "budget_scale": m.budget_scale,
            "executor": executor,
            "jobs": jobs,
            "versions": versions(executor),
            "measurement_only": marked,
        },
        "bots": stats,
        "elo": elo,
        "paired": paired,
        "reference": ref_doc,
        "run": {
            "seconds": seconds,
            "games_per_second": len(rows) / seconds if seconds > 0 else None,
            "batch_size": info.batch_size if info is not None else None,
            "tasks": info.tasks if info is not None else None,
        },
        "games": list(rows),
    }


def _rule_options(m: Matchup) -> dict[str, object]:
    cls = GAMES[m.game]
    resolved, _ = resolve_rules(
        m.game, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, m.game_rules()
    )
    return resolved


def write_json(results: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


def _score(row: dict[str, Any], name: str) -> float:
    scores = seat_scores(row)
    mine = [scores[s] for s, who in enumerate(row["seats"]) if who == name]
    return sum(mine) / len(mine)


def write_csv(results: dict[str, Any], path: Path) -> None:
    """One row per game: its seats, outcome, and each bot's result and move times; for
    the paired statistics, the fair share of a seat, each bot's score (per seat it
    holds) and, when a reference was played, the reference's score in the same game."""
    bots: list[str] = results["settings"]["bots"]
    players: int = results["settings"]["players"]
    ref = results.get("reference")
    ref_rows = {int(r["game"]): r for r in ref["games"]} if ref else {}
    ref_name: str | None = ref["bot"] if ref else None
    header = ["game", "deal", "rotation", "seed"]
    header += [f"seat{s}" for s in range(players)]
    header += ["winners", "losers", "draw", "reason", "actions", "fair"]
    for b in bots:
        header += [f"result_{b}", f"score_{b}", f"moves_{b}", f"mean_s_{b}", f"max_s_{b}"]
    if ref:
        header += ["reference", "reference_score"]
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
                f"{0.5 if o['draw'] else len(o['winners']) / players:.6f}",
            ]
            for b in bots:
                sec = row["seconds"][b]
                line += [
                    row["results"][b],
                    f"{_score(row, b):.6f}",
                    row["moves"][b],
                    f"{sec['mean']:.6f}",
                    f"{sec['max']:.6f}",
                ]
            if ref:
                other = ref_rows[int(row["game"])]
                assert ref_name is not None
                line += [ref["level"], f"{_score(other, ref_name):.6f}"]
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
    marked = s.get("measurement_only") or {}
    ax.set_xticks(range(len(bots)), [f"{b}*" if b in marked else b for b in bots])
    ax.set_ylim(0.0, 1.22)
    ax.set_yticks([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel("win rate (95% Wilson interval)")
    note = "; ".join(f"{b}*: {n}" for b, n in marked.items())
    ax.set_title(
        f"{s['game']}, {s['players']} players, {s['games']} games (seed {s['seed']})"
        + (f"\n{note}" if note else ""),
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
    marked: dict[str, str] = s.get("measurement_only") or {}
    for name in s["bots"]:
        b = results["bots"][name]
        r = b["openskill"]
        vs = b["vs_fair_share"]
        table.add_row(
            f"{name}*" if name in marked else name,
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
    if s.get("scheme") == TEAM_VS_TEAM:
        first, second = s["bots"]
        console.print(
            f"Teams {s['teams']}: {first} plays every seat of one team, {second} all the "
            f"others; each deal once with {first} in each team's seats."
        )
    for name, note in marked.items():
        console.print(f"* {name}: {note}")
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
    paired = results.get("paired")
    if paired is not None:
        print_paired(paired, console)
    if not s["complete"]:
        console.print(
            f"Note: {s['games']} games is not a multiple of {s['rotations']} rotations: "
            "the last deal was not played in every seat arrangement."
        )


def _points(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.1f}"


def _paired_row(table: Table, label: str, iv: dict[str, Any]) -> None:
    ci = iv.get("ci95")
    sd = iv.get("sd")
    if ci is None:
        verdict = "—"
    elif ci[0] > 0:
        verdict = "above 0"
    elif ci[1] < 0:
        verdict = "below 0"
    else:
        verdict = "not sure"
    table.add_row(
        label,
        _points(iv.get("mean")),
        "—" if ci is None else f"{_points(ci[0])} to {_points(ci[1])}",
        "—" if sd is None else f"{100 * sd:.1f}",
        verdict,
    )


def print_paired(paired: dict[str, Any], console: Console) -> None:
    """The paired statistics: per bot its score above fair share, the first bot's
    differences, and the reference comparison, in points (percent of a game) with 95%
    Student t intervals over deals."""
    deals = paired["deals"]
    share = paired.get("share")
    team = share is not None and share.get("team")
    where = "every bot in every team's seats" if team else "every bot in every seat"
    table = Table(
        title=f"Paired over {deals} complete deals ({paired['games']} games, {where})",
        box=box.SIMPLE_HEAD,
        caption=(
            "points: per game a win is 100, a draw 50; each deal's games averaged, then the "
            "mean and its 95% t interval over deals"
        ),
    )
    table.add_column("Paired difference")
    for col in ("Mean (pts)", "95% CI", "SD/deal", "Verdict"):
        table.add_column(col, justify="right")
    for name, iv in paired["above_fair"].items():
        _paired_row(table, f"{name} above its fair share", iv)
    for d in paired["differences"]:
        _paired_row(table, f"{d['bot']} − {d['vs']} (per seat, same games)", d)
    ref = paired.get("reference")
    if ref is not None:
        _paired_row(
            table,
            f"{ref['bot']} − {ref['reference_level']} in its place (same deals, seats)",
            ref,
        )
    console.print(table)
    if share is not None and team:
        ci = share.get("ci95")
        console.print(
            f"{share['bot']}'s team won {_pct(share.get('mean'))} of the games (a draw ½), "
            f"95% CI {_interval(ci)}, paired over {share['n']} deals"
        )
