"""Matches between bots: the plan of seeded deals and seat rotations, and playing them.

How ``--games N`` maps to deals
-------------------------------
A run has ``R`` *rotations* per deal, ``R`` = the number of seats ``P``.  Game number
``g`` (0-based) is rotation ``g % R`` of deal ``g // R``; every rotation of a deal plays
the same deal seed (the same cards and the same first dealer), so ``N`` games are
``ceil(N / R)`` deals.  When ``N`` is a multiple of ``R`` every bot sits in every seat
equally often on the same deals and the luck of the cards cancels; otherwise the last
deal is played in only some rotations (``Plan.complete`` is False).

* ``one-each`` (as many bots as seats): in rotation ``r`` bot ``i`` sits in seat
  ``(i + r) % P`` (cyclic rotations: every bot takes every seat once per deal, the
  order round the table is kept).  Two bots in a two-seat game: each deal twice, seats
  swapped.
* ``one-vs-many`` (two bots, more than two seats, no teams): in rotation ``r`` the first
  bot sits in seat ``r`` and copies of the second take the others.
* ``team-vs-team`` (two bots and rules with teams, Twenty-Five ``teams=2`` or ``3``): a
  run has one rotation per team (``R`` = the number of teams ``T``, not ``P``); in
  rotation ``r`` copies of the first bot take every seat of team ``r`` (the seats
  ``s`` with ``s % T == r``, F1) and copies of the second all the other seats.  So
  rotation ``r`` is rotation 0 with the seats turned ``r`` places, and with two teams
  each deal is played twice, the teams swapped: each bot holds each team's cards once.

Per game each bot gets one result, ``win`` / ``draw`` / ``loss``: in ``one-each`` that of
its seat (a seat wins when the outcome lists it among the winners — with teams, when its
side wins); in ``one-vs-many`` the first bot's seat decides and the field (the second
bot's copies) gets the opposite result (a draw is a draw for both); in ``team-vs-team``
likewise the first bot's team decides (its seats win or lose together).

Rules are given as ``trumps play --rules`` takes them (``games.options.rules_from_text``):
a preset, options ``NAME=VALUE`` over the default preset, or both; ``Matchup.rules`` is
that text written out (``classic,teams=2``), checked against the number of seats.

The oracle (``trumps.ai.oracle``, by the name ``oracle``) is accepted here and nowhere
else: it is the one player given the game's full position (every hidden card) instead of
a seat's view, for measuring how far the levels are from what seeing every card is worth;
reports mark it (``Matchup.measurement_only``).  ``with_reference`` builds the matchup
that plays the same games with a reference bot in the first bot's place (the paired
comparison of ``trumps.arena.stats.reference_stats``).

Everything a game does follows from its spec: the deal seed, and each bot's generator
seeded from ``(deal seed, rotation, seat)``.  So the results do not depend on how games
are batched or on how many processes play them (except through ``--time-limit``, which
makes search bots depend on the machine's speed).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trumps.ai import BOTS, Bot, Limits, make_bot
from trumps.ai.levels import LEVEL_NAMES, level_limits
from trumps.ai.oracle import ORACLE_LEVEL, ORACLE_NOTE, OracleBot
from trumps.arena.executors import Executor
from trumps.errors import IllegalAction, InvalidAction, InvalidRules
from trumps.games import GAMES, new_game
from trumps.games.options import preset_named, rules_from_text

__all__ = [
    "ARENA_BOTS",
    "ONE_EACH",
    "ONE_VS_MANY",
    "TEAM_VS_TEAM",
    "ArenaSetupError",
    "Batch",
    "BotFailure",
    "GameSpec",
    "Matchup",
    "Plan",
    "RunInfo",
    "bot_results",
    "choose_batch_size",
    "deal_seed",
    "make_matchup",
    "plan_games",
    "play_batch",
    "play_game",
    "run_games",
    "with_reference",
]

ONE_EACH = "one-each"
ONE_VS_MANY = "one-vs-many"
TEAM_VS_TEAM = "team-vs-team"

#: Seconds of play a batch (one task of an executor) should hold at least.
TARGET_TASK_SECONDS = 1.0


class ArenaSetupError(ValueError):
    """Settings that cannot make a match; ``param`` names the command option at fault."""

    def __init__(self, message: str, param: str) -> None:
        super().__init__(message)
        self.param = param


class BotFailure(RuntimeError):
    """A bot returned an action that is not legal (a bug in the bot, not in the arena)."""


@dataclass(frozen=True)
class Matchup:
    """What is played: the game, its seats and rules, the bots and the time budget.

    ``rules`` is the rules as one line (a preset, then any options: ``classic,teams=2``);
    ``teams`` the seats of each team (empty when everyone plays alone).  ``bots`` are
    unique display names (a level given twice becomes ``easy`` and ``easy#2``);
    ``levels`` the registry level of each.  Picklable: it travels to workers.
    """

    game: str
    players: int
    rules: str
    bots: tuple[str, ...]
    levels: tuple[str, ...]
    scheme: str
    time_limit: float | None = None
    teams: tuple[tuple[int, ...], ...] = ()
    budget_scale: float | None = None

    def limits(self, level: str) -> Limits:
        """The budget of each move of ``level``: ``time_limit``; or with ``budget_scale``
        that share of the level's own default budget (``level_limits``; the oracle's is
        the strongest level's), so that searching levels keep the ratio of their budgets;
        otherwise none given (each level's own)."""
        if self.budget_scale is None or ":" in level:  # a bot of your own: its own budget
            return Limits(time=self.time_limit)
        own = level_limits(
            self.game, LEVEL_NAMES[-1] if level == ORACLE_LEVEL else level, self.players
        )
        return Limits() if own.time is None else Limits(time=own.time * self.budget_scale)

    @property
    def rotations(self) -> int:
        """Games per deal: every bot takes every seat position once (every team's seats,
        in ``team-vs-team``)."""
        return len(self.teams) if self.scheme == TEAM_VS_TEAM else self.players

    def game_rules(self) -> str | dict[str, object]:
        """The rules as ``new_game`` takes them."""
        cls = GAMES[self.game]
        return rules_from_text(self.game, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, self.rules)

    def lineup(self, rotation: int) -> tuple[str, ...]:
        """The bot name in each seat for ``rotation``."""
        p = self.players
        if self.scheme == TEAM_VS_TEAM:
            first = self.teams[rotation]
            return tuple(self.bots[0] if s in first else self.bots[1] for s in range(p))
        if self.scheme == ONE_VS_MANY:
            return tuple(self.bots[0] if s == rotation else self.bots[1] for s in range(p))
        seats = [""] * p
        for i, name in enumerate(self.bots):
            seats[(i + rotation) % p] = name
        return tuple(seats)

    def level_of(self, name: str) -> str:
        return self.levels[self.bots.index(name)]

    @property
    def measurement_only(self) -> dict[str, str]:
        """The bots that see every card (the oracle), each with the note reports show."""
        return {
            n: ORACLE_NOTE
            for n, lv in zip(self.bots, self.levels, strict=True)
            if lv == ORACLE_LEVEL
        }


#: Every name ``--bots`` accepts: the levels, and the oracle for measurement (and any
#: ``module:Class`` naming a ``Bot`` of your own: ``plugin_bot``).
ARENA_BOTS: tuple[str, ...] = (*BOTS, ORACLE_LEVEL)


def plugin_bot(spec: str) -> type[Bot]:
    """The ``Bot`` subclass named ``module:Class`` (an importable module) or
    ``path/to/file.py:Class``; raises ``ValueError`` saying what is wrong.  Workers of
    ``--jobs`` load it the same way.  docs/research.md."""
    module_name, _, class_name = spec.rpartition(":")
    if not module_name or not class_name:
        raise ValueError(f"{spec!r} is not module:Class or file.py:Class")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name).resolve()
            name = f"trumps_arena_bot_{hashlib.sha256(str(path).encode()).hexdigest()[:12]}"
            module = sys.modules.get(name)
            if module is None:
                found_spec = importlib.util.spec_from_file_location(name, path)
                if found_spec is None or found_spec.loader is None or not path.is_file():
                    raise ImportError(f"no file {module_name}")
                module = importlib.util.module_from_spec(found_spec)
                sys.modules[name] = module
                try:
                    found_spec.loader.exec_module(module)
                except BaseException:
                    del sys.modules[name]
                    raise
        else:
            module = importlib.import_module(module_name)
    except Exception as e:  # ImportError, or the module failed while loading
        raise ValueError(f"cannot load {module_name!r}: {e}") from None
    found = getattr(module, class_name, None)
    if not (isinstance(found, type) and issubclass(found, Bot)):
        raise ValueError(f"{module_name} has no Bot subclass {class_name!r}")
    return found


def _known_bot(level: str, param: str, game: str) -> None:
    """Raise ``ArenaSetupError`` unless ``level`` names a bot the arena can seat at
    ``game`` (a bot of your own is built once here, so that its errors come first)."""
    if level in ARENA_BOTS:
        return
    if ":" in level:
        try:
            plugin_bot(level)(game)
        except Exception as e:  # a bot of your own failing to load or to start
            raise ArenaSetupError(f"bot {level!r}: {e}", param) from None
        return
    if not level:
        raise ArenaSetupError("empty bot name", param)
    raise ArenaSetupError(
        f"no bot {level!r} (bots: {', '.join(BOTS)}, or module:Class for a bot of your own; "
        f"{ORACLE_LEVEL}: {ORACLE_NOTE})",
        param,
    )


def make_matchup(
    game: str,
    bots: Sequence[str],
    players: int | None = None,
    rules: str | None = None,
    time_limit: float | None = None,
    *,
    budget_scale: float | None = None,
) -> Matchup:
    """Check the settings and build a ``Matchup``; raises ``ArenaSetupError``.

    ``rules`` is what ``trumps play --rules`` takes (a preset, ``NAME=VALUE`` options, or
    both, comma-separated; default: the game's default preset).  ``time_limit`` gives
    every bot that time per move, ``budget_scale`` each searching level that share of
    its own budget (not both)."""
    if game not in GAMES:
        raise ArenaSetupError(f"no game {game!r} (games: {', '.join(GAMES)})", "--game")
    cls = GAMES[game]
    try:
        chosen = rules_from_text(
            game, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, rules or cls.DEFAULT_PRESET
        )
    except InvalidRules as e:
        raise ArenaSetupError(str(e), "--rules") from None
    text = _rules_text(game, chosen)
    if players is None:
        preset = preset_named(cls.PRESETS, text.split(",")[0])
        players = (preset.players if preset else None) or cls.default_players
    if not cls.min_players <= players <= cls.max_players:
        raise ArenaSetupError(
            f"{game} is for {cls.min_players}–{cls.max_players} players, not {players}",
            "--players",
        )
    try:  # rules that need another number of players (teams=3 at 4 seats)
        probe = new_game(game, players=players, rules=chosen, seed=0)
    except InvalidRules as e:
        raise ArenaSetupError(str(e), "--rules") from None
    sides = sorted({tuple(sorted(probe.side_of(s))) for s in range(players)})
    teams = tuple(sides) if any(len(side) > 1 for side in sides) else ()
    levels = [b.strip() for b in bots]
    for level in levels:
        _known_bot(level, "--bots", game)
    if len(levels) == players:
        scheme = ONE_EACH
    elif len(levels) == 2:
        scheme = TEAM_VS_TEAM if teams else ONE_VS_MANY
    else:
        two = (
            "the first takes one team's seats, the second the others"
            if teams
            else "the first takes one seat, the second the others"
        )
        raise ArenaSetupError(
            f"{len(levels)} bot{'s' if len(levels) != 1 else ''} for {players} seats: give "
            f"two ({two}) or {players} (one seat each)",
            "--bots",
        )
    names: list[str] = []
    for level in levels:
        k = sum(1 for n in levels[: len(names)] if n == level)
        names.append(level if k == 0 else f"{level}#{k + 1}")
    if time_limit is not None and not time_limit > 0:
        raise ArenaSetupError(f"time limit must be positive, not {time_limit}", "--time-limit")
    if budget_scale is not None:
        if not budget_scale > 0:
            raise ArenaSetupError(
                f"budget scale must be positive, not {budget_scale}", "--budget-scale"
            )
        if time_limit is not None:
            raise ArenaSetupError(
                "give --time-limit (every bot's time) or --budget-scale (a share of each "
                "level's own budget), not both",
                "--budget-scale",
            )
    return Matchup(
        game,
        players,
        text,
        tuple(names),
        tuple(levels),
        scheme,
        time_limit,
        teams=teams,
        budget_scale=budget_scale,
    )


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _rules_text(game: str, chosen: str | dict[str, object]) -> str:
    """Checked rules (``rules_from_text``'s result) as one line: the preset's own name
    (not an alias), then the options given, ``classic,teams=2``."""
    cls = GAMES[game]
    name = chosen if isinstance(chosen, str) else str(chosen["preset"])
    preset = preset_named(cls.PRESETS, name)
    assert preset is not None  # rules_from_text checked it
    if isinstance(chosen, str):
        return preset.name
    options = [f"{k}={_show(v)}" for k, v in chosen.items() if k != "preset"]
    return ",".join([preset.name, *options])


def with_reference(matchup: Matchup, level: str) -> Matchup:
    """The same match with ``level`` in the first bot's place (the other bots, seats,
    rules and budget unchanged): played on the same plan, it is the reference the first
    bot is compared with deal by deal."""
    level = level.strip()
    _known_bot(level, "--reference", matchup.game)
    return make_matchup(
        matchup.game,
        [level, *matchup.levels[1:]],
        matchup.players,
        matchup.rules,
        matchup.time_limit,
        budget_scale=matchup.budget_scale,
    )


def deal_seed(game: str, seed: int, deal: int) -> int:
    """The engine seed of deal number ``deal`` of an arena run with ``seed`` (< 2**53)."""
    digest = hashlib.sha256(f"trumps-arena/{game}/{seed}/{deal}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


@dataclass(frozen=True)
class GameSpec:
    """One game to play: its number, deal, rotation, engine seed and the bots per seat."""

    index: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    """All games of a run, in order."""

    matchup: Matchup
    seed: int
    specs: tuple[GameSpec, ...]

    @property
    def deals(self) -> int:
        return 0 if not self.specs else self.specs[-1].deal + 1

    @property
    def complete(self) -> bool:
        """True when every deal is played in every rotation (luck cancels exactly)."""
        return len(self.specs) % self.matchup.rotations == 0


def plan_games(matchup: Matchup, games: int, seed: int) -> Plan:
    """The first ``games`` games: rotation ``g % R`` of deal ``g // R``."""
    if games < 1:
        raise ArenaSetupError(f"the number of games must be at least 1, not {games}", "--games")
    r = matchup.rotations
    specs = tuple(
        GameSpec(g, g // r, g % r, deal_seed(matchup.game, seed, g // r), matchup.lineup(g % r))
        for g in range(games)
    )
    return Plan(matchup, seed, specs)


# ---------------------------------------------------------------------------------------
# Playing


def bot_results(
    matchup: Matchup, seats: Sequence[str], winners: Sequence[int], draw: bool
) -> dict[str, str]:
    """Each bot's result, ``win`` / ``draw`` / ``loss``, of a game (module docstring)."""
    if draw:
        return dict.fromkeys(matchup.bots, "draw")
    if matchup.scheme in (ONE_VS_MANY, TEAM_VS_TEAM):
        single = "win" if seats.index(matchup.bots[0]) in winners else "loss"
        return {matchup.bots[0]: single, matchup.bots[1]: "loss" if single == "win" else "win"}
    return {name: "win" if seats.index(name) in winners else "loss" for name in matchup.bots}


def _player(level: str, game_id: str) -> Bot | OracleBot:
    """A level's bot, or the oracle (only the arena builds one)."""
    if level == ORACLE_LEVEL:
        return OracleBot(game_id)
    if ":" in level:
        return plugin_bot(level)(game_id)
    return make_bot(level, game_id)


def play_game(matchup: Matchup, spec: GameSpec) -> dict[str, Any]:
    """Play one game; its row (JSON-ready).

    Each bot decides from ``game.view(seat)`` and ``game.legal_actions()`` only, with
    ``matchup.limits(level)`` and its own generator — except the oracle,
    which is given ``game.to_json()`` (every card) instead of the view.  Every key but
    ``seconds`` (wall-clock time per move) is a function of ``spec`` alone.
    """
    game = new_game(
        matchup.game, players=matchup.players, rules=matchup.game_rules(), seed=spec.seed
    )
    bots = [_player(matchup.level_of(name), matchup.game) for name in spec.seats]
    rngs = [
        random.Random(f"trumps-arena/{spec.seed}/{spec.rotation}/{s}")
        for s in range(matchup.players)
    ]
    limits = [matchup.limits(matchup.level_of(name)) for name in spec.seats]
    moves = dict.fromkeys(matchup.bots, 0)
    total = dict.fromkeys(matchup.bots, 0.0)
    worst = dict.fromkeys(matchup.bots, 0.0)
    while True:
        seat = game.current_player
        if seat is None:
            break
        bot = bots[seat]
        legal = game.legal_actions()
        start = time.perf_counter()
        if isinstance(bot, OracleBot):
            decision = bot.decide_full(game.to_json(), legal, limits[seat], rngs[seat])
        else:
            decision = bot.decide(game.view(seat), legal, limits[seat], rngs[seat])
        spent = time.perf_counter() - start
        name = spec.seats[seat]
        moves[name] += 1
        total[name] += spent
        worst[name] = max(worst[name], spent)
        try:
            game.play(decision.action)
        except (IllegalAction, InvalidAction) as e:
            raise BotFailure(
                f"bot {name} (seat {seat}) in arena game {spec.index} (seed {spec.seed}) "
                f"chose {decision.action!r}: {e}"
            ) from None
    outcome = game.outcome
    assert outcome is not None
    sides = sorted({tuple(sorted(game.side_of(s))) for s in range(matchup.players)})
    return {
        "game": spec.index,
        "deal": spec.deal,
        "rotation": spec.rotation,
        "seed": spec.seed,
        "seats": list(spec.seats),
        "outcome": outcome.to_json(),
        "actions": len(game.history),
        "results": bot_results(matchup, spec.seats, outcome.winners, outcome.draw),
        "sides": [list(side) for side in sides],
        "moves": moves,
        "seconds": {
            name: {
                "mean": total[name] / moves[name] if moves[name] else 0.0,
                "max": worst[name],
            }
            for name in matchup.bots
        },
    }


@dataclass(frozen=True)
class Batch:
    """One executor task: several games of one matchup."""

    matchup: Matchup
    specs: tuple[GameSpec, ...]


def play_batch(batch: Batch) -> list[dict[str, Any]]:
    """Play the games of a batch in order (the function every executor runs)."""
    return [play_game(batch.matchup, spec) for spec in batch.specs]


def choose_batch_size(seconds_per_game: float, games: int, workers: int) -> int:
    """Games per task: about ``TARGET_TASK_SECONDS`` of play, but at most an even share
    of ``games`` per worker (so that every worker has work)."""
    per_worker = max(1, math.ceil(games / max(1, workers)))
    if seconds_per_game <= 0:
        return per_worker
    wanted = max(1, math.ceil(TARGET_TASK_SECONDS / seconds_per_game))
    return min(wanted, per_worker)


@dataclass
class RunInfo:
    """How a run went (wall-clock facts, not part of the results proper)."""

    seconds: float = 0.0
    batch_size: int = 0
    tasks: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def run_games(
    plan: Plan,
    executor: Executor[Batch, list[dict[str, Any]]],
    on_progress: Callable[[int], None] | None = None,
    batch_size: int | None = None,
    info: RunInfo | None = None,
) -> list[dict[str, Any]]:
    """Play every game of ``plan`` through ``executor``; the rows in game order.

    Without ``batch_size`` the first game is played here to time it, and the rest go out
    in batches of about ``TARGET_TASK_SECONDS`` each.  ``on_progress(n)`` is called
    with the number of games just finished.
    """
    start = time.perf_counter()
    specs = list(plan.specs)
    rows: list[dict[str, Any]] = []
    if batch_size is None:
        t0 = time.perf_counter()
        rows.extend(play_batch(Batch(plan.matchup, (specs[0],))))
        pilot = time.perf_counter() - t0
        specs = specs[1:]
        if on_progress is not None:
            on_progress(1)
        batch_size = choose_batch_size(pilot, len(specs), executor.workers)
    tasks = 0
    for i in range(0, len(specs), batch_size):
        executor.submit(Batch(plan.matchup, tuple(specs[i : i + batch_size])))
        tasks += 1
    for result in executor.results():
        rows.extend(result)
        if on_progress is not None:
            on_progress(len(result))
    rows.sort(key=lambda row: int(row["game"]))
    if info is not None:
        info.seconds = time.perf_counter() - start
        info.batch_size = batch_size
        info.tasks = tasks
    return rows
