"""Post-game analysis of a finished Svoi Kozyri duel with the exact solver (issue 13 §3).

The game is over, so every card is known: each decision is judged on the real deal (with
hindsight), not from the player's view.  ``analyze_duel`` replays the actions from a
starting game and, at each card decision of a seat with more than one legal action,
solves the position before the move and the position the move leads to, both for the
seat that moved.  A move whose value is lower than the value before it (win → draw or
loss, draw → loss) is marked, with the solver's best move, which keeps the value.

Values are those of the hand being played (the solver searches a hand; with
``match_losses`` above 1 each hand is judged on its own).  Trump choices (K3) are not
analysed: nothing is dealt yet.  A position the solver cannot prove within the budget
gives ``None``, and a move depending on it is reported as unproved, never guessed.  With
a node limit only, the result is deterministic; a time limit may prove fewer positions
on a slower machine, but a proved value is exact either way.

The data holds codes only (``mark``, ``reason``), so that clients can word them in any
language.  This layer imports no records: the caller replays a record into a starting
game and its actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trumps.ai.kozyri_search import SolveResult, solve
from trumps.games import Game

__all__ = [
    "MARKS",
    "REASONS",
    "Analysis",
    "AnalysisError",
    "MoveAnalysis",
    "analyze_duel",
]

DEFAULT_NODE_LIMIT = 2_000_000
"""The per-position budget when neither a time nor a node limit is given."""

_RANK = {"loss": 0, "draw": 1, "win": 2}
_FLIP = {"win": "loss", "draw": "draw", "loss": "win"}

MARKS = ("blunder", "mistake")
"""``blunder``: a won position thrown to a loss; ``mistake``: one step down (win → draw,
draw → loss)."""

REASONS = ("win_to_loss", "win_to_draw", "draw_to_loss", "unproved")
"""Why a move is marked (the value before and after it), or ``unproved``: the solver did
not prove the value before or after the move within the budget."""


class AnalysisError(ValueError):
    """A game the analysis does not cover (so far only the 2-player Svoi Kozyri duel)."""


@dataclass(frozen=True)
class MoveAnalysis:
    """One analysed decision: ``ply`` is the action's index in the game's actions.

    ``before`` and ``after`` are ``"win"``, ``"draw"``, ``"loss"`` for ``seat`` (None:
    not proved).  ``mark`` is None or one of ``MARKS``; ``better`` the solver's move that
    keeps the value before (only with a mark); ``reason`` None for a proved move that
    kept the value, else one of ``REASONS``.
    """

    ply: int
    seat: int
    action: str
    before: str | None
    after: str | None
    mark: str | None = None
    better: str | None = None
    reason: str | None = None

    @property
    def proved(self) -> bool:
        return self.before is not None and self.after is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "action": self.action,
            "before": self.before,
            "after": self.after,
            "mark": self.mark,
            "better": self.better,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Analysis:
    """The analysed decisions of a game, in the order they were played."""

    game: str
    players: int
    moves: tuple[MoveAnalysis, ...]

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
            "moves": [m.to_json() for m in self.moves],
            "summary": {
                "analysed": len(self.moves),
                "proved": self.proved,
                "marked": self.marked,
                "unproved": self.unproved,
            },
        }


def _state(game: Game) -> tuple[bool, int, list[int]]:
    """What the game's public view says of where it is: whether the trumps are being chosen
    (K3), the hand's number and each seat's hands lost (K18)."""
    view = game.view(None)
    return None in view["trumps"], int(view["hand"]), list(view["losses"])


def _hand_result(seat: int, losses_before: Sequence[int], game: Game) -> str:
    """The value for ``seat`` of a hand that has just ended, from the hands lost."""
    losses = _state(game)[2]
    if losses[seat] > losses_before[seat]:
        return "loss"
    if losses[1 - seat] > losses_before[1 - seat]:
        return "win"
    return "draw"


def _mark(before: str, after: str) -> tuple[str | None, str | None]:
    drop = _RANK[before] - _RANK[after]
    if drop <= 0:
        return None, None
    return ("blunder" if drop == 2 else "mistake"), f"{before}_to_{after}"


def analyze_duel(
    start: Game,
    actions: Sequence[str],
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> Analysis:
    """Analyse ``actions`` played from ``start`` (left unchanged) in a 2-player Svoi
    Kozyri game, each position searched within ``time_limit`` seconds and ``node_limit``
    nodes (both None: ``DEFAULT_NODE_LIMIT`` nodes).  Raises ``AnalysisError`` for
    another game or player count and ``trumps.IllegalAction`` for an action that does
    not replay."""
    if start.game_id != "kozyri" or start.players != 2:
        raise AnalysisError(
            f"only the 2-player Svoi Kozyri duel is analysed so far, "
            f"not {start.game_id} with {start.players} players"
        )
    if time_limit is None and node_limit is None:
        node_limit = DEFAULT_NODE_LIMIT
    game = start.clone()
    solved: dict[int, SolveResult] = {}  # ply → the solver's answer before that action

    def solve_at(ply: int, position: Game) -> SolveResult:
        if ply not in solved:
            solved[ply] = solve(position, time_limit, node_limit)
        return solved[ply]

    moves: list[MoveAnalysis] = []
    for ply, action in enumerate(actions):
        choosing, hand, losses = _state(game)
        seat = game.current_player
        judged = (
            seat is not None and not game.is_over and not choosing and len(game.legal_codes()) > 1
        )
        if not judged or seat is None:
            game.play(action)
            continue
        before_res = solve_at(ply, game)
        before = before_res.value
        game.play(action)
        choosing_after, hand_after, _ = _state(game)
        after: str | None
        if game.is_over or choosing_after or hand_after != hand:
            after = _hand_result(seat, losses, game)
        else:
            after_res = solve_at(ply + 1, game)
            after = after_res.value
            if after is not None and after_res.to_move != seat:
                after = _FLIP[after]
        if before is None or after is None:
            moves.append(MoveAnalysis(ply, seat, action, before, after, reason="unproved"))
            continue
        mark, reason = _mark(before, after)
        better = before_res.best if mark is not None else None
        moves.append(MoveAnalysis(ply, seat, action, before, after, mark, better, reason))
    return Analysis(start.game_id, start.players, tuple(moves))
