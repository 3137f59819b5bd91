"""What crosses the bus between the processes of one service, each as one typed message.

A request at a table keeps one shape from the socket to the table's owner: the protocol's
own message (``Action``, ``JoinTable`` …, ``TableRequest``), carried inside a ``Cmd`` with
who sent it, and handed to ``TableRequests.table_command`` unchanged, here or on the owner.
Two requests no client sends are made by the processes themselves: ``Rejoin`` (seat a
player again at a table that moved) and ``Disconnected`` (its connection closed).

A message for a connection on another process (``Out``, ``Offer``) carries the JSON its
client will read, encoded once by the table's owner (``msgspec.Raw``): the bus puts it
into its envelope as it is and the connection's process sends it on as it came, neither
decoding nor encoding it again.

The envelopes are msgspec Structs tagged by ``k``; a process decodes a whole batch
(``decode_batch``) into them, and one it cannot read is dropped with a line in the log
(the clients notice the gap in their event numbers and ``resync``).
"""

from __future__ import annotations

from typing import Final

import msgspec

from trumps.server.wire.protocol import MessageBase, ServerMessage, TableMessage, encode
from trumps.server.wire.wiretypes import Id

__all__ = [
    "BusMessage",
    "Cmd",
    "Disconnected",
    "Ended",
    "Gone",
    "LobbyChanged",
    "Matched",
    "Moved",
    "Offer",
    "Out",
    "Rejoin",
    "Released",
    "TableRequest",
    "decode_batch",
    "encode_batch",
    "raw",
]


class Rejoin(MessageBase, tag="rejoin", kw_only=True):
    """Seat the player again at a table that moved to another process (never from a client)."""

    table_id: Id


class Disconnected(MessageBase, tag="disconnected", kw_only=True):
    """The player's connection closed: its seat waits for its grace period (never from a
    client)."""

    table_id: Id


# Every request at a table, in the one form the table's owner is given it: a client's
# (``protocol.TableMessage``) or one of the processes' own.
TableRequest = TableMessage | Rejoin | Disconnected


class _Envelope(msgspec.Struct, tag_field="k", kw_only=True, forbid_unknown_fields=True):
    """Base of what crosses the bus: a JSON object tagged by ``k``."""


class Cmd(_Envelope, tag="cmd"):
    """A connection's request for a table another process owns, with what the owner needs
    to know of that connection (``RemoteConn``)."""

    sender: str  # the process holding the connection
    conn: int  # its id there
    player: int | None
    name: str | None  # None: no name chosen
    contributes: bool  # its client promised contributions to the deal
    account: bool  # whether it is an account (never its login)
    # What its address is counted under (``quota.address_key``, a hash: never the address).
    address: str | None
    request: TableRequest


class Out(_Envelope, tag="out"):
    """A message for connection ``conn`` of the receiving process, already encoded;
    ``table_id``: the table it now hears (a table's state), if any."""

    conn: int
    message: msgspec.Raw
    table_id: str | None = None


class Gone(_Envelope, tag="gone"):
    """``cmd`` reached a process that no longer has its table: its sender looks again."""

    cmd: Cmd


class Moved(_Envelope, tag="moved"):
    """Table ``table_id`` is owned by ``node`` now (it took it over)."""

    table_id: str
    node: str


class LobbyChanged(_Envelope, tag="lobby"):
    """The shared list of tables changed: read it again."""


class Offer(_Envelope, tag="offer"):
    """A message (a rematch, a table given up) for every connection of ``players``."""

    players: list[int]
    message: msgspec.Raw


class Matched(_Envelope, tag="matched"):
    """Connection ``conn`` of the receiving process, waiting for a quick match, has a table
    on ``node``."""

    conn: int
    table_id: str
    node: str


class Released(_Envelope, tag="released"):
    """``node`` stopped and let its tables go: take them now."""

    node: str


class Ended(_Envelope, tag="ended"):
    """These sessions ended (a logout, a password change): close their sockets."""

    sessions: list[int]


BusMessage = Cmd | Out | Gone | Moved | LobbyChanged | Offer | Matched | Released | Ended

_encoder: Final = msgspec.json.Encoder()
_decoder: Final = msgspec.json.Decoder(list[BusMessage])


def raw(msg: ServerMessage) -> msgspec.Raw:
    """``msg`` encoded once, to travel inside an envelope as it is."""
    return msgspec.Raw(encode(msg))


def encode_batch(messages: list[BusMessage]) -> bytes:
    return _encoder.encode(messages)


def decode_batch(data: bytes) -> list[BusMessage]:
    """A batch from the bus (raises ``msgspec.DecodeError`` or ``ValidationError``)."""
    return _decoder.decode(data)
