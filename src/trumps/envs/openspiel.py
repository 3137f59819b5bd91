"""Both games as OpenSpiel Python games (issue 14 §3; docs/research.md, OpenSpiel).

``import trumps.envs.openspiel`` registers ``python_trumps_kozyri`` (Svoi Kozyri, 2–4
players) and ``python_trumps_twentyfive`` (Twenty-Five, 2–10 players) with pyspiel, so
``pyspiel.load_game("python_trumps_kozyri(players=3)")`` loads one.

- **Parameters**: ``players`` (default 2 / 4), ``preset`` (default ``standard`` /
  ``classic``), every rule option of docs/rules/options.md under its own name with the
  default preset's value as default, and ``deal_seeds`` (below). Twenty-Five's ``teams`` is
  an int, 0 for ``none``; a choice that starts with a digit is spelled with ``_`` for
  ``-`` (``deal_packets=4_1``), since OpenSpiel reads ``4-1`` as a number. OpenSpiel fills
  in every parameter not given, so an option can only tell when it *differs* from its
  default: the rules are the preset with each option that differs from its default applied
  over it. Every preset is a few options over the defaults, so every rule set can be
  written without one; ``players`` is always the parameter (``pagat``'s four players are
  not applied). Bad rules raise ``trumps.InvalidRules`` (a ``ValueError``) on loading.
- **Chance**: one chance node, the initial state, whose outcomes are deal seeds, not
  cards: ``chance_outcomes()`` is ``deal_seeds`` (default ``DEAL_SEEDS`` = 2**16, at most
  2**24, since the list is built) equally likely seeds ``0 … deal_seeds - 1`` (OpenSpiel's
  ``EXPLICIT_STOCHASTIC``), and after seed ``s`` the state is ``trumps.new_game(game,
  players, rules, seed=s)``. The seed fixes every deal of the game: Twenty-Five's hands
  after the first are dealt from it too (docs/positions.md), with no further chance node.
  So the deals a game can have are those of ``deal_seeds`` seeds, a sample of all deals.
- **Actions** are the game's action ids (docs/actions.md, Action ids): 41 and 159.
- **Information**: ``IMPERFECT_INFORMATION`` for both games, even the 2-player Svoi Kozyri
  duel, which has perfect information once dealt (K19: each seat deduces the other's hand,
  and its view lists it): kept for uniformity, one type for every table size (and the seed
  itself is never shown).
- **Observation** (the default observer): the string is the seat's view
  (``game.view(seat)``, docs/views.md) as JSON; the tensor is
  ``trumps.envs.observation.encode`` of that view, with the named blocks of its layout in
  the observer's ``dict``. Neither holds anything the seat may not know. Other observation
  types (public-only, every player's) are refused with ``ValueError``.
- **Information state** (the perfect-recall observer): a string only, the view's JSON
  followed by every action of the game so far as that seat saw it — its own actions in full,
  the others' through ``game.public_action`` (a Twenty-Five ``rob XX`` or ``discard XX`` of
  another seat is ``rob`` / ``discard``). No information-state tensor is provided: a view's
  tensor is not perfect recall, and none is claimed.
- **Returns** at the end only: +1 for each winner, -1 for each loser (a Twenty-Five team:
  the whole side; Svoi Kozyri with 3–4 players: the one loser -1, everyone else +1), 0 for
  all on a draw. Zero-sum for the Svoi Kozyri duel and a Twenty-Five game of two sides (two
  players, or two teams), constant-sum for the other Twenty-Five tables (winners minus
  losers; no draws), general-sum for Svoi Kozyri with 3–4 players (a draw sums to 0, a
  decided game to players - 2).
- **Game length** (OpenSpiel's ``max_game_length``, which its tests check) is the bound the
  rules guarantee, ``Game.max_actions()`` (the game owns it). Svoi Kozyri's is ``players + max_plies`` (the trump choice, then at most
  ``max_plies`` plays and pick-ups, K3, K17) for its one-hand match; ``match_losses`` above
  1 is refused (``ValueError`` on loading), since a drawn hand counts for nobody (K18) and a
  longer match has no bound (random play drew thousands of plies). Twenty-Five's:
  every hand scores ``5 × points_per_trick`` points, so with ``sides`` sides a game lasts at
  most ``sides × (target - 1) // (5 × points_per_trick) + 1`` hands, each of at most
  ``5 × players + 2`` actions (the cards, a rob, a joker discard; F10, F16, F17a).
- ``resample_from_infostate(player, sampler)`` deals the cards hidden from ``player`` anew
  with ``trumps.ai.determinize.Determinizer`` on its view, and a fresh seed for later deals,
  so OpenSpiel's ``ISMCTSBot`` can search the games. In the state it returns, ``player``'s
  information state is unchanged; the other seats' past secret cards are not known, so
  their own histories show them as the public ``rob`` / ``discard`` except the current
  hand's, which are the sampled ones. Its OpenSpiel ``history()`` is empty: it was not
  reached by actions from the initial state.
- States clone with ``Game.clone()`` and pickle their game as ``(game, players, rules,
  seed, history)``, so ``pyspiel.serialize_game_and_state`` works.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import pyspiel

from trumps.ai.determinize import Determinizer
from trumps.envs.observation import encode, layout, size
from trumps.games import GAMES, Game, from_json, new_game
from trumps.games.viewtypes import View

__all__ = ["DEAL_SEEDS", "MAX_DEAL_SEEDS", "SHORT_NAMES", "TrumpsGame", "TrumpsState"]

DEAL_SEEDS: Final = 2**16  # the default number of chance outcomes (deal seeds)
MAX_DEAL_SEEDS: Final = 2**24  # chance_outcomes() lists them all
SHORT_NAMES: Final = {"kozyri": "python_trumps_kozyri", "twentyfive": "python_trumps_twentyfive"}
_PLAYERS: Final = {"kozyri": (2, 4, 2), "twentyfive": (2, 10, 4)}  # min, max, default


def _mixed(choices: tuple[object, ...]) -> bool:
    """Whether an option's choices mix a word and numbers (Twenty-Five's ``teams``: none,
    2, 3); its OpenSpiel parameter is an int, 0 standing for the word."""
    return any(isinstance(c, str) for c in choices) and any(isinstance(c, int) for c in choices)


def _spelled(choice: object) -> object:
    """A choice as an OpenSpiel parameter value: OpenSpiel reads a value that starts with a
    digit as a number, so ``2-3`` (Twenty-Five's ``deal_packets``) is spelled ``2_3``."""
    if isinstance(choice, str) and choice[:1].isdigit():
        return choice.replace("-", "_")
    return choice


def _param_default(value: object, choices: tuple[object, ...]) -> bool | int | str:
    """An option's default as an OpenSpiel parameter (bool, int or str)."""
    if _mixed(choices):
        return value if isinstance(value, int) else 0
    value = _spelled(value)
    assert isinstance(value, bool | int | str)
    return value


def _spec(game_id: str) -> dict[str, Any]:
    cls = GAMES[game_id]
    spec: dict[str, Any] = {
        "players": _PLAYERS[game_id][2],
        "preset": cls.DEFAULT_PRESET,
        "deal_seeds": DEAL_SEEDS,
    }
    for name, option in cls.OPTIONS.items():
        spec[name] = _param_default(option.default, option.choices)
    return spec


def _game_type(game_id: str, utility: Any = None) -> pyspiel.GameType:
    low, high, _ = _PLAYERS[game_id]
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game_id],
        long_name=f"Python trumps {GAMES[game_id].title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility if utility is not None else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_spec(game_id),
    )


class _Config:
    """What a state needs of its game (immutable: shared by clones, not copied)."""

    def __init__(self, game_id: str, players: int, rules: dict[str, Any], seeds: int) -> None:
        self.game_id = game_id
        self.players = players
        self.rules = rules
        self.deal_seeds = seeds
        self._outcomes: list[tuple[int, float]] | None = None
        self.proto = new_game(game_id, players=players, rules=rules, seed=0)

    @property
    def outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes: every deal seed, equally likely (built once)."""
        if self._outcomes is None:
            n = self.deal_seeds
            self._outcomes = [(s, 1.0 / n) for s in range(n)]
        return self._outcomes

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Config, (self.game_id, self.players, self.rules, self.deal_seeds))


class _Held:
    """A trumps game inside a state; OpenSpiel clones states with ``copy.deepcopy`` of
    their attributes, and a game copies itself with ``clone()``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel serializes a state by pickling its attributes; a game is rebuilt
        # exactly from (game, players, rules, seed, history) (docs/api.md).
        g = self.game
        return (_replayed, (g.game_id, g.players, g.rules, g.seed, list(g.history)))


def _replayed(
    game_id: str, players: int, rules: dict[str, Any], seed: int, history: list[str]
) -> _Held:
    game = new_game(game_id, players=players, rules=rules, seed=seed)
    for action in history:
        game.play(action)
    return _Held(game)


def _rules(game_id: str, params: Mapping[str, Any]) -> dict[str, Any]:
    cls = GAMES[game_id]
    rules: dict[str, Any] = {"preset": str(params.get("preset", cls.DEFAULT_PRESET))}
    for name, option in cls.OPTIONS.items():
        if name not in params:
            continue
        value = params[name]
        if value == _param_default(option.default, option.choices):
            continue  # OpenSpiel fills in defaults: only a difference is an option
        if _mixed(option.choices) and value == 0:
            value = next(c for c in option.choices if isinstance(c, str))
        rules[name] = next((c for c in option.choices if _spelled(c) == value), value)
    return rules


def _rules_of(game: Game) -> dict[str, Any]:
    return game.rules


def _max_length(game: Game) -> int:
    bound = game.max_actions()  # the game's own bound (its rules: K3, K17; F4, F10, F16, F17a)
    if bound is None:
        raise ValueError(
            "match_losses above 1 is not offered in OpenSpiel: a drawn hand counts for "
            "nobody (K18), so a longer match has no bound on its length"
        )
    return bound


def _utility(game: Game) -> tuple[Any, float | None]:
    util = pyspiel.GameType.Utility
    n = game.players
    if game.game_id == "kozyri":
        return (util.ZERO_SUM, 0.0) if n == 2 else (util.GENERAL_SUM, None)
    teams = _rules_of(game)["teams"]
    side = 1 if teams == "none" else int(teams)
    total = float(side - (n - side))
    return (util.ZERO_SUM, 0.0) if total == 0 else (util.CONSTANT_SUM, total)


class TrumpsGame(pyspiel.Game):  # type: ignore[misc]
    """One of the games with its parameters; see the module docstring."""

    GAME_ID = "kozyri"

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_id = self.GAME_ID
        players = int(params.get("players", _PLAYERS[game_id][2]))
        seeds = int(params.get("deal_seeds", DEAL_SEEDS))
        if not 1 <= seeds <= MAX_DEAL_SEEDS:
            raise ValueError(f"deal_seeds is 1 to {MAX_DEAL_SEEDS}, not {seeds}")
        config = _Config(game_id, players, _rules(game_id, params), seeds)  # InvalidRules
        max_length = _max_length(config.proto)  # ValueError: no bound
        utility, total = _utility(config.proto)
        info = pyspiel.GameInfo(
            num_distinct_actions=config.proto.num_actions,
            max_chance_outcomes=seeds,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=total,
            max_game_length=max_length,
        )
        super().__init__(_game_type(game_id, utility), info, params)
        self.config = config

    def new_initial_state(self) -> TrumpsState:
        return TrumpsState(self)

    def max_chance_nodes_in_history(self) -> int:
        return 1

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> TrumpsObserver:
        return TrumpsObserver(
            self.config.game_id,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


class KozyriGame(TrumpsGame):
    GAME_ID = "kozyri"


class TwentyFiveGame(TrumpsGame):
    GAME_ID = "twentyfive"


# One entry of the action log: the seat that acted, the action id (None where a resampled
# state does not know another seat's secret card) and the action as the others saw it.
Entry = tuple[int, int | None, str]


class _Log(list[Entry]):
    """The actions so far; entries are immutable, so a clone copies the list shallowly."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Log:
        return _Log(self)


class TrumpsState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: before the deal, a chance node; then a trumps game."""

    def __init__(self, game: TrumpsGame) -> None:
        super().__init__(game)
        self.config: _Config = game.config
        self.held: _Held | None = None
        self.log = _Log()

    # -- the trumps game ----------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The trumps game, or None before the deal (the chance node)."""
        return None if self.held is None else self.held.game

    def view(self, player: int) -> View | None:
        """``player``'s view, or None before the deal."""
        return None if self.held is None else self.held.game.view(player)

    def seen(self, player: int) -> list[str]:
        """Every action so far as ``player`` saw it, as ``"seat: action"`` lines."""
        names = self.config.proto
        out = []
        for actor, action, public in self.log:
            if action is None:
                text = public
            else:
                text = names.action_to_string(action)
                if actor != player:
                    text = names.public_action(text, player)
            out.append(f"{actor}: {text}")
        return out

    # -- the OpenSpiel API --------------------------------------------------------------
    def current_player(self) -> int:
        game = self.game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert game.current_player is not None
        return game.current_player

    def _legal_actions(self, player: int) -> list[int]:
        game = self.game
        assert game is not None and player == game.current_player
        return game.legal_action_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.held is None
        return self.config.outcomes

    def _apply_action(self, action: int) -> None:
        game = self.game
        if game is None:
            c = self.config
            if not 0 <= action < c.deal_seeds:
                raise ValueError(f"no deal seed {action} (0 to {c.deal_seeds - 1})")
            self.held = _Held(new_game(c.game_id, players=c.players, rules=c.rules, seed=action))
            return
        seat = game.current_player
        assert seat is not None
        game.play_id(action)
        text = game.action_to_string(action)
        self.log.append((seat, action, game.public_action(text, None)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        return self.config.proto.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.held is not None and self.held.game.is_over

    def returns(self) -> list[float]:
        out = [0.0] * self.config.players
        game = self.game
        if game is None or game.outcome is None:
            return out
        for s in game.outcome.winners:
            out[s] = 1.0
        for s in game.outcome.losers:
            out[s] = -1.0
        return out

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TrumpsState:
        """A state with ``player_id``'s information state whose hidden cards are dealt
        at random consistently with its view (``Determinizer``), and later deals from a
        fresh seed; before the deal, a fresh initial state."""
        state = self.get_game().new_initial_state()
        game = self.game
        if game is None:
            return state  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**53))
        view = game.view(player_id)
        if view["game"] == "kozyri" and None in view["trumps"]:
            position = game.to_json()  # the trump choice (K3): no card is dealt yet
        else:
            position = Determinizer(view).position(rng)
        position["seed"] = rng.randrange(2**31)
        state.held = _Held(from_json(position))
        state.log = self._resampled_log(player_id, position)
        return state  # type: ignore[no-any-return]

    def _resampled_log(self, player: int, position: Mapping[str, Any]) -> _Log:
        names = self.config.proto
        secrets: dict[str, str | None] = {"rob": None, "discard": None}
        robbed = position.get("robbed")
        if isinstance(robbed, Mapping) and robbed.get("discard"):
            secrets["rob"] = f"rob {robbed['discard']}"
        if position.get("joker_discard"):
            secrets["discard"] = f"discard {position['joker_discard']}"
        log = _Log()
        for actor, action, public in reversed(self.log):
            # The latest rob / discard is the current hand's if the position has one;
            # each earlier one is of an earlier hand.
            sampled = secrets.pop(public, None) if public in secrets else None
            if action is not None and actor != player:
                text = names.action_to_string(action)
                if names.public_action(text, player) != text:
                    # A secret card ``player`` never saw: the current hand's is the
                    # sampled one, an earlier hand's unknown.
                    action = None if sampled is None else names.string_to_action(sampled)
            log.append((actor, action, public))
        log.reverse()
        return log

    def __str__(self) -> str:
        game = self.game
        if game is None:
            return "chance: the deal seed is not drawn yet"
        return json.dumps(game.view(None), sort_keys=True, separators=(",", ":"))


class TrumpsObserver:
    """OpenSpiel's Python observer: the observation (a seat's view, as JSON and as the
    tensor of trumps.envs.observation) or the information state (the view and the actions
    as the seat saw them; a string only)."""

    def __init__(self, game_id: str, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a seat's own observation is supported (its view)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: np.ndarray[Any, Any] | None = None
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        if not self.perfect_recall:
            self.tensor = np.zeros(size(game_id), np.float32)
            for b in layout(game_id):
                self.dict[b.name] = self.tensor[b.offset : b.offset + b.size]

    def set_from(self, state: TrumpsState, player: int) -> None:
        if self.tensor is None:
            return
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encode(view)

    def string_from(self, state: TrumpsState, player: int) -> str:
        view = state.view(player)
        if view is None:
            return f"seat {player}: the deal seed is not drawn yet"
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            text = "\n".join([text, *state.seen(player)])
        return text


pyspiel.register_game(_game_type("kozyri"), KozyriGame)
pyspiel.register_game(_game_type("twentyfive"), TwentyFiveGame)
