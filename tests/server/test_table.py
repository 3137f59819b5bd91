"""The table actor: numbered events, views per seat, bots, errors, resync and records."""

from __future__ import annotations

import pytest

from server.tablekit import Watched, collect_until_over, run
from trumps.games import new_game
from trumps.records import replay
from trumps.server.tables.table import (
    Act,
    Disconnect,
    Join,
    ResignCmd,
    ResyncCmd,
    Table,
    TableConfig,
    TableNotOver,
)
from trumps.server.wire.protocol import (
    Error,
    Event,
    GameOver,
    TableState,
)


def test_bot_table_plays_to_the_end_by_itself() -> None:
    async def main() -> None:
        game = new_game("twentyfive", players=3, seed=7)
        table = Table("t-bots", game, ["random", "easy", "random"], bot_seed=1)
        spectator = Watched(table, None)
        table.submit(Join(spectator))
        table.start()
        table.launch()
        msgs = await collect_until_over(spectator)
        await table.stop()
        assert isinstance(msgs[0], TableState) and msgs[0].event == 0
        assert msgs[0].view["seat"] is None
        events = [m for m in msgs if isinstance(m, Event)]
        assert [e.number for e in events] == list(range(1, len(events) + 1))
        assert events[0].kind == "start"
        assert all(e.by_bot for e in events if e.kind == "action")
        assert all(e.legal == [] for e in events)  # a spectator never has moves
        assert table.number == len(events) and game.is_over
        over = msgs[-1]
        assert isinstance(over, GameOver) and over.outcome.winners == game.outcome.winners  # type: ignore[union-attr]
        assert replay(table.record()) == game
        assert spectator.checked == len(msgs) and spectator.leaks == []

    run(main)


def test_kozyri_bot_table_with_two_spectators() -> None:
    async def main() -> None:
        game = new_game("kozyri", players=2, seed=3)
        table = Table("t-k", game, ["random", "random"], bot_seed=2)
        a, b = Watched(table, None), Watched(table, None)
        table.submit(Join(a))
        table.submit(Join(b))
        table.start()
        table.launch()
        ma, mb = await collect_until_over(a), await collect_until_over(b)
        await table.stop()
        na = [m.number for m in ma if isinstance(m, Event)]
        assert na == list(range(1, len(na) + 1))
        assert na == [m.number for m in mb if isinstance(m, Event)]
        assert replay(table.record()) == game
        assert a.leaks == b.leaks == []

    run(main)


def test_human_plays_a_bot_to_the_end() -> None:
    async def main() -> None:
        game = new_game("twentyfive", players=2, seed=11)
        table = Table("t-hb", game, [None, "easy"], bot_seed=5)
        human, spectator = Watched(table, 0), Watched(table, None)
        table.submit(Join(spectator))
        table.submit(Join(human, seat=0, name="Olena"))
        table.launch()
        last, moves = 0, 0
        while True:
            msg = await human.get()
            assert not isinstance(msg, Error), msg
            if isinstance(msg, GameOver):
                break
            if isinstance(msg, Event):
                assert msg.number == last + 1
                last = msg.number
                if msg.to_move == 0:
                    assert msg.legal
                    table.submit(Act(human, msg.legal[moves % len(msg.legal)], last))
                    moves += 1
                else:
                    assert msg.legal == []
        spectated = await collect_until_over(spectator)
        await table.stop()
        assert moves > 0 and game.is_over
        kinds = [m.kind for m in spectated if isinstance(m, Event)]
        assert kinds[:2] == ["join", "start"]
        bot_flags = {m.seat: m.by_bot for m in spectated if isinstance(m, Event) and m.seat}
        assert bot_flags == {1: True}
        record = table.record()
        assert record["players"][0] == "Olena"
        assert replay(record) == game
        assert human.leaks == spectator.leaks == []

    run(main)


def test_bad_commands_change_nothing_and_resync() -> None:
    async def main() -> None:
        game = new_game("twentyfive", players=2, seed=1)
        table = Table("t-err", game, [None, None])
        p0, p1, spec = Watched(table, 0), Watched(table, 1), Watched(table, None)
        stranger = Watched(table, None)
        table.submit(Join(p0, seat=0))
        table.submit(Join(p1, seat=1))
        table.submit(Join(spec))
        table.launch()
        for q in (p0, p1):
            while True:  # snapshot, join event(s), then start
                msg = await q.get()
                if isinstance(msg, Event) and msg.kind == "start":
                    break
        first = await spec.get()
        assert isinstance(first, TableState) and first.event == 3 and first.seat is None
        assert table.number == 3 and game.current_player == 0

        async def rejected(q: Watched, action: str, expected: int, code: str) -> None:
            before = (table.number, list(game.history), game.to_json())
            table.submit(Act(q, action, expected))
            reply = await q.get()
            assert isinstance(reply, Error) and reply.code == code, reply
            assert reply.table_id == "t-err"
            assert (table.number, list(game.history), game.to_json()) == before

        opponent_card = game.to_json()["hands"][1][0]
        await rejected(stranger, game.legal_actions()[0], 3, "not_seated")
        await rejected(spec, game.legal_actions()[0], 3, "not_seated")
        await rejected(p1, "2S", 3, "not_your_turn")
        await rejected(p0, opponent_card, 3, "illegal_action")
        await rejected(p0, "zz", 3, "invalid_action")
        await rejected(p0, "take 3", 3, "invalid_action")
        await rejected(p0, game.legal_actions()[0], 2, "stale_event")
        await rejected(p0, game.legal_actions()[0], 4, "stale_event")
        for q in (p0, p1, spec):
            assert q.empty()  # no event went out for any rejected command

        table.submit(ResyncCmd(spec))
        snap = await spec.get()
        assert isinstance(snap, TableState) and snap.event == 3 and snap.seat is None
        table.submit(ResyncCmd(p0))
        snap = await p0.get()
        assert isinstance(snap, TableState) and snap.event == 3 and snap.seat == 0
        assert snap.legal == game.legal_actions() and snap.to_move == 0
        table.submit(ResyncCmd(stranger))
        reply = await stranger.get()
        assert isinstance(reply, Error) and reply.code == "not_seated"

        with pytest.raises(TableNotOver):
            table.record()

        table.submit(Act(p0, game.legal_actions()[0], 3))
        moved = await p0.get()
        assert isinstance(moved, Event) and moved.number == 4 and moved.kind == "action"
        assert not moved.by_bot and moved.seat == 0
        with pytest.raises(TableNotOver):
            table.record()

        seen = await p1.get()  # the opponent receives the same event, with its own view
        assert isinstance(seen, Event) and seen.number == 4 and seen.to_move == 1
        assert seen.legal == game.legal_actions()
        table.submit(ResignCmd(p1))
        resigned = await p1.get()
        assert isinstance(resigned, Event) and resigned.kind == "resign" and resigned.number == 5
        over = await p1.get()
        assert isinstance(over, GameOver) and over.outcome.reason == "resigned"
        assert over.outcome.losers == [1]
        # Every subscriber got event 5 and the game over in the same command.
        for q in (p0, spec):
            got = [q.get_nowait() for _ in range(q.qsize())]
            assert [type(m) for m in got][-2:] == [Event, GameOver]
            assert [m.number for m in got if isinstance(m, Event)][-1] == 5
        await rejected(p0, "2S", 5, "game_over")
        table.submit(ResignCmd(p0))
        reply = await p0.get()
        assert isinstance(reply, Error) and reply.code == "game_over"
        await table.stop()
        assert p0.leaks == p1.leaks == spec.leaks == stranger.leaks == []
        replayed = replay(table.record())
        assert replayed == game and replayed.outcome == game.outcome

    run(main)


def test_seat_rules() -> None:
    async def main() -> None:
        game = new_game("twentyfive", players=2, seed=2)
        table = Table("t-seat", game, [None, "random"])
        a, b = Watched(table, 0), Watched(None, None)
        table.submit(Join(a, seat=0))
        table.submit(Join(b, seat=0))
        table.submit(Join(b, seat=1))
        table.launch()
        r1, r2 = await b.get(), await b.get()
        assert isinstance(r1, Error) and r1.code == "table_full"
        assert isinstance(r2, Error) and r2.code == "table_full"
        await table.stop()

    run(main)


def test_a_table_refuses_an_option_it_does_not_have() -> None:
    """A misspelt set-up option (``TableOptions``) is refused in one line, as a wrong
    keyword always was, not ignored."""
    game = new_game("twentyfive", players=2, seed=2)
    with pytest.raises(TypeError, match=r"^a table has no option bot_tme$"):
        Table("t-typo", game, [None, "random"], bot_tme=1.0)  # type: ignore[call-arg]
    assert Table("t-ok", game, [None, "random"], bot_time=None).bot_time is None


def test_a_rob_discard_reaches_only_the_robber() -> None:
    """Twenty-Five F-rules: the card discarded to rob is secret (SPEC §6), so every other seat
    and the spectators see the action as just ``rob``, in events and in snapshot logs."""

    async def main() -> None:
        game = new_game("twentyfive", players=2, seed=4)  # seat 0 may rob at once
        table = Table("t-rob", game, [None, None])
        p0, p1, spec = Watched(table, 0), Watched(table, 1), Watched(table, None)
        table.submit(Join(p0, seat=0))
        table.submit(Join(p1, seat=1))
        table.submit(Join(spec))
        table.launch()
        start = await p0.get()
        while not (isinstance(start, Event) and start.kind == "start"):
            start = await p0.get()
        rob = next(a for a in start.legal if a.startswith("rob "))
        table.submit(Act(p0, rob, start.number))
        mine = await p0.get()
        assert isinstance(mine, Event) and mine.action == rob
        for q in (p1, spec):
            seen = [q.get_nowait() for _ in range(q.qsize())]
            last = seen[-1]
            assert isinstance(last, Event) and last.kind == "action" and last.action == "rob"
            table.submit(ResyncCmd(q))
            snap = await q.get()
            assert isinstance(snap, TableState) and snap.log[-1].action == "rob"
        table.submit(ResyncCmd(p0))
        snap = await p0.get()
        assert isinstance(snap, TableState) and snap.log[-1].action == rob
        await table.stop()
        assert p0.leaks == p1.leaks == spec.leaks == []

    run(main)


def test_seat_events_do_not_make_an_action_stale() -> None:
    """Only game-changing events make ``expected`` stale: a player who joins (or a flapping
    connection) between an event and the mover's answer spoils nothing."""

    async def main() -> None:
        game = new_game("twentyfive", players=3, seed=5)
        table = Table("t-stale", game, [None, None, "random"], config=TableConfig(grace=60))
        p0, p1, spec = Watched(table, 0), Watched(table, 1), Watched(table, None)
        table.submit(Join(p0, seat=0, name="A", player=1))
        table.submit(Join(p1, seat=1, name="B", player=2))
        table.launch()
        starts = {}
        for seat, q in ((0, p0), (1, p1)):
            while not (isinstance(m := await q.get(), Event) and m.kind == "start"):
                pass
            starts[seat] = m
        assert game.current_player in (0, 1), "seed 5 starts with a person to move"
        mover, other = (p0, p1) if game.current_player == 0 else (p1, p0)
        start = starts[game.current_player]
        table.submit(Join(spec))  # a spectator: no event
        table.submit(Disconnect(other))  # the other person drops: a `disconnect` event
        left = await mover.get()
        assert (
            isinstance(left, Event)
            and left.kind == "disconnect"
            and left.number == start.number + 1
        )
        table.submit(Act(mover, start.legal[0], start.number))  # answered from the older event
        moved = await mover.get()
        assert isinstance(moved, Event) and moved.kind == "action", moved
        table.submit(Act(mover, start.legal[0], start.number))  # now the game has changed
        stale = await mover.get()
        while isinstance(stale, Event):
            stale = await mover.get()
        assert isinstance(stale, Error) and stale.code == "stale_event"
        await table.stop()

    run(main)


def test_a_seated_player_cannot_take_another_seat() -> None:
    """A player who holds seat 0 asking for seat 1 is ``table_full`` and nothing happens;
    asking again without a seat (a reconnect) gives the own seat back."""

    async def main() -> None:
        game = new_game("kozyri", players=2, seed=1)
        table = Table("t-own", game, [None, None])
        a, a2 = Watched(table, 0), Watched(table, 0)
        table.submit(Join(a, seat=0, name="A", player=7))
        table.launch()
        assert isinstance(await a.get(), TableState)
        assert isinstance(await a.get(), Event)  # its join
        number = table.number
        table.submit(Join(a2, seat=1, name="A", player=7))
        refused = await a2.get()
        assert isinstance(refused, Error) and refused.code == "table_full"
        assert table.number == number and a.empty()
        table.submit(Join(a2, name="A", player=7))
        back = await a2.get()
        assert isinstance(back, TableState) and back.seat == 0
        await table.stop()

    run(main)
