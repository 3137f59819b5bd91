"""A host of games against the computer that needs no server (issue 28): one person in
seat 0, bots in the other seats, speaking the server's protocol (docs/protocol.md) in plain
dictionaries: the messages a client sends go in (``LocalHost.handle``), the messages the
server would send come out, built from each seat's view as the server builds them.

It sets no timers of its own: ``LocalHost.bot_due()`` says how long from now the next bot
move waits (the table's pace, docs/protocol.md#pacing, read on the clock it is given) and
``LocalHost.bot_move()`` makes it, so that whoever drives it (the page's Web Worker, a
test) owns the waiting.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

from trumps.ai import BOTS, Bot, Decision, level_limits, make_bot
from trumps.errors import IllegalAction, InvalidAction, TrumpsError
from trumps.games import GAMES, Game, new_game
from trumps.games.base import Why
from trumps.games.viewtypes import View
from trumps.host.archive import now_iso, replay_json, summary_of
from trumps.host.notes import PlyNotes, shown_action, shown_why, why_not_for
from trumps.host.pacing import HINT_LEVEL, PACES, pace_delay, seat_names
from trumps.host.takeback import kept_after_takeback, takeback_refusal
from trumps.records import play_recorded, record_of

__all__ = ["PROTOCOL", "LocalHost", "LocalTable"]

log = logging.getLogger("trumps.host")

PROTOCOL: Final = 1
Msg = dict[str, Any]
GAME_KINDS: Final = frozenset({"start", "action", "resign", "timeout", "takeback"})
LOG_IN_SNAPSHOT: Final = 300  # as the server: the most recent events a snapshot carries
ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a table's id (docs/protocol.md)
SAVED_VERSION: Final = 1  # the form of ``LocalHost.save``


def _is_int(value: object) -> TypeGuard[int]:
    """A JSON integer (not a boolean, a float or text)."""
    return isinstance(value, int) and not isinstance(value, bool)


def error(code: str, message: str, table_id: str | None = None, why: Why | None = None) -> Msg:
    return {
        "type": "error", "code": code, "message": message, "table_id": table_id,
        "why": None if why is None else shown_why(why), "rule": None,
    }  # fmt: skip


@dataclass
class _Entry:
    """One numbered event of the table (for the snapshot's log and take-backs)."""

    number: int
    kind: str
    seat: int | None
    action: str | None
    by_bot: bool
    ply: int | None


@dataclass
class LocalTable:
    """One game against bots: the person in seat ``me``, a bot of ``levels[s]`` elsewhere."""

    table_id: str
    game: Game
    levels: list[str | None]
    name: str | None
    bot_pace: str = "normal"
    bot_time: float | None = None  # a bot's move at most this long (None: its level's own)
    bot_seed: int | None = None
    me: int = 0
    now: Callable[[], float] = time.monotonic
    events: list[_Entry] = field(default_factory=list)
    _notes: PlyNotes = field(default_factory=PlyNotes)
    _bots: dict[str, Bot] = field(default_factory=dict)
    _rng: random.Random = field(init=False)
    _pace_rng: random.Random = field(default_factory=random.Random)
    _moved_at: float = 0.0  # when the latest game event happened
    _delay: float | None = None  # the pace's wait after the latest move, once drawn
    _read: int = 0  # the latest hand whose summary the person said they read (``continue``)
    started_at: str | None = None  # when it was dealt (ISO 8601), for its record
    record_id: int | None = None  # once over: the id its record is kept under
    wall: Callable[[], float] = time.time  # the time of day, for the record's id
    _finished: Msg | None = None  # the finished game to keep, until ``take_finished``

    def __post_init__(self) -> None:
        self._rng = random.Random(self.bot_seed)

    # -- queries -----------------------------------------------------------------------
    @property
    def number(self) -> int:
        return self.events[-1].number if self.events else 0

    @property
    def started(self) -> bool:
        return any(e.kind == "start" for e in self.events)

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    def seats(self) -> list[Msg]:
        names = seat_names(
            self.levels, [self.name if s == self.me else None for s in range(len(self.levels))]
        )
        return [
            {
                "seat": s,
                "name": names[s],
                "bot": level,
                "taken": True,
                "connected": True,
                "away": False,
                "left": False,
            }
            for s, level in enumerate(self.levels)
        ]

    def _legal(self, seat: int) -> list[str]:
        if not self.started or self.over or self.game.current_player != seat:
            return []
        return self.game.legal_actions()

    def _seen(self, seat: int) -> tuple[View, list[str], dict[str, Msg]]:
        view, legal = self.game.view(seat), self._legal(seat)
        why = {a: shown_why(w) for a, w in why_not_for(self.game, seat, view, legal).items()}
        return view, legal, why

    def _refusal(self) -> tuple[str, str] | None:
        return takeback_refusal(
            seat=self.me, rated=False, started=self.started, over=self.over, asked=None,
            events=self.events, notes=self._notes.of(self.game), plies=len(self.game.history),
        )  # fmt: skip

    def _outcome(self) -> Msg | None:
        o = self.game.outcome
        if o is None:
            return None
        return {
            "winners": list(o.winners),
            "losers": list(o.losers),
            "draw": o.draw,
            "reason": o.reason,
        }

    def snapshot(self) -> Msg:
        """The ``table_state`` for the person."""
        view, legal, why = self._seen(self.me)
        notes = self._notes.of(self.game)
        log = []
        for e in self.events[-LOG_IN_SNAPSHOT:]:
            note = notes[e.ply] if e.ply is not None and e.ply < len(notes) else None
            log.append({
                "number": e.number, "kind": e.kind, "seat": e.seat,
                "action": shown_action(self.game, e.action, e.seat, self.me), "by_bot": e.by_bot,
                "closed": note.closed if note else None,
                "next_hand": note.next_hand if note else None, "took": note.took if note else None,
            })  # fmt: skip
        return {
            "type": "table_state", "table_id": self.table_id, "game": self.game.game_id,
            "rules": self.game.rules, "seats": self.seats(), "seat": self.me, "event": self.number,
            "view": view, "legal": legal, "to_move": self._to_move(), "why_not": why,
            "clocks": None, "private": False, "time_control": None, "log": log, "chat": [],
            "outcome": self._outcome(), "record_id": self.record_id, "bot_pace": self.bot_pace,
            "spectators": {"count": 0, "names": []}, "commitment": None, "contributed": False,
            "dealt": self.started, "rated": False, "takeback": None,
            "can_take_back": self._refusal() is None,
        }  # fmt: skip

    def _to_move(self) -> int | None:
        return self.game.current_player if self.started else None

    # -- changes -----------------------------------------------------------------------
    def emit(self, kind: str, *, seat: int | None = None, action: str | None = None,
             by_bot: bool = False, ply: int | None = None) -> list[Msg]:  # fmt: skip
        """The event ``kind`` as the person is told it, and the game's end if it came."""
        self.events.append(_Entry(self.number + 1, kind, seat, action, by_bot, ply))
        if kind in GAME_KINDS:
            self._moved_at, self._delay = self.now(), None
        view, legal, why = self._seen(self.me)
        out: list[Msg] = [{
            "type": "event", "table_id": self.table_id, "number": self.number, "kind": kind,
            "seat": seat, "action": shown_action(self.game, action, seat, self.me),
            "by_bot": by_bot, "view": view, "legal": legal, "to_move": self._to_move(),
            "why_not": why, "clocks": None,
            "seats": None if kind in GAME_KINDS else self.seats(),
            "closed": self.game.closed() if ply is not None else None,
            "takeback": None, "can_take_back": self._refusal() is None,
        }]  # fmt: skip
        if kind in GAME_KINDS and self.over:
            if self.record_id is None:
                self._finish()
            out.append(
                {
                    "type": "game_over",
                    "table_id": self.table_id,
                    "outcome": self._outcome(),
                    "record_id": self.record_id,
                }
            )
        return out

    def _finish(self) -> None:
        """The game is over: its record, under an id of its own on this device (the time
        of day in milliseconds: one person's games never end in the same one)."""
        names = [s["name"] or "Guest" for s in self.seats()]  # stored data: as the server's
        record = record_of(self.game, names, started=self.started_at, finished=now_iso())
        self.record_id = int(self.wall() * 1000)
        self._finished = {
            "id": self.record_id, "record": record,
            "summary": summary_of(self.record_id, self.table_id, record, self.me),
        }  # fmt: skip

    def take_finished(self) -> Msg | None:
        """The finished game to keep (``{"id", "record", "summary"}``), once."""
        finished, self._finished = self._finished, None
        return finished

    def start(self) -> list[Msg]:
        self.started_at = now_iso()
        return [self.snapshot(), *self.emit("join", seat=self.me), *self.emit("start")]

    def act(self, action: str, expected: int) -> list[Msg]:
        """The person's ``action``, or an error that changes nothing."""
        if self.over:
            return [error("game_over", "the game at this table has ended", self.table_id)]
        moved = max((e.number for e in self.events if e.kind in GAME_KINDS), default=0)
        if not moved <= expected <= self.number:
            said = (
                f"you saw event {expected}; the game changed at event {moved}"
                if expected < moved
                else f"event {expected} has not happened; the latest is {self.number}"
            )
            return [error("stale_event", said, self.table_id)]
        if not self.started or self.game.current_player != self.me:
            return [error("not_your_turn", f"seat {self.me} is not the one to move", self.table_id)]
        try:
            self.game.play(action)
        except InvalidAction as e:
            return [error("invalid_action", str(e), self.table_id)]
        except IllegalAction as e:
            why = self.game.why_not(action, self.me)
            return [error("illegal_action", str(e), self.table_id, why)]
        return self.emit("action", seat=self.me, action=action, ply=len(self.game.history) - 1)

    def bot_seat(self) -> int | None:
        """The bot seat to move, if a bot is to move."""
        if not self.started or self.over:
            return None
        seat = self.game.current_player
        return seat if seat is not None and self.levels[seat] is not None else None

    def bot_due(self) -> float | None:
        """Seconds from now until the next bot move is due (None: no bot is to move)."""
        if self.bot_seat() is None:
            return None
        if self._delay is None:
            closed = self.game.closed() if self.game.history else None
            hand = (closed or {}).get("hand")
            unread = hand is not None and hand.get("hand", 0) > self._read
            self._delay = pace_delay(
                PACES[self.bot_pace], closed, over=self.over, unread=unread, rng=self._pace_rng
            )
        return max(0.0, self._moved_at + self._delay - self.now())

    def read(self, hand: int) -> None:
        """The person read the summary of ``hand``: the next hand waits only the pace."""
        self._read = max(self._read, hand)
        self._delay = None

    def hint(self) -> list[Msg]:
        """The strongest bot's move from the person's own view, and why (docs/protocol.md#hint)."""
        if self.over or not self.started or self.game.current_player != self.me:
            return [error("not_your_turn", f"seat {self.me} is not the one to move", self.table_id)]
        try:
            decision = self._decide(HINT_LEVEL, self.me)
        except Exception:  # as the server: no hint this time, nothing changed
            log.exception("%s: the hint failed", self.table_id)
            return [error("internal_error", "no hint this time", self.table_id)]
        why = decision.explain
        return [{
            "type": "hint", "table_id": self.table_id, "event": self.number,
            "action": decision.action,
            "why": None if why is None else {"code": why.code, "numbers": dict(why.numbers)},
            "reasoning": decision.reasoning, "values": decision.values,
        }]  # fmt: skip

    def _decide(self, level: str, seat: int) -> Decision:
        bot = self._bots.get(level) or self._bots.setdefault(
            level, make_bot(level, self.game.game_id)
        )
        limits = level_limits(self.game.game_id, level, self.game.players)
        if self.bot_time is not None and limits.time is not None and limits.time > self.bot_time:
            limits = dataclasses.replace(limits, time=self.bot_time)
        view, legal = self.game.view(seat), self.game.legal_actions()
        return bot.decide(view, legal, limits, random.Random(self._rng.getrandbits(64)))

    def bot_move(self) -> list[Msg]:
        """The bot to move decides from its seat's view and plays."""
        seat = self.bot_seat()
        if seat is None:
            return []
        level = self.levels[seat]
        assert level is not None
        legal = self.game.legal_actions()
        try:
            action = self._decide(level, seat).action
        except Exception:  # as the server: a bot that fails plays a legal move
            log.exception("%s: the %s bot failed; playing a legal move", self.table_id, level)
            action = legal[0]
        self.game.play(action)
        return self.emit(
            "action", seat=seat, action=action, by_bot=True, ply=len(self.game.history) - 1
        )

    def resign(self) -> list[Msg]:
        if self.over:
            return [error("game_over", "the game at this table has ended", self.table_id)]
        if not self.started:
            return [
                error("not_your_turn", "the game has not started; leave instead", self.table_id)
            ]
        self.game.resign(self.me)
        return self.emit("resign", seat=self.me)

    def take_back(self) -> list[Msg]:
        """The person's last move and everything after it undone (against bots: at once)."""
        refusal = self._refusal()
        if refusal is not None:
            return [error(*refusal, self.table_id)]
        kept = kept_after_takeback(self.events, self.me)
        assert kept is not None
        undone = self.game.history[kept]
        while len(self.game.history) > kept:
            self.game.undo()
        for e in self.events:  # their events no longer add an action to the record
            if e.ply is not None and e.ply >= kept:
                e.ply = None
        return self.emit("takeback", seat=self.me, action=undone)


class LocalHost:
    """The protocol's messages in and out for one person's games against the computer."""

    def __init__(
        self,
        *,
        seed: int | None = None,
        bot_time: float | None = None,
        now: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.name: str | None = None
        self.table: LocalTable | None = None
        self.seed, self.bot_time, self.now, self.wall = seed, bot_time, now, wall
        self._count = 0

    def handle(self, msg: Msg) -> list[Msg]:
        """The answers to one message of the protocol; bad input gets one error and changes
        nothing (never an exception)."""
        kind = msg.get("type")
        if kind == "hello":
            name = msg.get("name")
            self.name = name if isinstance(name, str) else None
            held = self.table if self.table is not None and not self.table.over else None
            if held is not None:
                held.name = self.name
            welcome = {"type": "welcome", "player_id": "local", "name": self.name, "resume_token": "local",
                       "protocol": PROTOCOL, "account": None, "tables": [held.table_id] if held else []}  # fmt: skip
            # As the server: a seat held comes back with its table_state after the welcome.
            return [welcome] if held is None else [welcome, held.snapshot()]
        if kind == "ping":
            nonce = msg.get("nonce")
            return [{"type": "pong", "nonce": nonce if _is_int(nonce) else None}]
        if kind == "play_computer":
            return self._play_computer(msg)
        table, table_id = self.table, msg.get("table_id")
        if not isinstance(table_id, str) or not ID.fullmatch(table_id):
            return [error("bad_field", "'table_id' must be a table's id")]
        if table is None or table_id != table.table_id:
            return [error("no_such_table", "there is no such table", table_id)]
        if kind == "action":
            action, expected = msg.get("action"), msg.get("expected")
            if not isinstance(action, str) or not _is_int(expected):
                return [
                    error(
                        "bad_field",
                        "an action needs 'action' (text) and 'expected' (an event number)",
                        table.table_id,
                    )
                ]
            return table.act(action, expected)
        if kind == "resign":
            return table.resign()
        if kind == "takeback":
            return table.take_back()
        if kind == "resync":
            return [table.snapshot()]
        if kind == "hint":
            return table.hint()
        if kind == "continue":
            hand = msg.get("hand")
            if not _is_int(hand):
                return [error("bad_field", "'hand' must be a hand number", table.table_id)]
            table.read(hand)
            return []
        if kind == "rematch":
            return self._rematch(table)
        if kind == "leave_table":
            self.table = None  # against the computer, nobody plays on: the game is given up
            return []
        return [
            error(
                "unknown_type", f"{kind!r} is not for a game against the computer", table.table_id
            )
        ]

    def save(self) -> str | None:
        """The game under way as JSON text for ``restore`` (the page keeps it, so that the
        game survives closing the tab); None when no game is under way."""
        t = self.table
        if t is None or t.over:
            return None
        table = {
            "table_id": t.table_id, "levels": t.levels,
            # the game as its deal and moves (replayed: what each move told comes back too)
            "game": {"id": t.game.game_id, "players": t.game.players, "rules": t.game.rules,
                     "seed": t.game.seed, "history": list(t.game.history)},
            "bot_pace": t.bot_pace, "events": [dataclasses.astuple(e) for e in t.events],
            "read": t._read, "rng": t._rng.getstate(), "started_at": t.started_at,
        }  # fmt: skip
        return json.dumps(
            {"version": SAVED_VERSION, "count": self._count, "name": self.name, "table": table}
        )

    def restore(self, text: str) -> bool:
        """Take back a game ``save`` wrote; False (and nothing changed) if it cannot be read."""
        try:
            data = json.loads(text)
            if data.get("version") != SAVED_VERSION:
                return False
            saved = data["table"]
            dealt = saved["game"]
            game = new_game(str(dealt["id"]), players=int(dealt["players"]), rules=dealt["rules"],
                            seed=int(dealt["seed"]))  # fmt: skip
            for action in dealt["history"]:
                play_recorded(game, str(action))
            table = LocalTable(
                table_id=str(saved["table_id"]), game=game,
                levels=list(saved["levels"]), name=data["name"], bot_pace=str(saved["bot_pace"]),
                bot_time=self.bot_time, now=self.now, wall=self.wall,
                events=[_Entry(*e) for e in saved["events"]],
            )  # fmt: skip
            version, state, gauss = saved["rng"]
            table._rng.setstate((version, tuple(state), gauss))
            table._read = int(saved["read"])
            started_at = saved.get("started_at")
            table.started_at = started_at if isinstance(started_at, str) else None
            count = int(data["count"])
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, TrumpsError):
            return False
        self.table, self._count, self.name = table, count, data["name"]
        return True

    def handle_text(self, text: str) -> list[str]:
        """``handle`` on a message as JSON text, the answers as JSON text (the worker's)."""
        try:
            msg = json.loads(text)
        except ValueError:
            return [json.dumps(error("bad_json", "the message is not JSON"))]
        if not isinstance(msg, dict):
            return [json.dumps(error("bad_json", "the message is not a JSON object"))]
        return [json.dumps(m) for m in self.handle(msg)]

    def bot_move_text(self) -> list[str]:
        return [json.dumps(m) for m in self.bot_move()]

    def take_finished_text(self) -> str | None:
        """The game that just ended, to keep before the person is told (the worker stores
        it, then passes on the messages): ``{"id", "record", "summary"}`` as JSON, once."""
        finished = None if self.table is None else self.table.take_finished()
        return None if finished is None else json.dumps(finished)

    @staticmethod
    def replay_text(record_text: str) -> str:
        """``GET /api/games/{id}/replay`` of a kept record (JSON text in and out)."""
        return json.dumps(replay_json(json.loads(record_text)))

    def _play_computer(self, msg: Msg) -> list[Msg]:
        game_id, players = msg.get("game"), msg.get("players", 2)
        level, pace = msg.get("level", "medium"), msg.get("bot_pace") or "normal"
        if not isinstance(game_id, str) or game_id not in GAMES:
            return [error("bad_field", f"no game named {game_id!r}")]
        cls = GAMES[game_id]
        if not _is_int(players) or not cls.min_players <= players <= cls.max_players:
            return [error("bad_field", f"{game_id} is not played by {players!r} players")]
        if not isinstance(level, str) or level not in BOTS:
            return [error("bad_field", f"no bot level named {level!r}")]
        if not isinstance(pace, str) or pace not in PACES:
            return [error("bad_field", f"no bot pace named {pace!r}")]
        return self._open(
            game_id, players, msg.get("rules"), [None] + [level] * (players - 1), pace
        )

    def _rematch(self, old: LocalTable) -> list[Msg]:
        """The same game again, a new deal (as the server's rematch for the one asking)."""
        if not old.over:
            return [error("not_allowed", "the game has not ended", old.table_id)]
        return self._open(
            old.game.game_id, old.game.players, old.game.rules, old.levels, old.bot_pace
        )

    def _open(
        self, game_id: str, players: int, rules: Any, levels: list[str | None], pace: str
    ) -> list[Msg]:
        # 53 bits: a seed JavaScript's numbers hold exactly (the page keeps the record as JSON)
        seed = secrets.randbits(53) if self.seed is None else self.seed + self._count
        try:
            game = new_game(game_id, players=players, rules=rules, seed=seed)
        except (TrumpsError, ValueError, TypeError) as e:
            return [error("bad_rules", str(e))]
        self._count += 1
        self.table = LocalTable(
            table_id=f"local-{self._count}", game=game, levels=levels, name=self.name,
            bot_pace=pace, bot_time=self.bot_time, bot_seed=None if self.seed is None else seed,
            now=self.now, wall=self.wall,
        )  # fmt: skip
        return self.table.start()

    def bot_due(self) -> float | None:
        return None if self.table is None else self.table.bot_due()

    def bot_move(self) -> list[Msg]:
        return [] if self.table is None else self.table.bot_move()
