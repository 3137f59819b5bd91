"""Whole games over a real server: ``play_out`` plays every seated client at random until
the game is over."""

from __future__ import annotations

import asyncio
import random

from server.e2e import Client, Msg

GAME_KINDS = {"start", "action", "timeout", "resign"}  # events that change the game


async def play_out(
    players: dict[int, Client], table_id: str, rng: random.Random, *, resign_at: int | None = None
) -> Msg:
    """Every seated client plays a random legal action whenever it is to move, answering
    only the newest event it has, until the game is over; returns the ``game_over``.
    ``resign_at``: the player to move at that event number or later resigns instead (for a
    test on a deal it cannot choose: random play makes some duels thousands of moves long)."""

    async def seat_loop(seat: int, client: Client) -> Msg:
        seen = [m for m in client.received if m.get("table_id") == table_id]
        msg = seen[-1] if seen else await client.recv()  # it may be to move already
        sent = False  # an action is on its way: wait for the game to change
        while True:
            assert msg["type"] != "error", (seat, msg)
            if msg["type"] == "game_over":
                return msg
            if msg["type"] == "event" and msg["kind"] in GAME_KINDS:
                sent = False
            if msg["type"] in ("event", "table_state") and msg.get("legal") and not sent:
                number = msg["number"] if msg["type"] == "event" else msg["event"]
                if resign_at is not None and number >= resign_at:
                    await client.send({"type": "resign", "table_id": table_id})
                else:
                    await client.act(table_id, rng.choice(msg["legal"]), number)
                sent = True
            msg = await client.recv()

    results = await asyncio.gather(*(seat_loop(s, c) for s, c in players.items()))
    assert all(r == results[0] for r in results)
    return results[0]
