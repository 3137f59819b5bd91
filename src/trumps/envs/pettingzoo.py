"""A PettingZoo AEC environment for each game and player count (issue 14 §2;
docs/research.md, PettingZoo).

``env(game="kozyri", players=2, rules=None, reward="win", render_mode=None)`` is the
environment wrapped like PettingZoo's classic games (an illegal action ends the game with
reward -1 to its agent, an out-of-space action is an assertion error, the AEC call order is
enforced); ``raw_env(...)`` is the bare environment, where an illegal action id raises
``trumps.IllegalAction`` (a number that is no action id at all ``trumps.InvalidAction``)
and changes nothing.

- **Agents** ``player_0 … player_{n-1}`` are the seats in order. ``agent_selection`` is
  always the game's ``current_player``: play is not round robin (a Svoi Kozyri player
  beats and throws on as the rules say, a Twenty-Five trick is led by its last winner).
- **Rules** pass through: ``rules`` is a preset name or an options dict, as for
  ``trumps.new_game``; bad rules or a player count the game does not allow raise
  ``trumps.InvalidRules`` at construction.
- **Actions**: ``Discrete(game.num_actions)``, the game's action ids (docs/actions.md,
  Action ids): 41 in Svoi Kozyri, whose trump choice (K3, ids 37–40) is an ordinary
  decision of the agents, and 159 in Twenty-Five.
- **Observations**: ``{"observation": float32[size], "action_mask": int8[num_actions]}``,
  where ``observation`` is ``trumps.envs.observation.encode(game.view(seat))`` — built from
  the agent's own view only, never from the game's full position — and ``action_mask`` is
  the game's ``action_mask()`` for the agent to move and all zeros for the others.
- **Rewards**, accumulated the PettingZoo way (``last()`` returns an agent's rewards since
  it last acted): ``reward="win"`` gives, when the game ends, +1 to each winner and -1 to
  each loser of the game's ``Outcome`` (in Twenty-Five with teams the whole side; in Svoi
  Kozyri with 3–4 players the one loser -1 and everyone else +1) and 0 to all on a draw;
  nothing before. ``reward="points"`` (Twenty-Five only; ``ValueError`` for Svoi Kozyri)
  gives after every action each agent the points its side scored on it ÷ the target, read
  from the public view, plus the ±1 at the end.
- **Seeding**: ``reset(seed=s)`` seeds the environment's ``np_random`` with ``s`` and draws
  the game's seed from it, so the same ``s`` deals the same game; ``reset()`` draws the
  next seed from ``np_random``.
- **Termination**: when the game is over every agent is terminated (a Svoi Kozyri draw by
  ``max_plies`` too: that is an end of the game, not a truncation); the agents then leave
  with dead steps (``step(None)``). Nothing is ever truncated.
- ``render_mode="ansi"``: ``render()`` returns the position as a spectator sees it, in a
  few lines of plain text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from trumps.envs.observation import encode, size
from trumps.games import Game, new_game
from trumps.games.viewtypes import View, hidden_hands

__all__ = ["env", "raw_env"]

Obs = dict[str, Any]  # "observation": float32 array, "action_mask": int8 array
Env = AECEnv[str, Obs, Any]  # actions: an id (int or numpy integer), None for a dead step

REWARDS: Final = ("win", "points")
SEED_BOUND: Final = 2**53  # the games' own fresh seeds are below this too


def env(**kwargs: Any) -> Env:
    """``raw_env(**kwargs)`` in PettingZoo's wrappers for classic games: an illegal action
    ends the game for everyone with -1 to its agent (and 0 to the others), an action out
    of the space fails an assertion, and calls out of the AEC order raise."""
    e: Env = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(Env, EzPickle):
    """One game of Svoi Kozyri or Twenty-Five as an AEC environment (the module's docstring
    says what everything means)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi"],
        "name": "trumps_v0",
        "is_parallelizable": False,
    }
    possible_agents: list[str]
    agents: list[str]
    agent_selection: str
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]

    def __init__(
        self,
        game: str = "kozyri",
        players: int | None = 2,
        rules: str | Mapping[str, Any] | None = None,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, game, players, rules, reward, render_mode)
        super().__init__()  # type: ignore[no-untyped-call]
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        # Validates the game id, the player count and the rules (InvalidRules, one line).
        self._rules = dict(rules) if isinstance(rules, Mapping) else rules
        self.game: Game = new_game(game, players=players, rules=self._rules, seed=0)
        if reward == "points" and game != "twentyfive":
            raise ValueError("reward='points' is for Twenty-Five only: Svoi Kozyri has no points")
        self.game_id = game
        self.players = self.game.players
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self.agents = self.possible_agents[:]
        n = self.game.num_actions
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size(game),), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: x for a, x in self._action_spaces.items()}  # noqa: C416
        self.observation_spaces = {a: x for a, x in self._observation_spaces.items()}  # noqa: C416
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._start(self._draw_seed())

    # -- the AEC interface ----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self._start(self._draw_seed())

    def observe(self, agent: str) -> Obs:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_actions, np.int8)
        if self.game.current_player == seat:
            mask[:] = self.game.action_mask()
        return {
            "observation": np.array(encode(self.game.view(seat)), np.float32),
            "action_mask": mask,
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action_id = int(action) if isinstance(action, np.integer) else action
        before = self._scores()
        self.game.play_id(action_id)  # IllegalAction / InvalidAction: nothing changed
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if self.reward == "points":
            after, target = self._scores(), self._target()
            for seat, a in enumerate(self.possible_agents):
                side = self._side[seat]
                self.rewards[a] += (after[side] - before[side]) / target
        outcome = self.game.outcome
        if outcome is None:
            self.agent_selection = self._agent_to_move()
        else:
            if not outcome.draw:
                for seat in outcome.winners:
                    self.rewards[self.possible_agents[seat]] += 1
                for seat in outcome.losers:
                    self.rewards[self.possible_agents[seat]] -= 1
            self.terminations = dict.fromkeys(self.agents, True)
            seat = self.possible_agents.index(agent)
            self.agent_selection = self.possible_agents[(seat + 1) % self.players]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return _text(self.game.view(None), self.possible_agents)

    def close(self) -> None:
        pass

    # -- inside ---------------------------------------------------------------------------

    def _draw_seed(self) -> int:
        return int(self.np_random.integers(0, SEED_BOUND))

    def _start(self, game_seed: int) -> None:
        self.game = new_game(self.game_id, players=self.players, rules=self._rules, seed=game_seed)
        view = self.game.view(None)
        teams = view["teams"] if view["game"] == "twentyfive" else None
        self._side = list(range(self.players))
        for t, members in enumerate(teams or []):
            for seat in members:
                self._side[seat] = t
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def _agent_to_move(self) -> str:
        seat = self.game.current_player
        assert seat is not None
        return self.possible_agents[seat]

    def _scores(self) -> list[int]:
        view = self.game.view(None)
        if self.reward != "points" or view["game"] != "twentyfive":
            return []
        return list(view["scores"])

    def _target(self) -> int:
        target = self.game.rules["target"]
        assert isinstance(target, int)
        return max(target, 1)


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def _text(view: View, agents: list[str]) -> str:
    """A spectator's view (docs/views.md) as a few lines of plain text."""
    lines: list[str] = []
    if view["game"] == "kozyri":
        trumps = view["trumps"]
        lines.append(f"Svoi Kozyri, hand {view['hand']}, ply {view['ply']}")
        for seat, hand in enumerate(hidden_hands(view)):
            known = f" (known: {_cards(hand['known'])})" if hand["known"] else ""
            out = ", out" if seat in (view.get("out") or []) else ""
            losses = view["losses"][seat]
            lines.append(
                f"{agents[seat]}: trump {trumps[seat] or '?'}, {hand['count']} cards{known}"
                f"{out}, hands lost {losses}"
            )
        pile = view["pile"]
        lines.append(f"pile: {_cards(pile)}" + (f" (top {pile[-1]})" if pile else ""))
    else:
        dealer = "-" if view["dealer"] is None else agents[view["dealer"]]
        lines.append(
            f"Twenty-Five, hand {view['hand']}, dealer {dealer}, "
            f"turn-up {view['turnup'] or '-'}, trumps {view['trump'] or '-'}"
        )
        robbed = view.get("robbed")
        if isinstance(robbed, Mapping):
            lines.append(f"robbed by {agents[robbed['seat']]}")
        teams = view.get("teams")
        scores = view["scores"]
        if teams:
            parts = [
                f"{'+'.join(agents[s] for s in team)} {scores[t]}" for t, team in enumerate(teams)
            ]
        else:
            parts = [f"{agents[s]} {score}" for s, score in enumerate(scores)]
        lines.append(f"scores (target {view['rules']['target']}): " + ", ".join(parts))
        lines.append(
            "cards held: "
            + ", ".join(f"{agents[s]} {h['count']}" for s, h in enumerate(hidden_hands(view)))
        )
        won = [agents[t["winner"]] for t in view.get("tricks") or []]
        lines.append(f"tricks this hand won by: {', '.join(won) if won else '-'}")
        leader = view["leader"]
        if view["trick"] and leader is not None:
            lines.append(f"trick led by {agents[leader]}: {_cards(view['trick'])}")
    outcome = view.get("outcome")
    to_move = view.get("to_move")
    if outcome:
        if outcome["draw"]:
            lines.append(f"game over: a draw ({outcome['reason']})")
        else:
            winners = ", ".join(agents[s] for s in outcome["winners"])
            lines.append(f"game over: won by {winners} ({outcome['reason']})")
    elif isinstance(to_move, int):
        lines.append(f"to move: {agents[to_move]}")
    return "\n".join(lines)
