"""The HTTP API of ratings (docs/ratings.md, docs/api-http.md): leaderboards and profiles.

- ``GET /api/leaderboard/{family}`` the accounts with a settled rating in a family (at
  least ``min_games`` rated games, deviation at most 110, a rated game in the last 30
  days), best first, paged like every
  listing (``limit``, ``offset``), with the bots' fixed ratings of the family beside them.
- ``GET /api/players/{id}`` an account's profile: its ratings (each with ``like``, the bot
  level rated nearest it), their history (one point per rated game), its results by game, the people it met most (head-to-head) and its latest
  finished games.  Guests have no profile.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from trumps.ratings import FAMILIES, Rating
from trumps.server.identity.accounts import fail
from trumps.store import GameSummary, Store, UnknownPlayer

__all__ = ["MIN_LEADERBOARD_GAMES", "RatingApi", "summary_json"]

MIN_LEADERBOARD_GAMES = 10  # rated games an account needs to be on a leaderboard
ACTIVE_DAYS = 30  # … and a rated game in so many days
_ID = re.compile(r"[1-9][0-9]{0,9}")
PROFILE_GAMES = 20  # latest games on a profile
MAX_PLAYER_ID = 2**31 - 1


def summary_json(g: GameSummary, player: int | None = None) -> dict[str, Any]:
    """One finished game of a listing (``GET /api/games``, a profile)."""
    return {
        "id": g.id,
        "table_id": g.table_id,
        "game": g.game,
        "players": g.players,
        "outcome": g.outcome,
        "started": g.started,
        "finished": g.finished,
        "by_bot": g.by_bot,
        "rated": g.rated,
        "rating_changes": [
            {"seat": c.seat, "before": round(c.before), "after": round(c.after)}
            for c in g.rating_changes
        ],
        **(
            {"seat": g.player_ids.index(player)}
            if player is not None and player in g.player_ids
            else {}
        ),
    }


class RatingApi:
    """Leaderboards and profiles from ``store``; ``bots`` are the bots' fixed ratings."""

    def __init__(
        self,
        store: Store,
        bots: Mapping[str, Mapping[str, Rating]],
        min_games: int = MIN_LEADERBOARD_GAMES,
    ) -> None:
        self.store, self.bots, self.min_games = store, bots, min_games

    async def leaderboard(self, request: Request) -> Response:
        family = request.path_params["family"]
        if family not in FAMILIES:
            known = ", ".join(FAMILIES)
            return fail(
                404, "no_such_family", f"no rating family {family[:40]!r}; they are {known}"
            )
        limit_text = request.query_params.get("limit", "50")
        offset_text = request.query_params.get("offset", "0")
        try:
            if not (limit_text.isascii() and offset_text.isascii()):
                raise ValueError
            limit, offset = int(limit_text), int(offset_text)
            if not (0 <= limit <= 200 and 0 <= offset <= 100_000):
                raise ValueError
        except ValueError:
            return fail(400, "bad_field", "limit is 0–200 and offset 0–100000")
        rows = await self.store.leaderboard(
            family,
            min_games=self.min_games,
            limit=limit,
            offset=offset,
            active_since=time.time() - ACTIVE_DAYS * 86400,
        )
        return JSONResponse(
            {
                "family": family,
                "title": FAMILIES[family],
                "min_games": self.min_games,
                "offset": offset,
                "players": [
                    {"rank": offset + k + 1, "player_id": row.player_id, "name": row.name}
                    | row.rating.to_json()
                    for k, row in enumerate(rows)
                ],
                "bots": [
                    {"level": level, "rating": round(r.value)}
                    for level, r in sorted(self.bots.get(family, {}).items(), key=_by_value)
                ],
            }
        )

    async def profile(self, request: Request) -> Response:
        text = request.path_params["player_id"]
        try:
            if not _ID.fullmatch(text):
                raise ValueError
            player_id = int(text)
            if player_id > MAX_PLAYER_ID:
                raise ValueError
            player = await self.store.get_player(player_id)
        except (ValueError, UnknownPlayer):
            return fail(404, "no_such_player", "no account has that id")
        if player.login is None:
            return fail(404, "no_such_player", "no account has that id (guests have no profile)")
        ratings = await self.store.player_ratings(player_id)
        history = await self.store.rating_history(player_id)
        games = await self.store.finished_games(player=player_id, limit=PROFILE_GAMES)
        return JSONResponse(
            {
                "player_id": player_id,
                "name": player.name,
                "ratings": {
                    f: ratings[f].to_json() | {"like": self.nearest_bot(f, ratings[f])}
                    for f in FAMILIES
                    if f in ratings
                },
                "history": [
                    {
                        "game_id": h.game_id,
                        "family": h.family,
                        "before": round(h.before),
                        "after": round(h.after),
                        "at": h.at,
                    }
                    for h in history
                ],
                "results": await self.store.results_by_game(player_id),
                "head_to_head": [
                    {
                        "player_id": h.player_id,
                        "name": h.name,
                        "won": h.won,
                        "drawn": h.drawn,
                        "lost": h.lost,
                    }
                    for h in await self.store.head_to_head(player_id)
                ],
                "games": [summary_json(g, player_id) for g in games],
            }
        )

    def nearest_bot(self, family: str, rating: Rating) -> str | None:
        """The bot level whose fixed rating in ``family`` is nearest ``rating`` ("you play
        like hard"), or None when no bot is rated there."""
        bots = self.bots.get(family, {})
        if not bots:
            return None
        return min(bots, key=lambda level: (abs(bots[level].value - rating.value), level))


def _by_value(item: tuple[str, Rating]) -> float:
    return -item[1].value
