"""A live table under random interleavings of everything that can happen to it.

A hypothesis state machine drives one ``Table`` (both games, a few rule options, people and
bots, timed or not) with joins, spectators, leaves, disconnects, legal and illegal actions,
stale event numbers, resignations, chat, resyncs, hints and time passing (``ManualTime``:
clocks run out, grace periods end), waiting after each step until the table has settled.
Bots decide at once (a seeded random legal move), so every run is exact and quick.

Invariants, checked on every message and after every step:

- one writer: the game only changes (``play``, ``resign``) inside the table's own task, and
  every table message is sent from it;
- the game only changes by legal actions: each successful ``play`` was legal just before,
  and the game's history is exactly those plays;
- every subscriber sees numbered events without gaps, from the snapshot it got on;
- no message to a seat or spectator shows a card it may not know: another seat's card that
  the game's view for that seat does not show (for a spectator: the public cards only), or
  another seat's discard.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from server.e2e import strings_in
from trumps.ai import Decision
from trumps.cards import RANKS, SUITS
from trumps.games import Game, new_game
from trumps.games.viewtypes import hidden_hand
from trumps.records import replay
from trumps.server.tables.bots import BotRequest, BotRunner, Kind
from trumps.server.tables.table import (
    Act,
    Chat,
    Disconnect,
    HintCmd,
    Join,
    Leave,
    ResignCmd,
    ResyncCmd,
    Table,
    TableConfig,
)
from trumps.server.tables.timing import ManualTime
from trumps.server.wire.protocol import (
    ChatPosted,
    Event,
    GameOver,
    Hint,
    ServerMessage,
    TableState,
    TimeControl,
)

# (game, players, rules, a fixed deal or None for the drawn seed)
GAMES: list[tuple[str, int, dict[str, Any] | None, int | None]] = [
    ("kozyri", 2, None, None),
    ("kozyri", 3, {"voluntary_pickup": True}, None),
    ("kozyri", 2, {"sixes_to_owner": False}, None),
    ("twentyfive", 2, None, None),
    ("twentyfive", 2, None, 4),  # seat 0 may rob the turn-up at once: a secret discard
    ("twentyfive", 3, {"joker": True}, None),
    ("twentyfive", 4, {"target": 15, "rob": "mandatory"}, None),
]
JUNK = ["zz", "take", "take 3", "AS", "10H", "rob", "rob AS", "trump S", "", "pass", "XX"]


class InstantBots(BotRunner):
    """Bots that decide at once: a seeded random legal action."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.rng = random.Random(seed)

    async def decide(
        self, request: BotRequest, *, table: str = "", kind: Kind = "people"
    ) -> Decision:
        return Decision(self.rng.choice(request.legal), "a random legal move")


class Recorder:
    """A connection: it checks each message as the table puts it."""

    def __init__(self, machine: TableMachine, name: str) -> None:
        self.machine, self.name = machine, name
        self.seat: int | None = None  # as its last snapshot said
        self.last: int | None = None  # the last event number it applied
        self.got: list[ServerMessage] = []

    def put_nowait(self, item: ServerMessage, /) -> None:
        self.got.append(item)
        self.machine.check_message(self, item)


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.conns: list[Recorder] = []
        self.problems: list[str] = []
        self.applied: list[str] = []

    # -- set-up ----------------------------------------------------------------------------
    @initialize(
        choice=st.sampled_from(GAMES),
        people=st.lists(st.booleans(), min_size=4, max_size=4),
        timed=st.booleans(),
        forfeit=st.booleans(),
        seed=st.integers(0, 2**16),
        fill=st.sampled_from([True, True, True, False]),
    )
    def open_table(
        self,
        *,
        choice: tuple[str, int, dict[str, Any] | None, int | None],
        people: list[bool],
        timed: bool,
        forfeit: bool,
        seed: int,
        fill: bool,
    ) -> None:
        game_id, players, rules, deal = choice
        self.game: Game = new_game(
            game_id, players=players, rules=rules, seed=seed if deal is None else deal
        )
        seats: list[str | None] = [None if people[s] else "random" for s in range(players)]
        seats[0] = None  # at least one person
        config = TableConfig(
            time_control=TimeControl(base=30, increment=1) if timed else None,
            on_timeout="forfeit" if forfeit else "move",
            grace=5,
            takeover="random",
        )
        self.time = ManualTime()
        self.table = Table(
            "t-machine",
            self.game,
            seats,
            config=config,
            runner=InstantBots(seed),
            time=self.time,
            bot_seed=seed,
        )
        self._guard_the_game()
        if fill:  # mostly, everyone sits down at once and the game starts
            for s, level in enumerate(seats):
                if level is None:
                    conn = self._new_conn(f"p{s + 1}")
                    self.table.submit(Join(conn, seat=s, name=f"P{s + 1}", player=s + 1))
        self.loop.run_until_complete(self._launch())

    def _new_conn(self, who: str) -> Recorder:
        conn = Recorder(self, f"c{len(self.conns)}/{who}")
        self.conns.append(conn)
        return conn

    async def _launch(self) -> None:
        self.table.launch()
        await self.table.settled()

    def _guard_the_game(self) -> None:
        """Wrap the game's two mutators: who calls them, and with what."""
        game, table = self.game, self.table
        play, resign = game.play, game.resign

        def guarded_play(action: str) -> None:
            self._one_writer("play")
            legal = game.legal_actions()
            play(action)  # raises for an illegal action: the table answers an error
            # A client may write a card another way ('10H' for 'TH'): the game keeps its own
            # spelling, which must be one of the legal actions.
            played = game.history[-1]
            if played not in legal:
                self.problems.append(f"the game played {played!r} (for {action!r}), not in {legal}")
            self.applied.append(played)

        def guarded_resign(seat: int, reason: str = "resigned") -> None:
            self._one_writer("resign")
            resign(seat, reason)

        game.play = guarded_play  # type: ignore[method-assign]
        game.resign = guarded_resign  # type: ignore[method-assign]
        self._task = lambda: table._task

    def _one_writer(self, what: str) -> None:
        current = asyncio.current_task(self.loop) if self.loop.is_running() else None
        if current is None or current is not self.table._task:
            self.problems.append(f"{what} outside the table's task ({current})")

    def settle(self) -> None:
        self.loop.run_until_complete(asyncio.wait_for(self.table.settled(), 10))

    def teardown(self) -> None:
        if hasattr(self, "table"):
            self.loop.run_until_complete(self.table.stop())
            if self.game.is_over:  # the record holds exactly the game played
                assert replay(self.table.record()) == self.game
        self.loop.close()

    # -- checks on every message -----------------------------------------------------------
    def check_message(self, conn: Recorder, msg: ServerMessage) -> None:
        if isinstance(msg, Event | TableState | GameOver | ChatPosted):
            self._one_writer(type(msg).__name__)
        if isinstance(msg, TableState):
            conn.seat, conn.last = msg.seat, msg.event
            self._no_hidden_cards(conn, msg)
        elif isinstance(msg, Event):
            if conn.last is None or msg.number != conn.last + 1:
                self.problems.append(f"{conn.name}: event {msg.number} after {conn.last}")
            conn.last = msg.number
            self._no_hidden_cards(conn, msg)
        elif isinstance(msg, Hint) and conn.seat is None:
            self.problems.append(f"{conn.name}: a hint for a spectator")

    def _no_hidden_cards(self, conn: Recorder, msg: Event | TableState) -> None:
        viewer = conn.seat
        data = msgspec.to_builtins(msg)
        data.pop("chat", None)  # what people typed (which may look like a card), not the game's
        # What the move closed (finished tricks and hand): public, and exactly the game's own
        # answer, although the next deal may hold those cards again.
        closed = data.pop("closed", None)
        if closed is not None and closed != msgspec.to_builtins(self.game.closed()):
            self.problems.append(f"{conn.name}: 'closed' is not the game's: {closed}")
        # A snapshot's log entries carry what each event's move closed, as the live events
        # did: finished tricks and hands hold only cards played so far (and each hand's
        # turn-up, which everyone saw), whatever the next deal holds.
        played = set(self.game.history)
        for entry in data.get("log", []):
            logged = entry.pop("closed", None)
            if logged is None:
                continue
            hands = [logged["hand"]] if isinstance(logged.get("hand"), dict) else []
            turnups = {h.get("turnup") for h in hands}
            extra = set(strings_in(logged)) - played - turnups
            cards = {
                c for c in extra if len(c) == 2 and c[0] in RANKS + "J" and c[1] in SUITS + "K"
            }
            if cards:
                self.problems.append(
                    f"{conn.name}: log entry {entry['number']} shows {sorted(cards)}"
                )
        entries = [*data.get("log", []), *([data] if isinstance(msg, Event) else [])]
        for entry in entries:  # a card played is public; another seat's discard is not
            action = entry.get("action")
            others = bool(action) and entry.get("seat") != viewer
            if others and self.game.public_action(action, viewer) != action:
                self.problems.append(f"{conn.name} (seat {viewer}) saw {action!r}")
            entry["action"] = None
        hands = self.game.to_json()["hands"]
        # What this recipient may know of each other hand: for a seat, what the game's own
        # view for that seat shows; for a spectator, the public cards only.
        if viewer is not None:
            own = self.game.view(viewer)
            allowed = {
                s: set(hidden_hand(own, s)["known"]) for s in range(len(hands)) if s != viewer
            }
        else:
            public = self.game.view(None)
            allowed = {s: set(hidden_hand(public, s)["known"]) for s in range(len(hands))}
        shown = data["view"].pop("hands")
        for s, hand in enumerate(shown):
            if s == viewer:
                if sorted(hand) != sorted(hands[s]):
                    self.problems.append(f"{conn.name}: a wrong own hand")
                continue
            if not isinstance(hand, dict) or set(hand["known"]) - allowed[s]:
                self.problems.append(f"{conn.name} (seat {viewer}) was shown hand {s}: {hand}")
        hidden = {c for s, hand in enumerate(hands) if s != viewer for c in hand} - {
            c for cards in allowed.values() for c in cards
        }
        leaked = hidden & set(strings_in(data))
        if leaked:
            self.problems.append(f"{conn.name} (seat {viewer}) was sent {sorted(leaked)}")

    @invariant()
    def nothing_went_wrong(self) -> None:
        if not hasattr(self, "table"):
            return
        assert self.problems == [], self.problems
        assert self.game.history == self.applied
        assert [e.number for e in self.table.events] == list(range(1, self.table.number + 1))

    # -- what happens ------------------------------------------------------------------------
    def _conn(self, i: int) -> Recorder:
        return self.conns[i % len(self.conns)]

    @rule(player=st.integers(1, 5), seat=st.none() | st.integers(-1, 4))
    def join(self, player: int, seat: int | None) -> None:
        conn = self._new_conn(f"p{player}")
        self.table.submit(Join(conn, seat=seat, name=f"P{player}", player=player))
        self.settle()

    @rule()
    def spectate(self) -> None:
        self.table.submit(Join(self._new_conn("watcher"), spectate=True))
        self.settle()

    @precondition(lambda self: self.conns)
    @rule(i=st.integers(0, 99), on_purpose=st.booleans())
    def go_away(self, i: int, on_purpose: bool) -> None:
        conn = self._conn(i)
        self.table.submit(Leave(conn) if on_purpose else Disconnect(conn))
        self.settle()

    @precondition(lambda self: self.conns)
    @rule(i=st.integers(0, 99), pick=st.integers(0, 99), times=st.integers(1, 8))
    def legal_action(self, i: int, pick: int, times: int) -> None:
        """Mostly from the connection of the seat to move (which may be stale or gone)."""
        movers = [c for c in self.conns if c.seat == self.game.current_player]
        conn = movers[i % len(movers)] if movers and i % 4 else self._conn(i)
        for _ in range(times):
            legal = self.game.legal_actions() if self.game.current_player is not None else []
            if not legal or conn.last is None:
                return
            self.table.submit(Act(conn, legal[pick % len(legal)], conn.last))
            self.settle()

    @precondition(lambda self: self.conns)
    @rule(i=st.integers(0, 99), action=st.sampled_from(JUNK), stale=st.integers(-3, 3))
    def doubtful_action(self, i: int, action: str, stale: int) -> None:
        """Junk, another seat's card, or a legal move with a wrong event number."""
        conn = self._conn(i)
        self.table.submit(Act(conn, action, max(0, (conn.last or 0) + stale)))
        self.settle()

    @precondition(lambda self: self.conns)
    @rule(i=st.integers(0, 99), seated=st.sampled_from([True, False, False, False]))
    def resign(self, i: int, seated: bool) -> None:
        """Now and then a player resigns; more often someone who holds no seat tries."""
        pool = [c for c in self.conns if (c.seat is not None) == seated] or self.conns
        self.table.submit(ResignCmd(pool[i % len(pool)]))
        self.settle()

    @precondition(lambda self: self.conns)
    @rule(i=st.integers(0, 99))
    def rob(self, i: int) -> None:
        """The seat to move robs the turn-up when it may (the discard is its secret)."""
        movers = [c for c in self.conns if c.seat == self.game.current_player]
        if self.game.current_player is None or not movers:
            return
        game = self.game  # an action the game hides from the others: a rob or a discard
        robs = [a for a in game.legal_actions() if game.public_action(a, None) != a]
        conn = movers[i % len(movers)]
        if robs and conn.last is not None:
            self.table.submit(Act(conn, robs[i % len(robs)], conn.last))
            self.settle()

    @precondition(lambda self: self.conns)
    @rule(i=st.integers(0, 99), text=st.sampled_from(["hi", "AS", "good game", "10H!"]))
    def chat(self, i: int, text: str) -> None:
        self.table.submit(Chat(self._conn(i), "someone", text))
        self.settle()

    @precondition(lambda self: self.conns)
    @rule(i=st.integers(0, 99), hint=st.booleans())
    def ask(self, i: int, hint: bool) -> None:
        conn = self._conn(i)
        self.table.submit(HintCmd(conn) if hint else ResyncCmd(conn))
        self.settle()

    @rule(seconds=st.sampled_from([0.5, 4.9, 5.0, 12.0, 31.0]))
    def time_passes(self, seconds: float) -> None:
        """Clocks run out and grace periods end (each timer fires at its own moment)."""
        self.time.advance(seconds)
        self.settle()

    @rule()
    def start(self) -> None:
        self.table.start()
        self.settle()


TableMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_a_live_table_keeps_its_invariants = TableMachine.TestCase


def test_a_card_written_another_way_is_played_as_the_game_spells_it() -> None:
    """Found by the machine: a client's '10H' plays the legal 'TH' (cards.parse_card); the
    game's history and the event say 'TH', and the machine's checks take it so."""
    m = TableMachine()
    m.open_table(
        choice=("twentyfive", 4, {"target": 15, "rob": "mandatory"}, None),
        people=[True, True, True, True],
        timed=False,
        forfeit=False,
        seed=8,
        fill=True,
    )
    written = None
    for _ in range(200):  # the people play their first legal card until a ten is legal
        mover = next(c for c in m.conns if c.seat == m.game.current_player)
        legal = m.game.legal_actions()
        tens = [a for a in legal if len(a) == 2 and a[0] == "T"]
        if tens:
            written = "10" + tens[0][1].lower()
            m.table.submit(Act(mover, written, mover.last or 0))
            m.settle()
            assert m.game.history[-1] == tens[0]
            assert m.table.events[-1].action == tens[0]
            break
        m.table.submit(Act(mover, legal[0], mover.last or 0))
        m.settle()
    assert written is not None
    m.nothing_went_wrong()
    m.teardown()
