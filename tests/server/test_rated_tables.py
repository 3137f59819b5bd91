"""Rated tables at the hub (issue 13, part 1; docs/ratings.md): accounts only, quick match
rated by default for accounts, ratings moved when a rated game is stored finished (also
after a restart), against bots by their fixed ratings, never for an aborted game."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from server.hubkit import hello, next_of, run_hub, said
from trumps.ratings import NEW, Rating, glicko2
from trumps.server.hub import Connection, Hub
from trumps.server.limits.quota import FairUse
from trumps.server.service.busmessages import Rejoin
from trumps.server.tables.table import Table
from trumps.server.wire.protocol import Error, Event, GameOver, Hint, JoinTable, TableState, Waiting
from trumps.store import SqlStore

BOT = Rating(1700.0, 60.0)
# The bots' fixed ratings of these tests' servers: medium and hard in the duel.
CALIBRATION = {"kozyri-duel": {"medium": Rating(1500.0, 60.0), "hard": BOT}}


async def account(hub: Hub, store: SqlStore, name: str) -> tuple[Connection, int]:
    """A connection of a new account ``name`` (signed in by a session's token)."""
    player = await store.add_player(name, "x", login=name.lower())
    token, _ = await hub.sessions.open(player)
    conn, welcome = await hello(hub, name, token)
    assert welcome.account == name.lower()
    return conn, player


async def rated_duel(
    hub: Hub, store: SqlStore, **options: Any
) -> tuple[tuple[Connection, int], tuple[Connection, int], str]:
    """Alice's rated duel table (with ``options``) that Bob joined: both accounts, the table."""
    alice = await account(hub, store, "Alice")
    bob = await account(hub, store, "Bob")
    create = {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
    await said(hub, alice[0], {**create, "rated": True, **options})
    table_id = (await next_of(alice[0], TableState)).table_id
    await said(hub, bob[0], {"type": "join_table", "table_id": table_id})
    await next_of(bob[0], TableState)
    return alice, bob, table_id


async def state_of(hub: Hub, conn: Connection, table_id: str) -> TableState:
    await said(hub, conn, {"type": "resync", "table_id": table_id, "last_event": 0})
    state: TableState = await next_of(conn, TableState)
    return state


async def one_move(hub: Hub, conns: list[Connection], table_id: str) -> None:
    """The person to move plays their first legal action (after the bots' moves, if the
    bots move first: the table's events say when it is a person's turn)."""
    states = [await state_of(hub, conn, table_id) for conn in conns]
    while True:
        for conn, state in zip(conns, states, strict=True):
            if state.to_move == state.seat and state.legal:
                msg = {"type": "action", "table_id": table_id, "action": state.legal[0]}
                await said(hub, conn, {**msg, "expected": state.event})
                return
        assert len(conns) == 1, "two people and nobody to move"
        event: Event = await next_of(conns[0], Event)
        states = (
            [await state_of(hub, conns[0], table_id)] if event.to_move == states[0].seat else states
        )


async def resign(hub: Hub, conn: Connection, table_id: str) -> GameOver:
    await said(hub, conn, {"type": "resign", "table_id": table_id})
    over: GameOver = await next_of(conn, GameOver)
    return over


def run(tmp_path: Path, body: Any, **options: Any) -> None:
    run_hub(tmp_path / "rated.db", body, **{"bot_ratings": CALIBRATION, **options})


def test_guests_play_casual_games_only(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        guest, _ = await hello(hub, "Guest")
        create = {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
        for msg in (
            {**create, "rated": True},
            {"type": "play_computer", "game": "kozyri", "rated": True},
            {"type": "quick_match", "game": "kozyri", "rated": True},
        ):
            await said(hub, guest, msg)
            refused = await next_of(guest, Error)
            assert refused.code == "not_allowed" and "accounts" in refused.message
        assert hub.tables == {}
        # An account's rated table: a guest may not sit down at it, but may watch.
        alice, _ = await account(hub, store, "Alice")
        await said(hub, alice, {**create, "rated": True})
        state = await next_of(alice, TableState)
        assert state.rated
        await said(hub, guest, {"type": "join_table", "table_id": state.table_id})
        refused = await next_of(guest, Error)
        assert refused.code == "not_allowed" and refused.table_id == state.table_id
        assert state.table_id in hub.tables and hub.tables[state.table_id].table.open_seats()
        # A guest's quick match is casual, and is not paired with an account's rated one.
        await said(hub, guest, {"type": "quick_match", "game": "kozyri"})
        assert (await next_of(guest, Waiting)).rated is False
        bob, _ = await account(hub, store, "Bob")
        await said(hub, bob, {"type": "quick_match", "game": "kozyri"})
        assert (await next_of(bob, Waiting)).rated is True

    run(tmp_path, body)


def test_a_rated_game_between_accounts_moves_both_ratings(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        alice, a_id = await account(hub, store, "Alice")
        bob, b_id = await account(hub, store, "Bob")
        await said(hub, alice, {"type": "quick_match", "game": "kozyri"})
        await said(hub, bob, {"type": "quick_match", "game": "kozyri"})
        state = await next_of(bob, TableState)
        assert state.rated  # an account's quick match is rated
        summary = hub.lobby.summary(hub.tables[state.table_id])
        assert summary.rated
        await one_move(hub, [alice, bob], state.table_id)
        over = await resign(hub, bob, state.table_id)
        assert over.outcome.winners == [1 - state.seat]
        win = glicko2(NEW, [(NEW, 1.0)]).value
        assert (await store.player_ratings(a_id))["kozyri-duel"].value == pytest.approx(win)
        assert (await store.player_ratings(b_id))["kozyri-duel"].value < 1500
        [game] = await store.finished_games(player=a_id)
        assert game.rated and {c.player_id for c in game.rating_changes} == {a_id, b_id}

    run(tmp_path, body)


def test_resigning_before_any_move_loses_for_the_resigner_alone(tmp_path: Path) -> None:
    """A game given up before anyone moved is not rated for the others, but the resigner
    saw their cards: it is their loss (else a bad deal could be thrown back for free)."""

    async def body(hub: Hub, store: SqlStore) -> None:
        (_, a_id), (bob, b_id), table_id = await rated_duel(hub, store)
        await resign(hub, bob, table_id)
        assert await store.player_ratings(a_id) == {}
        lost = glicko2(NEW, [(NEW, 0.0)]).value
        assert (await store.player_ratings(b_id))["kozyri-duel"].value == pytest.approx(lost)
        [game] = await store.finished_games(player=a_id)
        assert game.rated and [c.player_id for c in game.rating_changes] == [b_id]

    run(tmp_path, body)


def test_against_bots_a_person_moves_by_the_bots_fixed_rating(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        alice, a_id = await account(hub, store, "Alice")
        msg = {"type": "play_computer", "game": "kozyri", "level": "hard", "rated": True}
        await said(hub, alice, msg)
        state = await next_of(alice, TableState)
        await one_move(hub, [alice], state.table_id)
        await resign(hub, alice, state.table_id)
        got = (await store.player_ratings(a_id))["kozyri-duel"]
        assert got.value == pytest.approx(glicko2(NEW, [(BOT, 0.0)]).value)
        # A loss to a stronger bot costs less than to an equal one.
        assert got.value > glicko2(NEW, [(NEW, 0.0)]).value

    run(tmp_path, body)


def test_a_rated_table_stays_rated_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    made: dict[str, Any] = {}

    async def first(hub: Hub, store: SqlStore) -> None:
        alice, a_id = await account(hub, store, "Alice")
        await said(hub, alice, {"type": "play_computer", "game": "kozyri", "rated": True})
        state = await next_of(alice, TableState)
        await one_move(hub, [alice], state.table_id)
        await state_of(hub, alice, state.table_id)  # the move is stored before it is told
        made.update(table=state.table_id, player=a_id)

    async def second(hub: Hub, store: SqlStore) -> None:
        token, _ = await hub.sessions.open(made["player"])
        alice, _ = await hello(hub, "Alice", token)
        live = hub.tables[made["table"]]
        assert live.table.config.rated
        await said(hub, alice, {"type": "join_table", "table_id": made["table"]})
        assert (await next_of(alice, TableState)).rated
        await resign(hub, alice, made["table"])
        rating = (await store.player_ratings(made["player"]))["kozyri-duel"]
        assert rating.games == 1 and rating.value < 1500

    run_hub(db, first, bot_ratings=CALIBRATION)
    run_hub(db, second, bot_ratings=CALIBRATION)


def test_a_seat_given_up_is_a_loss_for_its_person_even_if_the_bot_then_wins(
    tmp_path: Path,
) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        (alice, a_id), (bob, b_id), table_id = await rated_duel(hub, store)
        await one_move(hub, [alice, bob], table_id)
        await said(hub, alice, {"type": "leave_table", "table_id": table_id})  # a bot takes over
        over = await resign(hub, bob, table_id)
        assert over.outcome.winners == [0]  # alice's seat, played by the takeover bot
        lost = glicko2(NEW, [(NEW, 0.0)]).value
        assert (await store.player_ratings(a_id))["kozyri-duel"].value == pytest.approx(lost)
        assert (await store.player_ratings(b_id))["kozyri-duel"].value == pytest.approx(lost)

    run(tmp_path, body)


def test_rated_tables_need_a_person_rated_bots_and_a_clock_that_forfeits(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        alice, _ = await account(hub, store, "Alice")
        for seats, words in ((["random", "easy"], "needs a person"), (["human", "easy"], "easy")):
            msg = {"type": "create_table", "game": "kozyri", "seats": seats, "rated": True}
            await said(hub, alice, msg)
            refused = await next_of(alice, Error)
            assert refused.code == "not_allowed" and words in refused.message
        assert hub.tables == {}
        await said(hub, alice, {"type": "play_computer", "game": "kozyri", "rated": True})
        state = await next_of(alice, TableState)
        config = hub.tables[state.table_id].table.config
        assert config.time_control is not None and config.on_timeout == "forfeit"
        assert state.time_control == config.time_control

    run(tmp_path, body)


def test_a_guest_is_refused_a_rated_seat_on_every_path(tmp_path: Path) -> None:
    """Also a rejoin (a table that moved to another process re-seats its connections)."""

    async def body(hub: Hub, store: SqlStore) -> None:
        alice, _ = await account(hub, store, "Alice")
        create = {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]}
        await said(hub, alice, {**create, "rated": True})
        table_id = (await next_of(alice, TableState)).table_id
        guest, _ = await hello(hub, "Guest")
        live = hub.tables[table_id]
        for request in (JoinTable(table_id=table_id), Rejoin(table_id=table_id)):
            hub.requests.table_command(guest, live, request)
            refused = await next_of(guest, Error)
            assert refused.code == "not_allowed", request
        assert live.table.open_seats() == [1]

    run(tmp_path, body)


def test_coming_back_after_a_bot_played_for_you_is_still_a_loss(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        (alice, a_id), (bob, _), table_id = await rated_duel(hub, store, takeover="hard")
        await one_move(hub, [alice, bob], table_id)
        await said(hub, alice, {"type": "leave_table", "table_id": table_id})
        await said(hub, alice, {"type": "join_table", "table_id": table_id})  # back at once
        state = await next_of(alice, TableState)
        assert state.seat == 0
        over = await resign(hub, bob, table_id)
        assert over.outcome.winners == [0]
        lost = glicko2(NEW, [(NEW, 0.0)]).value
        assert (await store.player_ratings(a_id))["kozyri-duel"].value == pytest.approx(lost)

    run(tmp_path, body)


def test_leaving_a_rated_game_against_bots_lets_them_finish_it_as_your_loss(
    tmp_path: Path,
) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        alice, a_id = await account(hub, store, "Alice")
        await said(hub, alice, {"type": "play_computer", "game": "kozyri", "rated": True})
        state = await next_of(alice, TableState)
        changed = asyncio.Event()
        told = hub.table_changed

        def table_changed(table: Table) -> None:  # every stored change of a table
            told(table)
            changed.set()

        hub.table_changed = table_changed  # type: ignore[method-assign]
        await one_move(hub, [alice], state.table_id)
        await said(hub, alice, {"type": "leave_table", "table_id": state.table_id})
        while not (games := await store.finished_games()):  # nobody watches: bots play on
            changed.clear()
            await changed.wait()
        [game] = games
        rating = (await store.player_ratings(a_id))["kozyri-duel"]
        assert rating.games == 1
        assert rating.value == pytest.approx(
            glicko2(NEW, [(CALIBRATION["kozyri-duel"]["medium"], 0.0)]).value
        )
        assert game.rated and game.id in [g.id for g in await store.finished_games(player=a_id)]

    run(tmp_path, body)


def test_a_rematch_of_a_rated_table_is_rated(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        alice, _ = await account(hub, store, "Alice")
        await said(hub, alice, {"type": "play_computer", "game": "kozyri", "rated": True})
        state = await next_of(alice, TableState)
        await one_move(hub, [alice], state.table_id)
        await resign(hub, alice, state.table_id)
        await said(hub, alice, {"type": "rematch", "table_id": state.table_id})
        again = await next_of(alice, TableState)
        assert again.table_id != state.table_id and again.rated

    run(tmp_path, body)


def test_a_rated_table_gives_no_hints_and_a_casual_one_does(tmp_path: Path) -> None:
    """An account playing the computer rated may not ask the strongest bot for its moves:
    ``hint`` is refused (``rated_no_hints``) and spends none of the player's hint budget
    (one an hour here); the same account's casual game against the computer gets its hint."""

    async def body(hub: Hub, store: SqlStore) -> None:
        alice, _ = await account(hub, store, "Alice")
        for rated in (True, False):
            msg = {"type": "play_computer", "game": "kozyri", "level": "hard", "rated": rated}
            await said(hub, alice, msg)
            state = await next_of(alice, TableState)
            assert state.rated is rated
            while state.to_move != state.seat:  # the bot may lead: wait for my turn
                event: Event = await next_of(alice, Event)
                if event.to_move == state.seat:
                    state = await state_of(hub, alice, state.table_id)
            await said(hub, alice, {"type": "hint", "table_id": state.table_id})
            if rated:
                refused = await next_of(alice, Error)
                assert refused.code == "rated_no_hints", refused
                assert refused.table_id == state.table_id
                assert "rated" in refused.message
                await resign(hub, alice, state.table_id)
            else:  # the budget of one is still whole
                hint = await next_of(alice, Hint)
                assert hint.table_id == state.table_id and hint.action in state.legal

    run(tmp_path, body, fair=FairUse(hints_per_player=1))
