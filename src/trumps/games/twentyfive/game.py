"""Twenty-Five, Ireland's national card game (docs/rules/twentyfive.md): the public, checked game.

The rules live in the fast core ``_twentyfive_core``; this module is the string and JSON
surface: rule options and presets, positions (docs/positions.md) with validation, and views
(docs/views.md).

Position keys beyond docs/positions.md (needed to round-trip):

- ``joker_discard``: null, or the card the dealer put face down after taking a turned-up
  joker (F17a).  While that discard is still owed, ``turnup`` is ``"JK"``, ``trump`` is
  null, ``to_move`` is the dealer (who holds the joker) and the legal actions are
  ``rob XX`` for each other card of the dealer's hand: the ``rob`` action string serves
  this discard too.  Then ``stock[0]`` is the card that will be turned up next (the rest of
  ``stock`` is sorted; on input without ``stock`` the lowest unlisted card is next).

Interpretations (docs/rules/ leaves them open):

- The joker is a trump between the J and the A♥ (F2) and, for reneging (F14), is
  privileged like the top three (with ``renege_cards = top3``; never with ``five_only``).
- A rob (F9, F10) is possible only while the seat to move has played no card this hand
  (so only in trick 1) and only once per hand; the discard is taken from the hand before
  the turn-up joins it, so the turn-up itself cannot be discarded.  With ``rob =
  mandatory`` the seat that may rob has only ``rob`` actions at that turn.
- ``plus10`` (F17) is added when the hand's five tricks are finished; when the game has
  already ended at once on reaching the target, the hand is not finished and no bonus is
  added.  ``wins_game`` ends the game with reason ``target``.
- A composed position may hold fewer than five cards a seat: every seat must have held the
  same number this hand (at most five), counting the cards it played.
- Views: the dealer's ``known`` holds the turned-up joker while still held (it was seen
  going there); ``joker_discard`` is null in every other seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from trumps.cards import JOKER, ROB, SUITS, card_str, cards_of
from trumps.errors import InvalidRules
from trumps.games.actions import TWENTYFIVE_ACTIONS, ActionSpace
from trumps.games.base import Game, Outcome, Why
from trumps.games.options import Option, Preset, resolve_rules
from trumps.games.twentyfive._core import HAND_TRICKS, PLAIN_MASKS, TwentyFiveCore
from trumps.games.twentyfive.brief import BRIEF
from trumps.games.twentyfive.loader import load
from trumps.games.twentyfive.options import GAME_ID, OPTIONS, PRESETS, make_config, seat_teams
from trumps.games.twentyfive.why import why_not
from trumps.games.viewtypes import Hand, Robbed, Trick, TwentyFiveView, View, twentyfive_view

# The research API's hot path (``play_id``) reads these directly.
_ACTION_NAMES = TWENTYFIVE_ACTIONS.names


class TwentyFive(Game):
    """Twenty-Five for 2–10 players (docs/rules/twentyfive.md); see the module docstring for the
    position keys beyond docs/positions.md and the rule interpretations."""

    game_id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Twenty-Five"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    default_players: ClassVar[int] = 4
    OPTIONS: ClassVar[Mapping[str, Option]] = OPTIONS
    PRESETS: ClassVar[Mapping[str, Preset]] = PRESETS
    DEFAULT_PRESET: ClassVar[str] = "classic"
    ACTIONS: ClassVar[ActionSpace] = TWENTYFIVE_ACTIONS
    BRIEF: ClassVar[tuple[tuple[str, str], ...]] = BRIEF
    #: F4: the cards each seat is dealt (and the tricks of a hand).
    HAND_SIZE: ClassVar[int] = HAND_TRICKS

    def __init__(
        self, core: TwentyFiveCore, rules: dict[str, object], teams: list[list[int]] | None
    ) -> None:
        super().__init__()
        self._core = core
        self._rules = rules
        self._teams = teams
        # What the latest action closed: raw until ``closed`` words it.
        self._closed: dict[str, Any] | tuple[Any, ...] | None = None

    # -- construction -----------------------------------------------------------------
    @classmethod
    def new(cls, *, players: int, rules: dict[str, object], seed: int, **kwargs: Any) -> TwentyFive:
        if kwargs:
            raise InvalidRules(f"twentyfive takes no keyword {sorted(kwargs)[0]!r}")
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 10:
            raise InvalidRules(f"twentyfive is for 2–10 players, not {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise InvalidRules(f"seed must be a whole number ≥ 0, not {seed!r}")
        resolved, _ = resolve_rules(GAME_ID, OPTIONS, PRESETS, cls.DEFAULT_PRESET, rules)
        teams = seat_teams(players, resolved["teams"])
        core = TwentyFiveCore(make_config(players, resolved, teams, seed))
        core.start()
        return cls(core, resolved, teams)

    # -- state ------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._core.n

    @property
    def rules(self) -> dict[str, object]:
        return dict(self._rules)

    @property
    def seed(self) -> int:
        return self._core.cfg.seed

    @property
    def core(self) -> TwentyFiveCore:
        return self._core

    @property
    def teams(self) -> list[list[int]] | None:
        """The teams (seat lists), or None when everyone plays alone."""
        return None if self._teams is None else [list(t) for t in self._teams]

    def _current_player(self) -> int | None:
        p = self._core.to_play
        return None if p < 0 else p

    def _outcome(self) -> Outcome | None:
        core = self._core
        if core.to_play >= 0 or core.win_side < 0:
            return None
        winners = [s for s in range(core.n) if core.side_of[s] == core.win_side]
        losers = [s for s in range(core.n) if core.side_of[s] != core.win_side]
        return Outcome(winners, losers, False, "target")

    def _legal_codes(self) -> list[int]:
        return self._core.legal_moves()

    @property
    def is_over(self) -> bool:
        core = self._core  # what ``_outcome`` says, without building the outcome
        return self._forced is not None or (core.to_play < 0 and core.win_side >= 0)

    def legal_action_ids(self) -> list[int]:
        if self._forced is not None:
            return []
        codes = self._core.legal_moves()
        if not codes or codes[-1] < ROB:
            return codes  # a card's id is its code (docs/actions.md#action-ids)
        ids = TWENTYFIVE_ACTIONS.ids
        return [ids[c] for c in codes]

    @staticmethod
    def why_not_in(view: View, action: str) -> Why | None:
        return why_not(twentyfive_view(view), action)

    def side_of(self, seat: int) -> list[int]:
        side = self._core.side_of[seat]
        return [s for s in range(self._core.n) if self._core.side_of[s] == side]

    def max_actions(self) -> int:
        # Each hand deals five tricks of ``points_per_trick`` (F4, F16): with ``sides``
        # sides a game lasts at most ``sides * (target - 1) // (5 * ppt) + 1`` hands, each
        # of at most ``5 * players + 2`` actions (the cards, a rob F10, a joker discard F17a).
        sides = len({tuple(self.side_of(s)) for s in range(self.players)})
        core = self._core
        hands = sides * (core.target - 1) // (HAND_TRICKS * core.ppt) + 1
        return hands * (HAND_TRICKS * core.n + 2)

    def play_id(self, action_id: int) -> None:
        # The research API's hot path (issue 14): the core checks and applies in one call,
        # except a trick's last card, which goes through ``_apply`` to keep what it closed.
        if self._forced is None and type(action_id) is int:
            done = self._core.play_id(action_id)
            if done == 1:
                self._closed = None
                self.history.append(_ACTION_NAMES[action_id])
                return
            if done == 2:
                self._apply(action_id)  # a card: its id is its code
                self.history.append(_ACTION_NAMES[action_id])
                return
        super().play_id(action_id)  # raises, saying why

    def _apply(self, code: int) -> None:
        core = self._core
        if code >= ROB or core.tlen < core.n - 1:
            core.apply(code)  # F15: no trick is finished (a rob, a discard, not its last card)
            self._closed = None
            return
        # What a hand's last card replaces (a new deal puts fresh lists in place): kept to
        # tell what the action closed (``closed``).
        hand, dealer, plays, winners = core.hand_no, core.dealer, core.plays, core.winners
        turnup, trump, robbed, won = core.turnup, core.trump, core.robbed_seat, core.hand_tricks
        done = len(winners)
        core.apply(code)
        self._closed = None
        if len(winners) == done:
            return  # no trick finished (a card to an open trick, a rob, a discard)
        n = core.n
        leader = (dealer + 1) % n if done == 0 else winners[done - 1]
        trick = (leader, plays[done * n : (done + 1) * n], winners[done])
        hand_info: tuple[Any, ...] | None = None
        if core.hand_no != hand or core.to_play < 0:
            hand_info = (hand, dealer, turnup, trump, robbed, list(plays), list(winners),
                         list(won), list(core.scores))  # fmt: skip
        # Worded only when asked (``closed``): random play and search never ask.
        self._closed = (n, trick, hand_info)

    def _undo(self) -> None:
        self._core.undo()
        self._closed = None

    def closed(self) -> dict[str, Any] | None:
        """docs/api.md#what-an-action-closed: the trick the latest action finished (its
        leader, cards and winner), and the hand when it was the hand's last trick or the
        game ended on it: its number, dealer, turn-up and trumps, who robbed (the seat; the
        card put down stays secret), its tricks, the tricks each side won and the scores
        after it (the F17 bonus included)."""
        if isinstance(self._closed, tuple):
            self._closed = _closed_json(*self._closed)
        return self._closed

    def clone(self) -> TwentyFive:
        g = TwentyFive(self._core.copy(), dict(self._rules), self.teams)
        g.history = list(self.history)
        g._forced = self._forced
        g._closed = self._closed
        return g

    # -- positions ----------------------------------------------------------------------
    def _tricks(self) -> tuple[list[Trick], list[int]]:
        core = self._core
        n = core.n
        out: list[Trick] = []
        leader = (core.dealer + 1) % n
        for k, w in enumerate(core.winners):
            cards = core.plays[k * n : (k + 1) * n]
            out.append({"leader": leader, "cards": [card_str(c) for c in cards], "winner": w})
            leader = w
        return out, core.plays[len(core.winners) * n :]

    def to_json(self) -> dict[str, Any]:
        core = self._core
        tricks, trick = self._tricks()
        stock = cards_of(core.stock)
        if core.next_up >= 0:
            stock.remove(core.next_up)
            stock.insert(0, core.next_up)
        outcome = self.outcome
        robbed = None
        if core.robbed_seat >= 0:
            robbed = {"seat": core.robbed_seat, "discard": card_str(core.robbed_discard)}
        return {
            "game": GAME_ID,
            "rules": dict(self._rules),
            "dealer": core.dealer,
            "turnup": card_str(core.turnup),
            "trump": SUITS[core.trump] if core.trump >= 0 else None,
            "robbed": robbed,
            "hands": [[card_str(c) for c in cards_of(h)] for h in core.hands],
            "stock": [card_str(c) for c in stock],
            "tricks": tricks,
            "trick": [card_str(c) for c in trick],
            "leader": core.leader,
            "to_move": self.current_player,
            "scores": list(core.scores),
            "teams": self.teams,
            "outcome": None if outcome is None else outcome.to_json(),
            "seed": core.cfg.seed,
            "hand": core.hand_no,
            "joker_discard": None if core.joker_discard < 0 else card_str(core.joker_discard),
        }

    def voids(self) -> list[list[str]]:
        """F18: per seat, the suits it has shown it lacks this hand by not following a
        plain-suit lead (playing neither a non-trump card of that suit nor a trump)."""
        core = self._core
        n = core.n
        lacking = [0] * n
        leader = (core.dealer + 1) % n
        k = 0
        while k * n < len(core.plays):
            cards = core.plays[k * n : (k + 1) * n]
            lead = cards[0]
            if not core.tval[lead]:
                suit = lead & 3
                for j in range(1, len(cards)):
                    c = cards[j]
                    if not (PLAIN_MASKS[suit] >> c & 1) and not core.tval[c]:
                        lacking[(leader + j) % n] |= 1 << suit
            if k < len(core.winners):
                leader = core.winners[k]
            k += 1
        return [[SUITS[s] for s in range(4) if lacking[p] >> s & 1] for p in range(n)]

    def view(self, seat: int | None) -> TwentyFiveView:
        """docs/views.md: other hands as counts with their publicly known cards (F18), voids,
        no seed, stock or robbing discard.  ``seat=None`` is the public view."""
        self._check_view_seat(seat)
        core = self._core
        tricks, trick = self._tricks()
        outcome = self.outcome
        hands: list[Hand] = []
        for s, h in enumerate(core.hands):
            if s == seat:
                hands.append([card_str(c) for c in cards_of(h)])
                continue
            known = 0
            if s == core.robbed_seat:
                known |= h & (1 << core.turnup)  # F18: the robbed turn-up, while held
            if s == core.dealer and (core.joker_discard >= 0 or core.trump < 0):
                known |= h & (1 << JOKER)  # F17a: the turned-up joker went to the dealer
            hands.append({"count": h.bit_count(), "known": [card_str(c) for c in cards_of(known)]})
        robbed: Robbed | None = None
        if core.robbed_seat >= 0:
            robbed = {"seat": core.robbed_seat}
            if core.robbed_seat == seat:  # F10: the discard stays secret from the others
                robbed["discard"] = card_str(core.robbed_discard)
        joker_discard = None  # F17a: face down for everyone but the dealer
        if seat == core.dealer and core.joker_discard >= 0:
            joker_discard = card_str(core.joker_discard)
        return {
            "game": "twentyfive",
            "rules": dict(self._rules),
            "dealer": core.dealer,
            "turnup": card_str(core.turnup),
            "trump": SUITS[core.trump] if core.trump >= 0 else None,
            "robbed": robbed,
            "hands": hands,
            "tricks": tricks,
            "trick": [card_str(c) for c in trick],
            "leader": core.leader,
            "to_move": self.current_player,
            "scores": list(core.scores),
            "teams": self.teams,
            "outcome": None if outcome is None else outcome.to_json(),
            "hand": core.hand_no,
            "joker_discard": joker_discard,
            "voids": self.voids(),
            "seat": seat,
        }

    def open_view(self) -> TwentyFiveView:
        """``Game.open_view``, and the secrets of the hand besides the hands: a robber's
        discard (F10) and the dealer's joker discard (F17a)."""
        view = self.view(None)
        core = self._core
        view["hands"] = [[card_str(c) for c in cards_of(h)] for h in core.hands]
        if core.robbed_seat >= 0:
            view["robbed"] = {"seat": core.robbed_seat, "discard": card_str(core.robbed_discard)}
        if core.joker_discard >= 0:
            view["joker_discard"] = card_str(core.joker_discard)
        return view

    def undealt_view(self, seat: int | None) -> TwentyFiveView:
        """Before the deal (``Game.undealt_view``): besides no card, dealer or seat to move,
        no turn-up nor trump (F4) and nobody to lead (F3)."""
        view = self.view(None)
        view.update(
            {
                "seat": seat,
                "to_move": None,
                "dealer": None,
                "turnup": None,
                "trump": None,
                "leader": None,
            }
        )
        return view

    def public_action(self, action: str, seat: int | None) -> str:
        """F10, F17a: everyone sees that a rob or a joker discard happened, but the
        discarded card only its owner (the seat that made it is to be told by the caller)."""
        word = action.split(" ", 1)[0]
        if word in ("rob", "discard") and " " in action:
            return word
        return action

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TwentyFive:
        loaded = load(data)
        game = cls(loaded.core, loaded.rules, loaded.teams)
        game._forced = loaded.forced
        return game


__all__ = ["TwentyFive"]


def _closed_json(
    n: int, trick: tuple[Any, ...], hand_info: tuple[Any, ...] | None
) -> dict[str, Any]:
    """``TwentyFive.closed``'s dict from what ``_apply`` kept."""
    leader, cards, winner = trick
    closed: dict[str, Any] = {
        "trick": {"leader": leader, "cards": [card_str(c) for c in cards], "winner": winner}
    }
    if hand_info is not None:
        hand, dealer, turnup, trump, robbed, plays, winners, won, scores = hand_info
        tricks, lead = [], (dealer + 1) % n
        for k, w in enumerate(winners):
            tricks.append(
                {
                    "leader": lead,
                    "cards": [card_str(c) for c in plays[k * n : (k + 1) * n]],
                    "winner": w,
                }
            )
            lead = w
        closed["hand"] = {
            "hand": hand,
            "dealer": dealer,
            "turnup": card_str(turnup),
            "trump": SUITS[trump] if trump >= 0 else None,
            "robbed": None if robbed < 0 else robbed,
            "tricks": tricks,
            "won": won,
            "scores": scores,
        }
    return closed
