"""Svoi Kozyri ("Your trumps"), docs/rules/kozyri.md: the public, checked game over the fast core.

The rules themselves live in ``trumps.games.kozyri._core`` (int-coded, mypyc-compiled);
this module speaks card strings and JSON positions (docs/positions.md), offers the rule options
and presets of docs/rules/options.md and filters views (docs/views.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from trumps.cards import SUITS, card_str, card_strs, parse_suit
from trumps.errors import IllegalAction, InvalidAction, InvalidRules
from trumps.games.actions import KOZYRI_ACTIONS, ActionSpace
from trumps.games.base import Game, Outcome, Why
from trumps.games.kozyri._core import DRAWN, LOST, KozyriCore, take_count
from trumps.games.kozyri.brief import BRIEF
from trumps.games.kozyri.loader import hand_result, load
from trumps.games.kozyri.options import DEFAULT_PRESET, OPTIONS, PRESETS, make_core
from trumps.games.kozyri.why import why_not
from trumps.games.options import Option, Preset, resolve_rules
from trumps.games.viewtypes import Hand, KozyriView, View, kozyri_view


def _popcount(m: int) -> int:
    return bin(m).count("1")


# The research API's hot path (``play_id``) reads these directly.
_ACTION_NAMES = KOZYRI_ACTIONS.names


class Kozyri(Game):
    """Svoi Kozyri for 2–4 players (docs/rules/ K1–K19).

    A game made without ``trumps=`` starts with the trump choice (K3); with
    ``trumps=[suit per seat]`` the constructor plays those choices as ordinary
    ``trump X`` actions (they are in ``history``).  With ``match_losses`` = N > 1 a game
    is a match of hands (K18), each starting with its own trump choice.

    Position keys beyond docs/positions.md (all optional on input):

    * ``hand`` — the 1-based number of the hand being played (docs/positions.md, default 1);
    * ``losses`` — hands lost so far per seat, the finished hand included (default
      zeros; for a given outcome with a loser L, L's entry defaults to ``match_losses``);
    * ``known`` — per seat, the cards it is publicly known to hold (K19: cards it
      picked up and still holds, and its own trump six under the sixes rule; default:
      each seat's own trump six if it holds it and ``sixes_to_owner``).  Views use it.

    Interpretations: ``to_move`` is null whenever the game is over, a resignation
    included.  A resigned position may give ``to_move`` on input (then ``undo`` can take
    the resignation back); without it the trump choice still knows who was to choose,
    but in play nobody resumes and ``undo`` refuses.  On input ``dealer`` defaults to the seat before
    ``to_move`` (before the first chooser during the trump choice; ``players - 1`` when
    nobody is to move) and ``pile`` to [].  A loaded position whose hand is already over
    (K16: one seat holds cards; or ``ply`` ≥ ``max_plies``) with a null outcome is
    finished as the engine would: the loss is counted, and in a longer match the next
    hand's trump choice follows.  The repetition count (K17) is checked only after
    actions, so even ``repetition_draw = 1`` never ends a freshly dealt or loaded hand.
    """

    game_id: ClassVar[str] = "kozyri"
    title: ClassVar[str] = "Svoi Kozyri"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 2
    OPTIONS: ClassVar[Mapping[str, Option]] = OPTIONS
    PRESETS: ClassVar[Mapping[str, Preset]] = PRESETS
    DEFAULT_PRESET: ClassVar[str] = DEFAULT_PRESET
    ACTIONS: ClassVar[ActionSpace] = KOZYRI_ACTIONS
    BRIEF: ClassVar[tuple[tuple[str, str], ...]] = BRIEF

    def __init__(self, core: KozyriCore, rules: Mapping[str, object]) -> None:
        super().__init__()
        self._core = core
        self._rules = dict(rules)
        self._resume_unknown = False  # a resigned game loaded without its player to move

    # -- construction -----------------------------------------------------------------
    @classmethod
    def new(cls, *, players: int, rules: dict[str, object], seed: int, **kwargs: Any) -> Kozyri:
        """A new game; ``trumps=[suit letter per seat]`` answers the first trump choice."""
        trumps = kwargs.pop("trumps", None)
        if kwargs:
            raise InvalidRules(f"kozyri takes no keyword {', '.join(map(repr, kwargs))}")
        resolved, _ = resolve_rules(
            cls.game_id, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, rules
        )
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not (cls.min_players <= players <= cls.max_players)
        ):
            raise InvalidRules(f"kozyri is for 2–4 players, not {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise InvalidRules(f"seed must be a whole number ≥ 0, not {seed!r}")
        core = make_core(players, resolved, seed)
        core.start()
        game = cls(core, resolved)
        if trumps is not None:
            suits = cls._parse_trumps(trumps, players)
            first = core.tm
            for i in range(players):  # K3: in seat order from the dealer's left
                game.play("trump " + SUITS[suits[(first + i) % players]])
        return game

    @staticmethod
    def _parse_trumps(trumps: object, players: int) -> list[int]:
        if not isinstance(trumps, (list, tuple)) or len(trumps) != players:
            raise InvalidRules(
                f"trumps must be a list of {players} suit letters (one per seat), not {trumps!r}"
            )
        suits: list[int] = []
        for seat, t in enumerate(trumps):
            if not isinstance(t, str):
                raise InvalidRules(f"trumps[{seat}] must be a suit letter S H D C, not {t!r}")
            try:
                s = parse_suit(t)
            except InvalidAction:
                raise InvalidRules(
                    f"trumps[{seat}] must be a suit letter S H D C, not {t!r}"
                ) from None
            if s in suits:
                raise InvalidRules(
                    f"trumps must differ (K3): seats {suits.index(s)} and {seat} both chose {SUITS[s]}"
                )
            suits.append(s)
        return suits

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Kozyri:
        loaded = load(data)
        game = cls(loaded.core, loaded.rules)
        if loaded.forced is not None:
            game._forced = loaded.forced
            game._resume_unknown = loaded.core.tm < 0
        return game

    # -- state ------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._core.n

    @property
    def rules(self) -> dict[str, object]:
        return dict(self._rules)

    @property
    def seed(self) -> int:
        return self._core.seed

    @property
    def core(self) -> KozyriCore:
        return self._core

    def _current_player(self) -> int | None:
        tm = self._core.tm
        return None if tm < 0 else tm

    def _outcome(self) -> Outcome | None:
        c = self._core
        if c.result == LOST:
            return hand_result(c.n, c.loser, c.reason)
        if c.result == DRAWN:
            return hand_result(c.n, -1, c.reason)
        return None

    def _legal_codes(self) -> list[int]:
        return self._core.legal_moves()

    def legal_action_ids(self) -> list[int]:
        return [] if self._forced is not None else self._core.legal_ids()

    def play_id(self, action_id: int) -> None:
        # The research API's hot path (issue 14): the core checks and applies in one call.
        if self._forced is None and type(action_id) is int and self._core.play_id(action_id):
            self.history.append(_ACTION_NAMES[action_id])
            return
        super().play_id(action_id)  # raises, saying why (or plays a legal id after all)

    @property
    def is_over(self) -> bool:
        result = self._core.result  # what ``_outcome`` says, without building the outcome
        return self._forced is not None or result in (LOST, DRAWN)

    @staticmethod
    def why_not_in(view: View, action: str) -> Why | None:
        return why_not(kozyri_view(view), action)

    def side_of(self, seat: int) -> list[int]:
        return [seat]

    def max_actions(self) -> int | None:
        # The trump choices (K3), then at most ``max_plies`` plays and pick-ups (K17) for a
        # match of one hand; a longer match has no bound: a drawn hand counts for nobody (K18).
        core = self._core
        return None if core.match_losses != 1 else core.n + core.max_plies

    def _apply(self, code: int) -> None:
        self._core.apply(code)

    def _undo(self) -> None:
        self._core.undo()

    def clone(self) -> Kozyri:
        g = Kozyri(self._core.copy(), self._rules)
        g.history = list(self.history)
        g._forced = self._forced
        g._resume_unknown = self._resume_unknown
        return g

    def undo(self) -> None:
        """Take back the last action or a resignation (not one loaded from a position
        without its player to move: that position does not say who would resume)."""
        if self._forced is not None and self._resume_unknown:
            raise IllegalAction(
                f"cannot take back the resignation: the loaded position does not say who was "
                f"to move ({self.describe()})"
            )
        super().undo()

    def to_json(self) -> dict[str, Any]:
        c = self._core
        outcome = self.outcome
        return {
            "game": self.game_id,
            "rules": dict(self._rules),
            "dealer": c.dealer,
            "trumps": [SUITS[t] if t >= 0 else None for t in c.trumps],
            "hands": [card_strs(h) for h in c.hands],
            "pile": [card_str(x) for x in c.pile],
            "to_move": self.current_player,
            "owes_second": c.owes,
            "out": list(c.out),
            "ply": c.ply,
            "outcome": None if outcome is None else outcome.to_json(),
            "seed": c.seed,
            "hand": c.hand_no,
            "losses": list(c.losses),
            "known": [card_strs(k) for k in c.known],
        }

    def view(self, seat: int | None) -> KozyriView:
        """docs/views.md: other hands as counts plus the cards publicly known to be there
        (K19: the whole hand with two players); no seed.  ``take_count`` is how many cards
        ``take`` would pick up for the seat to move (K12), null with an empty pile or
        nobody to move; ``own_known`` the reader's cards the others know it holds (K19).  ``seat=None`` is the public view: every hand a count with the
        cards everyone knows to be there (picked up, or sixes handed over)."""
        self._check_view_seat(seat)
        c = self._core
        outcome = self.outcome
        hands: list[Hand] = []
        for s in range(c.n):
            h = c.hands[s]
            if s == seat:
                hands.append(card_strs(h))
            else:
                # K19: in the duel each player deduces the other hand; nobody else can.
                known = h if c.n == 2 and seat is not None else c.known[s] & h
                hands.append({"count": _popcount(h), "known": card_strs(known)})
        return {
            "game": "kozyri",
            "rules": dict(self._rules),
            "dealer": c.dealer,
            "trumps": [SUITS[t] if t >= 0 else None for t in c.trumps],
            "hands": hands,
            "pile": [card_str(x) for x in c.pile],
            "to_move": self.current_player,
            "owes_second": c.owes,
            "out": list(c.out),
            "ply": c.ply,
            "outcome": None if outcome is None else outcome.to_json(),
            "hand": c.hand_no,
            "losses": list(c.losses),
            "seat": seat,
            # K19: the cards of the reader's own hand that the other seats know it holds.
            "own_known": None if seat is None else card_strs(c.known[seat] & c.hands[seat]),
            "take_count": self.take_count(),
        }

    def take_count(self) -> int | None:
        """K12: how many cards ``take`` picks up for the seat to move, or None when the
        pile is empty, the trump choice is running or nobody is to move."""
        c = self._core
        to_move = self.current_player
        if to_move is None or not c.pile or c.trumps[to_move] < 0 or c.owes:
            return None
        return take_count(c.pile[-1], c.trumps[to_move], len(c.pile))


__all__ = ["Kozyri"]
