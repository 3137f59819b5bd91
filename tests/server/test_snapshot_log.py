"""A snapshot's log tells what the live events told (issue 11): each action that finished a
trick carries what it closed (the trick and its winner; for a hand's last trick the hand, and
the next hand dealt), and a Svoi Kozyri pick-up how many cards it took — so a client that resyncs (a reconnect, a gap)
writes the same log lines as one that saw every event."""

from __future__ import annotations

import pytest

from server.tablekit import Watched, collect_until_over, run
from trumps.games import new_game
from trumps.server.tables.table import Join, ResyncCmd, Table, TableConfig
from trumps.server.wire.protocol import Event, TableState
from trumps.server.wire.wiretypes import BotPace


@pytest.mark.parametrize(("game_id", "players", "seed"), [("twentyfive", 3, 7), ("kozyri", 2, 3)])
def test_snapshot_log_entries_carry_what_the_events_closed(
    game_id: str, players: int, seed: int
) -> None:
    async def main() -> None:
        game = new_game(game_id, players=players, seed=seed)
        table = Table("t-log", game, ["random"] * players, bot_seed=1)
        live = Watched(table, None)
        table.submit(Join(live))
        table.start()
        table.launch()
        msgs = await collect_until_over(live)
        table.submit(ResyncCmd(live))
        snap = await live.get()
        await table.stop()
        assert isinstance(snap, TableState)
        view = msgs[0].view  # type: ignore[union-attr]
        expected: dict[int, tuple[object, int | None, int | None]] = {}
        for m in msgs[1:]:
            if not isinstance(m, Event):
                continue
            ended = (m.closed or {}).get("hand")
            dealt = m.view["hand"] if ended and m.view["outcome"] is None else None
            took = view.get("take_count") if m.action == "take" else None
            expected[m.number] = (m.closed, dealt, took)
            view = m.view
        got = {e.number: (e.closed, e.next_hand, e.took) for e in snap.log}
        assert got == {n: expected[n] for n in got}
        if game_id == "twentyfive":
            assert sum(1 for e in snap.log if (e.closed or {}).get("trick")) >= 5
            assert any((e.closed or {}).get("hand") and e.next_hand == 2 for e in snap.log)
        else:
            assert any(e.took for e in snap.log)
        assert live.leaks == []

    run(main)


@pytest.mark.parametrize(
    ("levels", "pace", "shown"),
    [
        ([None, "random"], "normal", "normal"),
        ([None, "random"], "fast", "fast"),
        ([None, "random"], "instant", "instant"),
        (["random", "random"], "normal", "instant"),  # bots only: never slowed
    ],
)
def test_a_snapshot_says_the_table_s_bot_pace(
    levels: list[str | None], pace: BotPace, shown: str
) -> None:
    async def main() -> None:
        game = new_game("twentyfive", players=2, seed=7)
        table = Table("t-pace", game, levels, config=TableConfig(bot_pace=pace))
        q = Watched(table, None)
        table.submit(Join(q))
        table.launch()
        snap = await q.get()
        await table.stop()
        assert isinstance(snap, TableState) and snap.bot_pace == shown

    run(main)
