"""Statistics of an arena run: win rates with Wilson intervals, fair shares, ratings.

Definitions (per bot, over the games of a run):

* ``wins`` / ``draws`` / ``losses`` — its per-game results (see ``trumps.arena.run``);
* ``win_rate`` = wins / games, with ``ci95`` its 95% Wilson score interval (a draw is
  not a win);
* ``decided_win_rate`` = wins / (wins + losses), draws left out, with
  ``decided_ci95``; null when every game was drawn;
* ``score`` = (wins + draws / 2) / games;
* ``fair_share`` — the decided-game win rate a bot of equal strength would expect in
  this bot's place: per decided game, the fraction of seats among the winners (1/2 in a
  duel; 1/P in Twenty-Five for one seat; (P−1)/P in Svoi Kozyri, where only one
  player loses; 1/teams with teams) and, for the field in a one-against-many match, one
  minus the single seat's share; averaged over the decided games.
  ``vs_fair_share`` = decided_win_rate / fair_share;
* ``openskill`` — Plackett–Luce (openskill) ratings ``mu``, ``sigma`` and ``ordinal``
  (mu − 3·sigma), updated game by game in game order: the sides of the game (teams, or
  single seats) ranked winners first, a draw a tie; a bot in several seats enters once
  per seat and its updates are merged (``openskill_ratings``);
* ``elo`` — for two bots with a fair share of 1/2: the Elo difference
  400·log10(s / (1 − s)) of the first bot's score s, and its 95% interval from the
  Wilson interval of s (null where infinite: s = 0 or 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from trumps.arena.run import ONE_VS_MANY, Matchup

__all__ = ["Z95", "bot_stats", "elo_estimate", "elo_from_score", "openskill_ratings", "wilson"]

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; ``(0, 1)`` when there are no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return (lo, hi)


def elo_from_score(score: float) -> float | None:
    """The Elo difference that expects ``score``; None at 0 or 1 (infinite)."""
    if not 0.0 < score < 1.0:
        return None
    return 400.0 * math.log10(score / (1.0 - score))


def _seat_share(row: dict[str, Any], players: int) -> float:
    return len(row["outcome"]["winners"]) / players


def bot_stats(matchup: Matchup, rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per bot: games, W/D/L, rates with intervals, fair share, move times (see above)."""
    out: dict[str, dict[str, Any]] = {}
    for name in matchup.bots:
        wins = draws = losses = 0
        shares: list[float] = []
        moves = 0
        total_seconds = 0.0
        worst = 0.0
        seats = [0] * matchup.players
        for row in rows:
            result = row["results"][name]
            if result == "win":
                wins += 1
            elif result == "draw":
                draws += 1
            else:
                losses += 1
            if result != "draw":
                share = _seat_share(row, matchup.players)
                if matchup.scheme == ONE_VS_MANY and name == matchup.bots[1]:
                    share = 1.0 - share
                shares.append(share)
            for s, who in enumerate(row["seats"]):
                if who == name:
                    seats[s] += 1
            n = row["moves"][name]
            moves += n
            total_seconds += row["seconds"][name]["mean"] * n
            worst = max(worst, row["seconds"][name]["max"])
        games = len(rows)
        decided = wins + losses
        lo, hi = wilson(wins, games)
        decided_rate = wins / decided if decided else None
        fair = sum(shares) / len(shares) if shares else None
        stats: dict[str, Any] = {
            "level": matchup.level_of(name),
            "games": games,
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "win_rate": wins / games if games else 0.0,
            "ci95": [lo, hi],
            "decided": decided,
            "decided_win_rate": decided_rate,
            "decided_ci95": list(wilson(wins, decided)) if decided else None,
            "score": (wins + draws / 2) / games if games else 0.0,
            "fair_share": fair,
            "vs_fair_share": (decided_rate / fair if decided_rate is not None and fair else None),
            "seat_games": seats,
            "moves": moves,
            "seconds_per_move": {
                "mean": total_seconds / moves if moves else 0.0,
                "max": worst,
            },
        }
        out[name] = stats
    return out


def openskill_ratings(
    matchup: Matchup, rows: Sequence[dict[str, Any]]
) -> dict[str, dict[str, float]]:
    """Plackett–Luce ratings per bot after every game in game order.

    Each game rates its sides (teams, or single seats) ranked winners first, a draw a
    tie.  A bot holding several seats (the field of a one-against-many match) enters
    once per seat with a copy of its rating; its updates are merged as independent
    observations: the mu changes add up and the variance shrink factors multiply.
    """
    model = PlackettLuce()
    mus = dict.fromkeys(matchup.bots, model.mu)
    sigmas = dict.fromkeys(matchup.bots, model.sigma)
    for row in sorted(rows, key=lambda r: int(r["game"])):
        draw = bool(row["outcome"]["draw"])
        winners = set(row["outcome"]["winners"])
        sides: list[list[int]] = row["sides"]
        names = [[row["seats"][s] for s in side] for side in sides]
        teams = [[model.rating(mu=mus[n], sigma=sigmas[n], name=n) for n in team] for team in names]
        ranks = [1.0 if draw or side[0] in winners else 2.0 for side in sides]
        rated = model.rate(teams, ranks=ranks)
        shift = dict.fromkeys(matchup.bots, 0.0)
        shrink = dict.fromkeys(matchup.bots, 1.0)
        for team, new in zip(names, rated, strict=True):
            for name, rating in zip(team, new, strict=True):
                shift[name] += rating.mu - mus[name]
                shrink[name] *= (rating.sigma / sigmas[name]) ** 2
        for name in matchup.bots:
            mus[name] += shift[name]
            sigmas[name] *= math.sqrt(shrink[name])
    return {
        name: {
            "mu": mus[name],
            "sigma": sigmas[name],
            "ordinal": mus[name] - 3 * sigmas[name],
        }
        for name in matchup.bots
    }


def elo_estimate(matchup: Matchup, stats: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The Elo difference of the first bot over the second in a head-to-head match
    (two bots, fair share 1/2), or None."""
    if len(matchup.bots) != 2:
        return None
    first, second = matchup.bots
    fair = stats[first]["fair_share"]
    if fair is None or abs(fair - 0.5) > 1e-9:
        return None
    games = stats[first]["games"]
    score = stats[first]["score"]
    lo, hi = wilson(score * games, games)
    return {
        "bot": first,
        "over": second,
        "score": score,
        "diff": elo_from_score(score),
        "ci95": [elo_from_score(lo), elo_from_score(hi)],
    }
