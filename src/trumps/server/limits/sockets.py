"""Who may hold a game socket: a cap per address, a cap for the whole process (under its
file limit, so that ``/healthz``, the database and new players' first requests always have
room) and a deadline for ``hello``.

One client opening hundreds of silent sockets used up a 256-file limit, after which
``/healthz`` and every newcomer were refused.  Now a socket beyond its address's share is
refused at the handshake (HTTP 403), one that says nothing within ``hello_timeout`` seconds
is closed, and the process never lets sockets take the files it keeps in reserve.

This gate sees a socket only once its handshake reached the app; every TCP connection,
before that and after, is counted and timed by ``conngate``.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass, field
from typing import Final

__all__ = ["FILE_RESERVE", "AddressCounts", "SocketGate", "socket_budget"]

FILE_RESERVE: Final = 64  # open files kept for everything but game sockets


def socket_budget(wanted: int) -> int:
    """``wanted`` sockets, or fewer if this process's file limit leaves less room."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - FILE_RESERVE))


class AddressCounts:
    """What is held per address and in all (``held``, ``count``, set by the dataclasses
    that use this): taking one and giving one back."""

    held: dict[str, int]
    count: int

    def hold(self, address: str) -> None:
        self.held[address] = self.held.get(address, 0) + 1
        self.count += 1

    def release(self, address: str) -> None:
        left = self.held.get(address, 0) - 1
        if left > 0:
            self.held[address] = left
        else:
            self.held.pop(address, None)
        self.count = max(0, self.count - 1)


@dataclass
class SocketGate(AddressCounts):
    """Counts the sockets held per address; ``admit`` says why one may not be opened."""

    per_address: int
    total: int
    held: dict[str, int] = field(default_factory=dict)
    count: int = 0

    def admit(self, address: str) -> str | None:
        """Count a new socket from ``address``, or return why it is refused (not counted)."""
        if self.count >= self.total:
            return "the server holds as many connections as it can"
        if self.held.get(address, 0) >= self.per_address:
            return f"at most {self.per_address} connections from one address"
        self.hold(address)
        return None
