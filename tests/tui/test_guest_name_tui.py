"""``trumps connect`` and a name the player never chose (issue 26, "Persian leftovers"):
the client says no name in its ``hello`` when none was given (the server keeps none, and
every client words it in its own language), and shows a person without a name as
"Guest" — a seat ``taken`` without a name is that person, not an open seat."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from trumps.tui.connect.model import ClientState, FeedItem
from trumps.tui.connect.net import Client
from trumps.tui.connect.text import feed_text, lobby_row, seats_text, watchers_text

Msg = dict[str, Any]

SEATS: list[Msg] = [
    {"seat": 0, "name": None, "bot": None, "taken": True, "connected": True},
    {"seat": 1, "name": "random bot", "bot": "random", "taken": True, "connected": True},
    {"seat": 2, "name": None, "bot": None, "taken": False, "connected": False},
]


def snapshot() -> Msg:
    return {
        "type": "table_state", "table_id": "t-1", "game": "twentyfive", "rules": {},
        "seats": SEATS, "seat": None, "event": 1, "view": {}, "legal": [], "to_move": None,
        "log": [], "chat": [{"seat": 0, "name": None, "text": "hi"}],
        "spectators": {"count": 2, "names": ["Ana", None]},
    }  # fmt: skip


def test_an_unnamed_person_is_guest_and_an_open_seat_stays_open() -> None:
    state = ClientState()
    state.apply(snapshot())
    t = state.tables["t-1"]
    assert [t.name_of(s) for s in range(3)] == ["Guest", "random bot", "seat 2 (open)"]
    assert seats_text(t).plain.split("\n")[0].strip() == "0  Guest"
    assert watchers_text(t) == "2 watching: Ana, Guest"
    chat = [feed_text(t, i).plain for i in t.feed if i.kind == "chat"]
    assert chat == ["<Guest> hi"]
    line = FeedItem("chat", {"seat": None, "name": None, "text": "yo"})
    assert feed_text(t, line).plain == "<Guest> (watching) yo"
    row = lobby_row({"table_id": "t-1", "game": "twentyfive", "seats": SEATS, "open_seats": 1})
    assert row[3] == "Guest, random bot, ·open·"


def test_the_welcome_of_an_unnamed_guest_has_no_name() -> None:
    state = ClientState()
    state.apply({"type": "welcome", "player_id": "7", "name": None, "resume_token": "tok"})
    assert state.name is None


def hellos_of(tmp_path: Path, name: str | None, stored: Msg | None = None) -> list[Msg]:
    """The ``hello`` frames a client sends to a fake server that welcomes it."""
    import websockets as ws_lib

    token_file = tmp_path / "token.json"
    tmp_path.mkdir(parents=True, exist_ok=True)
    if stored is not None:
        token_file.write_text(json.dumps(stored), encoding="utf-8")
    seen: list[Msg] = []

    async def main() -> None:
        welcomed = asyncio.Event()

        async def fake(ws: Any) -> None:
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "hello":
                    seen.append(msg)
                    welcome = {"type": "welcome", "player_id": "7", "resume_token": "tok",
                               "name": msg.get("name"), "tables": []}  # fmt: skip
                    await ws.send(json.dumps(welcome))

        async with ws_lib.serve(fake, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            client = Client(
                f"http://127.0.0.1:{port}",
                name=name,
                token_file=token_file,
                listener=lambda change, msg: (
                    welcomed.set() if msg.get("type") == "welcome" else None
                ),
            )
            task = asyncio.create_task(client.run())
            try:
                await asyncio.wait_for(welcomed.wait(), 10)
            finally:
                client.stop()
                task.cancel()

    asyncio.run(main())
    return seen


def test_the_client_says_no_name_when_none_was_given(tmp_path: Path) -> None:
    [hello] = hellos_of(tmp_path, None)
    assert "name" not in hello or hello["name"] is None, hello
    saved = json.loads((tmp_path / "token.json").read_text(encoding="utf-8"))
    assert not saved.get("name")  # nothing kept as if it were chosen


def test_the_client_says_a_given_or_kept_name(tmp_path: Path) -> None:
    [given] = hellos_of(tmp_path / "a", "Vera")
    assert given["name"] == "Vera"
    [kept] = hellos_of(tmp_path / "b", None, {"name": "Jin", "resume_token": "tok"})
    assert kept["name"] == "Jin"
