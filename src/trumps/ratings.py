"""Ratings of people (and the fixed ratings of bots) for rated games (docs/ratings.md).

One rating per *family* of games that are alike enough to share a ladder:

* ``kozyri-duel``: Svoi Kozyri with two players — Glicko-2, updated after each game, as
  Lichess does (each game its own rating period);
* ``kozyri-multi``: Svoi Kozyri with three or more players;
* ``twentyfive``: Twenty-Five, everyone for themselves (any number of players);
* ``twentyfive-teams``: Twenty-Five with teams.

The last three use a Plackett–Luce model over the finishing order: the winners (a
winning team) finished above the losers, in an order among themselves the result does not
tell, and likewise the losers; a draw puts everyone level.  The update is Weng and Lin's,
as ``openskill`` makes it; for a result with more than two sides it is made from the
probability that the winners finished above the losers in any order (``_set_update``),
not from openskill's ties, which would read "three players did not lose" as "three
players played equally well" and so take rating from a strong winner whose fellow winners
were weak (and give it to a weak loser among strong ones).
Both models use one scale: a new player is 1500 with a deviation of 350, and a rating is
*provisional* while its deviation is above ``PROVISIONAL_DEVIATION`` (110), as on Lichess.
A bot has a fixed rating per family, measured in the arena (``trumps arena --calibrate``):
a person's rating moves against it, the bot's does not.

A seat a takeover bot played at the end (its person left, or never came back, and the
grace rules ran out) counts as a loss for that person whatever their side's result.  The
rating functions are pure: the store calls ``rate_game`` inside the transaction that
stores the game.  Bots' ratings are read from a calibration file (``load_calibration``;
the one shipped with trumps: ``shipped_calibration``) and written by ``calibration_json``
and ``merge_calibration``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources

from openskill.models import PlackettLuce

from trumps.games import Game, Outcome

__all__ = [
    "CALIBRATION_VERSION",
    "FAMILIES",
    "NEW",
    "PROVISIONAL_DEVIATION",
    "SHIPPED_CALIBRATION",
    "Rating",
    "bot_rating",
    "calibration_json",
    "family_of",
    "glicko2",
    "idle",
    "load_calibration",
    "merge_calibration",
    "rate_game",
    "rateable",
    "shipped_calibration",
    "sides_of",
]

FAMILIES: dict[str, str] = {
    "kozyri-duel": "Svoi Kozyri, two players",
    "kozyri-multi": "Svoi Kozyri, three or more players",
    "twentyfive": "Twenty-Five, everyone for themselves",
    "twentyfive-teams": "Twenty-Five in teams",
}
GLICKO_FAMILIES = frozenset({"kozyri-duel"})

START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
PROVISIONAL_DEVIATION = 110.0
MIN_DEVIATION = 45.0  # no rating is ever more certain than this (Lichess's floor)
TAU = 0.5  # Glicko-2's system constant: how fast volatility may change
_SCALE = 173.7178  # Glicko-2's factor between the Glicko scale and its own
_EPSILON = 1e-6
# Plackett–Luce on the same scale: beta is the spread of one game's performance, chosen
# so that between two settled players the model's own chance of winning is Glicko's
# (logistic in the difference over sqrt(2 beta² + their deviations²), so a 200-point edge
# wins about three games in four, as in Glicko-2 and Elo); tau the drift added to each
# deviation before a game; kappa openskill's least factor of a deviation's shrinking.
_PL_BETA = _SCALE / math.sqrt(2.0)
_PL_TAU = 3.5
_PL_KAPPA = 0.0001
_PL = PlackettLuce(mu=START, sigma=START_DEVIATION, beta=_PL_BETA, tau=_PL_TAU, kappa=_PL_KAPPA)


@dataclass(frozen=True)
class Rating:
    """A rating: ``value`` on the 1500 scale, its ``deviation`` (Glicko's RD, openskill's
    sigma), Glicko-2's ``volatility`` (unused by Plackett–Luce) and the rated ``games``."""

    value: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    def to_json(self) -> dict[str, object]:
        return {
            "rating": round(self.value),
            "deviation": round(self.deviation),
            "provisional": self.provisional,
            "games": self.games,
        }


NEW = Rating()


def family_of(game: Game) -> str:
    """The rating family of ``game`` (by its game, its seat count and whether seats play
    on sides, as the game says: ``Game.side_of``)."""
    teams = any(len(game.side_of(s)) > 1 for s in range(game.players))
    if game.game_id == "kozyri":
        return "kozyri-duel" if game.players == 2 else "kozyri-multi"
    return "twentyfive-teams" if teams else "twentyfive"


def rateable(game: Game) -> str | None:
    """Why the finished ``game`` cannot be rated (one line), or None when it can: it must
    be over, and a move must have been made (a game given up before anyone played is
    aborted, not lost)."""
    if game.outcome is None:
        return "the game is not over"
    if not game.history:
        return "no move was made: the game was aborted"
    return None


# ---------------------------------------------------------------------------- Glicko-2


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's description: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def glicko2(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player`` after one rating period with these ``(opponent, score)`` results (score
    1 a win, 0.5 a draw, 0 a loss); with no results only the deviation grows."""
    mu = (player.value - START) / _SCALE
    phi = player.deviation / _SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma) * _SCALE
        return replace(player, deviation=min(START_DEVIATION, grown))
    v_inv = 0.0
    gain = 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1, not {score!r}")
        mu_j = (opponent.value - START) / _SCALE
        g = _g(opponent.deviation / _SCALE)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / v_inv
    new_sigma = _volatility(sigma, phi, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(
        value=new_mu * _SCALE + START,
        deviation=max(MIN_DEVIATION, new_phi * _SCALE),
        volatility=new_sigma,
        games=player.games + len(results),
    )


def idle(rating: Rating, periods: float) -> Rating:
    """``rating`` after ``periods`` rating periods without a game: its deviation grows as
    Glicko-2 says (by the volatility each period), never past a new player's."""
    if periods <= 0:
        return rating
    phi = rating.deviation / _SCALE
    grown = math.sqrt(phi * phi + periods * rating.volatility**2) * _SCALE
    return replace(rating, deviation=min(START_DEVIATION, grown))


# ---------------------------------------------------------------------------- a game


def _score(outcome: Outcome, seat: int) -> float:
    if outcome.draw:
        return 0.5
    return 1.0 if seat in outcome.winners else 0.0


def rate_game(
    family: str,
    ratings: Sequence[Rating],
    outcome: Outcome,
    sides: Sequence[Sequence[int]],
    forfeited: Sequence[int] = (),
) -> list[Rating]:
    """Every seat's rating after a rated game of ``family`` (``ratings`` before it, one per
    seat; the caller keeps only the people's).  ``sides`` are the seats of each side (one
    seat each without teams); a seat in ``forfeited`` was abandoned by its person and counts
    as a loss for them (their own rating only: the others are rated on the real result)."""
    seats = len(ratings)
    if family not in FAMILIES:
        raise ValueError(f"unknown rating family {family!r}")
    if sorted(s for side in sides for s in side) != list(range(seats)):
        raise ValueError(f"the sides {list(map(list, sides))} must hold every seat once")
    named = [*outcome.winners, *outcome.losers, *forfeited]
    if any(not isinstance(s, int) or not 0 <= s < seats for s in named):
        raise ValueError(f"the outcome or the forfeits name a seat outside 0–{seats - 1}")
    if family in GLICKO_FAMILIES:
        if seats != 2:
            raise ValueError(f"{family} rates games of two players, not {seats}")
        return [
            glicko2(
                ratings[s],
                [(ratings[1 - s], 0.0 if s in forfeited else _score(outcome, s))],
            )
            for s in (0, 1)
        ]
    # A side's result is its first seat's (the seats of a side win or lose together).
    won = [not outcome.draw and side[0] in outcome.winners for side in sides]
    after = _plackett_luce(ratings, sides, None if outcome.draw else won)
    for s in set(forfeited):
        # Their own rating as if their side had lost to every other side.
        others_won = [s not in side for side in sides]
        after[s] = _plackett_luce(ratings, sides, others_won)[s]
    return after


def _plackett_luce(
    ratings: Sequence[Rating], sides: Sequence[Sequence[int]], won: Sequence[bool] | None
) -> list[Rating]:
    """Every seat's rating after a game of these ``sides`` that the sides marked in ``won``
    won and the others lost (``won`` None: a draw, everyone level)."""
    if won is None or all(won) or not any(won):
        teams = [
            [_PL.rating(mu=ratings[s].value, sigma=ratings[s].deviation) for s in side]
            for side in sides
        ]
        rated = _PL.rate(teams, ranks=[1.0] * len(sides))
        moved = [[(float(r.mu), float(r.sigma)) for r in team] for team in rated]
    else:
        moved = _set_update(
            [[(ratings[s].value, ratings[s].deviation) for s in side] for side in sides], won
        )
    out: list[Rating] = list(ratings)
    for side, team in zip(sides, moved, strict=True):
        for s, (mu, sigma) in zip(side, team, strict=True):
            out[s] = replace(
                ratings[s],
                value=mu,
                deviation=max(MIN_DEVIATION, sigma),
                games=ratings[s].games + 1,
            )
    return out


def _set_update(
    teams: Sequence[Sequence[tuple[float, float]]], won: Sequence[bool]
) -> list[list[tuple[float, float]]]:
    """Weng and Lin's Plackett–Luce update, as openskill makes it (the same ``beta``,
    ``tau``, ``kappa`` and its ``gamma``), of ``teams`` (each member's mean and deviation)
    after the teams marked in ``won`` took the first places, in an unknown order, and the
    others the last.  With two teams this is openskill's update exactly.

    The likelihood of that result is ``P``, the chance that the first places go to the
    winners in some order (``_first_places``).  Each team moves by its variance times the
    slope of ``log P`` in its mean and shrinks by its variance times the curvature, as in
    openskill; ``P`` only grows with a winner's mean and only falls with a loser's, so
    winners never lose rating and losers never gain."""
    tau2 = _PL_TAU * _PL_TAU
    var = [[sigma * sigma + tau2 for _, sigma in team] for team in teams]
    team_mu = [math.fsum(mu for mu, _ in team) for team in teams]
    team_var = [math.fsum(v) for v in var]
    c = math.sqrt(math.fsum(v + _PL_BETA * _PL_BETA for v in team_var))
    top = max(team_mu)  # P depends only on the ratios of the strengths: keep them ≤ 1
    strength = [math.exp((mu - top) / c) for mu in team_mu]
    slopes, bends = _first_places(strength, [k for k, w in enumerate(won) if w])
    out: list[list[tuple[float, float]]] = []
    for k, team in enumerate(teams):
        omega = team_var[k] * slopes[k] / c
        delta = team_var[k] * max(0.0, -bends[k]) / (c * c) * math.sqrt(team_var[k]) / c
        moved = []
        for (mu, _), v in zip(team, var[k], strict=True):
            share = v / team_var[k]
            moved.append((mu + share * omega, math.sqrt(v * max(1.0 - share * delta, _PL_KAPPA))))
        out.append(moved)
    return out


def _first_places(
    strength: Sequence[float], winners: Sequence[int]
) -> tuple[list[float], list[float]]:
    """The slope and the curvature of ``log P`` in each ``x_k = log strength[k]``, where
    ``P`` is the Plackett–Luce chance that the first places go to ``winners`` in some
    order.  ``f(S)``, the chance that the first ``|S|`` places go to the set ``S``, is
    the sum over its last member ``i`` of ``f(S - i)`` times ``i``'s chance to be chosen
    next, ``strength[i]`` over the strength left: a sum of positive terms over the subsets
    of the winners (no cancellation, whatever the ratings), each carried with its first
    and second derivatives."""
    n, m = len(strength), len(winners)
    f = [0.0] * (1 << m)
    grad = [[0.0] * n for _ in range(1 << m)]
    curv = [[0.0] * n for _ in range(1 << m)]
    f[0] = 1.0
    for mask in range(1, 1 << m):
        for bit in range(m):
            if not mask >> bit & 1:
                continue
            before = mask ^ (1 << bit)  # the set chosen before ``i``
            i = winners[bit]
            taken = {winners[j] for j in range(m) if before >> j & 1}
            left = math.fsum(strength[k] for k in range(n) if k not in taken)
            q = strength[i] / left
            f[mask] += f[before] * q
            for k in range(n):
                share = 0.0 if k in taken else strength[k] / left
                a = (1.0 if k == i else 0.0) - share  # d log q / d x_k
                da = -(share - share * share)  # d a / d x_k
                g = grad[before][k]
                grad[mask][k] += q * (g + f[before] * a)
                curv[mask][k] += q * (curv[before][k] + 2.0 * g * a + f[before] * (a * a + da))
    p = f[-1]
    slopes = [grad[-1][k] / p for k in range(n)]
    return slopes, [curv[-1][k] / p - slopes[k] ** 2 for k in range(n)]


def sides_of(game: Game) -> list[list[int]]:
    """The sides of ``game``'s seats, in seat order of their first seat (``Game.side_of``)."""
    seen: list[list[int]] = []
    for s in range(game.players):
        if not any(s in side for side in seen):
            seen.append(sorted(game.side_of(s)))
    return seen


def bot_rating(calibration: Mapping[str, Mapping[str, Rating]], family: str, level: str) -> Rating:
    """A bot level's fixed rating in ``family`` from a calibration (family → level →
    rating), or a new player's rating when the calibration has none."""
    return calibration.get(family, {}).get(level, NEW)


# ---------------------------------------------------------------------------- bots' ratings

CALIBRATION_VERSION = 1
#: The file of bots' ratings shipped with trumps (``trumps/data/bot_ratings.json``).
SHIPPED_CALIBRATION = "data/bot_ratings.json"
_LEVEL_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_MAX_VALUE = 5000.0


def load_calibration(
    source: str | os.PathLike[str], levels: Collection[str] | None = None
) -> dict[str, dict[str, Rating]]:
    """Bots' fixed ratings, family → level → rating, from a calibration (docs/ratings.md:
    the file ``trumps arena --calibrate`` writes).  ``source`` is the file's path (a
    ``pathlib.Path`` or other path object) or its JSON text (a ``str``); ``levels``, when
    given, are the level names allowed (the server passes ``trumps.ai.BOTS``).  Raises
    ``ValueError`` with one line naming the problem."""
    return _parse_calibration(source, levels)[0]


def shipped_calibration(levels: Collection[str] | None = None) -> dict[str, dict[str, Rating]]:
    """The bots' ratings shipped with trumps (``SHIPPED_CALIBRATION``)."""
    text = resources.files("trumps").joinpath(SHIPPED_CALIBRATION).read_text(encoding="utf-8")
    return load_calibration(text, levels)


def calibration_json(
    calibration: Mapping[str, Mapping[str, Rating]], notes: Mapping[str, str] | None = None
) -> str:
    """``calibration`` (family → level → rating) as the text of a calibration file, each
    family with its note of how it was measured (``notes``, by family) when there is one.
    What ``load_calibration`` reads back (values rounded to 0.1)."""
    families: dict[str, object] = {}
    order = list(FAMILIES)
    for family in sorted(calibration, key=lambda f: order.index(f) if f in order else len(order)):
        entry: dict[str, object] = {}
        if notes and notes.get(family):
            entry["measured"] = notes[family]
        entry["levels"] = {
            level: {
                "rating": round(r.value, 1),
                "deviation": round(r.deviation, 1),
                "games": r.games,
            }
            for level, r in calibration[family].items()
        }
        families[family] = entry
    doc = {"version": CALIBRATION_VERSION, "families": families}
    problem = _check_calibration(doc, None)
    if problem:
        raise ValueError(f"cannot write this calibration: {problem}")
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def merge_calibration(old: str | None, family: str, levels: Mapping[str, Rating], note: str) -> str:
    """The text of calibration ``old`` (the JSON text of a file, or None for none) with
    ``family``'s levels replaced by ``levels`` measured as ``note``; the other families
    kept as they were.  Raises ``ValueError`` when ``old`` is not a calibration."""
    ratings, notes = ({}, {}) if old is None else _parse_calibration(old, None)
    ratings[family] = dict(levels)
    notes[family] = note
    return calibration_json(ratings, notes)


def _parse_calibration(
    source: str | os.PathLike[str], levels: Collection[str] | None
) -> tuple[dict[str, dict[str, Rating]], dict[str, str]]:
    if isinstance(source, str):
        where, text = "calibration", source
    else:
        where = f"calibration {os.fspath(source)}"
        try:
            with open(source, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise ValueError(f"cannot read {where}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{where}: not UTF-8 text") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{where}: not JSON ({e.msg}, line {e.lineno})") from None
    problem = _check_calibration(doc, levels)
    if problem:
        raise ValueError(f"{where}: {problem}")
    ratings: dict[str, dict[str, Rating]] = {}
    notes: dict[str, str] = {}
    for family, entry in doc["families"].items():
        ratings[family] = {
            level: Rating(float(r["rating"]), float(r["deviation"]), games=int(r.get("games", 0)))
            for level, r in entry["levels"].items()
        }
        if "measured" in entry:
            notes[family] = entry["measured"]
    return ratings, notes


def _keys(obj: object, what: str, required: set[str], optional: set[str]) -> str | None:
    """Why ``obj`` is not an object with the ``required`` keys and perhaps ``optional``."""
    if not isinstance(obj, dict):
        return f"{what} must be an object, not {json.dumps(obj)[:40]}"
    missing = sorted(required - set(obj))
    if missing:
        return f"{what} lacks {', '.join(repr(k) for k in missing)}"
    unknown = sorted(set(obj) - required - optional)
    if unknown:
        return f"{what} has unknown key {unknown[0]!r}"
    return None


def _number(value: object, what: str, low: float, high: float) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        return f"{what} must be a number from {low:g} to {high:g}, not {json.dumps(value)[:40]}"
    return None


def _check_calibration(doc: object, levels: Collection[str] | None) -> str | None:
    """Why ``doc`` (parsed JSON) is not a calibration, in one line; None when it is."""
    problem = _keys(doc, "the file", {"version", "families"}, set())
    if problem:
        return problem
    assert isinstance(doc, dict)
    version = doc["version"]
    if version != CALIBRATION_VERSION or isinstance(version, bool):
        return f"version {json.dumps(version)[:20]} is not {CALIBRATION_VERSION}, the one this trumps reads"
    families = doc["families"]
    if not isinstance(families, dict):
        return f"'families' must be an object, not {json.dumps(families)[:40]}"
    for family, entry in families.items():
        if family not in FAMILIES:
            return f"no rating family {family!r} (families: {', '.join(FAMILIES)})"
        problem = _keys(entry, family, {"levels"}, {"measured"})
        if problem:
            return problem
        if "measured" in entry and not isinstance(entry["measured"], str):
            return f"{family}.measured must be text"
        if not isinstance(entry["levels"], dict) or not entry["levels"]:
            return f"{family}.levels must be an object naming at least one level"
        for level, r in entry["levels"].items():
            if not _LEVEL_NAME.fullmatch(level):
                return f"{family}: {level!r} is not a level name (a–z, 0–9, - or _)"
            if levels is not None and level not in levels:
                return f"{family}: no bot level {level!r} (levels: {', '.join(levels)})"
            what = f"{family}.levels.{level}"
            problem = (
                _keys(r, what, {"rating", "deviation"}, {"games"})
                or _number(r["rating"], f"{what}.rating", 0.0, _MAX_VALUE)
                or _number(r["deviation"], f"{what}.deviation", MIN_DEVIATION, START_DEVIATION)
            )
            if problem:
                return problem
            games = r.get("games", 0)
            if not isinstance(games, int) or isinstance(games, bool) or games < 0:
                return f"{what}.games must be a whole number ≥ 0, not {json.dumps(games)[:40]}"
    return None
