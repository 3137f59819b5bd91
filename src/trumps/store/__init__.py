"""Persistence (STYLE habit 9): game records and players behind a narrow async ``Store``."""

from __future__ import annotations

from trumps.store.base import (
    AnalysisRow,
    ChatLine,
    Fenced,
    GameSummary,
    HeadToHead,
    LeaderboardRow,
    LoginTaken,
    Player,
    RatingChange,
    RatingPlan,
    RunningTable,
    RunningUpdate,
    Session,
    Store,
    StoreError,
    TableEvent,
    TableWrite,
    UnknownGame,
    UnknownPlayer,
)
from trumps.store.sql import SqlStore

__all__ = [
    "AnalysisRow",
    "ChatLine",
    "Fenced",
    "GameSummary",
    "HeadToHead",
    "LeaderboardRow",
    "LoginTaken",
    "Player",
    "RatingChange",
    "RatingPlan",
    "RunningTable",
    "RunningUpdate",
    "Session",
    "SqlStore",
    "Store",
    "StoreError",
    "TableEvent",
    "TableWrite",
    "UnknownGame",
    "UnknownPlayer",
]
