"""The WebSocket handshake checks ``Origin`` (issue "Hardening the service", part 3): a page
of another site cannot open a socket with the player's browser; the server's own page,
clients that send no ``Origin`` (the terminal client, bots) and the origins the host lists
(``trumps serve --allowed-origin``) can.  Against a real ``trumps serve``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Final

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from server.e2e import ServerProc

OTHER: Final = "https://cards.example.org"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    tmp = tmp_path_factory.mktemp("origin")
    proc = ServerProc(f"sqlite+aiosqlite:///{tmp / 'o.db'}", tmp,
                      extra=("--allowed-origin", OTHER))  # fmt: skip
    proc.start()
    yield proc
    proc.stop()


async def hello_works(server: ServerProc, origin: str | None) -> bool:
    try:
        async with connect(server.ws, origin=None if origin is None else Origin(origin)) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
            return bool(json.loads(await ws.recv())["type"] == "welcome")
    except InvalidStatus as e:
        assert e.response.status_code == 403
        return False


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("own", True),  # the server's own page
        (None, True),  # the terminal client and bots send none
        (OTHER, True),  # listed by the host
        ("https://evil.example", False),
        ("other-port", False),  # another port is another origin
        ("null", False),  # a sandboxed frame or a file
    ],
)
def test_only_the_servers_own_page_and_listed_origins_may_open_a_socket(
    server: ServerProc, origin: str | None, allowed: bool
) -> None:
    if origin == "own":
        origin = server.http
    elif origin == "other-port":
        origin = f"http://127.0.0.1:{server.port + 1}"
    assert asyncio.run(asyncio.wait_for(hello_works(server, origin), 20)) is allowed
