"""Driving a ``Table`` actor in the test's own event loop, for the table-level tests:
``run`` a body under a deadline, ``Watched`` subscriber queues that check each message
shows no hidden card, and ``collect_until_over``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import msgspec

from server.e2e import strings_in
from trumps.games.viewtypes import hidden_hand
from trumps.server.tables.table import Table
from trumps.server.wire.protocol import Error, GameOver, ServerMessage, Spectators

T = TypeVar("T")


def run(main: Callable[[], Awaitable[T]]) -> T:
    async def wrapped() -> T:
        return await asyncio.wait_for(main(), timeout=60)

    return asyncio.run(wrapped())


class Watched(asyncio.Queue[ServerMessage]):
    """A subscriber queue that checks, as each message is put, that it shows no card of
    another seat's hand (the table's game at that moment) except that seat's known ones."""

    def __init__(self, table: Table | None, seat: int | None, *, watchers: bool = False) -> None:
        super().__init__()
        self.table, self.seat, self.checked = table, seat, 0
        self.leaks: list[str] = []
        # Who watches (``spectators`` messages) is queued only when asked for; else kept here.
        self.watchers, self.told_watchers = watchers, list[Spectators]()

    def put_nowait(self, item: ServerMessage) -> None:
        if isinstance(item, Spectators) and not self.watchers:
            self.told_watchers.append(item)
            return
        if self.table is not None:
            try:
                self.check(self.table, item)
            except AssertionError as e:  # recorded, so the table's task keeps running
                self.leaks.append(str(e))
        super().put_nowait(item)

    def check(self, table: Table, item: ServerMessage) -> None:
        data = msgspec.to_builtins(item)
        data.pop("action", None)  # the card just played: public (a redeal may follow)
        # What the move closed: the cards of finished tricks, public too (the next deal may
        # hold them again); it is the game's own account, the robbed card never in it.
        closed = data.pop("closed", None)
        if closed is not None:
            assert closed == table.game.closed()
            assert (closed.get("hand") or {}).get("robbed") in (None, *range(len(table.seats)))
        hands = table.game.to_json()["hands"]
        view = data.get("view")
        if view is not None:
            shown = view.pop("hands")
            assert len(shown) == len(hands)
            for s, hand in enumerate(hands):
                if s == self.seat:
                    assert sorted(shown[s]) == sorted(hand)
                    continue
                assert isinstance(shown[s], dict), (self.seat, s, shown[s])
                assert shown[s]["count"] == len(hand)
                assert set(shown[s]["known"]) <= set(hand)
                if self.seat is None:  # a spectator knows only the public cards
                    assert shown[s]["known"] == hidden_hand(table.game.view(None), s)["known"]
                    if "known" in table.game.to_json():
                        assert set(shown[s]["known"]) <= set(table.game.to_json()["known"][s])
        hidden = {
            card
            for s, hand in enumerate(hands)
            if s != self.seat
            for card in hand
            if view is None or card not in shown[s]["known"]
        }
        leaked = hidden & set(strings_in(data))
        assert not leaked, f"seat {self.seat} was sent hidden cards {leaked}: {data}"
        self.checked += 1


async def collect_until_over(q: asyncio.Queue[ServerMessage]) -> list[ServerMessage]:
    out: list[ServerMessage] = []
    while True:
        msg = await q.get()
        out.append(msg)
        assert not isinstance(msg, Error), msg
        if isinstance(msg, GameOver):
            return out
