"""The hub's table requests: creating tables, quick match, rematches, and a connection's
requests at a table — here, or passed to the process that owns it (``trumps.server.service.cluster``).

``TableRequests`` is a part the hub holds (``hub.requests``); it is given what it works
with — the live tables, the lobby, the cluster, the budgets, the bot runner, the hub as the
tables' listener, the store (where a table's finished game is found) — and owns how tables are dealt (``deal_from``).
"""

from __future__ import annotations

import itertools
import logging
import secrets
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from trumps.errors import InvalidRules, TrumpsError
from trumps.fairdeal import deal_seed, new_secret
from trumps.games import Game, new_game
from trumps.ratings import FAMILIES, family_of
from trumps.server.hubparts import ClusterLink, HubOptions, Peer, refuse
from trumps.server.limits.quota import CREATION_WINDOW, HINT_WINDOW, Counters, address_key
from trumps.server.matchmaking.lobby import LiveTable, Lobby, rules_key
from trumps.server.service.bus import RemoteConn
from trumps.server.service.busmessages import Disconnected, Rejoin, TableRequest
from trumps.server.tables.bots import BotRunner
from trumps.server.tables.config import GUESTS_CASUAL, RATED_CLOCK
from trumps.server.tables.table import (
    Act,
    Chat,
    ContinueCmd,
    ContributeCmd,
    Disconnect,
    HintCmd,
    Join,
    Leave,
    ResignCmd,
    ResyncCmd,
    Table,
    TableConfig,
    TableListener,
    TakebackAnswerCmd,
    TakebackCmd,
)
from trumps.server.tasks import Background
from trumps.server.transport.connection import Connection
from trumps.server.wire.protocol import (
    Action,
    ChatSend,
    ContinueHand,
    Contribute,
    CreateTable,
    GameOver,
    HintAsk,
    JoinTable,
    LeaveTable,
    OutcomeInfo,
    QuickMatch,
    Rematch,
    RematchAsk,
    Resign,
    Resync,
    RuleFault,
    Spectate,
    TakebackAnswer,
    TakebackAsk,
    Waiting,
)
from trumps.store import Store

__all__ = ["TableRequests"]

log = logging.getLogger("trumps.server.hub")


class TableRequests:
    """Requests that make tables or act at them (``hub.requests``)."""

    def __init__(
        self,
        listener: TableListener,
        tables: dict[str, LiveTable],
        lobby: Lobby,
        cluster: ClusterLink,
        *,
        options: HubOptions,
        runner: BotRunner,
        counters: Counters,
        background: Background,
        conn_by_id: Callable[[int], Connection | None],
        store: Store,
    ) -> None:
        self.listener, self.tables, self.lobby, self.cluster = listener, tables, lobby, cluster
        self.store = store
        self.options, self.runner, self.counters = options, runner, counters
        self._background, self.conn_by_id = background, conn_by_id
        self._seeds = itertools.count(0)
        self._deal_base = options.seed  # tables are dealt from here on (--seed only)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self._background.spawn(coro)

    # -- tables ------------------------------------------------------------------------------
    def _new_deal(self, players: int) -> tuple[str | None, int]:
        """A new table's secret (docs/fairness.md) and the seed of its game until it starts
        (dealt again then from the contributions).  A server given ``--seed`` (tests and
        demonstrations) deals table k from seed + k, as told, and commits to nothing."""
        if self._deal_base is not None:
            return None, self._deal_base + next(self._seeds)
        secret = new_secret()
        return secret, deal_seed(secret, [None] * players)

    def deal_from(self, seed: int) -> None:
        """Tests: deal the next table from ``seed``, the one after from seed + 1, and so on,
        as a server started with ``--seed seed`` would.  Only a server given ``--seed``
        deals predictably at all; any other refuses (its deals are fair, docs/fairness.md)."""
        if self._deal_base is None:
            raise ValueError("this server deals fairly; only a server given --seed can be told")
        self._deal_base, self._seeds = seed, itertools.count(0)

    async def _address_refusal(self, conn: Peer) -> str | None:
        """Why ``conn``'s address may not create a table now (``FairUse``), or None: its
        unfinished tables, then its creations this minute (one spent if allowed)."""
        key = _address_key(conn)
        if key is None:  # not from a socket
            return None
        fair = self.options.fair
        if await self.counters.held(f"tables:{key}") >= fair.tables_per_address:
            return f"your address has {fair.tables_per_address} unfinished tables"
        if not await self.counters.spend(
            f"create:{key}", fair.creations_per_address, CREATION_WINDOW
        ):
            return f"your address created {fair.creations_per_address} tables this minute"
        return None

    def _hold(self, conn: Peer, live: LiveTable) -> None:
        """``live``'s table counts against its creator's address until it ends."""
        key = _address_key(conn)
        if key is not None:
            live.address = key
            live.table.labels["address"] = live.address  # for a process that adopts it
            self._spawn(self.counters.hold(f"tables:{live.address}", live.table.table_id))

    def unhold(self, live: LiveTable) -> None:
        """``live``'s table no longer counts against its creator's address."""
        if live.address is not None:
            self._spawn(self.counters.release(f"tables:{live.address}", live.table.table_id))
            live.address = None

    async def create(self, conn: Peer, msg: CreateTable) -> Table | None:
        """Make the table ``msg`` asks for and sit ``conn`` at it (or say why not)."""
        if msg.rated and conn.account is None:
            refuse(conn, "not_allowed", GUESTS_CASUAL)
            return None
        if await self.cluster.open_tables(conn.player) >= self.options.max_open_tables:
            refuse(
                conn,
                "rate_limited",
                f"you have {self.options.max_open_tables} unfinished tables; finish or leave one",
            )
            return None
        secret, seed = self._new_deal(len(msg.seats))
        try:
            game = new_game(msg.game, players=len(msg.seats), rules=msg.rules, seed=seed)
        except InvalidRules as e:  # the option at fault, for the page to word (and mark)
            fault = None if e.option is None else RuleFault(option=e.option, fits=list(e.fits))
            refuse(conn, "bad_rules", str(e), rule=fault)
            return None
        except (TrumpsError, ValueError, TypeError) as e:
            refuse(conn, "bad_rules", str(e))
            return None
        levels = [None if kind == "human" else kind for kind in msg.seats]
        if msg.rated:
            refusal = self._rated_refusal(game, levels)
            if refusal is not None:
                refuse(conn, "not_allowed", refusal)
                return None
        refused = await self._address_refusal(conn)  # a request refused above spends none
        if refused is not None:
            refuse(conn, "rate_limited", f"{refused}; finish or leave one, or wait")
            return None
        config = TableConfig(
            # A rated game has a clock, and running out of time loses it (no bot moves for
            # the seat): a losing player cannot stall it, nor be helped (docs/ratings.md).
            time_control=msg.time_control or (RATED_CLOCK if msg.rated else None),
            on_timeout="forfeit" if msg.rated else msg.on_timeout,
            grace=msg.grace,
            takeover=msg.takeover,
            private=msg.private,
            bot_pace=msg.bot_pace or self.options.bot_pace,
            rated=msg.rated,
        )
        rules_name = msg.rules if msg.rules else type(game).DEFAULT_PRESET
        table = self._open(conn, game, levels, config, rules_name, secret=secret, seed=seed)
        if any(level is None for level in levels):
            table.submit(_sit(conn))
        else:  # a table of bots: the creator watches it play
            table.submit(Join(conn, name=conn.name, player=conn.player, spectate=True))
            table.start()
        self.lobby.changed()
        return table

    def _rated_refusal(self, game: Game, levels: Sequence[str | None]) -> str | None:
        """Why a rated table of ``game`` with these seats cannot be made, or None."""
        if all(level is not None for level in levels):
            return "a rated table needs a person: a table of bots only is casual"
        family = family_of(game)
        known = self.options.bot_ratings.get(family, {})
        unknown = sorted({lv for lv in levels if lv is not None and lv not in known})
        if unknown:
            return (
                f"the {', '.join(unknown)} bot has no rating for {FAMILIES[family]} on this "
                "server: play it casual"
            )
        return None

    def _open(
        self,
        conn: Peer,
        game: Game,
        levels: Sequence[str | None],
        config: TableConfig,
        rules_name: str | dict[str, Any] | None,
        *,
        secret: str | None,
        seed: int,
    ) -> Table:
        """A new live table created by ``conn``'s player, its task running.  At a server
        given ``--seed`` (no secret) its bots draw from the table's seed too, so that a test
        meets the same game each time; otherwise from the system's randomness."""
        table = Table(
            "t-" + secrets.token_urlsafe(9),  # an invite link: not guessable
            game,
            levels,
            config=config,
            listener=self.listener,
            runner=self.runner,
            bot_time=self.options.bot_time,
            time=self.options.time,
            secret=secret,
            bot_seed=seed if secret is None else None,
        )
        table.bot_ratings = self.options.bot_ratings
        live = LiveTable(table, rules_name=rules_name, creator=conn.player)
        self.tables[table.table_id] = live
        table.labels = {"rules_name": rules_name, "creator": conn.player}
        self._hold(conn, live)
        table.launch()
        conn.tables.add(table.table_id)
        return table

    async def quick_match(self, conn: Connection, msg: QuickMatch) -> None:
        """Pair ``conn`` with whoever waits for the same game and rules, or let it wait."""
        try:  # people asking for the same rules in other words are matched
            rules = new_game(msg.game, players=2, rules=msg.rules, seed=0).rules
        except (TrumpsError, ValueError, TypeError) as e:
            refuse(conn, "bad_rules", str(e))
            return
        rated = msg.rated if msg.rated is not None else conn.account is not None
        if rated and conn.account is None:
            refuse(conn, "not_allowed", GUESTS_CASUAL)
            return
        key = rules_key(msg.game, rules) + (" rated" if rated else " casual")
        pair = CreateTable(game=msg.game, rules=msg.rules, seats=["human", "human"], rated=rated)
        found = await self.cluster.quick_match(conn, key)  # whoever waits, on any process
        if found is None:
            conn.match_request = msg  # (asked again if Redis comes back empty)
            conn.put_nowait(Waiting(game=msg.game, rules=msg.rules, rated=rated))
            return
        conn.match_key = conn.match_request = None
        node, other_id = found
        other = self.conn_by_id(other_id) if node == self.cluster.node else None
        if other is not None:  # waiting here: it makes the table and sits first
            made = await self.create(other, pair)
            if made is None:  # bad rules: both hear why
                refuse(conn, "bad_rules", f"no {msg.game} table with those rules")
                return
            conn.tables.add(made.table_id)
            made.submit(_sit(conn))
            return
        table = await self.create(conn, pair)  # waiting elsewhere: told where to sit
        if table is not None:
            self.cluster.matched(node, other_id, table.table_id)

    async def at_table(self, conn: Connection, request: TableRequest) -> None:
        """A request at a table: to the table here, or to the process that owns it."""
        table_id = request.table_id
        live = self.tables.get(table_id)
        if isinstance(request, (JoinTable, Spectate)):
            conn.tables.add(table_id)
            if isinstance(request, Spectate):
                conn.watching.add(table_id)
            else:
                conn.watching.discard(table_id)
        elif isinstance(request, LeaveTable):
            conn.tables.discard(table_id)
            conn.watching.discard(table_id)
        # A hint a rated table refuses (``rated_no_hints``) costs the player none.
        rated = live is not None and live.table.config.rated
        if (
            isinstance(request, HintAsk)
            and not rated
            and not await self._hint_budget(conn, table_id)
        ):
            return
        if live is not None:
            self.table_command(conn, live, request)
            return
        if await self.cluster.forward(conn, request):  # owned elsewhere
            return
        conn.tables.discard(table_id)
        conn.watching.discard(table_id)
        ended = None if isinstance(request, LeaveTable) else await self._ended(table_id)
        if ended is not None:
            conn.put_nowait(ended)
            return
        refuse(conn, "no_such_table", f"no table {table_id!r}", table_id)

    async def _ended(self, table_id: str) -> GameOver | None:
        """How the game of a table no process holds any more ended, if the store has it
        finished: a player coming back to a table whose last move was stored as its
        process died (or after it was let go) hears the end instead of no such table."""
        try:
            found = await self.store.finished_at(table_id)
        except Exception as e:  # the store cannot say now: no such table, as before
            log.warning("table %s: its finished game could not be looked up: %s", table_id, e)
            return None
        if found is None:
            return None
        game_id, outcome = found
        return GameOver(table_id=table_id, outcome=OutcomeInfo(**outcome), record_id=game_id)

    async def _hint_budget(self, conn: Connection, table_id: str) -> bool:
        """Spend one of the player's and the address's hints (``FairUse``), or say why not."""
        fair = self.options.fair
        budgets = [(f"hint:p:{conn.player}", fair.hints_per_player, "you")]
        if conn.address is not None:
            budgets.append(
                (f"hint:a:{address_key(conn.address)}", fair.hints_per_address, "your address")
            )
        for key, limit, who in budgets:
            if not await self.counters.spend(key, limit, HINT_WINDOW):
                refuse(
                    conn,
                    "rate_limited",
                    f"{who} asked for {limit} hints this hour; try again later",
                    table_id,
                )
                return False
        return True

    def table_command(self, conn: Peer, live: LiveTable, request: TableRequest) -> None:
        """``conn``'s ``request`` (made here or on another process) at a table of this one,
        as the table's own command."""
        table = live.table
        if isinstance(request, JoinTable):
            table.submit(_sit(conn, seat=request.seat))
        elif isinstance(request, Rejoin):
            table.submit(_sit(conn, again=True))
        elif isinstance(request, Spectate):
            table.submit(Join(conn, name=conn.name, player=conn.player, spectate=True))
        elif isinstance(request, LeaveTable):
            table.submit(Leave(conn))
        elif isinstance(request, Disconnected):
            table.submit(Disconnect(conn))
        elif isinstance(request, Action):
            table.submit(Act(conn, request.action, request.expected))
        elif isinstance(request, Resign):
            table.submit(ResignCmd(conn))
        elif isinstance(request, ContinueHand):
            table.submit(ContinueCmd(conn, request.hand))
        elif isinstance(request, ChatSend):
            table.submit(Chat(conn, conn.name, request.text))
        elif isinstance(request, Resync):
            table.submit(ResyncCmd(conn))
        elif isinstance(request, HintAsk):
            table.submit(HintCmd(conn))
        elif isinstance(request, TakebackAsk):
            table.submit(TakebackCmd(conn))
        elif isinstance(request, TakebackAnswer):
            table.submit(TakebackAnswerCmd(conn, request.accept))
        elif isinstance(request, Contribute):
            table.submit(ContributeCmd(conn, request.value))
        elif isinstance(request, RematchAsk):
            self._spawn(self._rematch(conn, live))

    async def _rematch(self, conn: Peer, live: LiveTable) -> None:
        """The same game, rules, seats and settings again; people who sat there are told.

        When several players ask, the first request makes the table and the others sit
        down at it."""
        old = live.table
        seat = old.seat_of_owner(conn.player)
        if seat is None:
            refuse(
                conn, "not_seated", "only a player of that game can ask for a rematch", old.table_id
            )
            return
        if not old.over:
            refuse(conn, "not_allowed", "the game has not ended", old.table_id)
            return
        made = self.tables.get(live.rematch) if live.rematch else None
        if made is not None and not made.table.started:
            conn.tables.add(made.table.table_id)
            made.table.submit(_sit(conn, seat=seat))
            return
        if await self.cluster.open_tables(conn.player) >= self.options.max_open_tables:
            refuse(conn, "rate_limited", "too many unfinished tables of yours", old.table_id)
            return
        refused = await self._address_refusal(conn)
        if refused is not None:
            refuse(conn, "rate_limited", refused, old.table_id)
            return
        players = old.game.players
        secret, seed = self._new_deal(players)
        game = new_game(old.game.game_id, players=players, rules=old.game.rules, seed=seed)
        config = TableConfig.from_json(old.config.to_json())
        table = self._open(
            conn, game, old.levels, config, live.rules_name, secret=secret, seed=seed
        )
        table_id = live.rematch = table.table_id
        table.submit(_sit(conn, seat=seat))
        others = {o for s, o in enumerate(old.owners()) if s != seat and isinstance(o, int)}
        offer = Rematch(table_id=old.table_id, new_table_id=table_id, by=conn.name)
        self.cluster.offer(others, offer)
        self.lobby.changed()


def _sit(conn: Peer, *, seat: int | None = None, again: bool = False) -> Join:
    """``conn``'s request to sit down (the table refuses a guest a rated seat)."""
    return Join(
        conn,
        seat=seat,
        name=conn.name,
        player=conn.player,
        again=again,
        account=conn.account is not None,
    )


def _address_key(conn: Peer) -> str | None:
    """What ``conn``'s client address is counted under (``address_key``), or None if it is
    not known.  A connection on another process carries the hash its process sent."""
    if isinstance(conn, RemoteConn):
        return conn.address_key
    return None if conn.address is None else address_key(conn.address)
