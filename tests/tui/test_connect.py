"""``trumps connect``: the Textual client against a real ``trumps serve`` process.

The app is driven with ``App.run_test()`` and its pilot, by keys, as a person would: a game
against the computer to the end (with a hint, a rematch, the history and a replay), a
private table shared with a second (raw WebSocket) player, a dropped connection that comes
back to the same seat, and a quick match.  Waits poll the app's state with
``pilot.pause()`` under a deadline; nothing sleeps to synchronise.  Which legal action to
play is the easy bot's pick from the app's own view, so games end in a few dozen moves.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from trumps.ai import Limits, make_bot
from trumps.games import new_game
from trumps.tui.connect import ConnectApp
from trumps.tui.connect.form import GameForm
from trumps.tui.connect.lobby import LobbyScreen
from trumps.tui.connect.model import ClientState, FeedItem, TableModel
from trumps.tui.connect.net import parse_invite, server_address
from trumps.tui.connect.table import HandBar, TableScreen
from trumps.tui.connect.text import choices, feed_text

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # tests/, for server.e2e
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.e2e import Client as WsClient
from server.e2e import ServerProc, connected
from tui.tuikit import SIZE, TIMEOUT, until

GAME_TIMEOUT = 120.0  # seconds a whole game may take (a few dozen moves, usually ~10 s)

Msg = dict[str, Any]


def table(app: ConnectApp, table_id: str) -> TableModel:
    return app.client.state.tables[table_id]


def on_table(app: ConnectApp) -> str | None:
    screen = app.screen
    return screen.table_id if isinstance(screen, TableScreen) else None


def choose(t: TableModel, rng: random.Random) -> int:
    """Which of the shown choices to play: the easy bot's pick from the app's own view (a
    sensible player ends a game against the random bot in a few dozen moves)."""
    assert t.view is not None
    action = make_bot("easy", t.game).decide(t.view, list(t.legal), Limits(), rng).action
    return choices(t).index(action)


async def play_one(pilot: Pilot[None], app: ConnectApp, table_id: str, rng: random.Random) -> str:
    """Play one legal action by keys: a number key (or arrows) to choose, Enter to play."""
    t = table(app, table_id)
    i = choose(t, rng)
    action = choices(t)[i]
    n = len(choices(t))
    if i < 10:
        keys = [str((i + 1) % 10)]
    else:  # from the first choice, the short way round with the arrows
        keys = ["1", *(["right"] * i if i <= n - i else ["left"] * (n - i))]
    before = t.event
    await pilot.press(*keys, "enter")
    assert t.sent or t.event > before, "Enter did not send the chosen action"
    return action


async def play_to_end(
    pilot: Pilot[None], app: ConnectApp, table_id: str, rng: random.Random
) -> int:
    """Play every turn of the app's seat by keys until the game is over; the moves made."""
    moves = 0
    deadline = time.monotonic() + GAME_TIMEOUT
    while table(app, table_id).outcome is None:
        if time.monotonic() > deadline:
            raise AssertionError(f"the game at {table_id} did not end")
        t = table(app, table_id)
        if t.can_act and on_table(app) == table_id:
            await play_one(pilot, app, table_id, rng)
            moves += 1
        else:
            await pilot.pause(0.01)
    return moves


def _played(t: TableModel, seat: int, action: str) -> list[FeedItem]:
    """The log lines where ``seat`` played ``action`` itself (not a bot for it)."""
    return [
        i
        for i in t.feed
        if i.kind == "event"
        and i.data.get("seat") == seat
        and i.data.get("action") == action
        and not i.data.get("by_bot")
    ]


def status_text(app: ConnectApp) -> str:
    return str(app.screen.query_one("#status", Static).content)


def run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(body())


# ---------------------------------------------------------------- small pure parts


def test_addresses() -> None:
    s = server_address("http://example.org:8000")
    assert (s.ws_url, s.http_url, s.key) == (
        "ws://example.org:8000/ws",
        "http://example.org:8000",
        "example.org_8000",
    )
    s = server_address("ws://127.0.0.1:9/ws")
    assert (s.ws_url, s.http_url, s.key) == (
        "ws://127.0.0.1:9/ws",
        "http://127.0.0.1:9",
        "127.0.0.1_9",
    )
    s = server_address("https://cards.example/trumps/?table=t-abc")
    assert (s.ws_url, s.http_url, s.invite) == (
        "wss://cards.example/trumps/ws",
        "https://cards.example/trumps",
        "t-abc",
    )
    assert server_address("localhost:8000").ws_url == "ws://localhost:8000/ws"
    assert parse_invite("http://h:1/?table=t-x_Y") == "t-x_Y"
    assert parse_invite(" t-42 ") == "t-42"
    assert parse_invite("no such thing!") is None


def test_event_gaps_and_stale_moves_ask_for_a_resync() -> None:
    state = ClientState()
    snapshot: Msg = {
        "type": "table_state",
        "table_id": "t-1",
        "game": "kozyri",
        "rules": {},
        "seats": [{"seat": 0, "name": "Olena"}, {"seat": 1, "bot": "easy"}],
        "seat": 0,
        "event": 4,
        "view": dict(new_game("kozyri", seed=1).view(0)),
        "legal": ["AS"],
        "to_move": 0,
        "log": [{"number": n, "kind": "action", "seat": 1, "action": "6C"} for n in (3, 4)],
    }
    assert state.apply(snapshot).new_table
    t = state.tables["t-1"]
    assert (t.event, t.logged, len(t.feed), t.can_act) == (4, 4, 2, True)
    event: Msg = {"type": "event", "table_id": "t-1", "kind": "action", "seat": 0}
    event |= {"action": "AS", "view": {}, "legal": [], "to_move": 1}
    assert state.apply({**event, "number": 5}).send == []
    assert state.apply({**event, "number": 5}).send == []  # a repeat changes nothing
    gap = state.apply({**event, "number": 7})
    assert gap.send == [{"type": "resync", "table_id": "t-1", "last_event": 5}]
    assert state.apply({**event, "number": 8}).send == []  # one resync is on its way
    assert t.event == 5 and t.resyncing
    state.apply({**snapshot, "event": 8, "log": []})
    assert t.event == 8 and not t.resyncing
    stale = state.apply(
        {"type": "error", "code": "stale_event", "message": "moved on", "table_id": "t-1"}
    )
    assert stale.send == [{"type": "resync", "table_id": "t-1", "last_event": 8}]
    assert state.apply({"type": "something_new"}).kind == "something_new"


def test_a_table_opened_here_shows_the_stored_chat_once() -> None:
    """A snapshot of a table new to the client (a reload, a restart) brings the chat so far;
    a later snapshot of the same table (a resync) does not repeat it."""
    state = ClientState()
    snapshot: Msg = {
        "type": "table_state", "table_id": "t-1", "game": "kozyri", "rules": {},
        "seats": [{"seat": 0, "name": "Olena"}, {"seat": 1, "name": "Rui"}], "seat": 0,
        "event": 2, "view": dict(new_game("kozyri", seed=1).view(0)), "legal": [],
        "to_move": 1, "log": [],
        "chat": [{"seat": 1, "name": "Rui", "text": "boa sorte"}, {"seat": None, "name": "Ana",
                                                                    "text": "salut"}],
    }  # fmt: skip
    state.apply(snapshot)
    chat = [i.data for i in state.tables["t-1"].feed if i.kind == "chat"]
    assert [(c["seat"], c["name"], c["text"]) for c in chat] == [
        (1, "Rui", "boa sorte"),
        (None, "Ana", "salut"),
    ]
    state.apply({**snapshot, "event": 3})
    assert len([i for i in state.tables["t-1"].feed if i.kind == "chat"]) == 2
    # A spectator's line says so (issue 17: nobody watching passes for a player).
    t = state.tables["t-1"]
    lines = [feed_text(t, i).plain for i in t.feed if i.kind == "chat"]
    assert lines == ["<Rui> boa sorte", "<Ana> (watching) salut"]


# ---------------------------------------------------------------- against a server


def test_play_the_computer_to_the_end(server: ServerProc, tmp_path: Path) -> None:
    """Kozyri against the random bot: every turn played by keys, the result shown, and the
    game then in the history with a replay."""

    async def body() -> None:
        app = ConnectApp(server.http, name="Olena", token_file=tmp_path / "client.json")
        rng = random.Random(1)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
            await pilot.click("#level")
            await pilot.press(*"random", "enter")
            assert app.screen.query_one("#level", Select).value == "random"
            await pilot.click("#ok")
            await until(pilot, lambda: on_table(app) is not None, "the table screen")
            table_id = on_table(app)
            assert table_id is not None
            t = table(app, table_id)
            assert t.seat == 0 and t.seats[1].get("bot") == "random"
            # A hint (games against the computer only) moves the cursor to its action.
            await until(pilot, lambda: t.can_act, "my first turn")
            await pilot.press("h")
            await until(pilot, lambda: t.hint is not None, "the hint")
            assert t.hint is not None
            hinted = str(t.hint["action"])
            assert choices(t)[app.screen.query_one("#hand", HandBar).cursor] == hinted
            await pilot.press("enter")
            await until(pilot, lambda: any(_played(t, 0, hinted)), "the hinted move")
            moves = await play_to_end(pilot, app, table_id, rng)
            assert moves > 0
            await until(pilot, lambda: "Game over" in status_text(app), "the result shown")
            assert t.record_id is not None

            # A rematch: a new table, same seat, same bot; resigned at once (with a confirm).
            await pilot.press("n")
            await until(pilot, lambda: on_table(app) not in (None, table_id), "the rematch")
            again = table(app, str(on_table(app)))
            assert again.seat == 0 and again.seats[1].get("bot") == "random"
            await until(pilot, lambda: again.started, "the rematch to start")
            await pilot.press("r", "y")
            await until(pilot, lambda: again.outcome is not None, "the resignation")
            assert again.outcome is not None and again.outcome["reason"] == "resigned"
            assert again.outcome["losers"] == [0]
            await pilot.press("b")
            # The history lists both; Enter on the first game opens its replay, End steps to
            # its last move.
            assert isinstance(app.screen, LobbyScreen)
            await pilot.press("h")
            await until(
                pilot,
                lambda: "2 games" in str(app.screen.query_one("#history-status", Static).content),
                "the history",
            )
            await pilot.press("down", "enter")
            await until(
                pilot,
                lambda: "move 0/" in str(app.screen.query_one("#replay-head", Static).content),
                "the replay",
            )
            await pilot.press("end")
            head = str(app.screen.query_one("#replay-head", Static).content)
            assert re.search(r"move (\d+)/\1", head), head
        stored = json.loads((tmp_path / "client.json").read_text())
        assert stored["name"] == "Olena" and stored["resume_token"]

    run(body)


def test_a_typed_move_that_is_not_legal_says_why(server: ServerProc, tmp_path: Path) -> None:
    """Svoi Kozyri against the random bot: at a turn where a card beats the top card, the
    action box does not offer ``take``, and typing ``take`` anyway is refused with the rule
    (K11, the game's reason from the seat's view); nothing is sent."""

    async def body() -> None:
        app = ConnectApp(server.http, name="Olena", token_file=tmp_path / "client.json")
        rng = random.Random(2)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
            await pilot.click("#level")
            await pilot.press(*"random", "enter")
            await pilot.click("#ok")
            await until(pilot, lambda: on_table(app) is not None, "the table screen")
            table_id = str(on_table(app))
            t = table(app, table_id)

            def must_beat() -> bool:
                v = t.view
                return (
                    t.can_act
                    and v is not None
                    and v["game"] == "kozyri"
                    and bool(v["pile"])
                    and not v["owes_second"]
                    and "take" not in t.legal
                    and None not in v["trumps"]
                )

            deadline = time.monotonic() + GAME_TIMEOUT
            while not must_beat():
                assert t.outcome is None and time.monotonic() < deadline, "no turn to beat"
                if t.can_act:
                    await play_one(pilot, app, table_id, rng)
                else:
                    await pilot.pause(0.01)
            box = app.screen.query_one("#action", Input)
            assert "take" not in str(box.placeholder), box.placeholder
            before = t.event
            await pilot.press("a", *"take", "enter")
            await until(
                pilot,
                lambda: any(
                    "You must beat when you can" in str(n.message) for n in app._notifications
                ),
                "the reason",
            )
            shown = next(
                str(n.message) for n in app._notifications if "must beat" in str(n.message)
            )
            assert "(K11)" in shown and "Legal: " in shown
            assert not t.sent and t.event == before and t.can_act

    run(body)


async def raw_player(c: WsClient, table_id: str, rng: random.Random) -> Msg:
    """Play every turn of ``c`` at ``table_id`` (as the easy bot would) until the game ends;
    the game_over message."""
    bot = make_bot("easy", "kozyri")
    while True:
        m = await c.recv()
        if m.get("table_id") != table_id:
            continue
        if m["type"] == "game_over":
            return m
        if m["type"] == "error" and m["code"] == "stale_event":
            await c.send({"type": "resync", "table_id": table_id, "last_event": c.last[table_id]})
        if m["type"] in ("table_state", "event") and m["legal"]:
            action = bot.decide(m["view"], m["legal"], Limits(), rng).action
            await c.act(table_id, action, c.last[table_id])


def test_private_table_with_a_second_player(server: ServerProc, tmp_path: Path) -> None:
    """The app creates a private table and shows its invite id; a raw WebSocket client joins
    by that id; both play (the app by keys) until the result."""

    async def body() -> None:
        app = ConnectApp(server.http, name="Olena", token_file=tmp_path / "client.json")
        rng = random.Random(2)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
            await pilot.click("#private")
            await pilot.click("#ok")
            await until(pilot, lambda: on_table(app) is not None, "the table screen")
            await pilot.pause()
            shown = str(app.screen.query_one("#invite", Static).content)
            found = re.search(r"Invite id: (\S+)", shown)
            assert found, shown
            table_id = found.group(1)
            assert f"?table={table_id}" in shown
            assert "Waiting for 1 more player" in status_text(app)
            assert table_id not in [s["table_id"] for s in app.client.state.lobby]

            taras = await connected(server.ws, "Taras")
            try:
                await taras.send({"type": "join_table", "table_id": table_id})
                other = asyncio.create_task(raw_player(taras, table_id, random.Random(3)))
                await until(pilot, lambda: table(app, table_id).started, "the start")
                assert table(app, table_id).name_of(1) == "Taras"
                await play_to_end(pilot, app, table_id, rng)
                over = await asyncio.wait_for(other, TIMEOUT)
                assert over["outcome"] == table(app, table_id).outcome
                await until(pilot, lambda: "Game over" in status_text(app), "the result shown")
                # Taras asks for a rematch: the app hears the offer, n sits down at it.
                await taras.send({"type": "rematch", "table_id": table_id})
                await until(pilot, lambda: table(app, table_id).rematch is not None, "the offer")
                # The model hears the offer first; the screen redraws when its update arrives.
                await until(
                    pilot, lambda: "Taras started a rematch" in status_text(app), "the offer shown"
                )
                await pilot.press("n")
                await until(pilot, lambda: on_table(app) not in (None, table_id), "the rematch")
                again = table(app, str(on_table(app)))
                assert again.private and again.seat == 0 and again.name_of(1) == "Taras"
                await until(pilot, lambda: again.started, "the rematch to start")
                await pilot.press("r", "y")
                await until(pilot, lambda: again.outcome is not None, "the resignation")
            finally:
                await taras.close()

    run(body)


def test_reconnect_gets_the_seat_back(server: ServerProc, tmp_path: Path) -> None:
    """The socket drops mid-game; the app reconnects with its resume token, sits in the same
    seat again, and plays on."""

    async def body() -> None:
        app = ConnectApp(server.http, name="Olena", token_file=tmp_path / "client.json")
        rng = random.Random(4)
        async with app.run_test(size=SIZE) as pilot:
            state = app.client.state
            await until(pilot, lambda: state.welcomed, "the welcome")
            player = state.player_id
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
            await pilot.click("#ok")
            await until(pilot, lambda: on_table(app) is not None, "the table screen")
            table_id = on_table(app)
            assert table_id is not None
            t = table(app, table_id)
            for _ in range(2):
                await until(pilot, lambda: t.can_act or t.outcome is not None, "my turn")
                if t.outcome is None:
                    await play_one(pilot, app, table_id, rng)
            await until(pilot, lambda: not t.sent, "the move to land")
            seat, connects, dropped_at = t.seat, app.client.connects, t.event
            assert seat is not None

            ws = app.client.ws
            assert ws is not None
            ws.transport.abort()  # the connection is lost
            await until(pilot, lambda: app.client.connects > connects, "the reconnect")
            assert state.player_id == player
            assert table_id in state.resumed
            await until(
                pilot,
                lambda: any(
                    i.kind == "event"
                    and i.data["kind"] in ("join", "return")
                    and i.data["seat"] == seat
                    and i.data["number"] > dropped_at
                    for i in t.feed
                ),
                "the seat back",
            )
            assert t.seat == seat and t.seats[seat]["connected"]
            assert on_table(app) == table_id
            # It plays on from the same seat, then resigns.
            for _ in range(2):
                await until(pilot, lambda: t.can_act or t.outcome is not None, "my turn")
                if t.outcome is None:
                    action = await play_one(pilot, app, table_id, rng)
                    await until(pilot, lambda: not t.sent, "the move to land")
                    assert t.outcome is not None or _played(t, seat, action)
            if t.outcome is None:
                await pilot.press("r", "y")
                await until(pilot, lambda: t.outcome is not None, "the end")
            assert t.seat == seat

    run(body)


def test_quick_match_pairs_with_the_next_player(server: ServerProc, tmp_path: Path) -> None:
    """m asks for a quick match and shows the wait; the next person asking for the same game
    and rules is paired with the app, whose table opens."""

    async def body() -> None:
        app = ConnectApp(server.http, name="Olena", token_file=tmp_path / "client.json")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
            await pilot.click("#ok")
            await until(pilot, lambda: app.client.state.waiting is not None, "the wait")
            assert "waiting for another player" in str(
                app.screen.query_one("#waiting", Static).content
            )
            taras = await connected(server.ws, "Taras")
            try:
                await taras.send({"type": "quick_match", "game": "kozyri", "rules": "seed"})
                await until(pilot, lambda: on_table(app) is not None, "the table")
                t = table(app, str(on_table(app)))
                assert app.client.state.waiting is None
                await until(pilot, lambda: t.started, "the start")
                assert {t.name_of(0), t.name_of(1)} == {"Olena", "Taras"}
                await pilot.press("r", "y")
                await until(pilot, lambda: t.outcome is not None, "the resignation")
            finally:
                await taras.close()

    run(body)


def test_an_unavailable_server_is_asked_again(tmp_path: Path) -> None:
    """``hello`` answered ``unavailable`` (the server cannot reach its database or Redis):
    the terminal client says hello again a little later, and is welcomed then."""
    import websockets as ws_lib

    from trumps.tui.connect.net import HELLO_AGAIN, Client

    async def main() -> None:
        hellos: list[float] = []
        welcomed = asyncio.Event()

        async def fake(ws: Any) -> None:
            async for raw in ws:
                if json.loads(raw).get("type") != "hello":
                    continue
                hellos.append(time.monotonic())
                if len(hellos) == 1:
                    await ws.send(json.dumps({"type": "error", "code": "unavailable",
                                              "message": "no database"}))  # fmt: skip
                else:
                    await ws.send(json.dumps({"type": "welcome", "player_id": "7", "name": "Ana",
                                              "resume_token": "tok", "tables": []}))  # fmt: skip

        async with ws_lib.serve(fake, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            client = Client(
                f"http://127.0.0.1:{port}",
                name="Ana",
                token_file=tmp_path / "token.json",
                listener=lambda change, msg: (
                    welcomed.set() if msg.get("type") == "welcome" else None
                ),
            )
            task = asyncio.create_task(client.run())
            try:
                await asyncio.wait_for(welcomed.wait(), HELLO_AGAIN + 10)
            finally:
                client.stop()
                task.cancel()
        assert len(hellos) == 2 and hellos[1] - hellos[0] >= HELLO_AGAIN * 0.9

    asyncio.run(main())


def test_the_client_contributes_to_the_deal_and_checks_it(tmp_path: Path) -> None:
    """docs/fairness.md: against a server without a fixed seed the client gives its own
    value after the commitment, shows both, and checks the finished game's record."""
    proc = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'fair.db'}", tmp_path, seed=None)
    proc.start()

    async def body() -> None:
        app = ConnectApp(proc.http, name="Vera", token_file=tmp_path / "client.json")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.client.state.welcomed, "the welcome")
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, GameForm), "the form")
            await pilot.click("#ok")
            await until(pilot, lambda: on_table(app) is not None, "the table screen")
            t = table(app, str(on_table(app)))
            await until(pilot, lambda: t.started, "the start, once our value is in")
            committed, value = app.client.state.contributions[t.table_id]

            def notes() -> list[str]:
                return [feed_text(t, i).plain for i in t.feed if i.kind == "note"]

            assert any(committed in n and value in n for n in notes())
            await pilot.press("r", "y")
            await until(pilot, lambda: any("Fair deal verified" in n for n in notes()), "check")
            assert any("your own contribution" in n for n in notes())

    try:
        run(body)
    finally:
        proc.stop()
