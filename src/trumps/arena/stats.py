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
  player loses; 1/teams with teams) and, for the field in a one-against-many or
  team-against-team match, one minus the first bot's share; averaged over the decided
  games.
  ``vs_fair_share`` = decided_win_rate / fair_share;
* ``openskill`` — Plackett–Luce (openskill) ratings ``mu``, ``sigma`` and ``ordinal``
  (mu − 3·sigma), updated game by game in game order: the sides of the game (teams, or
  single seats) ranked winners first, a draw a tie; a bot in several seats enters once
  per seat and its updates are merged (``openskill_ratings``);
* ``elo`` — for two bots with a fair share of 1/2: the Elo difference
  400·log10(s / (1 − s)) of the first bot's score s, and its 95% interval from the
  Wilson interval of s (null where infinite: s = 0 or 1).

Paired over deals (the duplicate mode, ``paired_stats`` and ``reference_stats``): every
deal is played once per seat rotation, so the deal — not the game — is the independent
unit, and a difference measured deal by deal has the luck of the cards taken out.

* a seat's *score* in a game is 1 for a win, ½ for a draw, 0 for a loss (with teams, its
  side's result); a bot's score in a game is the mean over the seats it holds (the field
  of a one-against-many match holds several);
* *above fair* = the bot's score − the seat's fair share of that game (the fraction of
  seats among the winners; ½ in a draw), so a bot as strong as the others gets 0;
* *differences* — the first bot's score − another bot's score (in a one-against-many
  match, the field's score per seat), game by game;
* *reference* — the first bot's score − the score of a reference bot that played the
  same games (the same deals, seats and the same generators for the others) in its place;
* *share* — the first bot's score itself: in a team-against-team match the share of
  games its team won (a draw ½), every deal played once with it in each team's seats;
* each is averaged over the games of a deal, and the deal means give the mean, the
  standard deviation, and the 95% Student t interval mean ± t(0.975, n − 1)·sd/√n over
  the n deals.  Only *complete* deals (played in every rotation) count; with fewer than
  two deals there is no interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from openskill.models import PlackettLuce

from trumps.arena.run import ONE_VS_MANY, TEAM_VS_TEAM, Matchup

__all__ = [
    "Z95",
    "bot_stats",
    "deal_means",
    "elo_estimate",
    "elo_from_score",
    "fair_share",
    "mean_interval",
    "openskill_ratings",
    "paired_stats",
    "reference_stats",
    "seat_scores",
    "t_quantile",
    "wilson",
]

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
                if matchup.scheme in (ONE_VS_MANY, TEAM_VS_TEAM) and name == matchup.bots[1]:
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


# ---------------------------------------------------------------------------------------
# Paired statistics over deals


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(ln + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (bisection on
    the distribution function, to about 1e-12)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), not {p}")
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


def mean_interval(xs: Sequence[float]) -> dict[str, Any]:
    """``n``, ``mean``, ``sd`` (n − 1 in the denominator), ``se`` and the 95% Student t
    interval ``ci95`` of the mean; the ones that need more values are None."""
    n = len(xs)
    if n == 0:
        return {"n": 0, "mean": None, "sd": None, "se": None, "ci95": None}
    mean = math.fsum(xs) / n
    if n < 2:
        return {"n": n, "mean": mean, "sd": None, "se": None, "ci95": None}
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    se = sd / math.sqrt(n)
    half = t_quantile(0.975, n - 1) * se
    return {"n": n, "mean": mean, "sd": sd, "se": se, "ci95": [mean - half, mean + half]}


def seat_scores(row: dict[str, Any]) -> list[float]:
    """Each seat's score in a game: 1 won, ½ drawn, 0 lost."""
    outcome = row["outcome"]
    players = len(row["seats"])
    if outcome["draw"]:
        return [0.5] * players
    winners = set(outcome["winners"])
    return [1.0 if s in winners else 0.0 for s in range(players)]


def fair_share(row: dict[str, Any]) -> float:
    """What each seat of ``row``'s game would score if all were equal: the winners' share
    of the seats (a team's seats in teams, every player but the loser in 3–4-player Svoi
    Kozyri), ½ for a draw."""
    outcome = row["outcome"]
    if outcome["draw"]:
        return 0.5
    return len(outcome["winners"]) / len(row["seats"])


def _bot_score(row: dict[str, Any], name: str) -> float:
    scores = seat_scores(row)
    mine = [scores[s] for s, who in enumerate(row["seats"]) if who == name]
    return math.fsum(mine) / len(mine)


def deal_means(
    matchup: Matchup, rows: Sequence[dict[str, Any]], value: Callable[[dict[str, Any]], float]
) -> dict[int, float]:
    """Per complete deal (played in every rotation), the mean of ``value(row)`` over its
    games."""
    by_deal: dict[int, list[float]] = {}
    for row in rows:
        by_deal.setdefault(int(row["deal"]), []).append(value(row))
    return {
        deal: math.fsum(vals) / len(vals)
        for deal, vals in sorted(by_deal.items())
        if len(vals) == matchup.rotations
    }


def paired_stats(matchup: Matchup, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per bot its score above fair share, the first bot's difference from each other
    bot (the field, per seat) and the first bot's share (its score; its team's in a
    team-against-team match), each as ``mean_interval`` over complete deals."""
    first = matchup.bots[0]

    def above_fair(name: str) -> Callable[[dict[str, Any]], float]:
        return lambda row: _bot_score(row, name) - fair_share(row)

    def versus(name: str) -> Callable[[dict[str, Any]], float]:
        return lambda row: _bot_score(row, first) - _bot_score(row, name)

    above: dict[str, Any] = {}
    for name in matchup.bots:
        above[name] = mean_interval(list(deal_means(matchup, rows, above_fair(name)).values()))
    differences = []
    for name in matchup.bots[1:]:
        means = deal_means(matchup, rows, versus(name))
        differences.append({"bot": first, "vs": name, **mean_interval(list(means.values()))})
    share = mean_interval(
        list(deal_means(matchup, rows, lambda row: _bot_score(row, first)).values())
    )
    deals = len(deal_means(matchup, rows, lambda row: 0.0))
    return {
        "unit": "deal",
        "deals": deals,
        "games": deals * matchup.rotations,
        "above_fair": above,
        "differences": differences,
        "share": {"bot": first, "team": matchup.scheme == TEAM_VS_TEAM, **share},
    }


def reference_stats(
    matchup: Matchup,
    rows: Sequence[dict[str, Any]],
    reference: Matchup,
    reference_rows: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """The first bot's score minus the reference's (the first bot of ``reference``, which
    played the same games in its place), per complete deal, as ``mean_interval``.
    Raises ``ValueError`` when the rows are not of the same games."""
    theirs = {int(r["game"]): r for r in reference_rows}
    for row in rows:
        other = theirs.get(int(row["game"]))
        if other is None or (other["seed"], other["deal"], other["rotation"]) != (
            row["seed"],
            row["deal"],
            row["rotation"],
        ):
            raise ValueError(f"the reference did not play the same game {row['game']}")
    first, ref = matchup.bots[0], reference.bots[0]
    means = deal_means(
        matchup,
        rows,
        lambda row: _bot_score(row, first) - _bot_score(theirs[int(row["game"])], ref),
    )
    return {
        "bot": first,
        "reference": ref,
        "reference_level": reference.levels[0],
        "deals": len(means),
        **mean_interval(list(means.values())),
    }
