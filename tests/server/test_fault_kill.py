"""Durable online play under ``kill -9`` (issue 10), over a real server on SQLite and
PostgreSQL.

Eight people play four two-person games on real WebSockets, each making a random legal move
the moment it is their turn.  While they play, the server is killed with SIGKILL several
times, each time after a random number of received events, and restarted on the same
database; the players come back with their resume tokens and play on until every game is
over.  Then every event any player ever saw must still be true: an event number never
changes its content (that would be a move taken back after players saw it), every snapshot
carries the table's whole log (also from before a restart), and the moves seen are exactly
the moves of the stored record, each game stored once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from websockets.exceptions import WebSocketException

from server.e2e import Client, Msg, ServerProc, hidden_cards_sent, run
from trumps.games import Game, new_game
from trumps.records import replay
from trumps.server.tables.projection import LOG_IN_SNAPSHOT
from trumps.store import SqlStore

Serve = Callable[..., ServerProc]
GAME_KINDS = {"start", "action", "timeout", "resign"}  # events that change the game
# Two games of each kind, with rules that keep a game of random moves to at most about 120
# moves (random Svoi Kozyri can otherwise run to thousands); Twenty-Five's joker brings in
# discards, which the opponent sees without the card.
TABLES: list[tuple[str, dict[str, Any]]] = [
    ("kozyri", {"max_plies": 120}),
    ("twentyfive", {"target": 60, "joker": True}),
    ("kozyri", {"max_plies": 120}),
    ("twentyfive", {"target": 60}),
]
GRACE = 600  # seconds: no takeover bot plays for anyone while the server is down
KILLS = 4  # the server is killed this many times, unless every game ends first …
MIN_KILLS = 3  # … and at least this many times
KILL_AFTER = (20, 120)  # received events (all players together) from a start to the kill
LIMIT = 90.0  # seconds the whole play may take before the test fails


class Faults:
    """Kills the server after a random number of events reached the players, then starts
    it again on the same database and port; ``life`` counts the restarts so far."""

    def __init__(self, server: ServerProc, seed: int) -> None:
        self.server = server
        self.rng = random.Random(seed)
        self.kills = 0
        self.life = 0
        self.up = asyncio.Event()  # the server answers
        self.up.set()
        self._died = asyncio.Event()
        self._left: int | None = None  # events until the next kill; None: no kill planned

    def arm(self) -> None:
        self._left = self.rng.randint(*KILL_AFTER)

    def saw_event(self) -> None:
        """A player received an event: perhaps the moment to kill the server, right now."""
        if self._left is None:
            return
        self._left -= 1
        if self._left <= 0:
            self._left = None
            self.up.clear()
            self.server.kill9()
            self.kills += 1
            self._died.set()

    async def restarts(self) -> None:
        """Start the server again after each kill (runs until cancelled)."""
        while True:
            await self._died.wait()
            self._died.clear()
            await asyncio.to_thread(self.server.start)
            self.life += 1
            if self.kills < KILLS:
                self.arm()
            self.up.set()


class Player(Client):
    """A person at one table who survives the server's deaths: it remembers in which life
    of the server each message arrived and comes back with its resume token."""

    def __init__(self, url: str, name: str, faults: Faults, seed: int) -> None:
        super().__init__(url)
        self.name, self.faults, self.rng = name, faults, random.Random(seed)
        self.table_id = ""
        self.seat = -1
        self.lives: list[int] = []  # the server's life at each message of ``received``
        self.over: Msg | None = None  # the game_over, if it reached this player
        self.gone_in: int | None = None  # the life in which the table was no longer running

    async def recv(self) -> Msg:
        msg = await super().recv()
        self.lives.append(self.faults.life)
        if msg["type"] == "event":
            self.faults.saw_event()
        return msg

    def latest(self) -> Msg:
        return next(
            m
            for m in reversed(self.received)
            if m.get("table_id") == self.table_id and m["type"] in ("event", "table_state")
        )

    def summary(self) -> str:
        """How this player's game ended, for a failure message."""
        events = sum(1 for m in self.received if m["type"] == "event")
        end = (
            f"game_over in life {self.lives[self.received.index(self.over)]}"
            if self.over is not None
            else f"found the table gone in life {self.gone_in}"
        )
        return f"{self.name}: {events} events, {end}"

    async def come_back(self) -> bool:
        """Reconnect once the server is up again; whether the table still runs."""
        while True:
            await self.faults.up.wait()
            await self.close()  # the dead connection
            try:
                await self.connect()
                welcome = await self.hello(self.name, self.token)
                if self.table_id in welcome["tables"]:
                    return True  # the table's snapshot follows
                # The game ended while the server was down (its last move stored as it
                # died): asked for, the table says how it ended.
                await self.send({"type": "spectate", "table_id": self.table_id})
                answer = await self.until(lambda m: m.get("table_id") == self.table_id)
            except (WebSocketException, OSError):
                continue  # the server died again meanwhile
            assert answer["type"] == "game_over", f"{self.name} came back to {answer}"
            self.gone_in, self.over = self.faults.life, answer
            return False


async def play(player: Player) -> None:
    """Make a random legal move whenever it is this player's turn, answering the newest
    event seen, until the game is over; a lost connection is picked up again."""
    msg: Msg | None = player.latest()  # from the seating: it may be to move already
    sent = False  # an action is on its way: wait for the game to change
    while True:
        if msg is None:
            try:
                msg = await player.recv()
            except (WebSocketException, OSError):
                sent = False  # that action was made or lost: the snapshot will tell
                if not await player.come_back():
                    return  # the game ended while the server was down
                continue
        assert msg["type"] != "error", f"{player.name} got {msg}"
        if msg.get("table_id") == player.table_id:
            if msg["type"] == "game_over":
                player.over = msg
                return
            if msg["type"] == "event" and msg["kind"] in GAME_KINDS:
                sent = False
            if msg["type"] in ("event", "table_state") and msg.get("legal") and not sent:
                number = msg["number"] if msg["type"] == "event" else msg["event"]
                # If the server is gone, the next receive notices.
                with contextlib.suppress(WebSocketException, OSError):
                    await player.act(player.table_id, player.rng.choice(msg["legal"]), number)
                sent = True
        msg = None


async def seat_everyone(server: ServerProc, faults: Faults) -> list[Player]:
    """Two players per table of ``TABLES``; returns once every game has started."""
    players: list[Player] = []
    for t, (game, rules) in enumerate(TABLES):
        pair = []
        for seat in (0, 1):
            player = Player(server.ws, f"P{t}{'ab'[seat]}", faults, seed=100 * t + seat)
            await player.connect()
            await player.hello(player.name)
            player.seat = seat
            pair.append(player)
        await pair[0].send(
            {
                "type": "create_table",
                "game": game,
                "rules": rules,
                "seats": ["human", "human"],
                "grace": GRACE,
            }
        )
        table_id = (await pair[0].expect("table_state"))["table_id"]
        await pair[1].send({"type": "join_table", "table_id": table_id, "seat": 1})
        for player in pair:
            player.table_id = table_id
        players += pair
    for player in players:
        await player.until(lambda m: m["type"] == "event" and m["kind"] == "start")
    return players


# ------------------------------------------------------------------------------- checks


@dataclass(frozen=True)
class Sighting:
    """One numbered event as one player received it: as an event or in a snapshot's log."""

    number: int
    kind: str
    seat: int | None
    action: str | None  # as shown to this player
    by_bot: bool
    where: str  # for people: who saw it, when and how


def sightings(player: Player) -> Iterator[Sighting]:
    for life, msg in zip(player.lives, player.received, strict=True):
        if msg.get("table_id") != player.table_id:
            continue
        who = f"{player.name} (seat {player.seat}) in server life {life}"
        if msg["type"] == "event":
            entries, how = [msg], "as an event"
        elif msg["type"] == "table_state":
            entries, how = msg["log"], f"in the log of the snapshot at event {msg['event']}"
        else:
            continue
        for e in entries:
            yield Sighting(
                e["number"], e["kind"], e["seat"], e["action"], e["by_bot"], f"{who} {how}"
            )


def numbers_changed(pair: list[Player], game: Game) -> list[str]:
    """Event numbers seen with different contents (compared as the public sees them): a
    move taken back after players saw it, or a number given out twice."""
    seen: dict[int, dict[str, Sighting]] = {}
    for player in pair:
        for s in sightings(player):
            public = None if s.action is None else game.public_action(s.action, None)
            content = f"{s.kind} of seat {s.seat}" + (f" {public!r}" if public else "")
            content += " by a bot" if s.by_bot else ""
            seen.setdefault(s.number, {}).setdefault(content, s)
    return [
        f"event {n} was taken back: it was "
        + "; then ".join(f"{content} ({s.where})" for content, s in seen[n].items())
        for n in sorted(seen)
        if len(seen[n]) > 1
    ]


def few(problems: list[str], shown: int = 4) -> list[str]:
    """The first problems of a kind, and how many more there are."""
    more = len(problems) - shown
    return problems[:shown] + ([f"... and {more} more like it"] if more > 0 else [])


def span(numbers: list[int]) -> str:
    if not numbers:
        return "no events"
    return f"events {numbers[0]}..{numbers[-1]} ({len(numbers)})"


def logs_cut(player: Player) -> list[str]:
    """Snapshots whose log is not the table's whole recent log up to the snapshot."""
    problems = []
    for life, msg in zip(player.lives, player.received, strict=True):
        if msg.get("table_id") != player.table_id or msg["type"] != "table_state":
            continue
        last = msg["event"]
        want = list(range(max(1, last - LOG_IN_SNAPSHOT + 1), last + 1))
        got = [e["number"] for e in msg["log"]]
        if got != want:
            problems.append(
                f"{player.name}'s snapshot at event {last} in server life {life} carries "
                f"{span(got)}, not {span(want)}"
            )
    return problems


def moves_differ(player: Player, record: Msg) -> list[str]:
    """Where the moves ``player`` saw, in event order, are not the stored record's moves,
    each made by the seat to move and shown to the player as the game shows it."""
    seen: dict[int, Sighting] = {}
    for s in sightings(player):
        seen.setdefault(s.number, s)
    last = max(seen, default=0)
    missing = [n for n in range(1, last + 1) if n not in seen]
    if missing:
        return [f"{player.name} never saw events {missing[:10]} (of {last})"]
    moves = [seen[n] for n in range(1, last + 1) if seen[n].kind in ("action", "timeout")]
    moves = [m for m in moves if m.action is not None]
    stored = record["actions"]
    # The game's last move can be made durable and the server killed before it is sent:
    # a player who then found the table over (``gone_in``, told by a game_over) saw the
    # record's moves up to there, and the rest is in its history (``table_problems``).
    missed_end = player.gone_in is not None and len(moves) < len(stored)
    if len(moves) != len(stored) and not missed_end:
        return [f"{player.name} saw {len(moves)} moves, the stored record has {len(stored)}"]
    game = replay({**record, "actions": [], "outcome": None, "finished": None})
    problems = []
    for ply, (move, action) in enumerate(zip(moves, stored[: len(moves)], strict=True)):
        mover = game.current_player
        shown = action if move.seat == player.seat else game.public_action(action, player.seat)
        if (move.seat, move.action) != (mover, shown):
            problems.append(
                f"move {ply + 1} (event {move.number}): {player.name} saw seat {move.seat} "
                f"play {move.action!r}; the record has seat {mover} play {action!r}"
            )
            break
        game.play(action)
    return problems


async def stored_games(db_url: str) -> tuple[dict[str, list[int]], list[str]]:
    """The stored finished game ids per table id, and the tables still stored as running."""
    store = SqlStore(db_url)
    try:
        finished: dict[str, list[int]] = {}
        for summary in await store.finished_games(limit=200):
            finished.setdefault(summary.table_id or "", []).append(summary.id)
        running = [t.table_id for t in await store.running_tables()]
        return finished, running
    finally:
        await store.close()


async def table_problems(
    pair: list[Player], game_id: str, rules: dict[str, Any], ids: list[int], db_url: str
) -> list[str]:
    """Everything wrong with what the two players of a table saw, given the ids of the
    finished games stored for the table."""
    problems = few(numbers_changed(pair, new_game(game_id, players=2, rules=rules, seed=0)))
    for player in pair:
        problems += few(logs_cut(player))
    if len(ids) != 1:
        problems.append(f"stored {len(ids)} times as a finished game: ids {ids}")
        problems += [
            f"{p.name} found it no longer running after restart {p.gone_in}: "
            "the running game was lost"
            for p in pair
            if not ids and p.gone_in is not None
        ]
        return problems
    store = SqlStore(db_url)
    try:
        record = await store.get_game(ids[0])
        for player in pair:  # the game a player found over is in its history
            mine = await store.finished_games(player=int(player.player_id or 0))
            if player.gone_in is not None and ids[0] not in [g.id for g in mine]:
                problems.append(f"{player.name}'s history lacks game {ids[0]}")
    finally:
        await store.close()
    for player in pair:
        differ = moves_differ(player, record)
        problems += differ
        if not differ:  # the positions are known: nothing hidden was shown
            problems += few(
                hidden_cards_sent(player.received, player.table_id, player.seat, record)
            )
        if player.over is not None and player.over["record_id"] != ids[0]:
            problems.append(f"{player.name}'s game_over names another record: {player.over}")
    return problems


# --------------------------------------------------------------------------------- test


def test_kill_9_at_random_moments_takes_back_no_move_and_loses_no_event(
    serve: Serve, db_url: str
) -> None:
    """Issue 10: an event reaches a player only once its move is stored, and the numbered
    log survives a restart, however often and whenever the server is killed."""
    server = serve(seed=5150)

    async def main() -> None:
        faults = Faults(server, seed=10)
        players = await seat_everyone(server, faults)
        faults.arm()
        async with asyncio.timeout(LIMIT), asyncio.TaskGroup() as outer:
            restarts = outer.create_task(faults.restarts())
            async with asyncio.TaskGroup() as games:
                for player in players:
                    games.create_task(play(player))
            restarts.cancel()
        finished, running = await stored_games(db_url)
        problems = [f"tables still stored as running: {running}"] if running else []
        tables = [players[i : i + 2] for i in range(0, len(players), 2)]
        stray = sorted(set(finished) - {pair[0].table_id for pair in tables})
        if stray:
            problems.append(f"finished games of unknown tables: {stray}")
        for pair, (game_id, rules) in zip(tables, TABLES, strict=True):
            table_id = pair[0].table_id
            ids = finished.get(table_id, [])
            here = await table_problems(pair, game_id, rules, ids, db_url)
            problems += [f"table {table_id} ({game_id}): {p}" for p in here]
        assert not problems, f"after {faults.kills} kills:\n" + "\n".join(problems)
        assert faults.kills >= MIN_KILLS, (
            f"every game ended after {faults.kills} kills: the test needs longer games; "
            + "; ".join(player.summary() for player in players)
        )

    run(main)
