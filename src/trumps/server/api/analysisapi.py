"""The HTTP API of post-game analysis (docs/analysis.md): the replay's Analyse button.

- ``GET /api/games/{id}/analysis``: ``200 {"status": "done", "analysis": …}`` once stored;
  ``202 {"status": "queued" | "running", "done": k, "total": n}`` while it is made;
  ``404 not_analysed`` if nobody asked (or the process making it died); ``404
  no_such_game``.
- ``POST /api/games/{id}/analysis`` (a bearer token: a guest's or an account's): starts it,
  or joins the one running, or answers at once when it is stored.  ``429 analysis_limit``
  while this player has another analysis running, or has started ``per_hour`` in the last
  hour; ``503 analysis_busy`` when this process already makes ``queue`` of them.

The analysis (``trumps.ai.analysis``) runs in the bot workers (``BotRunner.submit_call``),
one decision per job, behind every bot move and hint, and never on the event loop.  The
game's row in the store is claimed first (one process makes each analysis), its heartbeat
kept while the jobs run, and the result written there: a second request, from anyone and
to any process of the service, is answered from the store at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from trumps.ai.analysis import Budget, MoveAnalysis, analysis_of, analyze_ply, judged_plies
from trumps.games import Game
from trumps.host.archive import start_of
from trumps.server.identity.accounts import fail
from trumps.server.identity.auth import BadToken
from trumps.server.tables.bots import BotRunner
from trumps.store import Store, UnknownGame

__all__ = ["AnalysisApi", "AnalysisLimits", "analyse_decision"]

log = logging.getLogger(__name__)

_ID = re.compile(r"[1-9][0-9]{0,9}")
MAX_GAME_ID = 2**31 - 1
HOUR = 3600.0


@dataclass(frozen=True)
class AnalysisLimits:
    """The server's analysis budget and limits (``ServerSettings.analysis``)."""

    deals: int = 300  # sampled deals per decision, from the view (Twenty-Five, 3-4 players)
    seconds: float = 1.0  # the duel solver's time per position
    per_hour: int = 20  # analyses one player may start in an hour
    queue: int = 16  # games this process analyses at once (the rest: 503, try later)
    stale: float = 60.0  # a running analysis without a heartbeat so long is taken over

    @property
    def budget(self) -> Budget:
        return Budget(time_limit=self.seconds, deals=self.deals, seed=0)


def _decisions(record: dict[str, Any]) -> tuple[Game, list[str], list[int]]:
    start, actions = start_of(record)
    return start, actions, judged_plies(start, actions)


def analyse_decision(job: tuple[dict[str, Any], int, Budget]) -> MoveAnalysis:
    """One decision of a finished game (runs in a bot worker): ``(record, ply, budget)``."""
    record, ply, budget = job
    start, actions = start_of(record)
    return analyze_ply(start, actions, ply, budget)


@dataclass
class _Progress:
    player: int
    done: int = 0
    total: int = 0


class AnalysisApi:
    """Analyses of finished games from ``store``, made in ``runner``'s workers."""

    def __init__(
        self,
        store: Store,
        runner: BotRunner,
        bearer: Callable[[Request], Awaitable[int | None]],
        limits: AnalysisLimits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store, self.runner, self.bearer = store, runner, bearer
        self.limits = limits or AnalysisLimits()
        self.clock = clock
        self._making: dict[int, _Progress] = {}  # game id -> this process's progress
        self._tasks: set[asyncio.Task[None]] = set()

    # -- HTTP ------------------------------------------------------------------------------
    async def get(self, request: Request) -> Response:
        game_id = _game_id(request)
        if game_id is None:
            return _no_game()
        answer = await self._answer(game_id)
        if answer is not None:
            return answer
        try:
            await self.store.get_game(game_id)
        except UnknownGame:
            return _no_game()
        return fail(404, "not_analysed", "nobody asked for this game's analysis yet")

    async def post(self, request: Request) -> Response:
        try:
            player = await self.bearer(request)
        except BadToken as e:
            return fail(401, "bad_token", str(e))
        if player is None:
            return fail(401, "bad_token", "an analysis needs an Authorization: Bearer token")
        game_id = _game_id(request)
        if game_id is None:
            return _no_game()
        try:
            record = await self.store.get_game(game_id)
        except UnknownGame:
            return _no_game()
        answer = await self._answer(game_id)
        if answer is not None:
            return answer
        making = self._making.get(game_id)
        if making is not None:  # asked a moment ago, not yet in the store: join it
            return _progress(making)
        refused = self._refusal_here(player)
        if refused is not None:
            return refused
        # Reserve this player's one analysis and a place in the queue before any await, so
        # that requests sent together cannot all pass the checks.
        progress = self._making[game_id] = _Progress(player)
        try:
            refused = await self._refusal_anywhere(player)
            if refused is not None:
                del self._making[game_id]
                return refused
            now = self.clock()
            owner = await self.store.claim_analysis(game_id, player, now, now - self.limits.stale)
            if owner is None:
                del self._making[game_id]
                answer = await self._answer(game_id)  # made or making elsewhere, just now
                return answer or _progress(None)
            try:
                start, _actions, plies = await asyncio.to_thread(_decisions, record)
            except BaseException:
                with contextlib.suppress(Exception):
                    await self.store.drop_analysis(game_id, owner)
                raise
        except BaseException:
            self._making.pop(game_id, None)
            raise
        progress.total = len(plies)
        task = asyncio.create_task(
            self._make(game_id, owner, record=record, start=start, plies=plies, progress=progress)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return _progress(progress)

    async def _answer(self, game_id: int) -> Response | None:
        """Done or in the making: the answer; else None (nobody asked, or the maker died)."""
        row = await self.store.get_analysis(game_id)
        if row is None:
            return None
        if row.status == "done" and row.result is not None:
            return JSONResponse({"status": "done", "analysis": row.result})
        progress = self._making.get(game_id)
        if progress is not None:
            return _progress(progress)
        if row.updated < self.clock() - self.limits.stale:
            return None
        return _progress(None)  # another process of the service makes it

    def _refusal_here(self, player: int) -> Response | None:
        """What this process knows at once: the player's analysis here, a full queue."""
        if any(p.player == player for p in self._making.values()):
            return _limit("your other analysis is still running: one at a time", 10)
        if len(self._making) >= self.limits.queue:
            response = fail(503, "analysis_busy", "the server is busy analysing: try again soon")
            response.headers["retry-after"] = "30"
            return response
        return None

    async def _refusal_anywhere(self, player: int) -> Response | None:
        """What the store knows: the player's analyses on every process of the service."""
        now = self.clock()
        started, running = await self.store.analyses_of(player, now - HOUR, now - self.limits.stale)
        if running:
            return _limit("your other analysis is still running: one at a time", 10)
        if started >= self.limits.per_hour:
            return _limit(f"at most {self.limits.per_hour} analyses an hour: try again later", 600)
        return None

    # -- making one --------------------------------------------------------------------------
    async def _make(
        self,
        game_id: int,
        owner: str,
        *,
        record: dict[str, Any],
        start: Game,
        plies: list[int],
        progress: _Progress,
    ) -> None:
        budget = self.limits.budget
        futures: list[asyncio.Future[Any]] = []
        beat = asyncio.create_task(self._beat(game_id, owner))
        try:
            table = f"analysis:{game_id}"
            futures = [
                self.runner.submit_call(analyse_decision, (record, ply, budget), table=table)
                for ply in plies
            ]
            moves: list[MoveAnalysis] = []
            for future in futures:
                moves.append(await future)
                progress.done += 1
            result = analysis_of(start, moves, budget).to_json()
            if not await self.store.finish_analysis(game_id, owner, result, self.clock()):
                log.warning("the analysis of game %s was taken over by another process", game_id)
        except BaseException as e:
            for future in futures:
                future.cancel()
            if not isinstance(e, asyncio.CancelledError):
                log.exception("the analysis of game %s failed", game_id)
            with contextlib.suppress(Exception):
                await self.store.drop_analysis(game_id, owner)
            if not isinstance(e, Exception):
                raise
        finally:
            beat.cancel()
            self._making.pop(game_id, None)

    async def _beat(self, game_id: int, owner: str) -> None:
        """The heartbeat of a running analysis, whether or not its jobs get a slot: other
        processes take over a row whose heart stopped for ``stale`` seconds."""
        while True:
            await asyncio.sleep(self.limits.stale / 4)
            with contextlib.suppress(Exception):  # the store down a moment: next beat
                await self.store.touch_analysis(game_id, owner, self.clock())

    async def close(self) -> None:
        """Stop the analyses this process makes (their rows are dropped)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _game_id(request: Request) -> int | None:
    text = str(request.path_params["game_id"])
    if not _ID.fullmatch(text) or int(text) > MAX_GAME_ID:
        return None
    return int(text)


def _no_game() -> Response:
    return fail(404, "no_such_game", "no finished game has that id")


def _limit(message: str, retry_after: int) -> Response:
    response = fail(429, "analysis_limit", message)
    response.headers["retry-after"] = str(retry_after)
    return response


def _progress(progress: _Progress | None) -> Response:
    if progress is None:
        return JSONResponse({"status": "running", "done": None, "total": None}, status_code=202)
    status = "running" if progress.done else "queued"
    return JSONResponse(
        {"status": status, "done": progress.done, "total": progress.total}, status_code=202
    )
