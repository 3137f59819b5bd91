"""``trumps connect`` words the seat events as what happened (issue 11, part 2): a player
who lost the connection and is not back within the grace period is *away* (a bot plays
until they come back); a player who left on purpose *left* (a bot plays the seat for good),
in the log and on the seat, live and after a snapshot.

A real table (``trumps.server.tables.table.Table`` on manual time) makes the events; what it sends
the other player goes through JSON, as on the wire, into the client's model, and the log
and seats are read as the screen shows them."""

from __future__ import annotations

import asyncio
import json

import msgspec

from trumps.games import new_game
from trumps.server.tables.table import Disconnect, Join, Leave, ResyncCmd, Table, TableConfig
from trumps.server.tables.timing import ManualTime
from trumps.server.wire.protocol import ServerMessage
from trumps.tui.connect.model import ClientState, Msg, TableModel
from trumps.tui.connect.text import feed_text, seats_text

GRACE = 20.0


class Inbox(asyncio.Queue[ServerMessage]):
    """A connection's outbox; ``wire`` takes what arrived, as the client would read it."""

    def wire(self) -> list[Msg]:
        out: list[Msg] = []
        while not self.empty():
            out.append(json.loads(msgspec.json.encode(self.get_nowait())))
        return out


SEAT_KINDS = ("join", "leave", "disconnect", "takeover", "return")


def seat_events(t: TableModel, seat: int) -> list[str]:
    """The log's lines about ``seat``'s comings and goings, without their event numbers."""
    return [
        feed_text(t, item).plain.split(maxsplit=1)[1]
        for item in t.feed
        if item.kind == "event"
        and item.data.get("kind") in SEAT_KINDS
        and item.data.get("seat") == seat
    ]


def seat_line(t: TableModel, seat: int) -> str:
    return seats_text(t).plain.splitlines()[seat]


def without_seats(msgs: list[Msg]) -> list[Msg]:
    """The events as a server that sends no ``seats`` with them would (the client then
    keeps the seats' state from the events' kinds)."""
    return [{k: v for k, v in m.items() if k != "seats"} for m in msgs]


def the_story(strip_seats: bool = False) -> tuple[ClientState, list[Msg], Msg]:
    """Ana and Rui play Svoi Kozyri; Rui loses the connection past the grace period, comes
    back, then leaves on purpose.  Ana's client is fed everything Ana's connection heard,
    in the order it heard it; returned: her state, the messages, and a fresh snapshot."""

    async def main() -> tuple[list[list[Msg]], Msg]:
        time = ManualTime()
        game = new_game("kozyri", players=2, seed=3)
        config = TableConfig(grace=GRACE, takeover="random")
        table = Table("t-1", game, [None, None], config=config, time=time, bot_seed=1)
        ana, rui = Inbox(), Inbox()
        table.submit(Join(ana, seat=0, name="Ana", player=1))
        table.submit(Join(rui, seat=1, name="Rui", player=2))
        table.launch()
        await table.settled()
        assert table.started
        steps: list[list[Msg]] = [ana.wire()]
        table.submit(Disconnect(rui))
        await table.settled()
        time.advance(GRACE)
        await table.settled()
        steps.append(ana.wire())  # disconnect, takeover
        again = Inbox()
        table.submit(Join(again, name="Rui", player=2))
        await table.settled()
        steps.append(ana.wire())  # return
        table.submit(Leave(again))
        await table.settled()
        steps.append(ana.wire())  # leave, takeover
        table.submit(ResyncCmd(ana))
        await table.settled()
        (snapshot,) = ana.wire()
        await table.stop()
        return steps, snapshot

    steps, snapshot = asyncio.run(asyncio.wait_for(main(), 30))
    state = ClientState()
    fed: list[Msg] = []
    for i, msgs in enumerate(steps):
        for m in without_seats(msgs) if strip_seats and i else msgs:
            state.apply(m)
            fed.append(m)
    return state, fed, snapshot


def check(strip_seats: bool) -> None:
    state, fed, snapshot = the_story(strip_seats)
    kinds = [m.get("kind") for m in fed if m.get("type") == "event" and m.get("seat") == 1]
    seat_kinds = [k for k in kinds if k != "action"]
    assert seat_kinds == ["join", "disconnect", "takeover", "return", "leave", "takeover"], kinds
    t = state.tables["t-1"]
    assert seat_events(t, 1) == [
        "Rui sits down.",
        "Rui lost the connection.",
        "Rui is away: a bot plays until they come back.",
        "Rui reconnected.",
        "Rui left the table.",
        "Rui left; a bot plays the seat.",
    ]
    shown = seat_line(t, 1)
    assert "left (a bot plays)" in shown and "away" not in shown, shown

    # A client that opens the table now (a snapshot: the seats and the log) says the same.
    fresh = ClientState()
    fresh.apply(snapshot)
    again = fresh.tables["t-1"]
    assert seat_events(again, 1) == seat_events(t, 1)
    assert "left (a bot plays)" in seat_line(again, 1)


def test_away_after_a_lost_connection_and_left_after_leaving() -> None:
    check(strip_seats=False)


def test_the_seats_state_follows_the_events_when_they_carry_no_seats() -> None:
    check(strip_seats=True)


def test_a_seat_away_past_the_grace_period_says_away_not_left() -> None:
    """Between the takeover after a lost connection and the return, the seat says away."""
    _, fed, _ = the_story()
    partial = ClientState()
    for m in fed:
        partial.apply(m)
        if m.get("type") == "event" and m.get("kind") == "takeover":
            break
    shown = seat_line(partial.tables["t-1"], 1)
    assert "away: a bot plays" in shown and "left" not in shown, shown
