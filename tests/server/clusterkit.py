"""People at one table of a real service, for the end-to-end tests of faults: a ``Seat``
(one person's connections, a new one after each move between processes), ``play`` in turn,
and ``consistent``: every event anyone saw matches the stored game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.e2e import Client, Msg, ServerProc, connected

RULES = {"max_plies": 60}  # a short Svoi Kozyri duel: the game ends by itself


class Seat:
    """One person's connections (a new one after each move between processes)."""

    def __init__(self, client: Client, name: str) -> None:
        self.clients = [client]
        self.name = name
        self.table_id = ""

    @property
    def now(self) -> Client:
        return self.clients[-1]

    async def move_to(self, proc: ServerProc) -> Msg:
        """Connect again, to ``proc``, with the resume token: the seat's snapshot."""
        token = self.now.token
        client = await connected(proc.ws, self.name, token)
        self.clients.append(client)
        return await client.until(
            lambda m: m["type"] == "table_state" and m["table_id"] == self.table_id
        )

    def over(self) -> bool:
        return any(m["type"] == "game_over" for m in self.now.received)

    def latest(self) -> Msg:
        for m in reversed(self.now.received):
            if m.get("table_id") == self.table_id and m["type"] in ("event", "table_state"):
                return m
        raise AssertionError("no state yet")


def event_number(m: Msg) -> int:
    return int(m["number"] if m["type"] == "event" else m["event"])


def _move_after(top: int) -> Callable[[Msg], bool]:
    return lambda m: (
        (m["type"] == "event" and m["number"] > top and m["kind"] == "action")
        or m["type"] == "error"
    )


def _event_from(number: int) -> Callable[[Msg], bool]:
    return lambda m: m["type"] == "event" and m["number"] >= number


async def play(seats: list[Seat], moves: int) -> None:
    """The seats move in turn (first legal move) ``moves`` times, or to the game's end.

    Each move is answered to its mover (the event) and heard by the other before the next."""
    for _ in range(moves):
        states = [s.latest() for s in seats]
        if any(s.over() for s in seats):
            return
        top = max(event_number(st) for st in states)
        movers = [s for s, st in zip(seats, states, strict=True) if st["legal"]]
        if not movers:  # the game is over (its game_over may be on its way)
            return
        assert len(movers) == 1, [(event_number(st), st["legal"]) for st in states]
        [mover] = movers
        state = mover.latest()
        await mover.now.act(mover.table_id, state["legal"][0], event_number(state))
        got = await mover.now.until(_move_after(top))  # the move (not a return before it)
        assert got["type"] == "event", (mover.name, got)
        for other in seats:
            if other is not mover:
                await other.now.until(_event_from(int(got["number"])))


def consistent(seats: list[Seat], record: dict[str, Any]) -> None:
    """Every event anyone saw is the same wherever seen, and its moves are the record's."""
    seen: dict[int, tuple[str, int | None, str | None]] = {}
    for seat in seats:
        for client in seat.clients:
            for m in client.received:
                if m.get("table_id") != seat.table_id:
                    continue
                entries = m["log"] if m["type"] == "table_state" else [m]
                for e in entries if m["type"] in ("event", "table_state") else []:
                    # Svoi Kozyri's actions are public: every seat sees the same text.
                    key = (e["kind"], e["seat"], e["action"])
                    assert seen.setdefault(e["number"], key) == key, (
                        f"event {e['number']} was {seen[e['number']]}, then {key}"
                    )
    moves = [a for n, (kind, _, a) in sorted(seen.items()) if kind in ("action", "timeout") and a]
    assert moves == record["actions"][: len(moves)]


def started(m: Msg) -> bool:
    if m["type"] == "event":
        return bool(m["kind"] == "start")
    return m["type"] == "table_state" and any(e["kind"] == "start" for e in m["log"])
