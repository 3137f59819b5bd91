"""Who may hold a game socket (issue "Hardening the service", part 1): a cap per address,
a deadline for ``hello``, room kept for ``/healthz``.  Against a real ``trumps serve``
(loopback: every client here is one address)."""

from __future__ import annotations

import asyncio
import json
import resource
from collections.abc import Iterator

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from server.e2e import ServerProc
from trumps.server.limits.sockets import FILE_RESERVE, SocketGate, socket_budget

CAP = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    tmp = tmp_path_factory.mktemp("sockets")
    proc = ServerProc(f"sqlite+aiosqlite:///{tmp / 's.db'}", tmp,
                      extra=("--sockets-per-address", str(CAP), "--hello-timeout", "0.5"))  # fmt: skip
    proc.start()
    yield proc
    proc.stop()


async def said_hello(ws: ClientConnection) -> None:
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
    assert json.loads(await ws.recv())["type"] == "welcome"


def test_an_address_holds_only_its_share_of_sockets(server: ServerProc) -> None:
    """239 silent sockets from one client used up the file limit; now the one past the cap
    is refused at the handshake, /healthz still answers, and a freed place is taken again."""

    async def main() -> None:
        held = [await connect(server.ws) for _ in range(CAP)]
        for ws in held:
            await said_hello(ws)
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.ws)
        assert refused.value.response.status_code == 403
        assert (await asyncio.to_thread(server.get, "/healthz")).status_code == 200
        await held.pop().close()
        again = await connect(server.ws)  # its place is free once it closed
        await said_hello(again)
        for ws in [*held, again]:
            await ws.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_socket_that_says_nothing_is_closed(server: ServerProc) -> None:
    async def main() -> None:
        silent = await connect(server.ws)
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(silent.recv(), 10)  # closed by the server at 0.5 s
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        talker = await connect(server.ws)  # one that says hello in time stays
        await said_hello(talker)
        await talker.send(json.dumps({"type": "ping", "nonce": 1}))
        assert json.loads(await talker.recv())["type"] == "pong"
        await talker.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_the_gate_counts_per_address_and_in_all() -> None:
    gate = SocketGate(per_address=2, total=3)
    assert gate.admit("a") is None and gate.admit("a") is None
    assert gate.admit("a") == "at most 2 connections from one address"
    assert gate.admit("b") is None
    assert gate.admit("c") == "the server holds as many connections as it can"
    gate.release("a")
    assert gate.admit("c") is None and gate.count == 3


def test_sockets_leave_files_for_everything_else() -> None:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        assert socket_budget(10**9) == 10**9
        return
    assert socket_budget(10**9) == soft - FILE_RESERVE
    assert socket_budget(10) == min(10, soft - FILE_RESERVE)
