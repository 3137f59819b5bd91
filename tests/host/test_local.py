"""The page's own host of games against the computer (``trumps.host.local``, issue 28) says
what the server says: for the same deal and the same moves, every message equals the
server's, is one of the protocol's messages, and shows nothing the seat's view does not."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from server.hubkit import decoded, hello, run_hub, said
from trumps.ai.analysis import Budget, analyze_game
from trumps.cli import cli
from trumps.host.analysis import GameAnalysis
from trumps.host.archive import replay_json, start_of
from trumps.host.local import LocalHost
from trumps.host.pacing import HAND_WAIT, PACES
from trumps.server.hub import Connection, Hub
from trumps.server.wire.protocol import GameOver, ServerMessage

SEED = 1  # run_hub's hub deals its first table from seed 1, as LocalHost(seed=1) does
Msg = dict[str, Any]
GAMES = [("kozyri", 2), ("twentyfive", 4), ("twentyfive", 2)]


def choose(legal: list[str], turn: int) -> str:
    """The person's move: varied, but the same on both hosts."""
    return legal[(turn * 7) % len(legal)]


def normal(msg: Msg) -> Msg:
    """A message without what names the host: the table's id, and the id the server's
    store gave the finished game's record (the page keeps its records itself)."""
    drop = {"table_id", "record_id"}
    return {k: v for k, v in msg.items() if k not in drop}


async def server_game(hub: Hub, game: str, players: int, takeback_at: int | None) -> list[Msg]:
    conn, _ = await hello(hub, "Me")
    await said(hub, conn, {"type": "play_computer", "game": game, "players": players,
                           "level": "random", "bot_pace": "instant"})  # fmt: skip
    return await _follow(hub, conn, takeback_at)


async def _follow(hub: Hub, conn: Connection, takeback_at: int | None) -> list[Msg]:
    out: list[Msg] = []
    turn = 0
    while True:
        raw = await asyncio.wait_for(conn.outbox.get(), 10)
        assert raw is not None, "the connection was closed"
        msg = decoded(raw)
        out.append(msgspec.to_builtins(msg))
        if isinstance(msg, GameOver):
            return out
        last = out[-1]
        if last["type"] in ("table_state", "event") and last["legal"]:
            number = last.get("number", last.get("event"))
            if turn == takeback_at and last["can_take_back"]:
                await said(hub, conn, {"type": "takeback", "table_id": last["table_id"]})
            else:
                action = choose(last["legal"], turn)
                await said(hub, conn, {"type": "action", "table_id": last["table_id"],
                                       "action": action, "expected": number})  # fmt: skip
            turn += 1


def local_game(
    game: str, players: int, takeback_at: int | None, host: LocalHost | None = None
) -> list[Msg]:
    host = LocalHost(seed=SEED) if host is None else host
    out: list[Msg] = []
    (welcome,) = host.handle({"type": "hello", "protocol": 1, "name": "Me"})
    msgspec.convert(welcome, ServerMessage)
    pending = host.handle({"type": "play_computer", "game": game, "players": players,
                           "level": "random", "bot_pace": "instant"})  # fmt: skip
    turn = 0
    while True:
        if not pending:
            assert host.bot_due() == 0.0  # instant: the bots answer at once
            pending = host.bot_move()
        msg, pending = pending[0], pending[1:]
        out.append(msg)
        if msg["type"] == "game_over":
            return out
        if msg["type"] in ("table_state", "event") and msg["legal"] and not pending:
            number = msg.get("number", msg.get("event"))
            if turn == takeback_at and msg["can_take_back"]:
                pending = host.handle({"type": "takeback", "table_id": msg["table_id"]})
            else:
                pending = host.handle({"type": "action", "table_id": msg["table_id"],
                                       "action": choose(msg["legal"], turn), "expected": number})  # fmt: skip
            turn += 1


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_whole_game_says_what_the_server_says(tmp_path: Path, game: str, players: int) -> None:
    seen: list[list[Msg]] = []

    async def body(hub: Hub, store: Any) -> None:
        seen.append(await server_game(hub, game, players, takeback_at=3))

    run_hub(tmp_path / "hub.db", body, bot_pace="instant", per_second=10**6, per_minute=10**7)
    local = local_game(game, players, takeback_at=3)
    served = seen[0]
    assert any(m.get("kind") == "takeback" for m in served)
    assert [normal(m) for m in local] == [normal(m) for m in served]


def test_a_finished_game_is_kept_as_the_server_keeps_it(tmp_path: Path) -> None:
    """The record of a finished game is the server's record of the same game (bar its
    times), under the id game_over names, once; its replay is the server's replay, and
    ``trumps record check`` accepts it."""
    kept: list[Msg] = []

    async def body(hub: Hub, store: Any) -> None:
        over = (await server_game(hub, "twentyfive", 4, takeback_at=2))[-1]
        kept.append(await store.get_game(over["record_id"]))

    run_hub(tmp_path / "hub.db", body, bot_pace="instant", per_second=10**6, per_minute=10**7)
    host = LocalHost(seed=SEED, wall=lambda: 1_765_000_000.123)
    over = local_game("twentyfive", 4, takeback_at=2, host=host)[-1]
    assert over["type"] == "game_over" and over["record_id"] == 1_765_000_000_123
    finished = json.loads(host.take_finished_text() or "null")
    assert host.take_finished_text() is None  # handed over once
    record, served = finished["record"], kept[0]
    times = {"started", "finished"}
    assert {k: v for k, v in record.items() if k not in times} == {
        k: v for k, v in served.items() if k not in times
    }
    assert record["started"] <= record["finished"]
    assert finished["id"] == over["record_id"]
    assert finished["summary"] == {
        "id": over["record_id"], "table_id": "local-1", "game": "twentyfive",
        "players": record["players"], "outcome": record["outcome"], "started": record["started"],
        "finished": record["finished"], "by_bot": [], "rated": False, "rating_changes": [],
        "seat": 0,
    }  # fmt: skip
    replayed = json.loads(host.replay_text(json.dumps(record)))
    assert replayed == {**replay_json(served), "record": record}
    assert len(replayed["positions"]) == len(record["actions"]) + 1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["record", "check", str(path)])
    assert result.exit_code == 0 and result.output.startswith("ok: twentyfive,"), result.output
    (state,) = host.handle({"type": "resync", "table_id": "local-1"})
    assert state["record_id"] == over["record_id"]  # a reload still names it


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_every_message_is_the_protocol_s_and_shows_only_the_seat_s_view(
    game: str, players: int
) -> None:
    messages = local_game(game, players, takeback_at=5)
    for msg in messages:
        msgspec.convert(msg, ServerMessage)  # a message the protocol knows, with its fields
        if "view" in msg:
            hands = msg["view"]["hands"]
            assert isinstance(hands[0], list)  # the person's own cards, face up
            for hand in hands[1:]:
                assert isinstance(hand, dict), hand  # another seat's hand: a count


def test_text_in_text_out() -> None:
    """The worker's entry: JSON text in, JSON text out; what is not a JSON object is
    ``bad_json`` (as on the server)."""
    host = LocalHost(seed=1)
    for bad in ("{", "[1]", "null"):
        (answer,) = host.handle_text(bad)
        assert msgspec.json.decode(answer, type=ServerMessage).code == "bad_json"
    (welcome,) = host.handle_text('{"type": "hello", "protocol": 1, "name": "Ana"}')
    assert msgspec.json.decode(welcome, type=ServerMessage).name == "Ana"
    (unknown,) = host.handle_text('{"type": "spectate", "table_id": "x"}')
    assert msgspec.json.decode(unknown, type=ServerMessage).code == "no_such_table"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = ["type", "table_id", "action", "expected", "hand", "game", "players", "level",
          "rules", "bot_pace", "name", "nonce", "protocol", "seat", "accept"]  # fmt: skip
TYPES = ["hello", "play_computer", "action", "resign", "takeback", "takeback_answer", "hint",
         "continue", "resync", "rematch", "leave_table", "ping", "chat", "spectate", "nonsense"]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    first=st.booleans(),
    messages=st.lists(
        st.fixed_dictionaries(
            {"type": st.sampled_from(TYPES)},
            optional={f: JSON | st.just("local-1") | st.integers(0, 6) for f in FIELDS[1:]},
        ),
        max_size=6,
    ),
)
def test_any_message_gets_protocol_answers_and_never_an_exception(
    first: bool, messages: list[Msg]
) -> None:
    """Whatever a page sends — wrong types, missing fields, unknown kinds — the host answers
    with the protocol's messages (an error for what it cannot do), never an exception: the
    worker has nobody to report one to, and the table would stop."""
    host = LocalHost(seed=2)
    if first:  # also at a table under way
        host.handle(
            {"type": "play_computer", "game": "kozyri", "level": "random", "bot_pace": "instant"}
        )
    for msg in messages:
        for answer in host.handle(msg):
            msgspec.convert(answer, ServerMessage)
        while host.bot_due() is not None:
            for answer in host.bot_move():
                msgspec.convert(answer, ServerMessage)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 40), max_size=60))
def test_bad_input_gets_an_error_and_changes_nothing(seed: int, picks: list[int]) -> None:
    """Moves that are not legal, stale or out of turn are refused with one error and leave
    the table as it was; legal ones move it on (K3–K11, F14: the game decides)."""
    host = LocalHost(seed=seed)
    host.handle({"type": "hello", "protocol": 1, "name": None})
    host.handle(
        {"type": "play_computer", "game": "kozyri", "level": "random", "bot_pace": "instant"}
    )
    table = host.table
    assert table is not None
    cards = [r + s for r in "6789TJQKA" for s in "SHDC"]
    every = [*cards, "take", "trump S", "trump H", "zz", "7X"]  # every card, words, nonsense
    for pick in picks:
        while host.bot_due() is not None:
            host.bot_move()
        if table.over:
            break
        before = (table.game.to_json(), table.number)
        action = every[pick % len(every)]
        legal = action in table.game.legal_actions()
        answer = host.handle({"type": "action", "table_id": table.table_id, "action": action,
                              "expected": table.number})  # fmt: skip
        if legal:
            assert answer[0]["kind"] == "action" and table.number == before[1] + 1
        else:
            assert [a["type"] for a in answer] == ["error"] and answer[0]["message"]
            msgspec.convert(answer[0], ServerMessage)  # one of the protocol's error codes
            assert (table.game.to_json(), table.number) == before


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _play_until(host: LocalHost, done: Any) -> list[Msg]:
    """The person plays their first legal move and the bots theirs (time moved on to each
    bot move when due) until ``done(messages of the latest step)``."""
    table = host.table
    assert table is not None
    while True:
        due = host.bot_due()
        if due is not None:
            assert isinstance(host.now, Clock)
            host.now.t += due
            step = host.bot_move()
        else:
            step = host.handle({"type": "action", "table_id": table.table_id,
                                "action": table.game.legal_actions()[0], "expected": table.number})  # fmt: skip
        if done(step):
            return step


def test_bots_keep_the_table_s_pace_and_wait_for_the_hand_s_summary() -> None:
    """docs/protocol.md#pacing: a bot's move a natural delay after the latest move, a
    trick's hold after a trick, and after a hand until the person said they read its
    summary (``continue``) or HAND_WAIT; then the hand's hold, counted from the hand's end."""
    clock = Clock()
    host = LocalHost(seed=3, now=clock)
    host.handle({"type": "hello", "protocol": 1, "name": "Me"})
    host.handle({"type": "play_computer", "game": "twentyfive", "players": 3, "level": "random",
                 "bot_pace": "normal"})  # fmt: skip
    pace = PACES["normal"]
    table = host.table
    assert table is not None
    while table.bot_seat() is None:  # the person leads: play until a bot is to move
        _play_until(host, lambda step: True)
    due = host.bot_due()
    assert due is not None and pace.least <= due <= pace.most
    assert host.bot_due() == due  # drawn once
    clock.t += due / 2
    assert host.bot_due() == pytest.approx(due / 2)
    trick = _play_until(host, lambda step: (step[-1].get("closed") or {}).get("trick") is not None
                        and "hand" not in step[-1]["closed"] and host.bot_due() is not None)  # fmt: skip
    assert trick and host.bot_due() == pytest.approx(pace.trick)
    _play_until(
        host, lambda step: "hand" in (step[-1].get("closed") or {}) and host.bot_due() is not None
    )
    assert host.bot_due() == pytest.approx(HAND_WAIT)  # nobody has read the summary yet
    clock.t += 1.0
    hand = table.game.closed()["hand"]["hand"]  # type: ignore[index]
    assert host.handle({"type": "continue", "table_id": table.table_id, "hand": hand}) == []
    assert host.bot_due() == pytest.approx(pace.hand - 1.0)


def test_a_hint_is_the_strongest_bot_s_move_from_the_person_s_view() -> None:
    host = LocalHost(seed=5, bot_time=0.05)
    host.handle({"type": "hello", "protocol": 1, "name": "Me"})
    host.handle(
        {"type": "play_computer", "game": "kozyri", "level": "random", "bot_pace": "instant"}
    )
    table = host.table
    assert table is not None
    asked = {"type": "hint", "table_id": table.table_id}
    while table.game.current_player != 0:
        (refused,) = host.handle(asked)
        assert refused["code"] == "not_your_turn"
        host.bot_move()
    before = (table.game.to_json(), table.number)
    (hint,) = host.handle(asked)
    msgspec.convert(hint, ServerMessage)
    assert hint["type"] == "hint" and hint["event"] == table.number
    assert hint["action"] in table.game.legal_actions()
    assert (table.game.to_json(), table.number) == before  # a hint moves nothing


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    game=st.sampled_from(GAMES),
    before=st.integers(0, 30),
    takeback=st.booleans(),
)
def test_a_saved_game_comes_back_as_it_was_and_goes_on_the_same(
    seed: int, game: tuple[str, int], before: int, takeback: bool
) -> None:
    """A game saved (the page keeps it when the tab closes) and restored in a new host is
    the same table: the same snapshot after the welcome, and the same messages for the same
    moves from then on, the bots' own draws included."""
    game_id, players = game
    noon = 1_765_108_800.0  # one time of day for both: the finished game's record id
    first = LocalHost(seed=seed, wall=lambda: noon)
    first.handle({"type": "hello", "protocol": 1, "name": "Ana"})
    first.handle({"type": "play_computer", "game": game_id, "players": players, "level": "random",
                  "bot_pace": "instant"})  # fmt: skip
    table = first.table
    assert table is not None

    def step(host: LocalHost, turn: int) -> list[Msg]:
        t = host.table
        assert t is not None
        if host.bot_due() is not None:
            return host.bot_move()
        if takeback and turn % 5 == 4 and t.snapshot()["can_take_back"]:
            return host.handle({"type": "takeback", "table_id": t.table_id})
        legal = t.game.legal_actions()
        return host.handle({"type": "action", "table_id": t.table_id,
                            "action": choose(legal, turn), "expected": t.number})  # fmt: skip

    for turn in range(before):
        if table.over:
            break
        step(first, turn)
    saved = first.save()
    if table.over:
        assert saved is None  # a finished game is not kept
        return
    assert saved is not None
    second = LocalHost(wall=lambda: noon)
    assert second.restore(saved)
    welcome, snapshot = second.handle({"type": "hello", "protocol": 1, "name": "Ana"})
    assert welcome["tables"] == [table.table_id]
    assert snapshot == table.snapshot()
    for turn in range(before, before + 40):
        if table.over:
            break
        assert step(second, turn) == step(first, turn)


def test_a_save_that_cannot_be_read_changes_nothing() -> None:
    host = LocalHost(seed=1)
    for bad in ("", "{", '{"version": 99}', '{"version": 1, "table": {}}', "[]"):
        assert not host.restore(bad)
        assert host.table is None


def test_a_deal_s_seed_is_a_number_javascript_holds_exactly() -> None:
    """The page keeps its records as JSON and reads them with JavaScript, whose numbers are
    exact only below 2**53: a seed above it would come back as another deal (seen: a
    downloaded record that did not replay)."""
    host = LocalHost()
    for _ in range(20):
        host.handle({"type": "play_computer", "game": "kozyri", "level": "random"})
        assert host.table is not None
        assert 0 <= host.table.game.seed < 2**53


@pytest.mark.parametrize(
    ("game", "players", "budget"),
    [("twentyfive", 3, Budget(deals=8, seed=0)), ("kozyri", 2, Budget(node_limit=2_000))],
)
def test_the_page_s_analysis_made_a_decision_at_a_time_is_the_whole_game_s(
    game: str, players: int, budget: Budget
) -> None:
    """The page's engine analyses a finished game one decision at a time (its worker stays
    free between them): stepped to the end, it is ``analyze_game`` of the same record and
    budget (the duel solver's answers kept between steps, as in one pass); before the end
    it has no result."""
    host = LocalHost(seed=SEED)
    local_game(game, players, takeback_at=None, host=host)
    record = json.loads(host.take_finished_text() or "null")["record"]
    made = GameAnalysis(json.dumps(record), budget)
    assert made.total > 5 and made.done == 0
    with pytest.raises(RuntimeError):
        made.result_text()
    steps = 1
    while not made.step():
        assert made.done == steps
        steps += 1
    assert steps == made.total == made.done
    assert bool(made.solved) == (game == "kozyri")  # the solver's answers kept between steps
    start, actions = start_of(record)
    assert json.loads(made.result_text()) == analyze_game(start, actions, budget).to_json()
