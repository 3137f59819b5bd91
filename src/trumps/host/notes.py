"""What a table tells about each action beyond the action itself, and the reasons a seat
is given for the cards it may not play: the same for every host of a table."""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

from trumps.errors import TrumpsError
from trumps.games.base import Game, Why
from trumps.games.viewtypes import View, own_cards
from trumps.records import play_recorded

__all__ = ["PlyNote", "PlyNotes", "shown_action", "shown_why", "why_not_for"]

log = logging.getLogger("trumps.host")


class PlyNote(NamedTuple):
    """What an action's event told beyond the action (``PlyNotes``)."""

    closed: dict[str, Any] | None = None
    next_hand: int | None = None
    took: int | None = None


class PlyNotes:
    """For each action of a game so far, what its event told beyond the action: what it
    closed (``game.closed()``), the next hand dealt after a hand's end, and a Svoi Kozyri
    pick-up's size (the view's ``take_count`` before it, K12).  Kept up to date by
    replaying the new actions on a copy of the game made from its seed, so that they hold
    also for a game resumed from its record (whose events were stored without them)."""

    def __init__(self) -> None:
        self._game: Game | None = None
        self._notes: list[PlyNote] = []

    def forget(self) -> None:
        """The game was dealt again (or replaced): the notes start over."""
        self._game = None

    def of(self, game: Game) -> list[PlyNote]:
        history = game.history
        if self._game is None or len(self._notes) > len(history):
            self._game = type(game).new(players=game.players, rules=game.rules, seed=game.seed)
            self._notes = []
        replayed = self._game
        for action in history[len(self._notes) :]:
            mover = replayed.current_player
            seen = replayed.view(mover)
            took = seen["take_count"] if seen["game"] == "kozyri" and action == "take" else None
            try:
                play_recorded(replayed, action)
            except TrumpsError:  # a game not made from its seed (a position): no notes
                log.warning("%s: its actions do not replay from the seed", game.describe())
                self._game = type(game).from_json(game.to_json())
                self._notes = [PlyNote()] * len(history)
                break
            closed = replayed.closed()
            dealt = replayed.view(None)["hand"] if closed and "hand" in closed else None
            self._notes.append(PlyNote(closed, dealt if replayed.outcome is None else None, took))
        return self._notes


def why_not_for(game: Game, seat: int | None, view: View, legal: list[str]) -> dict[str, Why]:
    """For the seat to move (``legal`` not empty): why each card of its hand that is not
    legal now is not (and ``take``, in Svoi Kozyri once the trumps are chosen), as the game
    says from the seat's own view."""
    if not legal or seat is None:
        return {}
    asked = [c for c in own_cards(view) if c not in legal]
    if view["game"] == "kozyri" and view["trumps"][seat] is not None and "take" not in legal:
        asked.append("take")
    out: dict[str, Why] = {}
    for action in asked:
        why = game.why_not_in(view, action)
        if why is not None:
            out[action] = why
    return out


def shown_why(why: Why) -> dict[str, Any]:
    """The wire form of a reason (docs/protocol.md, ``why``).  A card the seat does not
    hold is not named (``not_in_hand``; the trump ace of ``rob_needs_trump_ace``, which
    the suit names): the message carries only cards the recipient's view shows."""
    hidden = why.code in ("not_in_hand", "rob_needs_trump_ace")  # cards maybe in other hands
    return {
        "code": why.code,
        "rule": why.rule,
        "cards": [] if hidden else list(why.cards),
        "suit": why.suit,
    }


def shown_action(
    game: Game, action: str | None, actor: int | None, viewer: int | None
) -> str | None:
    """``action`` as ``viewer`` is told it: whole to its actor, else as the game says (a
    Twenty-Five ``rob XX`` is ``rob`` to the others): the game knows what is secret."""
    if action is None or viewer == actor:
        return action
    return game.public_action(action, viewer)
