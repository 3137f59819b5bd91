"""Who may hold a TCP connection at all: a cap per address, a backstop for the process, a
little room beyond it for health checks, and a deadline for a request's headers.

``sockets.SocketGate`` counts game sockets, but only once their handshake has reached the
app.  Before that uvicorn counts nothing and waits for ever: an auditor's 140 raw sockets
(half of them sending ``GET /ws HTTP/1.1`` and a header, then nothing) took every file of a
process limited to 128, and ``/healthz`` stopped answering.  ``ConnectionGuard`` is given
to uvicorn as its HTTP protocol (``http=``): each connection is counted from the moment it
is accepted until it ends, including the life of a WebSocket it turns into, and

* an address holding ``per_address`` connections has the next one refused at once (429),
  unless it is a proxy named by ``--forwarded-allow-ips`` (behind one, every connection
  comes from it; the game-socket gate still counts the forwarded address);
* past ``total`` (the process's open-file limit less ``sockets.FILE_RESERVE``) connections
  are refused (503), except ``reserve`` more, for ``GET /healthz`` and ``/readyz`` only,
  from an address that holds almost nothing, so that a monitor still gets its answer while
  one client holds the rest;
* a connection that has not sent a whole request's headers within ``header_timeout``
  seconds of its start (or of its next request's first byte) is closed.  Between requests
  uvicorn's own keep-alive timeout closes an idle connection.

The counts are those of one process: with ``--workers N`` an address may hold N times as
many.
"""

from __future__ import annotations

import asyncio
import enum
import ipaddress
import logging
from asyncio import TimerHandle
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

import httptools
from uvicorn.config import Config
from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from trumps.server.limits.sockets import AddressCounts, socket_budget

__all__ = [
    "HEALTH_PATHS",
    "HEALTH_RESERVE",
    "ConnGate",
    "ConnectionGuard",
    "GuardedProtocol",
    "Trusted",
    "Verdict",
    "connection_guard",
]

log = logging.getLogger(__name__)

CONNECTIONS_PER_SOCKET: Final = 2  # an address's connections: twice its game sockets
HEALTH_RESERVE: Final = 8  # connections past the backstop, for health checks only
RESERVE_PER_ADDRESS: Final = 2  # an address holding this many gets none of the reserve
HEALTH_TIMEOUT: Final = 1.0  # seconds a connection of the reserve has to send its request
HEALTH_PATHS: Final = frozenset({"/healthz", "/readyz"})
_HEALTH_PATHS: Final = frozenset(path.encode() for path in HEALTH_PATHS)
WARN_EVERY: Final = 60.0  # seconds between warnings that connections are being refused

_ANY: Final = "*"
_Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Trusted:
    """The proxies of ``--forwarded-allow-ips``: addresses, networks, ``*`` (any), or names
    that are not addresses (compared as written, as uvicorn does)."""

    networks: tuple[_Network, ...] = ()
    literals: frozenset[str] = frozenset()
    anyone: bool = False

    @classmethod
    def of(cls, allowed: Iterable[str]) -> Trusted:
        networks: list[_Network] = []
        literals: set[str] = set()
        anyone = False
        for entry in allowed:
            entry = entry.strip()
            if entry == _ANY:
                anyone = True
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                literals.add(entry)
        return cls(tuple(networks), frozenset(literals), anyone)

    def __contains__(self, host: object) -> bool:
        if self.anyone:
            return True
        if not isinstance(host, str):
            return False
        if host in self.literals:
            return True
        try:
            address: _Address = ipaddress.ip_address(host)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)


class Verdict(enum.Enum):
    """What becomes of a new connection."""

    OPEN = "served"
    HEALTH_ONLY = "served for a health check only"
    TOO_MANY_FROM_ADDRESS = "too many connections from one address"
    FULL = "the server holds as many connections as it can"

    @property
    def admitted(self) -> bool:
        return self in (Verdict.OPEN, Verdict.HEALTH_ONLY)


@dataclass
class ConnGate(AddressCounts):
    """Counts the connections held per address and in all (those admitted only)."""

    per_address: int
    total: int
    reserve: int = HEALTH_RESERVE
    trusted: Trusted = field(default_factory=Trusted)  # not held to ``per_address``
    held: dict[str, int] = field(default_factory=dict)
    count: int = 0

    def admit(self, address: str) -> Verdict:
        """Count a new connection from ``address`` if the verdict admits it."""
        mine = self.held.get(address, 0)
        if mine >= self.per_address and address not in self.trusted:
            return Verdict.TOO_MANY_FROM_ADDRESS
        if self.count < self.total:
            verdict = Verdict.OPEN
        elif self.count < self.total + self.reserve and mine < RESERVE_PER_ADDRESS:
            verdict = Verdict.HEALTH_ONLY
        else:
            return Verdict.FULL
        self.hold(address)
        return verdict


_REFUSALS: Final = {
    Verdict.TOO_MANY_FROM_ADDRESS: b"HTTP/1.1 429 Too Many Requests\r\n",
    Verdict.FULL: b"HTTP/1.1 503 Service Unavailable\r\n",
}
_CLOSE: Final = b"content-length: 0\r\nconnection: close\r\n\r\n"


@dataclass
class ConnectionGuard:
    """uvicorn's ``http=``: builds a ``GuardedProtocol`` for each accepted connection, all
    sharing one ``ConnGate``.  It is pickled into each worker process (``--workers``), where
    its gate starts empty: every process counts its own connections."""

    gate: ConnGate
    header_timeout: float
    _warned: float = field(default=float("-inf"), repr=False)

    def __call__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> GuardedProtocol:
        return GuardedProtocol(config, server_state, app_state, _loop, guard=self)

    def refused(self, address: str, verdict: Verdict, loop: asyncio.AbstractEventLoop) -> None:
        log.debug("connection from %s refused: %s", address, verdict.value)
        if loop.time() - self._warned >= WARN_EVERY:
            self._warned = loop.time()
            log.warning(
                "connections refused (%s): %d held, by %d address(es)",
                verdict.value,
                self.gate.count,
                len(self.gate.held),
            )


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, counted by a ``ConnGate`` and with a header deadline."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        guard: ConnectionGuard,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.guard = guard
        self.counted_as: str | None = None  # the address it is counted under, until released
        self.health_only = False
        self.deadline: TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else "unix"
        verdict = self.guard.gate.admit(address)
        if not verdict.admitted:
            self.guard.refused(address, verdict, self.loop)
            transport.write(_REFUSALS[verdict] + _CLOSE)
            transport.close()
            return
        self.counted_as = address
        self.health_only = verdict is Verdict.HEALTH_ONLY
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.deadline is None and self.counted_as is not None:
            self._arm()  # the next request on a kept-alive connection

    def on_headers_complete(self) -> None:
        self._disarm()
        if self.health_only and not self._asks_health():
            self.app = service_unavailable  # the reserve serves nothing else
        super().on_headers_complete()
        if self.health_only and self.cycle is not None:
            self.cycle.keep_alive = False  # one check, then the room is free again

    def handle_websocket_upgrade(self) -> None:
        if self.health_only:
            self.transport.write(_REFUSALS[Verdict.FULL] + _CLOSE)
            self.transport.close()
            return
        super().handle_websocket_upgrade()
        websocket = self.transport.get_protocol()
        if websocket is self or self.counted_as is None:
            return
        # The connection lives on as a WebSocket, whose end uvicorn tells that protocol
        # only: count it until then.
        lost = websocket.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            try:
                lost(exc)
            finally:
                self._release()

        websocket.connection_lost = connection_lost  # type: ignore[method-assign]

    # -- helpers --------------------------------------------------------------------------
    def _asks_health(self) -> bool:
        try:
            path = httptools.parse_url(self.url).path
        except httptools.HttpParserInvalidURLError:
            return False
        return self.parser.get_method() in (b"GET", b"HEAD") and path in _HEALTH_PATHS

    def _arm(self) -> None:
        timeout = self.guard.header_timeout
        if self.health_only:
            timeout = min(timeout, HEALTH_TIMEOUT)
        self.deadline = self.loop.call_later(timeout, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            log.debug("connection from %s closed: no request within the deadline", self.client)
            self.transport.close()

    def _release(self) -> None:
        if self.counted_as is not None:
            self.guard.gate.release(self.counted_as)
            self.counted_as = None


def connection_guard(
    *,
    sockets_per_address: int,
    max_sockets: int,
    header_timeout: float,
    forwarded_allow_ips: Iterable[str] = (),
) -> ConnectionGuard:
    """The guard of ``trumps serve``: an address may hold twice its game sockets in
    connections (a game socket is one, and its pages and API requests need a few more),
    the process twice its game sockets, never past its file limit less the reserve."""
    gate = ConnGate(
        per_address=CONNECTIONS_PER_SOCKET * sockets_per_address,
        total=socket_budget(CONNECTIONS_PER_SOCKET * max_sockets),
        trusted=Trusted.of(forwarded_allow_ips),
    )
    return ConnectionGuard(gate, header_timeout)
