"""The one game interface both games implement, and what they share.

Everything written against games — search, the server's table actor, the clients,
the conformance tests, the benchmarks — uses ``Game`` (the public, checked surface
with card strings) and, where speed matters, ``Core`` (the unchecked int-coded state
behind it).  Games are pure: no I/O, clocks, logging or global random state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from trumps.cards import action_str, parse_action
from trumps.errors import IllegalAction
from trumps.games.actions import ActionSpace
from trumps.games.options import Option, Preset
from trumps.games.viewtypes import OutcomeJson, View

REASONS = ("out_of_cards", "draw_rule", "repetition", "max_plies", "target", "resigned", "timeout")


@dataclass(frozen=True)
class Outcome:
    """How a game ended (docs/api.md, Outcome)."""

    winners: list[int]
    losers: list[int]
    draw: bool
    reason: str

    def to_json(self) -> OutcomeJson:
        return {
            "winners": list(self.winners),
            "losers": list(self.losers),
            "draw": self.draw,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: object) -> Outcome:
        """Parse the JSON form; raises ``ValueError`` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"outcome must be an object, not {data!r}")
        keys = {"winners", "losers", "draw", "reason"}
        if set(data) != keys:
            raise ValueError(
                f"outcome must have exactly the keys {sorted(keys)}, got {sorted(data)}"
            )
        winners, losers, draw, reason = (
            data["winners"],
            data["losers"],
            data["draw"],
            data["reason"],
        )
        for name, seats in (("winners", winners), ("losers", losers)):
            if not isinstance(seats, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in seats
            ):
                raise ValueError(f"outcome {name} must be a list of seats, not {seats!r}")
        if not isinstance(draw, bool):
            raise ValueError(f"outcome draw must be true or false, not {draw!r}")
        if reason not in REASONS:
            raise ValueError(f"outcome reason {reason!r} is not one of {', '.join(REASONS)}")
        if draw and (winners or losers):
            raise ValueError("a drawn outcome has no winners and no losers")
        return cls(list(winners), list(losers), draw, reason)


@dataclass(frozen=True)
class Why:
    """Why an action is not legal now (``Game.why_not``; docs/api.md#rule-queries): a
    reason ``code`` with the cards and suit it is about and the rule id it comes from
    (docs/rules/), for clients to word in the player's language."""

    code: str
    rule: str
    cards: tuple[str, ...] = ()
    suit: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "cards": list(self.cards), "suit": self.suit}


def turn_why(view: Mapping[str, Any]) -> Why | None:
    """Why the reader of ``view`` cannot act at all now: the game is over, or another
    seat is to move; None when it is the reader's turn."""
    if view.get("outcome") is not None or view.get("to_move") is None:
        return Why("game_over", "")
    if view.get("seat") != view["to_move"]:
        return Why("not_your_turn", "")
    return None


# ---------------------------------------------------------------------------------------
# Chance (docs/positions.md): every deal shuffles with a generator seeded from (seed, hand).


def deal_rng(game_id: str, seed: int, hand: int) -> random.Random:
    """The generator for hand number ``hand`` (1-based) of a game with ``seed``.

    Seeding from a string hashes it with SHA-512, which is stable across platforms and
    Python versions; ``below`` uses only ``getrandbits``, stable likewise.
    """
    return random.Random(f"trumps/{game_id}/{seed}/{hand}")


def below(rng: random.Random, n: int) -> int:
    """A uniform int in ``[0, n)`` from ``getrandbits`` by rejection (version-stable)."""
    if n <= 1:
        return 0
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffled(rng: random.Random, items: Sequence[int]) -> list[int]:
    """A Fisher–Yates shuffled copy of ``items``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# ---------------------------------------------------------------------------------------
# The interfaces.


class Core(Protocol):
    """The fast, unchecked, int-coded state behind a game, for search and benchmarks.

    Moves are the action codes of ``trumps.cards``.  ``apply`` trusts its move (call it
    only with one of ``legal_moves()``) and records what ``undo`` needs; ``step`` does the
    same without recording (for rollouts on a copy).
    """

    def to_move(self) -> int:
        """The seat to act, or -1 when the game is over."""
        ...

    def legal_moves(self) -> list[int]:
        """Legal action codes, ascending."""
        ...

    def apply(self, m: int) -> None: ...

    def step(self, m: int) -> None: ...

    def undo(self) -> None: ...

    def over(self) -> bool: ...

    def copy(self) -> Core:
        """An independent copy (its own undo stack)."""
        ...

    def playout(self, rng: random.Random) -> int:
        """Uniformly random legal moves (``step``) to the end; returns how many."""
        ...


G = TypeVar("G", bound="Game")

#: The keys a view (docs/views.md) has beyond a position's: who it is for, the voids shown
#: (Twenty-Five), the cards ``take`` would pick up and what the others know of the reader's
#: own hand (Svoi Kozyri).
VIEW_ONLY_KEYS: frozenset[str] = frozenset({"seat", "voids", "take_count", "own_known"})


def _action_name(code: int) -> str:
    try:
        return action_str(code)
    except ValueError:
        return ""  # no action has this code


# Every action code's canonical string, and back (``play`` and ``legal_actions`` read these
# instead of formatting and parsing: the string API's hot path).
_NAMES: list[str] = [_action_name(c) for c in range(256)]
_CODES: dict[str, int] = {name: c for c, name in enumerate(_NAMES) if name}


class Game(ABC):
    """A game of either kind, with the public API of docs/api.md.

    Subclasses provide the rules; this class gives the checked, string-speaking surface
    (``play``, ``undo``, ``legal_actions``) over the int-coded ``legal_codes``/``_apply``/
    ``_undo`` of the subclass, and keeps ``history``: every action since the game was
    made, which with ``(game, players, rules, seed)`` rebuilds it (docs/records.md).
    """

    game_id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    OPTIONS: ClassVar[Mapping[str, Option]]
    PRESETS: ClassVar[Mapping[str, Preset]]
    DEFAULT_PRESET: ClassVar[str]
    #: The game's integer actions (``trumps.games.actions``, docs/actions.md).
    ACTIONS: ClassVar[ActionSpace]
    #: The rules in brief, for players: (rule ids, one English sentence) per line; both
    #: clients show them and the page's catalogs translate them.
    BRIEF: ClassVar[tuple[tuple[str, str], ...]]

    history: list[str]
    _forced: Outcome | None

    def __init__(self) -> None:
        self.history = []
        self._forced = None

    # -- construction -----------------------------------------------------------------
    @classmethod
    @abstractmethod
    def new(cls: type[G], *, players: int, rules: dict[str, object], seed: int, **kwargs: Any) -> G:
        """A new game with resolved ``rules`` (every option present)."""

    @classmethod
    @abstractmethod
    def from_json(cls: type[G], data: Mapping[str, Any]) -> G:
        """A game from a position dict (docs/positions.md); raises ``InvalidPosition``."""

    # -- state ------------------------------------------------------------------------
    @property
    @abstractmethod
    def players(self) -> int: ...

    @property
    @abstractmethod
    def rules(self) -> dict[str, object]:
        """Every rule option's value (a copy)."""

    @property
    @abstractmethod
    def seed(self) -> int: ...

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self._forced is not None else self._current_player()

    @property
    def outcome(self) -> Outcome | None:
        """None while the game runs; how it ended otherwise (docs/api.md, Outcome)."""
        return self._forced if self._forced is not None else self._outcome()

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_codes(self) -> list[int]:
        """Legal action codes, ascending; empty when the game is over."""
        return [] if self._forced is not None else self._legal_codes()

    @abstractmethod
    def _current_player(self) -> int | None:
        """The seat to act by the rules (ignoring a resignation)."""

    @abstractmethod
    def _outcome(self) -> Outcome | None:
        """The outcome by the rules (ignoring a resignation)."""

    @abstractmethod
    def _legal_codes(self) -> list[int]:
        """Legal action codes by the rules, ascending; empty when the game is over."""

    @abstractmethod
    def side_of(self, seat: int) -> list[int]:
        """The seats that win or lose with ``seat`` (its team, or just itself)."""

    @abstractmethod
    def max_actions(self) -> int | None:
        """A bound the rules guarantee on the actions of this game from its start (for tools
        that need one, such as OpenSpiel), or None when the rules set none."""

    @property
    @abstractmethod
    def core(self) -> Core:
        """The fast state behind this game (shared, not a copy: do not mutate it)."""

    @abstractmethod
    def _apply(self, code: int) -> None:
        """Apply a legal action code."""

    @abstractmethod
    def _undo(self) -> None:
        """Take back the last ``_apply``."""

    @abstractmethod
    def clone(self: G) -> G:
        """An independent copy (history included)."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full position (docs/positions.md), hidden cards included."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (docs/views.md); ``None`` gives the public view, what a
        spectator may know (every hand a count and its publicly known cards).  Each game
        returns its own shape (``trumps.games.viewtypes``)."""

    def open_view(self) -> View:
        """The view of a reader who may see everything (a finished game's replay): the
        public view with every hand whole.  A game with other secrets shows them too."""
        view = self.view(None)
        view["hands"] = [list(h) for h in self.to_json()["hands"]]
        return view

    def undealt_view(self, seat: int | None) -> View:
        """``seat``'s view of the game before its cards are dealt (a server deals as the
        game starts, docs/fairness.md): the public view with nothing the deal decides —
        no card of it, no dealer (chosen with the deal), nobody to move."""
        view = self.view(None)
        view["seat"] = seat
        view["to_move"] = None
        view["dealer"] = None
        return view

    def public_action(self, action: str, seat: int | None) -> str:
        """How ``action``, just made by another seat than ``seat``, is shown to ``seat``
        (``None``: a spectator): the action itself unless part of it is secret."""
        return action

    def closed(self) -> dict[str, Any] | None:
        """What the latest action closed, for a table that pauses on it and a log that
        tells it (docs/api.md#what-an-action-closed): ``{"trick": {...}}`` when it finished
        a trick, with ``"hand": {...}`` too when it finished a hand; None when it closed
        nothing (or after ``undo`` or loading, when the latest action is not known).
        Public information only.  The default: games without tricks close nothing."""
        return None

    def _check_view_seat(self, seat: object) -> None:
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players
        ):
            raise ValueError(f"there is no seat {seat!r} in {self.describe()}")

    # -- the checked public surface ----------------------------------------------------
    def legal_actions(self) -> list[str]:
        """Legal actions as canonical strings: cards in rank-then-suit order, then words."""
        names = _NAMES
        return [names[a] for a in self.legal_codes()]

    def why_not(self, action: str, seat: int | None = None) -> Why | None:
        """Why ``action`` is not legal now for ``seat`` (default: the seat to move), read
        from that seat's view; None when it is legal.  Malformed actions raise
        ``InvalidAction`` (docs/api.md#rule-queries)."""
        return self.why_not_in(self.view(self.current_player if seat is None else seat), action)

    @staticmethod
    def why_not_in(view: View, action: str) -> Why | None:
        """``why_not`` on a seat's view alone (what a client holds): the game's rule query
        of ``games/<game>/why.py``."""
        raise NotImplementedError

    def describe(self) -> str:
        """A short name of the position for messages (no hidden information)."""
        who = "over" if self.current_player is None else f"seat {self.current_player} to move"
        return f"{self.game_id} after {len(self.history)} actions, {who}"

    def play(self, action: str) -> None:
        """Apply an action string; raises ``InvalidAction`` or ``IllegalAction`` and then
        changes nothing."""
        code = _CODES.get(action) if type(action) is str else None  # canonical: no parsing
        if code is None:
            code = parse_action(action)
        legal = self.legal_codes()
        if code not in legal:
            self._illegal(repr(action), legal)
        self._apply(code)
        self.history.append(_NAMES[code])

    def _illegal(self, what: str, legal: list[int]) -> None:
        if self.outcome is not None:
            raise IllegalAction(f"{what} is not legal: the game is over ({self.describe()})")
        shown = ", ".join(action_str(a) for a in legal)
        raise IllegalAction(f"{what} is not legal in {self.describe()}; legal: {shown}")

    # -- integer actions (docs/actions.md#action-ids) ---------------------------------------
    @property
    def num_actions(self) -> int:
        """How many action ids the game has (the same in every position)."""
        return len(self.ACTIONS.codes)

    def legal_action_ids(self) -> list[int]:
        """The legal actions as ids, ascending; empty when the game is over."""
        ids = self.ACTIONS.ids
        return [ids[c] for c in self.legal_codes()]

    def action_mask(self) -> list[int]:
        """1 at each legal action's id, 0 elsewhere (``num_actions`` long)."""
        mask = [0] * len(self.ACTIONS.codes)
        ids = self.ACTIONS.ids
        for c in self.legal_codes():
            mask[ids[c]] = 1
        return mask

    def play_id(self, action_id: int) -> None:
        """Apply the action with id ``action_id``, checked like ``play``: ``InvalidAction``
        for a number that is no id of this game, ``IllegalAction`` for an action not legal
        now, and then nothing changed."""
        space = self.ACTIONS
        codes = space.codes
        if type(action_id) is not int or not 0 <= action_id < len(codes):
            space.check_id(action_id)  # raises, naming the number (a bool is no id)
        code = codes[action_id]
        if self._forced is not None or code not in self._legal_codes():
            self._illegal(f"action id {action_id} ({space.names[action_id]})", self.legal_codes())
        self._apply(code)
        self.history.append(space.names[action_id])

    def action_to_string(self, action_id: int) -> str:
        """The canonical string of an action id; ``InvalidAction`` for a number that is
        no id of this game."""
        return self.ACTIONS.to_string(action_id)

    def string_to_action(self, action: str) -> int:
        """The id of an action string; ``InvalidAction`` for a string that is no action
        of this game."""
        return self.ACTIONS.to_id(action)

    def undo(self) -> None:
        """Take back the last action (or a resignation); raises ``IllegalAction`` when
        there is none."""
        if self._forced is not None:
            self._forced = None
            return
        if not self.history:
            raise IllegalAction(f"nothing to undo in {self.describe()}")
        self._undo()
        self.history.pop()

    def resign(self, seat: int, reason: str = "resigned") -> None:
        """``seat`` resigns (or times out, with ``reason="timeout"``): the game ends at
        once, ``seat``'s side losing and everyone else winning.  Not an action: it is not
        in ``history``; a record keeps it in its outcome.  ``undo`` takes it back."""
        if self.outcome is not None:
            raise IllegalAction(f"seat {seat} cannot resign: the game is over ({self.describe()})")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat!r} in {self.describe()}")
        if reason not in ("resigned", "timeout"):
            raise ValueError(f"a game ends early only by 'resigned' or 'timeout', not {reason!r}")
        losers = sorted(self.side_of(seat))
        winners = [s for s in range(self.players) if s not in losers]
        self._forced = Outcome(winners, losers, False, reason)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return type(self) is type(other) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"
