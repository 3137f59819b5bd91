"""Seats that survive real life (issue 4 item 4), over a real server on SQLite and PostgreSQL:
reconnect with a resume token, bot takeover and return, turn clocks, kill -9 and restart.

The module's server of each backend (``served``) serves every test but kill -9, which
kills and restarts a server of its own (``serve``)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from server.e2e import TIMEOUT, Client, Msg, ServerProc, alive, connected, hidden_cards_sent, run
from server.playkit import play_out
from trumps.records import replay
from trumps.store import SqlStore

Serve = Callable[..., ServerProc]

# Timers do not touch the database: their exact behaviour is tested on manual time
# (test_timers.py); one end-to-end check each, on SQLite, shows the wiring.
timers_once = pytest.mark.parametrize("module_servers", ["sqlite"], indirect=True)


async def two_at_a_table(server: ServerProc, **options: Any) -> tuple[Client, Client, str]:
    """Olena creates a 2-person Svoi Kozyri table with ``options``, Taras joins; both have
    read up to the ``start`` event."""
    olena = await connected(server.ws, "Olena")
    taras = await connected(server.ws, "Taras")
    await olena.send(
        {"type": "create_table", "game": "kozyri", "seats": ["human", "human"], **options}
    )
    table_id = (await olena.expect("table_state"))["table_id"]
    await taras.send({"type": "join_table", "table_id": table_id})
    for client in (olena, taras):
        await client.until(lambda m: m["type"] == "event" and m["kind"] == "start")
    return olena, taras, table_id


def latest(client: Client, table_id: str) -> Msg:
    """The newest event or snapshot ``client`` received for ``table_id``."""
    return next(
        m
        for m in reversed(client.received)
        if m.get("table_id") == table_id and m["type"] in ("event", "table_state")
    )


async def move(client: Client, table_id: str, rng: random.Random) -> Msg:
    """``client`` (to move) plays a random legal action; returns its own event of it."""
    state = latest(client, table_id)
    assert state["legal"], state
    number = state["number"] if state["type"] == "event" else state["event"]
    await client.act(table_id, rng.choice(state["legal"]), number)
    return await client.until(lambda m: m["type"] == "event" and m["kind"] == "action")


def numbered(number: int) -> Callable[[Msg], bool]:
    """A predicate: the message is event ``number``."""
    return lambda m: m["type"] == "event" and m["number"] == number


async def play_moves(players: dict[int, Client], table_id: str, count: int, seed: int) -> None:
    """``count`` moves by whoever is to move, each seen by every player."""
    rng = random.Random(seed)
    for _ in range(count):
        to_move = latest(players[0], table_id)["to_move"]
        if to_move is None:
            return
        mover = players[to_move]
        number = (await move(mover, table_id, rng))["number"]
        for seat, client in players.items():
            if seat != to_move:
                await client.until(numbered(number))


def test_a_reload_gets_the_seat_back_and_the_game_goes_on(served: Serve) -> None:
    """Item 4: a player who reloads gets the seat back with the resume token."""
    server = served(seed=77)

    async def main() -> None:
        olena, taras, table_id = await two_at_a_table(server, grace=60)
        await play_moves({0: olena, 1: taras}, table_id, 6, seed=1)
        before = latest(olena, table_id)
        await olena.close()
        left = await taras.until(lambda m: m["type"] == "event" and m["kind"] == "disconnect")
        assert left["seat"] == 0
        snap = await _resync(taras, table_id)
        assert snap["seats"][0]["connected"] is False and snap["seats"][0]["away"] is False

        again = Client(server.ws)
        await again.connect()
        welcome = await again.hello("Olena", olena.token)
        assert welcome["player_id"] == olena.player_id and welcome["tables"] == [table_id]
        back = await again.expect("table_state")
        assert back["seat"] == 0 and back["view"] == before["view"]
        assert back["legal"] == before["legal"]
        back_event = await taras.until(lambda m: m["type"] == "event" and m["kind"] == "return")
        assert back_event["seat"] == 0  # within the grace period: `return`, as after a takeover
        # (Random(4): a short duel; random play makes some last thousands of moves)
        over = await play_out({0: again, 1: taras}, table_id, random.Random(4))
        record = server.get(f"/api/games/{over['record_id']}").json()
        assert record["players"] == ["Olena", "Taras"]
        assert hidden_cards_sent(taras.received, table_id, 1, record) == []
        mine = server.get(
            "/api/games?mine=1", headers={"authorization": f"Bearer {again.token}"}
        ).json()["games"]
        assert [g["id"] for g in mine] == [over["record_id"]] and mine[0]["seat"] == 0

    run(main)


@timers_once
def test_a_bot_plays_for_an_absent_player_who_then_takes_the_seat_back(served: Serve) -> None:
    """Item 4: after the grace period a bot plays for the absent player, the log marks its
    moves, and the player takes the seat back on return."""
    server = served(seed=78)

    async def main() -> None:
        olena, taras, table_id = await two_at_a_table(server, grace=0.2, takeover="random")
        await olena.close()
        await taras.until(lambda m: m["type"] == "event" and m["kind"] == "disconnect")
        took = await taras.until(lambda m: m["type"] == "event" and m["kind"] == "takeover")
        assert took["seat"] == 0
        rng = random.Random(5)
        bot_moves = 0
        while bot_moves < 3:  # Taras plays; the bot answers for seat 0
            if latest(taras, table_id)["to_move"] == 1:
                await move(taras, table_id, rng)
                continue
            msg = await taras.until(lambda m: m["type"] in ("event", "game_over"))
            assert msg["type"] == "event"
            if msg["kind"] == "action" and msg["seat"] == 0:
                assert msg["by_bot"] is True
                bot_moves += 1
        snap_seats = (await _resync(taras, table_id))["seats"]
        assert snap_seats[0]["away"] is True
        log = (await _resync(taras, table_id))["log"]
        assert any(e["seat"] == 0 and e["kind"] == "action" and e["by_bot"] for e in log)

        again = await connected(server.ws, "Olena", olena.token)
        back = await again.expect("table_state")
        assert back["seat"] == 0
        returned = await taras.until(lambda m: m["type"] == "event" and m["kind"] == "return")
        assert returned["seat"] == 0
        assert (await _resync(taras, table_id))["seats"][0]["away"] is False
        # (Random(8): a duel of about fifty moves; random play makes some duels last
        # thousands — Random(9) took ten seconds)
        over = await play_out({0: again, 1: taras}, table_id, random.Random(8))
        # After the return, seat 0's moves are the person's again.
        after = [
            m
            for m in again.received
            if m["type"] == "event" and m["kind"] == "action" and m["seat"] == 0
        ]
        assert after and not any(m["by_bot"] for m in after)
        assert over["record_id"] is not None

    run(main)


async def _resync(client: Client, table_id: str) -> Msg:
    await client.send({"type": "resync", "table_id": table_id, "last_event": 0})
    return await client.until(lambda m: m["type"] == "table_state")


@timers_once
def test_clock_runs_out_default_move_then_forfeit(served: Serve) -> None:
    """Item 4: a turn clock with a default move (``on_timeout: move``) or a forfeit."""
    server = served(seed=79)

    async def main() -> None:
        tc = {"base": 0.5, "increment": 0}
        olena, taras, table_id = await two_at_a_table(server, time_control=tc)
        start = latest(olena, table_id)
        assert start["clocks"] == [0.5, 0.5]
        mover = {0: olena, 1: taras}[start["to_move"]]
        timed = await mover.until(lambda m: m["type"] == "event" and m["kind"] == "timeout")
        assert timed["seat"] == start["to_move"] and timed["by_bot"] and timed["action"]
        # The default move was a legal move: the record replays with it.
        assert timed["clocks"][start["to_move"]] >= 10.0  # then 10 s per move (documented)

        o2, t2, t2_id = await two_at_a_table(
            server, time_control={"base": 0.4, "increment": 1}, on_timeout="forfeit"
        )
        first = latest(o2, t2_id)["to_move"]
        over = await o2.until(lambda m: m["type"] == "game_over")
        assert over["outcome"]["reason"] == "timeout" and over["outcome"]["losers"] == [first]
        record = server.get(f"/api/games/{over['record_id']}").json()
        assert record["outcome"]["reason"] == "timeout"
        assert replay(record).outcome is not None
        for c in (olena, taras, o2, t2):
            await c.close()

    run(main)


def test_kill_9_and_restart_resume_running_tables_and_keep_finished_games(
    serve: Serve, db_url: str
) -> None:
    """Item 7: stopping the server with kill -9 loses no finished game and resumes every
    running table from its stored record; its bot worker processes end with it."""
    server = serve(seed=80, bot_workers=1)

    async def stored_actions(table_id: str) -> int:
        store = SqlStore(db_url)
        try:
            running = {t.table_id: t for t in await store.running_tables()}
            return len(running[table_id].record["actions"]) if table_id in running else -1
        finally:
            await store.close()

    kept: dict[str, Any] = {}

    async def first_life() -> None:
        # A finished game: Olena resigns a game against the computer.
        olena = await connected(server.ws, "Olena")
        await olena.send({"type": "play_computer", "game": "twentyfive", "level": "random"})
        done_id = (await olena.expect("table_state"))["table_id"]
        await olena.send({"type": "resign", "table_id": done_id})
        finished = await olena.until(lambda m: m["type"] == "game_over")
        await olena.close()
        # A running game, 8 moves in, stored (the write-behind has caught up).
        a, b, table_id = await two_at_a_table(server, grace=60)
        await play_moves({0: a, 1: b}, table_id, 8, seed=2)
        played = len([m for m in a.received if m["type"] == "event" and m["kind"] == "action"])
        deadline = time.monotonic() + TIMEOUT
        while await stored_actions(table_id) != played:  # wait for the write-behind
            assert time.monotonic() < deadline, "the running game was never stored"
            await asyncio.sleep(0.05)
        kept.update(
            token_a=a.token,
            token_b=b.token,
            table_id=table_id,
            done=finished["record_id"],
            last_a=latest(a, table_id),
            last_b=latest(b, table_id),
        )

    run(first_life)
    token_a, token_b, table_id = kept["token_a"], kept["token_b"], kept["table_id"]
    done, last_a, last_b = kept["done"], kept["last_a"], kept["last_b"]
    workers = server.kill9()
    assert workers, "the server runs its bots in a worker process"
    deadline = time.monotonic() + TIMEOUT
    while any(alive(pid) for pid in workers):  # they notice within a second
        assert time.monotonic() < deadline, "bot workers outlived the killed server"
        time.sleep(0.05)
    server.start()  # same database, same secret file, new process

    async def second_life() -> None:
        assert server.get(f"/api/games/{done}").status_code == 200
        a = await connected(server.ws, "Olena", token_a)
        b = await connected(server.ws, "Taras", token_b)
        snap_a = await a.until(lambda m: m["type"] == "table_state")
        snap_b = await b.until(lambda m: m["type"] == "table_state")
        assert snap_a["table_id"] == snap_b["table_id"] == table_id
        assert snap_a["view"] == last_a["view"] and snap_b["view"] == last_b["view"]
        assert snap_a["legal"] == last_a["legal"] and snap_b["legal"] == last_b["legal"]
        over = await play_out({0: a, 1: b}, table_id, random.Random(4))
        record = server.get(f"/api/games/{over['record_id']}").json()
        assert replay(record).outcome is not None
        assert len(record["actions"]) >= 8

    run(second_life)
