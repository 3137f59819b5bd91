"""Reading position dicts (docs/positions.md) with errors that name the bad field.

Both games parse positions through ``Reader`` so every malformed input is rejected
with an ``InvalidPosition`` naming the key and the value, and unknown keys are refused
rather than silently ignored.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping
from typing import Any

from trumps.cards import card_str, parse_card
from trumps.errors import InvalidAction, InvalidPosition


class Reader:
    """Typed access to a position dict; every failure raises ``InvalidPosition``."""

    def __init__(self, data: object, game_id: str, allowed: Iterable[str]) -> None:
        if not isinstance(data, Mapping):
            raise InvalidPosition(f"a {game_id} position must be an object, not {data!r:.80}")
        self.data: Mapping[str, Any] = data
        self.game_id = game_id
        if data.get("game") != game_id:
            raise InvalidPosition(f"position 'game' must be {game_id!r}, not {data.get('game')!r}")
        unknown = sorted(set(data) - set(allowed) - {"game"})
        if unknown:
            raise InvalidPosition(
                f"{game_id} position has unknown keys: {', '.join(map(repr, unknown))}"
            )

    def fail(self, message: str) -> InvalidPosition:
        return InvalidPosition(f"{self.game_id} position: {message}")

    def has(self, key: str) -> builtins.bool:
        return key in self.data and self.data[key] is not None

    def raw(self, key: str, default: object = None) -> Any:
        return self.data.get(key, default)

    def int(
        self,
        key: str,
        default: builtins.int | None = None,
        minimum: builtins.int | None = None,
        maximum: builtins.int | None = None,
    ) -> builtins.int:
        value = self.data.get(key, default)
        if value is None and default is not None:
            value = default
        if not isinstance(value, builtins.int) or isinstance(value, builtins.bool):
            raise self.fail(f"{key!r} must be a whole number, not {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(f"{key!r} must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise self.fail(f"{key!r} must be at most {maximum}, not {value}")
        return value

    def optional_int(
        self, key: str, minimum: builtins.int | None = None, maximum: builtins.int | None = None
    ) -> builtins.int | None:
        if self.data.get(key) is None:
            return None
        return self.int(key, minimum=minimum, maximum=maximum)

    def bool(self, key: str, default: builtins.bool) -> builtins.bool:
        value = self.data.get(key, default)
        if not isinstance(value, builtins.bool):
            raise self.fail(f"{key!r} must be true or false, not {value!r}")
        return value

    def card(self, value: object, where: str) -> builtins.int:
        if not isinstance(value, str):
            raise self.fail(f"{where} must be a card code, not {value!r}")
        try:
            return parse_card(value)
        except InvalidAction as e:
            raise self.fail(f"{where}: {e}") from None

    def cards(
        self, key: str, default: list[str] | None = None, value: object = None
    ) -> list[builtins.int]:
        """A list of card codes under ``key`` (or the given ``value``)."""
        if value is None:
            value = self.data.get(key, default)
        if not isinstance(value, list):
            raise self.fail(f"{key!r} must be a list of card codes, not {value!r:.80}")
        return [self.card(v, f"{key!r} item {i}") for i, v in enumerate(value)]

    def seat_lists(self, key: str, players: builtins.int | None = None) -> list[list[builtins.int]]:
        """A list per seat of card lists (``hands``)."""
        value = self.data.get(key)
        if not isinstance(value, list) or not all(isinstance(h, list) for h in value):
            raise self.fail(
                f"{key!r} must be a list with one list of cards per seat, not {value!r:.80}"
            )
        if players is not None and len(value) != players:
            raise self.fail(f"{key!r} has {len(value)} seats, expected {players}")
        return [self.cards(f"{key}[{i}]", value=h) for i, h in enumerate(value)]

    def seat(
        self,
        key: str,
        players: builtins.int,
        default: builtins.int | None = None,
        nullable: builtins.bool = False,
    ) -> builtins.int | None:
        value = self.data.get(key, default)
        if value is None:
            if nullable:
                return None
            raise self.fail(f"{key!r} must be a seat number 0..{players - 1}, not null")
        if (
            not isinstance(value, builtins.int)
            or isinstance(value, builtins.bool)
            or not 0 <= value < players
        ):
            raise self.fail(f"{key!r} must be a seat number 0..{players - 1}, not {value!r}")
        return value


def check_unique(reader: Reader, groups: Iterable[tuple[str, list[int]]]) -> int:
    """The mask of all cards listed; raises when a card is listed twice."""
    seen: dict[int, str] = {}
    mask = 0
    for where, cards in groups:
        for c in cards:
            if c in seen:
                raise reader.fail(f"card {card_str(c)} appears twice (in {seen[c]} and {where})")
            seen[c] = where
            mask |= 1 << c
    return mask
