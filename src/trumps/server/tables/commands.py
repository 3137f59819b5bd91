"""The commands a live table consumes, in order, from its queue (``trumps.server.tables.table``).

Connections' requests (``ConnCommand`` subclasses, answered to that connection) come from the
hub; bot decisions, timer expiries and ``Start``/``Stop`` come from the table itself.  A
command is a plain frozen value: all the work happens in the table's one writer task.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeAlias

from trumps.server.wire.protocol import ServerMessage

__all__ = [
    "Act",
    "BotMove",
    "Chat",
    "Command",
    "ConnCommand",
    "ContinueCmd",
    "ContributeCmd",
    "Disconnect",
    "Expire",
    "GraceOver",
    "HintCmd",
    "Join",
    "Leave",
    "Outbox",
    "ResignCmd",
    "ResyncCmd",
    "Start",
    "Stop",
    "Subscriber",
    "TakebackAnswerCmd",
    "TakebackCmd",
    "Timeout",
]


class Outbox(Protocol):
    """Where a table puts the messages for one connection."""

    def put_nowait(self, item: ServerMessage, /) -> None: ...


Subscriber: TypeAlias = Outbox


@dataclass(frozen=True)
class ConnCommand:
    """A request of one connection, answered (or refused) to that connection."""

    conn: Outbox


@dataclass(frozen=True)
class Join(ConnCommand):
    """Subscribe ``conn``: sit in ``seat`` (a person's seat; None = any open one, or the one
    ``player`` already owns), or spectate when ``spectate``.  ``player`` identifies the person
    across connections; without it the connection itself is the owner."""

    seat: int | None = None
    name: str | None = None
    player: int | None = None
    spectate: bool = False
    again: bool = False  # seated again after the table moved: never over a newer connection
    account: bool = False  # the person has an account (a guest may not sit at a rated table)

    def __post_init__(self) -> None:
        # Old call style Join(conn) means watching; Join(conn, seat=k) means sitting.
        if self.seat is None and self.player is None and self.name is None:
            object.__setattr__(self, "spectate", True)


@dataclass(frozen=True)
class Leave(ConnCommand):
    """``conn`` leaves on purpose: its seat opens (a running game goes on with a bot)."""


@dataclass(frozen=True)
class Disconnect(ConnCommand):
    """``conn`` is gone without leaving: its seat waits ``grace`` seconds for the owner."""


@dataclass(frozen=True)
class Act(ConnCommand):
    """``conn`` plays ``action``; ``expected`` is the last event number it has seen."""

    action: str
    expected: int


@dataclass(frozen=True)
class ResignCmd(ConnCommand):
    """``conn`` resigns for its seat."""


@dataclass(frozen=True)
class ContinueCmd(ConnCommand):
    """``conn``'s player has read the summary of hand ``hand``."""

    hand: int


@dataclass(frozen=True)
class ResyncCmd(ConnCommand):
    """``conn`` asks for a fresh snapshot."""


@dataclass(frozen=True)
class Chat(ConnCommand):
    """``conn`` says ``text`` (already cleaned) as ``name`` (None: no name chosen)."""

    name: str | None
    text: str


@dataclass(frozen=True)
class ContributeCmd(ConnCommand):
    """``conn`` gives its seat's random value for the deal (docs/fairness.md)."""

    value: str


@dataclass(frozen=True)
class HintCmd(ConnCommand):
    """``conn`` asks what the strongest bot would play for its seat."""


@dataclass(frozen=True)
class TakebackCmd(ConnCommand):
    """``conn``'s player takes back their last move (against the computer), or asks the
    other people at the table to let them (docs/protocol.md#takeback)."""


@dataclass(frozen=True)
class TakebackAnswerCmd(ConnCommand):
    """``conn``'s player accepts (or refuses) the take-back another player asked for."""

    accept: bool


@dataclass(frozen=True)
class BotMove:
    """A bot's decision for ``seat``, made when the table was at event ``expected``."""

    seat: int
    action: str
    expected: int


@dataclass(frozen=True)
class GraceOver:
    """The grace period of ``seat`` (started as its ``epoch``-th absence) has run out."""

    seat: int
    epoch: int


@dataclass(frozen=True)
class Timeout:
    """``seat``'s clock should have run out at event ``expected``."""

    seat: int
    expected: int


@dataclass(frozen=True)
class Expire:
    """The table may be given up (``reason``: ``idle`` or ``not_started``), if it still is."""

    reason: str


@dataclass(frozen=True)
class Start:
    """Start the game if every person's seat is taken (a bot-only table starts on this)."""


@dataclass(frozen=True)
class Stop:
    """End the table's task."""


Command: TypeAlias = (
    Join
    | Leave
    | Disconnect
    | Act
    | ResignCmd
    | ContinueCmd
    | ResyncCmd
    | Chat
    | HintCmd
    | TakebackCmd
    | TakebackAnswerCmd
    | ContributeCmd
    | BotMove
    | GraceOver
    | Timeout
    | Start
    | Expire
    | Stop
)
