"""New guest identities have a budget per address (issue 17 §1): a hello without a resume
token reserves a player id in the database, so a connect–hello–close loop from one address
must not write (and use up ids) without end.  A player who resumes is not a new identity
and is never refused; another address has its own budget.  The budget across processes:
``test_fair_cluster.py``."""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from server.hubkit import decoded, run_hub, said
from trumps.cli import cli
from trumps.server.hub import GUEST_WINDOW, GUESTS_PER_ADDRESS, Connection, Hub, HubOptions
from trumps.server.transport.app import SETTINGS_ENV, ServerSettings, app_from_env, settings_env
from trumps.server.wire.protocol import Error, Welcome
from trumps.store import SqlStore

SECRET = "guest-budget-secret-0123456789"
ADDRESS = "198.51.100.40"
ELSEWHERE = "203.0.113.41"


class CountingStore(SqlStore):
    """A store that counts the player ids it reserves (one database write each)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.reserved = 0

    async def reserve_player_id(self) -> int:
        self.reserved += 1
        return await super().reserve_player_id()


def run(
    tmp_path: Path, body: Callable[[Hub, CountingStore], Awaitable[None]], **options: Any
) -> None:
    run_hub(tmp_path / "hub.db", body, store_class=CountingStore, **options)


async def hello(
    hub: Hub, address: str | None, token: str | None = None
) -> tuple[Connection, Welcome | Error]:
    """A new connection from ``address`` says hello: the welcome or the error it gets."""
    conn = hub.connect(address)
    msg: dict[str, Any] = {"type": "hello", "protocol": 1, "name": "Guest"}
    if token is not None:
        msg["resume_token"] = token
    await said(hub, conn, msg)
    raw = await conn.outbox.get()
    assert raw is not None, "the connection was closed"
    answer = decoded(raw)
    assert isinstance(answer, Welcome | Error), answer
    return conn, answer


def test_an_address_may_make_only_so_many_new_guests_a_minute(tmp_path: Path) -> None:
    now = [1_000_000.0]

    async def body(hub: Hub, store: CountingStore) -> None:
        hub.counters.clock = lambda: now[0]
        welcomes = [await hello(hub, ADDRESS) for _ in range(3)]
        assert all(isinstance(w, Welcome) for _, w in welcomes), welcomes
        assert store.reserved == 3
        first, welcome = welcomes[0]
        assert isinstance(welcome, Welcome)
        await said(hub, first, {"type": "chat", "table_id": "nope", "text": "hi"})  # stored
        refused_conn, refused = await hello(hub, ADDRESS)
        assert isinstance(refused, Error) and refused.code == "rate_limited", refused
        assert "3 new guests this minute" in refused.message
        assert store.reserved == 3  # nothing written for it
        assert refused_conn.player is None  # it may not do anything else either
        await said(hub, refused_conn, {"type": "ping", "nonce": 1})
        not_yet = decoded(await refused_conn.outbox.get())  # type: ignore[arg-type]
        assert isinstance(not_yet, Error) and not_yet.code == "not_hello", not_yet
        # A guest who comes back is no new identity: welcome from the same address.
        _, back = await hello(hub, ADDRESS, welcome.resume_token)
        assert isinstance(back, Welcome) and back.player_id == welcome.player_id
        # Another address has its own budget; a connection not from a socket has none.
        _, other = await hello(hub, ELSEWHERE)
        assert isinstance(other, Welcome)
        _, local = await hello(hub, None)
        assert isinstance(local, Welcome)
        # The next minute the address may make new guests again.
        now[0] += GUEST_WINDOW
        _, later = await hello(hub, ADDRESS)
        assert isinstance(later, Welcome), later

    run(tmp_path, body, guests_per_address=3)


def test_the_default_budget_lets_a_household_open_many_tabs(tmp_path: Path) -> None:
    """A family behind one address opening tabs, a class on a school network: far below."""
    assert HubOptions().guests_per_address == GUESTS_PER_ADDRESS >= 30
    assert GUEST_WINDOW == 60.0

    async def body(hub: Hub, store: CountingStore) -> None:
        hub.counters.clock = lambda: 2_000_000.0
        answers = [(await hello(hub, ADDRESS))[1] for _ in range(GUESTS_PER_ADDRESS + 1)]
        assert all(isinstance(a, Welcome) for a in answers[:-1])
        assert isinstance(answers[-1], Error) and answers[-1].code == "rate_limited"

    run(tmp_path, body)


def test_trumps_serve_takes_the_guest_budget(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--guests-per-address`` reaches the hub, in one process and in each of several."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr("uvicorn.run", lambda app, **options: seen.update(app=app))
    monkeypatch.setenv("TRUMPS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("TRUMPS_SECRET", raising=False)
    for more, budget in (["--guests-per-address", "7"], 7), ([], GUESTS_PER_ADDRESS):
        result = CliRunner().invoke(cli, ["serve", "--bot-workers", "0", *more])
        assert result.exit_code == 0, result.output
        assert seen["app"].state.server.hub.options.guests_per_address == budget
    refused = CliRunner().invoke(cli, ["serve", "--guests-per-address", "0"])
    assert refused.exit_code == 2 and "--guests-per-address" in refused.output
    # A worker of ``--workers N`` reads it from the environment.
    settings = ServerSettings(db=f"sqlite+aiosqlite:///{tmp_path / 'w.db'}", secret=SECRET,
                              hub=HubOptions(guests_per_address=9))  # fmt: skip
    sent = settings_env(settings)
    assert json.loads(sent)["hub"]["guests_per_address"] == 9
    monkeypatch.setenv(SETTINGS_ENV, sent)
    app = app_from_env()
    assert SETTINGS_ENV not in os.environ
    assert app.state.server.hub.options.guests_per_address == 9
