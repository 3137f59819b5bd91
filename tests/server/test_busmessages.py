"""The typed messages between the processes of a service (``trumps.server.service.busmessages``):
a request keeps its protocol form across the bus, a message for a player crosses it encoded
once, and a batch that cannot be read is an error, not a half-read batch."""

from __future__ import annotations

import json

import msgspec
import pytest

from trumps.server.service.busmessages import (
    BusMessage,
    Cmd,
    Disconnected,
    Ended,
    Gone,
    LobbyChanged,
    Matched,
    Moved,
    Offer,
    Out,
    Rejoin,
    Released,
    decode_batch,
    encode_batch,
    raw,
)
from trumps.server.wire.protocol import Action, JoinTable, Rematch, decode_client, encode
from trumps.server.wire.wiretypes import ProtocolError


def _cmd(request: Action | JoinTable | Rejoin | Disconnected) -> Cmd:
    return Cmd(
        sender="A",
        conn=7,
        player=42,
        name=None,
        contributes=True,
        account=False,
        address="h-1",
        request=request,
    )


def test_every_message_comes_back_as_it_went() -> None:
    offer = Rematch(table_id="t-1", new_table_id="t-2", by="Rui")
    batch: list[BusMessage] = [
        _cmd(Action(table_id="t-1", action="play QS", expected=12)),
        _cmd(JoinTable(table_id="t-1", seat=1)),
        _cmd(Rejoin(table_id="t-1")),
        Gone(cmd=_cmd(Disconnected(table_id="t-1"))),
        Out(conn=3, message=raw(offer), table_id="t-1"),
        Offer(players=[1, 2], message=raw(offer)),
        Moved(table_id="t-1", node="B"),
        LobbyChanged(),
        Matched(conn=3, table_id="t-9", node="B"),
        Released(node="A"),
        Ended(sessions=[5, 6]),
    ]
    back = decode_batch(encode_batch(batch))
    assert [type(m) for m in back] == [type(m) for m in batch]
    for sent, got in zip(batch, back, strict=True):
        if isinstance(sent, Out | Offer):
            assert isinstance(got, Out | Offer)
            assert bytes(got.message) == bytes(sent.message)
        else:
            assert got == sent
    first = back[0]
    assert isinstance(first, Cmd) and first.request == Action(
        table_id="t-1", action="play QS", expected=12
    )


def test_a_message_for_a_player_crosses_encoded_once() -> None:
    """The player's JSON sits in the envelope as the owner encoded it (not as an escaped
    string), and the other process hands on exactly those bytes."""
    msg = Rematch(table_id="t-1", new_table_id="t-2", by="Zoë «1»")
    text = encode(msg)
    envelope = encode_batch([Out(conn=1, message=raw(msg))])
    assert text in envelope  # verbatim, not escaped inside a string
    assert json.loads(envelope)[0]["message"] == json.loads(text)
    (got,) = decode_batch(envelope)
    assert isinstance(got, Out) and bytes(got.message) == text


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b'[{"k": "cmd"}]',  # a command without its fields
        b'[{"k": "teleport", "node": "A"}]',  # no such message
        b'[{"k": "moved", "table_id": "t-1", "node": "B", "extra": 1}]',
        b'[{"k": "cmd", "sender": "A", "conn": 1, "player": null, "name": null, '
        b'"contributes": false, "account": false, "address": null, '
        b'"request": {"type": "hello", "protocol": 1}}]',  # not a table request
    ],
)
def test_a_batch_that_cannot_be_read_is_refused_whole(data: bytes) -> None:
    with pytest.raises((msgspec.DecodeError, msgspec.ValidationError)):
        decode_batch(data)


@pytest.mark.parametrize("kind", ["rejoin", "disconnected"])
def test_the_processes_own_requests_are_not_for_clients(kind: str) -> None:
    with pytest.raises(ProtocolError):
        decode_client(json.dumps({"type": kind, "table_id": "t-1"}))
