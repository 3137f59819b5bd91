"""The oracle: a search that sees every card, for measuring the other bots only.

Every bot of ``trumps.ai.BOTS`` decides from a seat's view and never receives a game
(docs/architecture.md).  ``OracleBot`` is the one exception: it is given the game's full
position (``Game.to_json()``: every hand, the Twenty-Five stock and secret discards) and
searches the one true deal.  Its share against a field is the practical ceiling of a
seat — how much of it a level reaches is what the arena measures (issue 12).

It is deliberately *not* a ``Bot``: it has no ``decide(view, …)``, it is not in
``BOTS`` (so not in ``make_bot``, the server's catalog or ``trumps play``), and only the
arena builds one, by the explicit name ``oracle`` (``ORACLE_LEVEL``), passing it the
position at every move; the arena's report marks it (``ORACLE_NOTE``).

The search:

* Svoi Kozyri with two players: the duel's exact alpha-beta (``kozyri_search``) on the
  true position — the same search as ``expert`` (the duel hides nothing after the deal,
  K19), with the oracle's budget (``Limits.depth`` its deepest ply; iterations alone
  become the levels' fixed node cap);
* Twenty-Five and Svoi Kozyri with 3–4 players: UCT on the true deal — the compiled
  ISMCTS of ``trumps.ai._ismcts`` over an episode whose only "determinization" is the
  truth (an empty sampler: every hand is the real one), the smart rollouts and the
  trick-race reward of ``expert``, each seat maximising its own side's reward.

Budget: ``Limits`` as given (time, iterations, nodes); when all are None,
``default_time`` seconds.  With iterations or nodes and no time the decision is a pure
function of the position, the legal actions and the generator's state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from trumps.ai._ismcts import ISMCTS
from trumps.ai._ismcts_env import KozyriEnv, TwentyFiveEnv
from trumps.ai._ismcts_sample import Env, Sampler
from trumps.ai.base import NEUTRAL_TRUMP, ONLY_MOVE, Decision, Explain, Limits
from trumps.ai.kozyri_search import KozyriSearchBot, _value_of, _win_prob, run_search
from trumps.cards import action_str, parse_action
from trumps.games import GAMES, from_json
from trumps.games.kozyri._core import KozyriCore
from trumps.games.twentyfive._core import TwentyFiveCore

__all__ = ["ORACLE_LEVEL", "ORACLE_NOTE", "OracleBot"]

#: The name the arena accepts for the oracle (never a level players can choose).
ORACLE_LEVEL = "oracle"
#: How reports mark it.
ORACLE_NOTE = "sees every card (measurement only)"


def _truth_env(core: TwentyFiveCore | KozyriCore, seat: int) -> Env:
    """The search episode of the true deal: no hidden slots, every hand the real one
    (the Twenty-Five stock plays no part before the hand ends, and the card to be turned
    up after a joker discard stays the real one)."""
    empty = Sampler([], [], 0, [], [])
    known = [0] * core.n
    if isinstance(core, TwentyFiveCore):
        env = TwentyFiveEnv(core, seat, empty, [], known)
        env.policy = 1
        env.keep = True
        env.reward_kind = 1
        env.infer = 1.0  # nothing to infer: the deal is known
        return env
    return KozyriEnv(core, seat, empty, [], known)


class OracleBot:
    """A search of the true deal, given the full position (see the module docstring)."""

    name: ClassVar[str] = "Oracle"
    level: ClassVar[str] = ORACLE_LEVEL
    note: ClassVar[str] = ORACLE_NOTE
    default_time: ClassVar[float] = 1.0
    #: UCB1 exploration constant (rewards in [0, 1]), as ``hard``'s.
    explore: ClassVar[float] = 0.7

    def __init__(self, game_id: str) -> None:
        if game_id not in GAMES:
            raise ValueError(f"no game {game_id!r} (games: {', '.join(GAMES)})")
        self.game_id = game_id

    def __repr__(self) -> str:
        return f"<OracleBot for {self.game_id}>"

    def decide_full(
        self,
        position: Mapping[str, Any],
        legal: list[str],
        limits: Limits,
        rng: random.Random,
    ) -> Decision:
        """Choose one of ``legal`` for the seat to move in ``position`` (a full
        ``Game.to_json()``, every hidden card included)."""
        start = time.perf_counter()
        if not legal:
            raise ValueError("no legal action to choose from")
        if position.get("game") != self.game_id:
            raise ValueError(f"the oracle plays {self.game_id}, not {position.get('game')!r}")
        if legal[0].startswith("trump "):
            return Decision(
                rng.choice(legal),
                "the trump choice is neutral (K3): any free suit",
                explain=NEUTRAL_TRUMP,
            )
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action", explain=ONLY_MOVE)
        game = from_json(dict(position))
        core = game.core
        seconds = limits.time
        if limits.time is None and limits.iterations is None and limits.nodes is None:
            seconds = self.default_time
        if isinstance(core, KozyriCore) and core.n == 2:
            return self._duel(core.copy(), legal, limits, seconds, start)
        assert isinstance(core, TwentyFiveCore | KozyriCore)
        seat = game.current_player
        assert seat is not None
        budget = 0.0
        if seconds is not None:
            budget = max(seconds * 0.97 - (time.perf_counter() - start) - 0.002, 1e-6)
        search = ISMCTS(_truth_env(core, seat), self.explore)
        search.run(rng, limits.iterations or 0, limits.nodes or 0, budget)
        stats = {m: (visits, mean) for m, visits, mean in search.stats()}
        codes = [parse_action(a) for a in legal]
        best = max(codes, key=lambda c: (stats.get(c, (0, 0.0)), -c))
        action = action_str(best)
        visits, mean = stats.get(best, (0, 0.0))
        values = {a: stats[c][1] for a, c in zip(legal, codes, strict=True) if c in stats}
        percent = round(100 * mean)
        return Decision(
            action,
            f"oracle UCT on the true deal: {search.iterations:,} iterations, "
            f"{search.nodes:,} nodes; {action} scores {mean:.0%} ({visits:,} visits)",
            values,
            Explain("searched", {"depth": 0, "percent": percent}),
        )

    def _duel(
        self,
        core: KozyriCore,
        legal: list[str],
        limits: Limits,
        seconds: float | None,
        start: float,
    ) -> Decision:
        node_limit, depth = limits.nodes, limits.depth
        if seconds is None and node_limit is None:
            # Iterations or a depth alone: cap the nodes, as the levels do (deterministic).
            node_limit = KozyriSearchBot.depth_only_nodes
        if seconds is not None:
            seconds = max(0.95 * seconds - (time.perf_counter() - start), 1e-3)
        res = run_search(core, seconds, node_limit, depth)
        action = action_str(res.best)
        if action not in legal:  # cannot happen: the position is the real one
            action = legal[0]
        value, plies = _value_of(res)
        if value is not None:
            why = f"oracle: solved {value} ({res.nodes:,} nodes)"
            explain = Explain(f"solved_{value}", {"moves": plies or 0} if plies else {})
        else:
            why = f"oracle: depth {res.depth} search, score {res.score:+d} ({res.nodes:,} nodes)"
            explain = Explain(
                "searched", {"depth": res.depth, "percent": round(_win_prob(res.score) * 100)}
            )
        return Decision(action, why, {action: _win_prob(res.score)}, explain)
