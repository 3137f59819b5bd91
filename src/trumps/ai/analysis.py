"""Post-game analysis of a finished game: the moves that cost the most (issue 13 §3).

Two methods, chosen by the game (docs/analysis.md):

* **The Svoi Kozyri duel: exact, with hindsight.**  Every card is known once the game is
  over (and, with two players, to a player who counts: K19).  At each decision the exact
  solver (``trumps.ai.kozyri_search``) proves the value of the position before the move
  and of the one it led to, for the seat that moved.  A move that lowered the value (win →
  draw or loss, draw → loss) is marked, with the solver's move that kept it.  Values are
  those of the hand being played.  A position not proved within the budget gives ``None``
  and a move depending on it is reported ``unproved``, never guessed.
* **Twenty-Five and Svoi Kozyri with 3–4 players: from the player's own view.**  The
  ``expert`` search judges each decision from ``Game.view(seat)`` (never a hidden card):
  ``trumps.ai.analysis_view``.  Values are estimated chances, and a move is marked only
  when what it lost is clear of the sampling noise.

Only real choices are judged: a seat to move with two or more legal actions, outside the
Svoi Kozyri trump choice (K3: nothing is dealt yet, and every free suit is alike).  Each
decision can be analysed on its own (``analyze_ply``: what the server's bot workers run,
one decision per job) or all in one pass (``analyze_game``: ``trumps analyze``); both
give the same result for the same budget when the budget is in nodes and deals, since
each decision's random generator is seeded from the game's seed and the ply.

The data holds codes only (``mark``, ``reason``, ``explain``), so that every client can
word them in its own language.  This layer imports no records: the caller replays a
record into a starting game and its actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from trumps.ai.analysis_view import DEFAULT_DEALS, judge_view
from trumps.ai.base import Explain
from trumps.ai.kozyri_search import SolveResult, solve
from trumps.games import Game

__all__ = [
    "DEFAULT_DEALS",
    "MARKS",
    "REASONS",
    "Analysis",
    "AnalysisError",
    "Budget",
    "MoveAnalysis",
    "analysis_of",
    "analyze_duel",
    "analyze_game",
    "analyze_ply",
    "judged_plies",
    "method_of",
]

DEFAULT_NODE_LIMIT = 2_000_000
"""The duel solver's per-position budget when neither a time nor a node limit is given."""

_RANK = {"loss": 0, "draw": 1, "win": 2}
_FLIP = {"win": "loss", "draw": "draw", "loss": "win"}
_SCORE = {"loss": 0.0, "draw": 0.5, "win": 1.0}

MARKS = ("blunder", "mistake", "inaccuracy")
"""Duel: ``blunder`` a won position thrown to a loss, ``mistake`` one step down (win →
draw, draw → loss).  From the view: ``blunder`` at least 20 points of the estimated chance
lost, ``mistake`` 10, ``inaccuracy`` 5 (``trumps.ai.analysis_view``)."""

REASONS = ("win_to_loss", "win_to_draw", "draw_to_loss", "lost_chance", "unproved")
"""Why a move is marked: the duel's value before and after it; ``lost_chance`` (from the
view: ``lost`` points of the estimated chance); ``unproved`` (the duel solver did not prove
the value before or after the move within the budget)."""


class AnalysisError(ValueError):
    """A game or a request the analysis cannot serve (a ply that is no decision …)."""


@dataclass(frozen=True)
class Budget:
    """How hard to look: the duel solver's ``time_limit`` (seconds) and ``node_limit`` per
    position (both None: ``DEFAULT_NODE_LIMIT`` nodes); the view search's ``deals`` per
    decision; ``seed`` for the view search's deals (with the ply)."""

    time_limit: float | None = None
    node_limit: int | None = None
    deals: int = DEFAULT_DEALS
    seed: int = 0


@dataclass(frozen=True)
class MoveAnalysis:
    """One analysed decision: ``ply`` is the action's index in the game's actions.

    ``before`` and ``after`` are the values, for ``seat``, of the best move and of the move
    played, from 0 to 1 (the duel: 1 a win, 0.5 a draw, 0 a loss; None: not proved).
    ``lost`` is their difference in points (0–100).  ``mark`` is None or one of ``MARKS``;
    ``better`` (with a mark only) the move that keeps the value before, and ``explain`` why,
    as the hints say it (``trumps.ai.base.Explain``); ``reason`` None for a move that
    cost nothing worth marking, else one of ``REASONS``.
    """

    ply: int
    seat: int
    action: str
    before: float | None
    after: float | None
    mark: str | None = None
    better: str | None = None
    reason: str | None = None
    lost: float | None = None
    explain: Explain | None = None

    @property
    def proved(self) -> bool:
        return self.before is not None and self.after is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "action": self.action,
            "before": None if self.before is None else round(self.before, 4),
            "after": None if self.after is None else round(self.after, 4),
            "lost": None if self.lost is None else round(self.lost, 1),
            "mark": self.mark,
            "better": self.better,
            "reason": self.reason,
            "explain": None if self.explain is None else self.explain.to_json(),
        }


@dataclass(frozen=True)
class Analysis:
    """The analysed decisions of a game, in the order they were played; ``method`` is
    ``solver`` (the duel) or ``expert`` (from each player's view)."""

    game: str
    players: int
    method: str
    moves: tuple[MoveAnalysis, ...]
    budget: dict[str, Any] = field(default_factory=dict)

    @property
    def proved(self) -> int:
        return sum(1 for m in self.moves if m.proved)

    @property
    def marked(self) -> int:
        return sum(1 for m in self.moves if m.mark is not None)

    @property
    def unproved(self) -> int:
        return len(self.moves) - self.proved

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "method": self.method,
            "budget": dict(self.budget),
            "moves": [m.to_json() for m in self.moves],
            "summary": {
                "analysed": len(self.moves),
                "evaluated": self.proved,
                "marked": self.marked,
                "unproved": self.unproved,
            },
        }


def method_of(game: Game) -> str:
    """``solver`` for the 2-player Svoi Kozyri duel, else ``expert``."""
    return "solver" if game.game_id == "kozyri" and game.players == 2 else "expert"


def _state(game: Game) -> tuple[bool, int, list[int]]:
    """What the game's public view says of where it is: whether the trumps are being chosen
    (K3), the hand's number and each seat's hands lost (K18; Svoi Kozyri only)."""
    view = game.view(None)
    if view["game"] == "kozyri":
        return None in view["trumps"], view["hand"], list(view["losses"])
    return False, view["hand"], []


def _is_decision(game: Game) -> bool:
    seat = game.current_player
    if seat is None or game.is_over:
        return False
    legal = game.legal_actions()
    return len(legal) > 1 and not legal[0].startswith("trump ")


def _walk(start: Game, actions: Sequence[str]) -> Iterator[tuple[int, Game]]:
    """Replay ``actions`` from a copy of ``start``, yielding (ply, game before the action)
    at each decision; raises ``trumps.IllegalAction`` for an action that does not replay."""
    game = start.clone()
    for ply, action in enumerate(actions):
        if _is_decision(game):
            yield ply, game
        game.play(action)


def judged_plies(start: Game, actions: Sequence[str]) -> list[int]:
    """The plies of ``actions`` that are decisions (what ``analyze_game`` judges)."""
    return [ply for ply, _ in _walk(start, actions)]


# -- the duel, exactly -----------------------------------------------------------------


def _hand_result(seat: int, losses_before: Sequence[int], game: Game) -> str:
    """The value for ``seat`` of a hand that has just ended, from the hands lost."""
    losses = _state(game)[2]
    if losses[seat] > losses_before[seat]:
        return "loss"
    if losses[1 - seat] > losses_before[1 - seat]:
        return "win"
    return "draw"


def _solved_explain(res: SolveResult) -> Explain:
    if res.value == "draw":
        return Explain("solved_draw")
    return Explain(f"solved_{res.value}", {"moves": res.plies or 0})


def _judge_duel(
    game: Game, ply: int, action: str, budget: Budget, solved: dict[int, SolveResult]
) -> MoveAnalysis:
    """Judge ``action`` at ``game`` (left as it was).  ``solved`` caches the solver's
    answers by the ply they were asked before (shared across one pass)."""
    seat = game.current_player
    assert seat is not None
    time_limit, node_limit = budget.time_limit, budget.node_limit
    if time_limit is None and node_limit is None:
        node_limit = DEFAULT_NODE_LIMIT
    _, hand, losses = _state(game)
    child = game.clone()
    child.play(action)
    choosing_after, hand_after, _ = _state(child)
    after: str | None
    if child.is_over or choosing_after or hand_after != hand:
        after = _hand_result(seat, losses, child)
    else:
        if ply + 1 not in solved:
            solved[ply + 1] = solve(child, time_limit, node_limit)
        after_res = solved[ply + 1]
        after = after_res.value
        if after is not None and after_res.to_move != seat:
            after = _FLIP[after]
    before_res = solved.get(ply)
    before: str | None
    if before_res is None and after == "win":
        before = "win"  # a move proved to win shows the position before it was won
    else:
        if before_res is None:
            before_res = solved[ply] = solve(game, time_limit, node_limit)
        before = before_res.value
    if before is None or after is None:
        return MoveAnalysis(
            ply,
            seat,
            action,
            None if before is None else _SCORE[before],
            None if after is None else _SCORE[after],
            reason="unproved",
        )
    drop = _RANK[before] - _RANK[after]
    lost = 100.0 * (_SCORE[before] - _SCORE[after])
    if drop <= 0 or before_res is None:
        return MoveAnalysis(ply, seat, action, _SCORE[before], _SCORE[after], lost=lost)
    return MoveAnalysis(
        ply,
        seat,
        action,
        _SCORE[before],
        _SCORE[after],
        mark="blunder" if drop == 2 else "mistake",
        better=before_res.best,
        reason=f"{before}_to_{after}",
        lost=lost,
        explain=_solved_explain(before_res),
    )


# -- the other games, from the player's view ---------------------------------------------


def _judge_view(game: Game, ply: int, action: str, budget: Budget) -> MoveAnalysis:
    seat = game.current_player
    assert seat is not None
    rng = random.Random(budget.seed * 1_000_003 + ply)
    verdict = judge_view(game.view(seat), game.legal_actions(), action, budget.deals, rng)
    if verdict.mark is None:
        return MoveAnalysis(ply, seat, action, verdict.before, verdict.after, lost=verdict.lost)
    return MoveAnalysis(
        ply,
        seat,
        action,
        verdict.before,
        verdict.after,
        mark=verdict.mark,
        better=verdict.best,
        reason="lost_chance",
        lost=verdict.lost,
        explain=verdict.explain,
    )


def _budget_json(method: str, budget: Budget) -> dict[str, Any]:
    if method == "expert":
        return {"deals": budget.deals, "seed": budget.seed}
    node_limit = budget.node_limit
    if budget.time_limit is None and node_limit is None:
        node_limit = DEFAULT_NODE_LIMIT
    return {"time_limit": budget.time_limit, "node_limit": node_limit}


def analyze_ply(
    start: Game,
    actions: Sequence[str],
    ply: int,
    budget: Budget = Budget(),
    solved: dict[int, SolveResult] | None = None,
) -> MoveAnalysis:
    """The decision at ``ply`` of ``actions`` played from ``start`` (left unchanged).
    ``solved``: the duel solver's answers kept across the decisions of one game, as
    ``analyze_game`` keeps them (each decision's position is the one before's next).
    Raises ``AnalysisError`` when that ply is no decision (out of range, forced, a trump
    choice) and ``trumps.IllegalAction`` for an action that does not replay."""
    if not 0 <= ply < len(actions):
        raise AnalysisError(f"ply {ply} is not in the game's {len(actions)} actions")
    game = start.clone()
    for action in actions[:ply]:
        game.play(action)
    if not _is_decision(game):
        raise AnalysisError(f"ply {ply} is no decision (a forced move or a trump choice)")
    if method_of(start) == "solver":
        return _judge_duel(game, ply, actions[ply], budget, {} if solved is None else solved)
    return _judge_view(game, ply, actions[ply], budget)


def analyze_game(
    start: Game,
    actions: Sequence[str],
    budget: Budget = Budget(),
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Every decision of ``actions`` played from ``start`` (left unchanged), each within
    ``budget``; ``progress(done, total)`` is called after each decision.  Raises
    ``trumps.IllegalAction`` for an action that does not replay."""
    method = method_of(start)
    total = len(judged_plies(start, actions)) if progress is not None else 0
    solved: dict[int, SolveResult] = {}
    moves: list[MoveAnalysis] = []
    for ply, game in _walk(start, actions):
        if method == "solver":
            moves.append(_judge_duel(game, ply, actions[ply], budget, solved))
        else:
            moves.append(_judge_view(game, ply, actions[ply], budget))
        if progress is not None:
            progress(len(moves), total)
    return analysis_of(start, moves, budget)


def analysis_of(start: Game, moves: Sequence[MoveAnalysis], budget: Budget) -> Analysis:
    """The analysis of the game begun at ``start`` from its judged ``moves`` (each from
    ``analyze_ply`` with ``budget``, in the order played)."""
    method = method_of(start)
    return Analysis(
        start.game_id, start.players, method, tuple(moves), _budget_json(method, budget)
    )


def analyze_duel(
    start: Game,
    actions: Sequence[str],
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> Analysis:
    """``analyze_game`` for the 2-player Svoi Kozyri duel only (raises ``AnalysisError``
    for another game or player count)."""
    if method_of(start) != "solver":
        raise AnalysisError(
            f"the exact analysis is for the 2-player Svoi Kozyri duel, "
            f"not {start.game_id} with {start.players} players"
        )
    return analyze_game(start, actions, Budget(time_limit=time_limit, node_limit=node_limit))
