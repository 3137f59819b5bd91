"""Take-backs at a live table (docs/protocol.md#takeback): against the computer at once,
between people when the others accept, never at a rated table, never past a hand's end;
the game afterwards is the one its record replays, and nothing hidden is shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from server.hubkit import hello, next_of, said, to_move
from server.tablekit import Watched, run
from trumps.games import new_game
from trumps.records import replay
from trumps.server.hub import Hub, HubOptions
from trumps.server.identity.sessions import Sessions
from trumps.server.tables.table import (
    Act,
    Disconnect,
    Join,
    Table,
    TableConfig,
    TakebackAnswerCmd,
    TakebackCmd,
)
from trumps.server.wire.protocol import Error, Event, ServerMessage, TableState
from trumps.store import SqlStore

SECRET = "takeback-test-secret-0123456789"

Told = Event | TableState


async def told(q: Watched) -> Told:
    """The next snapshot or event at ``q`` (an error fails the test)."""
    while True:
        msg: ServerMessage = await q.get()
        assert not isinstance(msg, Error), msg
        if isinstance(msg, Event | TableState):
            return msg


async def event_of(q: Watched, kind: str) -> Event:
    """The next event of ``kind`` at ``q`` (an error fails the test)."""
    while True:
        msg = await told(q)
        if isinstance(msg, Event) and msg.kind == kind:
            return msg


async def refused(q: Watched) -> Error:
    """The next error at ``q`` (events before it are passed over)."""
    while True:
        msg = await q.get()
        if isinstance(msg, Error):
            return msg


async def turn(q: Watched, seat: int) -> Told:
    """The first snapshot or event at ``q`` in which ``seat`` is to move."""
    while True:
        msg = await told(q)
        if msg.to_move == seat and msg.legal:
            return msg


def latest(q: Watched, before: Told | None = None) -> Told:
    """The last snapshot or event queued at ``q`` (``before`` if none), the queue emptied
    (no error in it)."""
    out = before
    while not q.empty():
        msg = q.get_nowait()
        assert not isinstance(msg, Error), msg
        if isinstance(msg, Event | TableState):
            out = msg
    assert out is not None
    return out


def number(msg: Told) -> int:
    return msg.number if isinstance(msg, Event) else msg.event


def replays(table: Table) -> bool:
    """The table's game is the one its running record replays (what a restart rebuilds)."""
    return replay(table.storage.running_record()) == table.game


def test_against_the_computer_a_take_back_undoes_my_move_and_the_bots_replies() -> None:
    async def main() -> None:
        game = new_game("twentyfive", players=3, seed=21)
        table = Table("t-tb", game, [None, "random", "random"], bot_seed=3)
        me, watcher = Watched(table, 0), Watched(table, None)
        table.submit(Join(watcher))
        table.submit(Join(me, seat=0, name="Niamh"))
        table.launch()
        first = await turn(me, 0)
        assert not first.can_take_back  # no move of mine yet
        before = list(game.history)
        card = first.legal[0]
        table.submit(Act(me, card, number(first)))
        again = await turn(me, 0)
        await table.settled()
        assert again.can_take_back and len(game.history) > len(before) + 1  # the bots replied
        table.submit(TakebackCmd(me))
        back = await event_of(me, "takeback")
        assert (back.seat, back.action) == (0, card)
        assert game.history == before and replays(table)
        # The position before my move, as I saw it then: my card in my hand, my moves.
        assert back.view == first.view and back.legal == first.legal and back.to_move == 0
        assert not back.can_take_back  # that was my only move
        seen = await event_of(watcher, "takeback")
        assert seen.seat == 0 and seen.view == game.view(None) and not seen.can_take_back
        # Nothing to take back now: a clear refusal, and nothing changes.
        at = table.number
        table.submit(TakebackCmd(me))
        error = await refused(me)
        assert (error.code, error.message) == ("not_allowed", "you have no move to take back")
        await table.settled()
        assert table.number == at and game.history == before
        # The game goes on from there: the same card again, the same replies (seeded bots).
        table.submit(Act(me, card, table.number))
        await turn(me, 0)
        await table.stop()
        assert replays(table)
        assert me.leaks == watcher.leaks == []

    run(main)


def test_a_rated_table_refuses_take_backs() -> None:
    async def main() -> None:
        game = new_game("kozyri", players=2, seed=4)
        table = Table("t-r", game, [None, "random"], config=TableConfig(rated=True), bot_seed=1)
        me = Watched(table, 0)
        table.submit(Join(me, seat=0, name="Ana", player=7, account=True))
        table.launch()
        first = await turn(me, 0)
        table.submit(Act(me, first.legal[0], number(first)))
        then = await turn(me, 0)
        assert not then.can_take_back
        played = list(game.history)
        table.submit(TakebackCmd(me))
        error = await refused(me)
        assert error.code == "not_allowed" and "rated" in error.message
        await table.settled()
        assert game.history == played
        await table.stop()
        assert me.leaks == []

    run(main)


def test_between_people_the_others_accept_or_refuse_and_a_move_answers_no() -> None:
    async def main() -> None:
        game = new_game("twentyfive", players=2, seed=8)
        table = Table("t-pp", game, [None, None], bot_seed=1)
        seats = [Watched(table, 0), Watched(table, 1)]
        table.submit(Join(seats[0], seat=0, name="Ana"))
        table.submit(Join(seats[1], seat=1, name="Bea"))
        table.launch()
        await table.settled()
        p = game.current_player
        assert p is not None
        mover, other = seats[p], seats[1 - p]
        first = await turn(mover, p)
        before = list(game.history)
        table.submit(Act(mover, first.legal[0], number(first)))
        await turn(other, 1 - p)  # the other's turn: they may answer, or move
        # Asked: everyone is told who asks; the asker waits, and may not ask again.
        table.submit(TakebackCmd(mover))
        asked = await event_of(other, "takeback_ask")
        assert asked.seat == p and asked.takeback == p and not asked.can_take_back
        mine = await event_of(mover, "takeback_ask")
        assert mine.takeback == p and not mine.can_take_back
        table.submit(TakebackCmd(mover))
        assert "waiting for an answer" in (await refused(mover)).message
        table.submit(TakebackAnswerCmd(mover, True))  # not theirs to answer
        assert (await refused(mover)).message == "no take-back is waiting for your answer"
        # Refused: said to everyone, nothing undone.
        table.submit(TakebackAnswerCmd(other, False))
        no = await event_of(mover, "takeback_no")
        assert no.seat == 1 - p and no.takeback is None and no.can_take_back
        await table.settled()
        assert len(game.history) == len(before) + 1
        # Asked again and accepted: undone.
        table.submit(TakebackCmd(mover))
        await event_of(other, "takeback_ask")
        table.submit(TakebackAnswerCmd(other, True))
        back = await event_of(other, "takeback")
        assert back.seat == p and back.takeback is None
        assert game.history == before and replays(table)
        # A move instead of an answer: the request lapses.
        again = await turn(mover, p)
        table.submit(Act(mover, again.legal[-1], number(again)))
        reply = await turn(other, 1 - p)
        table.submit(TakebackCmd(mover))
        await event_of(other, "takeback_ask")
        table.submit(Act(other, reply.legal[0], table.number))
        moved = await event_of(mover, "action")
        while moved.seat != 1 - p:
            moved = await event_of(mover, "action")
        assert moved.takeback is None
        table.submit(TakebackAnswerCmd(other, True))
        assert (await refused(other)).message == "no take-back is waiting for your answer"
        await table.stop()
        assert replays(table)
        assert all(q.leaks == [] for q in seats)

    run(main)


def test_a_person_away_is_asked_too_not_passed_over() -> None:
    """Between people, one of them away (a takeover bot plays for them): the take-back is
    asked, not done at once, and the next move lets the request lapse."""

    async def main() -> None:
        game = new_game("twentyfive", players=2, seed=8)
        config = TableConfig(grace=0.0, takeover="random")
        table = Table("t-away", game, [None, None], config=config, bot_seed=1)
        ana, bea = Watched(table, 0), Watched(table, 1)
        table.submit(Join(ana, seat=0, name="Ana"))
        table.submit(Join(bea, seat=1, name="Bea"))
        table.launch()
        await table.settled()
        assert game.current_player == 0  # Ana leads (seed 8)
        table.submit(Disconnect(bea))  # Bea's seat is hers, a bot plays it from now on
        lead = await event_of(ana, "takeover")
        assert lead.to_move == 0 and lead.legal
        table.submit(Act(ana, lead.legal[0], table.number))
        await event_of(ana, "action")
        await table.settled()
        played = len(game.history)
        assert game.current_player == 0  # Ana won the trick and leads again (seed 8)
        table.submit(TakebackCmd(ana))  # Bea, away, is asked: nothing is undone yet
        asked = await event_of(ana, "takeback_ask")
        assert asked.takeback == 0 and len(game.history) == played
        table.submit(Act(ana, latest(ana, asked).legal[0], table.number))
        moved = await event_of(ana, "action")
        assert moved.takeback is None
        await table.settled()
        assert table.takeback is None and len(game.history) >= 2
        await table.stop()
        assert ana.leaks == []

    run(main)


def test_a_hand_that_is_over_stays_over() -> None:
    """Twenty-Five: once a hand is scored and the next dealt, a move of the hand before
    cannot be taken back."""

    async def main() -> None:
        game = new_game("twentyfive", players=2, seed=2)
        table = Table("t-h", game, [None, "random"], bot_seed=2)
        me = Watched(table, 0)
        table.submit(Join(me, seat=0, name="Ana"))
        table.launch()
        ended = False
        while True:
            msg = await told(me)
            ended = ended or bool(isinstance(msg, Event) and (msg.closed or {}).get("hand"))
            if msg.to_move == 0 and msg.legal:
                if ended:
                    break
                table.submit(Act(me, msg.legal[0], number(msg)))
        assert not msg.can_take_back and not game.is_over
        played = list(game.history)
        table.submit(TakebackCmd(me))
        error = await refused(me)
        assert (error.code, error.message) == ("not_allowed", "the hand of your last move is over")
        await table.settled()
        assert game.history == played
        await table.stop()

    run(main)


@settings(max_examples=30, deadline=None)
@given(
    game_id=st.sampled_from(["kozyri", "twentyfive"]),
    bots=st.integers(1, 3),
    seed=st.integers(0, 2**16),
    steps=st.lists(st.one_of(st.just("back"), st.integers(0, 30)), min_size=1, max_size=25),
)
def test_moves_and_take_backs_in_any_order_keep_the_game_its_record_s(
    game_id: str, bots: int, seed: int, steps: list[Any]
) -> None:
    """Against 1–3 bots, any mix of moves and take-backs: a take-back happens exactly when
    the table said it could (``can_take_back``), else it is refused and changes nothing;
    the game is always the one its record replays; no message shows a hidden card."""
    players = 2 if game_id == "kozyri" else bots + 1

    async def main() -> None:
        game = new_game(game_id, players=players, seed=seed)
        table = Table("t-p", game, [None] + ["random"] * (players - 1), bot_seed=seed)
        me = Watched(table, 0)
        table.submit(Join(me, seat=0, name="Ana"))
        table.launch()
        now: Told | None = None
        for step in steps:
            await table.settled()
            if game.is_over:
                break
            now = latest(me, now)  # the bots have moved: my turn
            assert now.to_move == 0 and now.legal
            if step == "back":
                at, could = table.number, now.can_take_back
                table.submit(TakebackCmd(me))
                await table.settled()
                if could:
                    back = now = latest(me)
                    assert isinstance(back, Event) and back.kind == "takeback"
                    assert back.number == at + 1 and back.to_move == 0
                else:
                    assert isinstance(me.get_nowait(), Error) and me.empty()
                    assert table.number == at
            else:
                table.submit(Act(me, now.legal[step % len(now.legal)], number(now)))
                await table.settled()
            assert replays(table)
        await table.stop()
        assert me.leaks == []

    run(main)


def test_a_take_back_is_stored_before_it_is_told_and_a_restart_resumes_from_it(
    tmp_path: Path,
) -> None:
    """Against the computer on a hub with its store: the move taken back stays taken back
    after the server restarts (the record it stores is the shorter game), and the game goes
    on from there."""

    async def main() -> None:
        store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'tb.db'}")
        await store.create()
        options = HubOptions(bot_time=0.01, seed=1)
        hub = Hub(store, Sessions(store, SECRET), options)
        await hub.start()
        me, welcome = await hello(hub, "Ana")
        ask = {"type": "play_computer", "game": "twentyfive", "players": 3, "level": "random"}
        await said(hub, me, {**ask, "bot_pace": "instant"})
        table_id = (await next_of(me, TableState)).table_id
        first = await to_move(me, table_id)
        game = hub.tables[table_id].table.game
        kept = list(game.history)
        await said(hub, me, {"type": "action", "table_id": table_id, "action": first.legal[0],
                             "expected": number(first)})  # fmt: skip
        again = await to_move(me, table_id)
        assert again.can_take_back
        await said(hub, me, {"type": "takeback", "table_id": table_id})
        back = await next_of(me, Event)
        while back.kind != "takeback":
            back = await next_of(me, Event)
        assert game.history == kept
        [running] = await store.running_tables()  # stored before it was told
        assert running.record["actions"] == kept
        await hub.stop()
        hub = Hub(store, Sessions(store, SECRET), options)
        await hub.start()
        try:
            me, _ = await hello(hub, "Ana", welcome.resume_token)
            await said(hub, me, {"type": "join_table", "table_id": table_id})
            state = await next_of(me, TableState)
            assert state.view == back.view and state.legal == first.legal
            assert hub.tables[table_id].table.game.history == kept
            assert [e.kind for e in state.log][-1] == "takeback"
        finally:
            await hub.stop()
            await store.close()

    run(main)
