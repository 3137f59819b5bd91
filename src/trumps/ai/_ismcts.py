"""Search over engine cores for imperfect information: compiled with mypyc.

The parts, all int-coded and allocation-light (no closures, no generators, no deepcopy):

* ``trumps.ai._ismcts_sample``: the ``Sampler`` of determinizations and the ``Env``
  interface;
* ``trumps.ai._ismcts_env``: the two games' episodes (``TwentyFiveEnv``, ``KozyriEnv``);
* ``trumps.ai._ismcts_policy``: the rollout policies and the Twenty-Five inference;
* here, the searches: ``ISMCTS`` — single-observer information-set MCTS (Cowling,
  Powley & Whitehouse 2012): a new determinization every iteration, UCB1 with
  availability counts over the children compatible with it, one expansion, a rollout,
  and back-propagation where each node's statistics are from the view of the seat that
  made the move into it; and ``PIMC`` — perfect-information Monte Carlo: each
  determinization scores every root move by one rollout on the same deal (paired),
  averaged over determinizations.

Imports only the standard library and ``_ismcts_sample``.
"""

from __future__ import annotations

import math
import time
from random import Random

from trumps.ai._ismcts_sample import Env, pick


class Node:
    """A node of the information-set tree: the move into it and who made it."""

    def __init__(self, move: int, player: int) -> None:
        self.move: int = move
        self.player: int = player
        self.visits: int = 0
        self.avail: int = 1
        self.total: float = 0.0
        self.kids: dict[int, Node] = {}
        self.order: list[Node] = []


class ISMCTS:
    """Single-observer ISMCTS over an ``Env``; see the module docstring."""

    def __init__(self, env: Env, explore: float) -> None:
        self.env: Env = env
        self.explore: float = explore
        self.root: Node = Node(-1, -1)
        self.nodes: int = 1
        self.iterations: int = 0

    def run(self, rng: Random, iterations: int, nodes: int, seconds: float) -> int:
        """Iterate until a limit (``<= 0``: no limit of that kind); the iterations done.
        At least one iteration runs."""
        start = time.perf_counter()
        done = 0
        while True:
            self.iterate(rng)
            done += 1
            if iterations > 0 and done >= iterations:
                break
            if nodes > 0 and self.nodes >= nodes:
                break
            if seconds > 0 and done & 7 == 0 and time.perf_counter() - start >= seconds:
                break
        self.iterations += done
        return done

    def iterate(self, rng: Random) -> None:
        env = self.env
        env.reset(rng)
        node = self.root
        path: list[Node] = []
        explore = self.explore
        while not env.done():
            moves = env.moves()
            kids = node.kids
            untried: list[int] = []
            for m in moves:
                if m not in kids:
                    untried.append(m)
            if untried:
                m = untried[pick(rng, len(untried))]
                child = Node(m, env.player())
                kids[m] = child
                node.order.append(child)
                self.nodes += 1
                env.step(m)
                path.append(child)
                break
            best = node
            best_score = -1.0
            for m in moves:
                ch = kids[m]
                ch.avail += 1
                score = ch.total / ch.visits + explore * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best_score = score
                    best = ch
            env.step(best.move)
            path.append(best)
            node = best
        if not env.done():
            env.rollout(rng)
        r = env.rewards()
        self.root.visits += 1
        for nd in path:
            nd.visits += 1
            nd.total += r[nd.player]

    def stats(self) -> list[tuple[int, int, float]]:
        """Per root move: (move, visits, mean reward for the mover)."""
        out: list[tuple[int, int, float]] = []
        for ch in self.root.order:
            mean = ch.total / ch.visits if ch.visits else 0.0
            out.append((ch.move, ch.visits, mean))
        return out


class PIMC:
    """Perfect-information Monte Carlo over determinizations (see the module docstring)."""

    def __init__(self, env: Env, moves: list[int]) -> None:
        self.env: Env = env
        self.moves: list[int] = moves
        self.totals: list[float] = [0.0] * len(moves)
        self.counts: list[int] = [0] * len(moves)
        self.iterations: int = 0
        self.nodes: int = 0

    def run(self, rng: Random, iterations: int, nodes: int, seconds: float) -> int:
        """Determinizations until a limit (``<= 0``: none of that kind); each scores
        every root move once.  ``nodes`` caps the moves played in rollouts."""
        start = time.perf_counter()
        done = 0
        while True:
            self.iterate(rng)
            done += 1
            if iterations > 0 and done >= iterations:
                break
            if nodes > 0 and self.nodes >= nodes:
                break
            if seconds > 0 and time.perf_counter() - start >= seconds:
                break
        self.iterations += done
        return done

    def iterate(self, rng: Random) -> None:
        env = self.env
        env.reset(rng)
        seat = env.seat
        for i in range(len(self.moves)):
            env.restart()
            env.step(self.moves[i])
            if not env.done():
                env.rollout(rng)
            self.totals[i] += env.rewards()[seat]
            self.counts[i] += 1
            self.nodes += 1

    def stats(self) -> list[tuple[int, int, float]]:
        out: list[tuple[int, int, float]] = []
        for i in range(len(self.moves)):
            k = self.counts[i]
            out.append((self.moves[i], k, self.totals[i] / k if k else 0.0))
        return out
