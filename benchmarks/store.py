"""The store's group commit by itself: what a durable move costs the server's process.

Run: ``python benchmarks/store.py [--db postgresql+asyncpg://…] [--tables 64] [--rounds 40]``.
Makes ``--tables`` running Twenty-Five tables in a fresh database (a temporary SQLite file,
and with ``--db`` a fresh database on that PostgreSQL server), then commits moves as the
server's group commit does — each table one new event per transaction, ``--batch`` tables
per transaction (default 1, 4, 16 and 64 in turn) — and prints per write: the process's CPU
(``time.process_time``: the server's cost, hardly moved by other work on the machine) and the
wall time per transaction.  The reference in the same run is the same figures for SQLite.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trumps
from benchmarks.server_common import fresh_postgres
from trumps.records import record_of
from trumps.store import SqlStore, TableEvent, TableWrite


async def measure(url: str, tables: int, rounds: int, batch: int) -> dict[str, float]:
    store = SqlStore(url)
    await store.create()
    try:
        games = [trumps.new_game("twentyfive", players=4, seed=s) for s in range(tables)]
        first = [
            TableWrite(f"t{k}", record_of(g), meta={"clock": 0}, owner="n", lease=30)
            for k, g in enumerate(games)
        ]
        rows = await store.commit_tables(first)
        ids = [r if isinstance(r, int) else None for r in rows]
        numbers = [0] * tables
        cpu = wall = 0.0
        commits = writes = 0
        for _ in range(rounds):
            for start in range(0, tables, batch):
                group = []
                for k in range(start, min(start + batch, tables)):
                    g = games[k]
                    if g.is_over:
                        continue
                    g.play(g.legal_actions()[0])
                    numbers[k] += 1
                    event = TableEvent(
                        numbers[k], "action", 0, g.history[-1], False, len(g.history) - 1
                    )
                    group.append(
                        TableWrite(
                            f"t{k}", record_of(g), [event], meta={"clock": numbers[k]},
                            owner="n", lease=30, game_id=ids[k],
                        )
                    )  # fmt: skip
                if not group:
                    continue
                c0, w0 = time.process_time(), time.perf_counter()
                await store.commit_tables(group)
                cpu += time.process_time() - c0
                wall += time.perf_counter() - w0
                commits += 1
                writes += len(group)
        return {
            "cpu_ms_per_write": 1000 * cpu / max(writes, 1),
            "wall_ms_per_commit": 1000 * wall / max(commits, 1),
            "writes": writes,
        }
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a PostgreSQL URL (postgresql+asyncpg://...)")
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=40, help="moves per table (games end)")
    parser.add_argument("--batch", type=int, action="append", help="tables per transaction")
    args = parser.parse_args()
    if args.tables < 1 or args.rounds < 1:
        parser.error("--tables and --rounds are at least 1")
    batches = args.batch or [1, 4, 16, 64]
    if any(b < 1 for b in batches):
        parser.error("--batch is at least 1")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        results["SQLite"] = {
            b: asyncio.run(
                measure(
                    f"sqlite+aiosqlite:///{Path(tmp) / f'b{b}.db'}", args.tables, args.rounds, b
                )
            )
            for b in batches
        }
        if args.db:
            for b in batches:
                with fresh_postgres(args.db) as url:
                    results.setdefault("PostgreSQL", {})[b] = asyncio.run(
                        measure(url, args.tables, args.rounds, b)
                    )
    print(f"store group commit: {args.tables} tables, one event per table per transaction")
    for name, by_batch in results.items():
        for b, fig in by_batch.items():
            ref = results["SQLite"][b]["cpu_ms_per_write"]
            print(
                f"  {name:<10} {b:3d} writes/transaction: {fig['cpu_ms_per_write']:.3f} ms CPU "
                f"per write (x{fig['cpu_ms_per_write'] / ref:.2f} of SQLite), "
                f"{fig['wall_ms_per_commit']:.2f} ms per transaction ({fig['writes']} writes)"
            )


if __name__ == "__main__":
    main()
