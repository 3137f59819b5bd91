"""Integer actions: each game's stable, dense numbering of its actions (issue 14 §1).

Researchers' tools (OpenSpiel, PettingZoo, RLCard) speak in action ids ``0 … n-1`` and an
action mask.  Each game has one ``ActionSpace``: the same id means the same action in
every position, rule option and player count, now and in later versions (docs/actions.md
lists both tables).

* **Svoi Kozyri** (41 ids): the 36 cards 6♠ … A♣ as ``4 × (rank − 6) + suit`` (suits in
  the order ♠ ♥ ♦ ♣, ranks 6 7 8 9 10 J Q K A), so ``0`` is 6♠ and ``35`` A♣; ``36`` is
  ``take``; ``37 … 40`` are ``trump S``, ``trump H``, ``trump D``, ``trump C``.
* **Twenty-Five** (159 ids): the 52 cards 2♠ … A♣ as ``4 × (rank − 2) + suit`` and the
  joker as ``52``; ``53 + card`` is ``rob`` putting that card down (``53 … 105``);
  ``106 + card`` is ``discard`` of that card after a turned-up joker (``106 … 158``).

``Game`` offers them beside the string API: ``legal_action_ids``, ``play_id``,
``action_mask``, ``action_to_string`` and ``string_to_action``.  Pure tables: no state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from trumps.cards import DISCARD, JOKER, NUM_CARDS, ROB, TAKE, TRUMP, action_str, parse_action
from trumps.errors import InvalidAction

__all__ = ["KOZYRI_ACTIONS", "TWENTYFIVE_ACTIONS", "ActionSpace"]

_CODES: Final = 256  # every engine action code is below this (trumps.cards)


@dataclass(frozen=True, eq=False)
class ActionSpace:
    """A game's action ids: ``size`` of them; ``codes[id]`` the engine's code of each,
    ``ids[code]`` the id of an engine code (-1: not an action of this game) and
    ``names[id]`` the canonical string."""

    game_id: str
    codes: tuple[int, ...]
    ids: tuple[int, ...]
    names: tuple[str, ...]

    @classmethod
    def of(cls, game_id: str, codes: Sequence[int]) -> ActionSpace:
        ids = [-1] * _CODES
        for i, code in enumerate(codes):
            ids[code] = i
        return cls(game_id, tuple(codes), tuple(ids), tuple(action_str(c) for c in codes))

    @property
    def size(self) -> int:
        return len(self.codes)

    def check_id(self, action_id: object) -> int:
        """``action_id`` if it is an id of this game; else ``InvalidAction`` naming it."""
        if type(action_id) is not int or not 0 <= action_id < len(self.codes):
            raise InvalidAction(
                f"{action_id!r} is not a {self.game_id} action id: ids are whole numbers "
                f"0 to {len(self.codes) - 1} (docs/actions.md)"
            )
        return action_id

    def to_string(self, action_id: object) -> str:
        """The canonical string of an id; ``InvalidAction`` for a number that is none."""
        return self.names[self.check_id(action_id)]

    def to_id(self, text: str) -> int:
        """The id of an action string (any spelling ``trumps.cards.parse_action`` reads);
        ``InvalidAction`` for a string that is no action, or no action of this game."""
        code = parse_action(text)
        found = self.ids[code] if 0 <= code < _CODES else -1
        if found < 0:
            raise InvalidAction(f"{text!r} is no {self.game_id} action (docs/actions.md)")
        return found


KOZYRI_ACTIONS: Final = ActionSpace.of("kozyri", [*range(16, 52), TAKE, *range(TRUMP, TRUMP + 4)])
"""Svoi Kozyri: 36 cards (6 to A), ``take``, the four trump choices."""

TWENTYFIVE_ACTIONS: Final = ActionSpace.of(
    "twentyfive",
    [
        *range(NUM_CARDS),
        *(ROB + c for c in range(NUM_CARDS)),
        *(DISCARD + c for c in range(NUM_CARDS)),
    ],
)
"""Twenty-Five: 52 cards and the joker, ``rob`` and ``discard`` of each."""

assert TWENTYFIVE_ACTIONS.codes[JOKER] == JOKER and KOZYRI_ACTIONS.size == 41
