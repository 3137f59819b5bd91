"""Exact search for the two-player Svoi Kozyri duel: ``solve`` and the search bots.

After the deal the duel has perfect information (K19): a 2-player view lists the
opponent's whole hand in ``known``, so the position rebuilt from the view is the real
one and alpha-beta (``trumps.ai._kozyri_search``) can solve it.  ``solve`` answers for
a position or a game; ``KozyriHardBot`` and ``KozyriExpertBot`` play from a view.
With 3–4 players hands are hidden: these bots refuse (ISMCTS plays those).

Ctrl-C.  While a search runs in the main thread, SIGINT only sets a flag that the
search polls with its clock (``sigint_deferred``); the search then stops and
``KeyboardInterrupt`` is raised once it has returned, in ordinary Python code.  An
interrupt delivered inside the compiled search would instead abort the process.
"""

from __future__ import annotations

import math
import random
import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from time import perf_counter
from types import FrameType
from typing import Any, ClassVar

from trumps.ai._kozyri_search import WIN, WIN_MIN, KozyriSearch, SearchResult, Weights
from trumps.ai.base import NEUTRAL_TRUMP, ONLY_MOVE, Bot, Decision, Explain, Limits
from trumps.ai.views import game_from_view
from trumps.cards import action_str, parse_card
from trumps.games import Game, from_json
from trumps.games.kozyri._core import KozyriCore
from trumps.games.viewtypes import View, seat_of


class SolveError(ValueError):
    """A position the duel solver cannot search (wrong game, seat count, game over …)."""


@dataclass(frozen=True)
class SolveResult:
    """A solver's answer for the side to move.

    ``value`` is ``"win"``, ``"draw"`` or ``"loss"`` when proven (``exact``), else None
    and ``best`` is the best guess of the deepest finished iteration.  ``score`` is the
    search score for the side to move (±(1,000,000 − plies) for a proven win/loss, 0 a
    draw, else heuristic); ``plies`` the length of a proven win or loss (else None).
    """

    value: str | None
    best: str
    nodes: int
    seconds: float
    exact: bool
    score: int
    depth: int
    to_move: int
    plies: int | None = None
    pv: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The ``trumps solve --json`` form."""
        return {
            "value": self.value,
            "best": self.best,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }

    def summary(self) -> str:
        """One line: ``"win in 7 (12,345 nodes)"`` or the search's best guess."""
        if self.value in ("win", "loss"):
            return f"solved: {self.value} in {self.plies} plies ({self.nodes:,} nodes)"
        if self.value == "draw":
            return f"solved: draw ({self.nodes:,} nodes)"
        return f"depth {self.depth} search, score {self.score:+d} ({self.nodes:,} nodes)"


# ---------------------------------------------------------------------------------------
# The searchable state.


def duel_core(position_or_game: Mapping[str, Any] | Game) -> KozyriCore:
    """A fresh core for a 2-player Svoi Kozyri position in play; raises ``SolveError``
    (or ``trumps.InvalidPosition`` for a bad position dict)."""
    if isinstance(position_or_game, Game):
        game = position_or_game
    elif isinstance(position_or_game, Mapping):
        game = from_json(position_or_game)
    else:
        raise SolveError(f"expected a position dict or a game, not {position_or_game!r:.80}")
    if game.game_id != "kozyri":
        raise SolveError(f"the solver plays Svoi Kozyri (kozyri), not {game.game_id}")
    if game.players != 2:
        raise SolveError(
            f"the solver needs a 2-player Svoi Kozyri position (perfect information), "
            f"not {game.players} players"
        )
    if game.is_over:
        raise SolveError(f"the game is over ({game.describe()}): nothing to solve")
    core = game.core
    if not isinstance(core, KozyriCore):
        raise SolveError(f"unexpected core {type(core).__name__}")
    if core.choosing:
        raise SolveError(
            "the position is in the trump choice (K3): no cards are dealt yet, nothing to solve"
        )
    return core.copy()  # the engine's repetition counts come along (K17)


def _value_of(res: SearchResult) -> tuple[str | None, int | None]:
    if res.score >= WIN_MIN:
        return "win", WIN - res.score
    if res.score <= -WIN_MIN:
        return "loss", WIN + res.score
    if res.exact:
        return "draw", None
    return None, None


# ---------------------------------------------------------------------------------------
# Ctrl-C during a search.

_pending = [False]  # a SIGINT arrived while deferred


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _pending[0] = True


def _interrupted() -> bool:
    # Plain Python on purpose: calling it from the compiled search runs the interpreter,
    # which first runs any pending signal handler (``_on_sigint``).
    return _pending[0]


def _never() -> bool:
    return False


@contextmanager
def sigint_deferred() -> Iterator[Callable[[], bool]]:
    """Defer SIGINT while a compiled search runs; yields the poll the search checks.

    Inside, SIGINT only sets a flag (the poll then returns True).  On leaving, a
    deferred SIGINT goes to the handler that was installed before (by default it raises
    ``KeyboardInterrupt``), outside the compiled code.  Outside the main thread, or when
    SIGINT is ignored or not handled by Python, nothing changes and the poll is always
    False.  Nested uses share the outer deferral.
    """
    if threading.current_thread() is not threading.main_thread():
        yield _never
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is _on_sigint:
        yield _interrupted
        return
    if previous is None or previous in (signal.SIG_IGN, signal.SIG_DFL) or not callable(previous):
        yield _never
        return
    _pending[0] = False
    signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield _interrupted
    finally:
        signal.signal(signal.SIGINT, previous)
        if _pending[0]:
            _pending[0] = False
            previous(signal.SIGINT, None)


def run_search(
    core: KozyriCore,
    time_limit: float | None,
    node_limit: int | None,
    max_depth: int | None = None,
    weights: Weights | None = None,
    *,
    prove: bool = False,
) -> SearchResult:
    """Run the iterative-deepening search on ``core`` (restored afterwards).

    Ctrl-C stops the search and raises ``KeyboardInterrupt`` here (``sigint_deferred``).
    """
    search = KozyriSearch(
        core,
        time_limit if time_limit is not None else 0.0,
        node_limit if node_limit is not None else 0,
        max_depth if max_depth is not None else 0,
        weights if weights is not None else Weights(),
    )
    search.prove = prove
    with sigint_deferred() as poll:
        search.poll = poll
        res = search.run()
    return res


def solve(
    position_or_game: Mapping[str, Any] | Game,
    time_limit: float | None = None,
    node_limit: int | None = None,
    *,
    max_depth: int | None = None,
) -> SolveResult:
    """Solve a 2-player Svoi Kozyri position (a docs/positions.md dict or a game) for the side to
    move within the budget (None: no limit of that kind — an unlimited search of a
    large position may run very long).  Raises ``SolveError`` or ``InvalidPosition``.
    """
    if time_limit is not None and time_limit <= 0:
        raise ValueError(f"time_limit must be positive, not {time_limit!r}")
    if node_limit is not None and node_limit <= 0:
        raise ValueError(f"node_limit must be positive, not {node_limit!r}")
    core = duel_core(position_or_game)
    to_move = core.tm
    res = run_search(core, time_limit, node_limit, max_depth, prove=True)
    value, plies = _value_of(res)
    return SolveResult(
        value=value,
        best=action_str(res.best),
        nodes=res.nodes,
        seconds=res.seconds,
        exact=value is not None,
        score=res.score,
        depth=res.depth,
        to_move=to_move,
        plies=plies,
        pv=[action_str(m) for m in res.pv],
    )


# ---------------------------------------------------------------------------------------
# Bots.


class KozyriSearchBot(Bot):
    """Alpha-beta for the 2-player duel, from the seat's view (complete by K19).

    Budget: ``Limits.time`` (seconds), ``Limits.nodes`` (search nodes) and
    ``Limits.iterations`` (the deepest iterative-deepening depth, with at most
    ``depth_only_nodes`` nodes when neither time nor nodes are given); when all are None,
    ``default_time`` seconds.  3–4 player views raise ``ValueError``.
    """

    name: ClassVar[str] = "Search"
    level: ClassVar[str] = "search"
    default_time: ClassVar[float] = 1.0
    max_depth: ClassVar[int] = 0  # 0: iterate until solved or out of budget
    depth_only_nodes: ClassVar[int] = 200_000  # node cap when only a depth is given
    weights: ClassVar[Weights] = Weights()

    def __init__(self, game_id: str) -> None:
        if game_id != "kozyri":
            raise ValueError(f"{type(self).__name__} plays Svoi Kozyri (kozyri), not {game_id!r}")
        super().__init__(game_id)

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        start = perf_counter()
        players = len(view["hands"])
        if players != 2:
            raise ValueError(
                f"{type(self).__name__} searches the 2-player duel only; this game has "
                f"{players} players (hidden hands: use the ISMCTS bot)"
            )
        if not legal:
            raise ValueError("no legal action to choose from")
        if legal[0].startswith("trump "):
            return Decision(
                rng.choice(legal),
                "the trump choice is neutral (K3): any free suit",
                explain=NEUTRAL_TRUMP,
            )
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action", explain=ONLY_MOVE)
        seat = seat_of(view)
        other = 1 - seat
        theirs = view["hands"][other]
        if not isinstance(theirs, dict):
            raise ValueError(f"seat {other}'s hand is not hidden in seat {seat}'s view")
        known = [parse_card(c) for c in theirs["known"]]
        if len(known) != theirs["count"]:
            raise ValueError("a 2-player view must list the opponent's whole hand (K19)")
        game = game_from_view(view, {other: known})
        core = game.core
        assert isinstance(core, KozyriCore)
        time_limit, node_limit, depth = limits.time, limits.nodes, limits.iterations
        if time_limit is None and node_limit is None:
            if depth is None:
                time_limit = self.default_time
            else:
                # A depth alone does not bound an iterative deepening that skips forced
                # moves and extends into long pick-up lines: cap the nodes (deterministic).
                node_limit = self.depth_only_nodes
        if time_limit is not None:
            # Keep 5% for the clock checks between nodes and returning the decision.
            time_limit = max(0.95 * time_limit - (perf_counter() - start), 1e-3)
        if depth is None and self.max_depth:
            depth = self.max_depth
        res = run_search(core, time_limit, node_limit, depth, self.weights)
        action = action_str(res.best)
        if action not in legal:  # cannot happen: the view's position is the real one
            action = legal[0]
        value, plies = _value_of(res)
        if value in ("win", "loss"):
            why = f"solved: {value} in {plies} plies ({res.nodes:,} nodes)"
            explain = Explain(f"solved_{value}", {"moves": plies or 0})
        elif value == "draw":
            why = f"solved: draw ({res.nodes:,} nodes)"
            explain = Explain("solved_draw")
        else:
            why = f"depth {res.depth} search: score {res.score:+d} ({res.nodes:,} nodes)"
            percent = round(_win_prob(res.score) * 100)
            explain = Explain("searched", {"depth": res.depth, "percent": percent})
        # Only the chosen move's score is exact for this window (the others are bounds).
        return Decision(action, why, {action: _win_prob(res.score)}, explain)


def _win_prob(score: int) -> float:
    """A score as a win probability in [0, 1] (a draw or an even position is 0.5)."""
    if score >= WIN_MIN:
        return 1.0
    if score <= -WIN_MIN:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / 200.0))


class KozyriHardBot(KozyriSearchBot):
    """``hard``: a short iterative-deepening search (0.2 s, at most 10 plies deep)."""

    name: ClassVar[str] = "Hard"
    level: ClassVar[str] = "hard"
    default_time: ClassVar[float] = 0.2
    max_depth: ClassVar[int] = 10


class KozyriExpertBot(KozyriSearchBot):
    """``expert``: iterative deepening until solved or 1 s; endgames are solved exactly."""

    name: ClassVar[str] = "Expert"
    level: ClassVar[str] = "expert"
    default_time: ClassVar[float] = 1.0


__all__ = [
    "KozyriExpertBot",
    "KozyriHardBot",
    "KozyriSearchBot",
    "SolveError",
    "SolveResult",
    "duel_core",
    "sigint_deferred",
    "solve",
]
