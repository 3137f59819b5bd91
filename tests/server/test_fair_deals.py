"""Provably fair deals at a live table (docs/fairness.md): the commitment comes first, the
game waits for every promised contribution, is dealt from them, and the stored record
verifies; nothing of the deal is shown before; a restart keeps a contribution."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from server.hubkit import decoded, hello, next_of, run_hub, said
from trumps.fairdeal import commitment, deal_seed
from trumps.records import replay, verify
from trumps.server.hub import Connection, Hub
from trumps.server.wire.protocol import Error, Event, GameOver, TableState
from trumps.store import SqlStore

MINE = "0123456789abcdef" * 4
THEIRS = "fedcba9876543210"


def run(tmp_path: Path, body: Callable[[Hub, SqlStore], Awaitable[None]]) -> None:
    run_hub(tmp_path / "fair.db", body, seed=None)  # secrets drawn as in production


async def until_snapshot(hub: Hub, conn: Connection, table_id: str) -> tuple[list[Any], TableState]:
    """Ask for a snapshot and collect everything up to it (the table answers in order)."""
    await said(hub, conn, {"type": "resync", "table_id": table_id, "last_event": 0})
    before: list[Any] = []
    while True:
        raw = await conn.outbox.get()
        assert raw is not None, "the connection was closed"
        msg = decoded(raw)
        if isinstance(msg, TableState):
            return before, msg
        before.append(msg)


async def finish(hub: Hub, store: SqlStore, conn: Connection, table_id: str) -> dict[str, Any]:
    await said(hub, conn, {"type": "resign", "table_id": table_id})
    over = await next_of(conn, GameOver)
    return await store.get_game(over.record_id)


def _own_hand_hidden(state: TableState | Event) -> bool:
    hand = state.view["hands"][state.seat if isinstance(state, TableState) else 0]
    return isinstance(hand, dict) and hand["known"] == []


def test_a_promised_contribution_is_waited_for_and_deals_the_game(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        me, _ = await hello(hub, "Me", contributes=True)
        await said(hub, me, {"type": "play_computer", "game": "twentyfive", "players": 4})
        state = await next_of(me, TableState)
        shown = state.commitment
        assert shown is not None and len(shown) == 64 and state.contributed is False
        assert state.to_move is None and _own_hand_hidden(state) and not state.dealt
        before, again = await until_snapshot(hub, me, state.table_id)
        assert not any(isinstance(m, Event) and m.kind == "start" for m in before)
        assert again.to_move is None and again.commitment == shown
        await said(hub, me, {"type": "contribute", "table_id": state.table_id, "value": MINE})
        start = await next_of(me, Event)
        while start.kind != "start":
            start = await next_of(me, Event)
        assert isinstance(start.view["hands"][0], list) and len(start.view["hands"][0]) == 5
        _, after = await until_snapshot(hub, me, state.table_id)
        assert after.contributed is True and after.commitment == shown and after.dealt
        record = await finish(hub, store, me, state.table_id)
        fair = record["fair"]
        assert fair["contributions"] == [MINE, None, None, None]
        assert fair["commitment"] == shown == commitment(fair["secret"])
        assert record["seed"] == deal_seed(fair["secret"], [MINE, None, None, None])
        dealt = replay({**record, "actions": [], "outcome": None, "finished": None})
        assert sorted(start.view["hands"][0]) == sorted(dealt.to_json()["hands"][0])
        assert "your contribution is seat 0's" in verify(record, contribution=MINE, committed=shown)

    run(tmp_path, body)


def test_without_a_promise_the_game_starts_at_once_and_still_verifies(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        me, _ = await hello(hub, "Plain")
        await said(hub, me, {"type": "play_computer", "game": "kozyri"})
        state = await next_of(me, TableState)
        start = await next_of(me, Event)
        while start.kind != "start":
            start = await next_of(me, Event)
        record = await finish(hub, store, me, state.table_id)
        assert record["fair"]["contributions"] == [None, None]
        verify(record, committed=state.commitment)

    run(tmp_path, body)


def test_contributions_that_do_not_fit_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async def body(hub: Hub, store: SqlStore) -> None:
        a, _ = await hello(hub, "A", contributes=True)
        b, _ = await hello(hub, "B", contributes=True)
        await said(hub, a, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        table_id = (await next_of(a, TableState)).table_id
        await said(hub, b, {"type": "contribute", "table_id": table_id, "value": THEIRS})
        refused = await next_of(b, Error)
        assert refused.code == "not_seated"
        await said(hub, a, {"type": "contribute", "table_id": table_id, "value": "xyz"})
        assert (await next_of(a, Error)).code == "bad_field"
        await said(hub, a, {"type": "contribute", "table_id": table_id, "value": MINE})
        await said(hub, a, {"type": "contribute", "table_id": table_id, "value": MINE})  # again
        await said(hub, a, {"type": "contribute", "table_id": table_id, "value": THEIRS})
        refused = await next_of(a, Error)
        assert refused.code == "not_allowed" and "contributed already" in refused.message
        await said(hub, b, {"type": "join_table", "table_id": table_id})
        joined = await next_of(b, TableState)
        assert joined.contributed is False
        before, _ = await until_snapshot(hub, b, table_id)  # B promised: no start yet
        assert not any(isinstance(m, Event) and m.kind == "start" for m in before)
        await said(hub, b, {"type": "contribute", "table_id": table_id, "value": THEIRS})
        start = await next_of(b, Event)
        while start.kind != "start":
            start = await next_of(b, Event)
        await said(hub, b, {"type": "contribute", "table_id": table_id, "value": THEIRS[::-1]})
        refused = await next_of(b, Error)
        assert refused.code == "not_allowed" and "too late" in refused.message
        record = await finish(hub, store, a, table_id)
        assert record["fair"]["contributions"] == [MINE, THEIRS]
        verify(record, contribution=THEIRS)

    run(tmp_path, body)


def test_a_restart_before_the_start_keeps_the_contribution(tmp_path: Path) -> None:
    kept: dict[str, Any] = {}

    async def first(hub: Hub, _store: SqlStore) -> None:
        a, welcome = await hello(hub, "A", contributes=True)
        await said(hub, a, {"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        state = await next_of(a, TableState)
        await said(hub, a, {"type": "contribute", "table_id": state.table_id, "value": MINE})
        await until_snapshot(hub, a, state.table_id)  # handled, so stored (group commit)
        kept.update(table=state.table_id, token=welcome.resume_token, shown=state.commitment)

    run(tmp_path, first)

    async def second(hub: Hub, store: SqlStore) -> None:
        a, _ = await hello(hub, "A", kept["token"], contributes=True)
        back = await next_of(a, TableState)
        assert back.contributed is True and back.commitment == kept["shown"]
        b, _ = await hello(hub, "B")
        await said(hub, b, {"type": "join_table", "table_id": kept["table"]})
        start = await next_of(a, Event)
        while start.kind != "start":
            start = await next_of(a, Event)
        record = await finish(hub, store, a, kept["table"])
        assert record["fair"]["contributions"] == [MINE, None]
        verify(record, contribution=MINE, committed=kept["shown"])

    run(tmp_path, second)


def test_a_server_with_a_fixed_seed_commits_to_nothing_and_waits_for_no_one(
    tmp_path: Path,
) -> None:
    """--seed deals table k from seed + k (tests, demonstrations): a client that promised
    contributions is not waited for, and the record has no fair-deal data."""

    async def body(hub: Hub, store: SqlStore) -> None:
        me, _ = await hello(hub, "Me", contributes=True)
        await said(hub, me, {"type": "play_computer", "game": "kozyri"})
        state = await next_of(me, TableState)
        assert state.commitment is None
        start = await next_of(me, Event)
        while start.kind != "start":
            start = await next_of(me, Event)
        await said(hub, me, {"type": "contribute", "table_id": state.table_id, "value": MINE})
        refused = await next_of(me, Error)
        assert refused.code == "not_allowed" and "takes no contributions" in refused.message
        record = await finish(hub, store, me, state.table_id)
        assert "fair" not in record and record["seed"] == 7

    run_hub(tmp_path / "seeded.db", body, seed=7)
