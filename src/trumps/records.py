"""Game records (docs/records.md): export a game as JSON and import one by replaying it.

A record holds ``(game, rules, seed, actions)`` — enough to rebuild every position —
plus the players' names, the outcome and timestamps.  Importing replays the actions
through the engine, so a record with an illegal action, a wrong outcome or fields that
do not fit together is rejected with ``InvalidRecord`` naming what is wrong.  A record
holds the seed, so a running game's record must not reach a player before it ends.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from trumps.cards import DISCARD, ROB, action_str, parse_action
from trumps.errors import InvalidRecord, TrumpsError
from trumps.games import GAMES, Game, Outcome, new_game

__all__ = ["FORMAT", "InvalidRecord", "dumps", "loads", "record_of", "replay"]

FORMAT = "trumps-record/1"
_KEYS = {"format", "game", "rules", "seed", "players", "actions", "outcome", "started", "finished"}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def record_of(
    game: Game,
    players: Sequence[str] | None = None,
    started: str | None = None,
    finished: str | None = None,
) -> dict[str, Any]:
    """The record of ``game`` (running or finished) as a JSON-ready dict.

    ``players`` are display names per seat (default ``Seat 0`` …); ``started`` and
    ``finished`` are ISO 8601 times (``finished`` defaults to now for a finished game
    and stays null for a running one).
    """
    names = list(players) if players is not None else [f"Seat {s}" for s in range(game.players)]
    if len(names) != game.players:
        raise ValueError(
            f"a record of {game.players} seats needs {game.players} names, got {len(names)}"
        )
    outcome = game.outcome
    return {
        "format": FORMAT,
        "game": game.game_id,
        "rules": game.rules,
        "seed": game.seed,
        "players": names,
        "actions": list(game.history),
        "outcome": None if outcome is None else outcome.to_json(),
        "started": started,
        "finished": (finished or _now()) if outcome is not None else None,
    }


def replay(record: object) -> Game:
    """The game a record describes, rebuilt by replaying it; raises ``InvalidRecord``."""
    if not isinstance(record, Mapping):
        raise InvalidRecord(f"a record must be a JSON object, not {record!r:.80}")
    missing = sorted(_KEYS - set(record))
    extra = sorted(set(record) - _KEYS)
    if missing or extra:
        raise InvalidRecord(
            "record keys do not match trumps-record/1: "
            + "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(extra)}" if extra else "",
                )
                if part
            )
        )
    if record["format"] != FORMAT:
        raise InvalidRecord(f"record format must be {FORMAT!r}, not {record['format']!r}")
    game_id = record["game"]
    if game_id not in GAMES:
        raise InvalidRecord(f"record game must be one of {', '.join(GAMES)}, not {game_id!r}")
    players = record["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidRecord(f"record players must be a list of names, not {players!r:.80}")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise InvalidRecord(f"record actions must be a list of action strings, not {actions!r:.80}")
    rules = record["rules"]
    if not isinstance(rules, Mapping):
        raise InvalidRecord(f"record rules must be an object of rule options, not {rules!r:.80}")
    for key in ("started", "finished"):
        if record[key] is not None and not isinstance(record[key], str):
            raise InvalidRecord(
                f"record {key} must be an ISO 8601 time or null, not {record[key]!r}"
            )
    try:
        game = new_game(str(game_id), players=len(players), rules=dict(rules), seed=record["seed"])
        if game.rules != dict(rules):
            raise InvalidRecord("record rules must list every rule option of the game")
    except InvalidRecord:
        raise
    except TrumpsError as e:
        raise InvalidRecord(f"record does not describe a game: {e}") from None
    for i, action in enumerate(actions):
        try:
            play_recorded(game, action)
        except TrumpsError as e:
            raise InvalidRecord(f"record action {i} ({action!r}) does not replay: {e}") from None
    _check_outcome(game, record["outcome"])
    return game


def play_recorded(game: Game, action: str) -> None:
    """Play an action read from a record.  Records written before the joker discard had
    its own word (F17a) hold ``rob XX`` there; it is read as ``discard XX``."""
    code = parse_action(action)
    legal = game.legal_codes()
    if ROB <= code < DISCARD and code not in legal and code - ROB + DISCARD in legal:
        action = action_str(code - ROB + DISCARD)
    game.play(action)


def _check_outcome(game: Game, claimed: object) -> None:
    if claimed is None:
        if game.outcome is not None:
            raise InvalidRecord(
                f"record outcome is null but the game ended: {game.outcome.to_json()}"
            )
        return
    try:
        outcome = Outcome.from_json(claimed)
    except ValueError as e:
        raise InvalidRecord(f"record outcome: {e}") from None
    if outcome.reason in ("resigned", "timeout") and game.outcome is None:
        if not outcome.losers:
            raise InvalidRecord("a resigned or timed-out record must name its losers")
        loser = outcome.losers[0]
        try:
            game.resign(loser, outcome.reason)
        except TrumpsError as e:
            raise InvalidRecord(f"record outcome: {e}") from None
    if game.outcome != outcome:
        actual = None if game.outcome is None else game.outcome.to_json()
        raise InvalidRecord(
            f"record outcome {claimed!r} does not match the replayed game's {actual!r}"
        )


def dumps(record: Mapping[str, Any]) -> str:
    """A record as pretty JSON text."""
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def loads(text: str) -> Game:
    """Replay a record from JSON text; raises ``InvalidRecord``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidRecord(f"record is not JSON: {e}") from None
    return replay(data)
