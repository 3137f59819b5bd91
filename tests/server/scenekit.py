"""A running two-person table with a spectator on a real server, for the end-to-end tests
of bad input: a ``Pool`` of clients closed however the test ends (``run_pool``), the
``Scene`` at the table, and the checks that a rejection changed nothing (``Scene.reject``,
``Scene.unharmed``)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from server.e2e import Client, Msg, ServerProc
from trumps.server.wire.wiretypes import ERROR_CODES

# Errors a table (or the hub, about one table) answers: they name the table.
TABLE_CODES: Final = frozenset(
    {
        "no_such_table",
        "table_full",
        "not_seated",
        "not_your_turn",
        "invalid_action",
        "illegal_action",
        "stale_event",
        "game_over",
    }
)
_nonces = itertools.count(1)


def check_error(err: Msg, code: str, field_name: str | None = None) -> None:
    """``err`` is an ``error`` with the documented ``code`` and a message for people that
    names ``field_name`` when given."""
    assert err["type"] == "error", err
    assert err["code"] in ERROR_CODES, err
    assert err["code"] == code, err
    assert isinstance(err["message"], str) and err["message"].strip(), err
    if field_name is not None:
        assert f"`{field_name}`" in err["message"] or f"`$.{field_name}`" in err["message"], err


async def ping_pong(client: Client) -> None:
    """The connection works: a ``ping`` is answered, and its ``pong`` is the next message."""
    nonce = next(_nonces)
    await client.send({"type": "ping", "nonce": nonce})
    assert await client.recv() == {"type": "pong", "nonce": nonce}


async def snapshot(client: Client, table_id: str) -> Msg:
    """A fresh ``table_state`` of ``table_id`` for ``client`` (it must be the next message)."""
    await client.send(
        {"type": "resync", "table_id": table_id, "last_event": client.last.get(table_id, 0)}
    )
    state = await client.expect("table_state")
    assert state["table_id"] == table_id
    return state


def essence(state: Msg) -> tuple[Any, ...]:
    return state["event"], state["view"], state["legal"], state["to_move"]


class Pool:
    """The clients of one test, all closed at its end even when it fails (no socket is left
    for the garbage collector to complain about in a later test)."""

    def __init__(self, server: ServerProc) -> None:
        self.server = server
        self.clients: list[Client] = []

    async def raw(self) -> Client:
        """A connected client that has not said hello."""
        client = Client(self.server.ws)
        self.clients.append(client)
        return await client.connect()

    async def hello(self, name: str, token: str | None = None) -> Client:
        """A client that said hello (``received[-1]`` is its ``welcome``)."""
        client = await self.raw()
        await client.hello(name, token)
        return client

    async def close(self) -> None:
        for client in self.clients:
            with contextlib.suppress(Exception):
                await client.close()


def run_pool(server: ServerProc, body: Callable[[Pool], Awaitable[None]]) -> None:
    """Run ``body`` with a fresh ``Pool`` of clients on ``server``."""

    async def main() -> None:
        pool = Pool(server)
        try:
            await body(pool)
        finally:
            await pool.close()

    asyncio.run(main())


@dataclass
class Scene:
    """A running two-person Svoi Kozyri table with a spectator, and what each of them saw."""

    server: ServerProc
    table_id: str
    seats: dict[int, Client]
    watcher: Client
    base: list[Msg] = field(default_factory=list)  # the members' last snapshots

    @property
    def members(self) -> list[Client]:
        return [self.seats[0], self.seats[1], self.watcher]

    @property
    def number(self) -> int:
        return int(self.base[0]["event"])

    @property
    def to_move(self) -> int:
        seat = self.base[0]["to_move"]
        assert isinstance(seat, int)
        return seat

    @property
    def mover(self) -> Client:
        return self.seats[self.to_move]

    @property
    def waiter(self) -> Client:
        return self.seats[1 - self.to_move]

    def hand(self, seat: int) -> list[str]:
        hand = self.base[seat]["view"]["hands"][seat]
        assert isinstance(hand, list) and hand, hand
        return [str(card) for card in hand]

    def legal(self) -> list[str]:
        return [str(a) for a in self.base[self.to_move]["legal"]]

    async def snapshots(self) -> list[Msg]:
        return [await snapshot(c, self.table_id) for c in self.members]

    async def unharmed(self, *extra: Client) -> None:
        """Every connection answers a ping with nothing queued before the pong, and the
        table is exactly as it was."""
        for client in (*extra, *self.members):
            await ping_pong(client)
        now = await self.snapshots()
        for client, before, after in zip(self.members, self.base, now, strict=True):
            assert essence(after) == essence(before), (client.player_id, before, after)

    async def reject(
        self, sender: Client, msg: Msg | str | bytes, code: str, field_name: str | None = None
    ) -> Msg:
        """``msg`` from ``sender`` earns ``code`` and changes nothing anywhere."""
        err = await sender.error(msg)
        check_error(err, code, field_name)
        if code in TABLE_CODES and isinstance(msg, dict):
            assert err["table_id"] == msg["table_id"], err
        await self.unharmed(*([] if sender in self.members else [sender]))
        return err

    async def advance(self, client: Client, action: str) -> None:
        """A valid action: it is the next message every member hears."""
        number = client.last[self.table_id]
        await client.send(
            {"type": "action", "table_id": self.table_id, "action": action, "expected": number}
        )
        for member in self.members:
            event = await member.recv()
            assert event["type"] == "event" and event["number"] == number + 1, event
            assert event["kind"] == "action" and event["action"] == action, event
        self.base = await self.snapshots()


async def open_table(pool: Pool, *, cards: bool = True) -> Scene:
    """Olena (seat 0) and Taras (seat 1) at a started Svoi Kozyri table, a spectator
    watching; with ``cards`` the trump choice (K3) is played so cards are in hand."""
    olena = await pool.hello("Olena")
    taras = await pool.hello("Taras")
    watcher = await pool.hello("Watcher")
    await olena.send({"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
    table_id = (await olena.expect("table_state"))["table_id"]
    await taras.send({"type": "join_table", "table_id": table_id})
    assert (await taras.expect("table_state"))["seat"] == 1
    for player in (olena, taras):
        await player.until(lambda m: m["type"] == "event" and m["kind"] == "start")
    await watcher.send({"type": "spectate", "table_id": table_id})
    assert (await watcher.expect("table_state"))["seat"] is None
    scene = Scene(pool.server, table_id, {0: olena, 1: taras}, watcher)
    scene.base = await scene.snapshots()
    while cards and all(a.startswith("trump ") for a in scene.legal()):
        await scene.advance(scene.mover, scene.legal()[0])
    return scene
