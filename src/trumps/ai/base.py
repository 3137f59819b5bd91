"""The bot interface every computer player implements.

A bot decides from what a human in its seat would see — the seat's view (docs/views.md), the
legal actions, a budget and a random generator — and nothing else: it never receives a
``Game``.  Stronger bots (search, determinization) implement the same ``Bot.decide``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from trumps.games.viewtypes import View


@dataclass(frozen=True)
class Limits:
    """A bot's budget for one decision; None means "no limit of this kind"."""

    time: float | None = None  # seconds of wall-clock time
    iterations: int | None = None  # search iterations (playouts, determinizations…)
    nodes: int | None = None  # search nodes
    depth: int | None = None  # the deepest ply of a tree search (the duel's alpha-beta)


@dataclass(frozen=True)
class Explain:
    """Why a bot chose its action, for people: a reason ``code`` with its ``numbers``
    (docs/protocol.md#hint lists them); each client words it in the player's language.

    ``only_move``; ``neutral_trump`` (K3); ``sampled`` (``percent``: the action's mean
    score over ``deals`` sampled deals, the best of the legal actions); ``solved_win`` and
    ``solved_loss`` (``moves``: plies to the end with best play), ``solved_draw``;
    ``all_win`` (every action won in every deal tried); ``searched`` (``depth`` plies ahead,
    ``percent``: the estimated chance to win).  The rules-of-thumb bots (``easy``,
    ``medium``) give the codes of their rules: ``beat_cheapest``, ``win_cheaply``,
    ``take_cheap`` (``cards``) … — docs/protocol.md#hint lists them all.
    """

    code: str
    numbers: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "numbers": dict(self.numbers)}


ONLY_MOVE = Explain("only_move")
NEUTRAL_TRUMP = Explain("neutral_trump")


@dataclass
class Decision:
    """A bot's chosen action, why (``reasoning``: free text for logs and debugging;
    ``explain``: the structured reason clients word), and optionally its estimate of each
    action's value."""

    action: str
    reasoning: str
    values: dict[str, float] | None = None
    explain: Explain | None = None


class Bot(ABC):
    """A computer player for one game.

    ``name`` is a display name and ``level`` the registry key (``random``, ``easy`` …).
    ``decide`` must return one of ``legal`` (non-empty) and may use only its arguments;
    with the same arguments and generator state it returns the same decision.
    """

    name: ClassVar[str]
    level: ClassVar[str]

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id

    @abstractmethod
    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        """Choose one of ``legal`` for the seat whose ``view`` this is."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level} for {self.game_id}>"
