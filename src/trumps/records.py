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
from trumps.fairdeal import Fairness, fair_of
from trumps.games import GAMES, Game, Outcome, new_game

__all__ = ["FORMAT", "InvalidRecord", "dumps", "loads", "record_of", "replay", "verify"]

FORMAT = "trumps-record/1"
_KEYS = {"format", "game", "rules", "seed", "players", "actions", "outcome", "started", "finished"}
_OPTIONAL = {"fair"}  # a provably fair deal (trumps.fairdeal): its secret and contributions


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def record_of(
    game: Game,
    players: Sequence[str] | None = None,
    started: str | None = None,
    finished: str | None = None,
    fair: Fairness | None = None,
) -> dict[str, Any]:
    """The record of ``game`` (running or finished) as a JSON-ready dict.

    ``players`` are display names per seat (default ``Seat 0`` …); ``started`` and
    ``finished`` are ISO 8601 times (``finished`` defaults to now for a finished game
    and stays null for a running one).  ``fair``, for a game dealt from a secret and the
    seats' contributions, adds them (its seed must be the game's).
    """
    names = list(players) if players is not None else [f"Seat {s}" for s in range(game.players)]
    if len(names) != game.players:
        raise ValueError(
            f"a record of {game.players} seats needs {game.players} names, got {len(names)}"
        )
    if fair is not None and fair.seed != game.seed:
        raise ValueError(f"the fair deal's seed {fair.seed} is not the game's ({game.seed})")
    outcome = game.outcome
    record: dict[str, Any] = {
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
    if fair is not None:
        record["fair"] = fair.to_json()
    return record


def replay(record: object) -> Game:
    """The game a record describes, rebuilt by replaying it; raises ``InvalidRecord``."""
    if not isinstance(record, Mapping):
        raise InvalidRecord(f"a record must be a JSON object, not {record!r:.80}")
    missing = sorted(_KEYS - set(record))
    extra = sorted(set(record) - _KEYS - _OPTIONAL)
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
    if "fair" in record:  # the seed must be the committed one, before anything is replayed
        fair_of(record["fair"], len(players), record["seed"])
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


def verify(
    record: object, *, contribution: str | None = None, committed: str | None = None
) -> list[str]:
    """Check that ``record``'s deals are the provably fair ones (docs/fairness.md): its
    secret matches its commitment, its seed is the one derived from the secret and the
    contributions, and every action replays on the deals that seed makes.  With
    ``contribution`` (yours), one seat's contribution must be it; with ``committed`` (the
    commitment you were shown before the game), the record's must be it.  Returns the
    report, one line per check; raises ``InvalidRecord`` at the first that fails."""
    if not isinstance(record, Mapping) or "fair" not in record:
        raise InvalidRecord(
            "the record has no fair-deal data (a game not dealt from a commitment): "
            "its deals cannot be verified"
        )
    game = replay(record)  # checks the commitment and the seed first (fair_of)
    fair = fair_of(record["fair"], game.players, record["seed"])
    report = [
        f"commitment {fair.commitment[:16]}… is SHA-256 of the secret",
        f"seed {fair.seed} is derived from the secret and "
        f"{sum(c is not None for c in fair.contributions)} of {game.players} seats' contributions",
        f"{game.view(None)['hand']} deal(s) recomputed from the seed; "
        f"{len(game.history)} actions replay on them",
    ]
    if committed is not None:
        if committed.strip().lower() != fair.commitment:
            raise InvalidRecord(
                "the record's commitment is not the one you were shown before the game"
            )
        report.append("the commitment is the one you were shown before the game")
    if contribution is not None:
        mine = contribution.strip().lower()
        seats = [s for s, c in enumerate(fair.contributions) if c == mine]
        if not seats:
            raise InvalidRecord("your contribution is not in the record: the deal ignored it")
        report.append(f"your contribution is seat {seats[0]}'s")
    return report


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
