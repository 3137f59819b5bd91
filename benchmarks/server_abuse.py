"""The abuse run of ``benchmarks/server.py --abuse`` (issue 17 §1): one client must not slow
everyone else.

Two runs of ``--duration`` seconds (default 60), each on a fresh ``trumps serve`` with one
bot worker process (as on a 2-core machine) and the levels' own think budgets
(``--bot-time`` 1 s at most): first ``VICTIMS`` players each play the computer (``medium``,
no pacing) and the time from each of their moves to their next turn is measured (the bot's
reply); then the same, while one abuser floods hints at its own table against the computer,
opens bot-only ``expert`` tables from fresh guest identities, leaving each at once, and
plays the computer at ``expert`` from fresh guests, leaving each game at once (the takeover
bot then plays the seat: such a table counts as bots only, so it waits for a watcher).
Printed: both runs' p50/p99/max bot-reply latency and the ratio of the p99s, and what the
server answered the abuser.

Every client is on loopback, but each victim connects from its own address (127.0.1.k) and
the abuser from 127.0.0.3, as different machines would: the server's budgets per address
apply to the abuser, not to the players it would slow.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benchmarks.server_common import ServerProc, ms, percentiles

__all__ = ["abuse"]

VICTIMS: Final = 3
ABUSER: Final = "127.0.0.3"
HINT_BURST: Final = 30  # hints sent at once at each of the abuser's turns
THINK: Final = 0.3  # a victim's seconds per move
Msg = dict[str, Any]


class Refused(Exception):
    """The server refused a hello (the abuser's new guests per address, say)."""


async def _hello(url: str, address: str, name: str) -> ClientConnection:
    ws = await connect(url, local_addr=(address, 0), max_size=2**22)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": name}))
    while True:
        m: Msg = json.loads(await ws.recv())
        if m["type"] == "welcome":
            return ws
        if m["type"] == "error":
            await ws.close()
            raise Refused(m["code"])


async def _guest(
    url: str, name: str, stop: asyncio.Event, seen: collections.Counter[str]
) -> ClientConnection | None:
    """A fresh guest of the abuser's, or None (counted) when the server refuses one: then
    after a second, so a refused flood does not spin."""
    try:
        return await _hello(url, ABUSER, name)
    except Refused as e:
        seen[f"new guest refused: {e}"] += 1
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), 1.0)
    return None


async def _victim(
    url: str, k: int, stop: asyncio.Event, lat: list[float], rng: random.Random
) -> None:
    ws = await _hello(url, f"127.0.1.{k + 1}", f"Player{k}")
    try:
        while not stop.is_set():
            await ws.send(json.dumps({"type": "play_computer", "game": "kozyri",
                                      "level": "medium", "bot_pace": "instant"}))  # fmt: skip
            table, sent = None, None
            while not stop.is_set():
                m: Msg = json.loads(await ws.recv())
                kind = m["type"]
                if kind == "error":
                    raise RuntimeError(f"a victim was refused: {m}")
                if kind not in ("table_state", "event", "game_over"):
                    continue
                if kind == "table_state" and table is None:
                    table = m["table_id"]  # the new game's table (not an old one's last word)
                if m["table_id"] != table:
                    continue
                if kind == "game_over":
                    if sent is not None:
                        lat.append((time.monotonic() - sent) * 1000)
                    break
                if m.get("legal"):
                    if sent is not None:
                        lat.append((time.monotonic() - sent) * 1000)
                    await asyncio.sleep(THINK)  # the player's own think time (not a wait)
                    number = m["event"] if kind == "table_state" else m["number"]
                    await ws.send(json.dumps({"type": "action", "table_id": table,
                                              "action": rng.choice(m["legal"]),
                                              "expected": number}))  # fmt: skip
                    sent = time.monotonic()
            if table is not None:
                await ws.send(json.dumps({"type": "leave_table", "table_id": table}))
    finally:
        await ws.close()


async def _hinter(url: str, stop: asyncio.Event, seen: collections.Counter[str]) -> None:
    """A fresh guest each game: plays the computer, and at each turn asks 30 hints at once."""
    n = 0
    while not stop.is_set():
        n += 1
        ws = await _guest(url, f"Hinter{n}", stop, seen)
        if ws is None:
            continue
        try:
            await ws.send(json.dumps({"type": "play_computer", "game": "kozyri",
                                      "level": "random", "bot_pace": "instant"}))  # fmt: skip
            while not stop.is_set():
                m: Msg = json.loads(await ws.recv())
                kind = m["type"]
                if kind == "hint":
                    seen["hint answered"] += 1
                elif kind == "error":
                    seen[f"refused: {m['code']}"] += 1
                elif kind == "game_over":
                    break
                elif kind in ("table_state", "event") and m.get("legal"):
                    for _ in range(HINT_BURST):
                        await ws.send(json.dumps({"type": "hint", "table_id": m["table_id"]}))
                    seen["hint asked"] += HINT_BURST
                    number = m["event"] if kind == "table_state" else m["number"]
                    await ws.send(json.dumps({"type": "action", "table_id": m["table_id"],
                                              "action": m["legal"][0], "expected": number}))  # fmt: skip
        except ConnectionClosed:
            pass
        finally:
            await ws.close()


async def _opener(url: str, stop: asyncio.Event, seen: collections.Counter[str]) -> None:
    """Fresh guests, each opening a bot-only expert table and leaving at once."""
    n = 0
    while not stop.is_set():
        n += 1
        ws = await _guest(url, f"Opener{n}", stop, seen)
        if ws is None:
            continue
        try:
            await ws.send(json.dumps({"type": "create_table", "game": "kozyri",
                                      "seats": ["expert", "expert"]}))  # fmt: skip
            while True:
                m: Msg = json.loads(await ws.recv())
                if m["type"] == "table_state":
                    seen["bot table opened"] += 1
                    break
                if m["type"] == "error":
                    seen[f"table refused: {m['code']}"] += 1
                    break
        finally:
            await ws.close()
        await asyncio.sleep(0.1)  # the flood's own pace: ten fresh guests a second


async def _leaver(url: str, stop: asyncio.Event, seen: collections.Counter[str]) -> None:
    """Fresh guests, each playing the computer at ``expert`` and leaving the game at once."""
    n = 0
    while not stop.is_set():
        n += 1
        ws = await _guest(url, f"Leaver{n}", stop, seen)
        if ws is None:
            continue
        try:
            await ws.send(json.dumps({"type": "play_computer", "game": "kozyri",
                                      "level": "expert", "bot_pace": "instant"}))  # fmt: skip
            while True:
                m: Msg = json.loads(await ws.recv())
                if m["type"] == "table_state":
                    await ws.send(json.dumps({"type": "leave_table", "table_id": m["table_id"]}))
                    seen["game left to the computer"] += 1
                    break
                if m["type"] == "error":
                    seen[f"game refused: {m['code']}"] += 1
                    break
        finally:
            await ws.close()
        await asyncio.sleep(0.1)  # the flood's own pace: ten fresh guests a second


async def _window(url: str, seconds: float, abused: bool) -> tuple[list[float], Msg]:
    stop = asyncio.Event()
    lat: list[float] = []
    seen: collections.Counter[str] = collections.Counter()
    rng = random.Random(1)
    tasks = [asyncio.create_task(_victim(url, k, stop, lat, rng)) for k in range(VICTIMS)]
    if abused:
        tasks += [asyncio.create_task(_hinter(url, stop, seen)) for _ in range(2)]
        tasks.append(asyncio.create_task(_opener(url, stop, seen)))
        tasks.append(asyncio.create_task(_leaver(url, stop, seen)))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks), seconds)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return lat, dict(seen)


def abuse(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    seconds = args.duration
    out: dict[str, Any] = {}
    for name, abused in (("unabused", False), ("abused", True)):
        server = ServerProc(
            f"sqlite+aiosqlite:///{workdir / f'{name}.db'}", workdir, (1000, 100_000), None,
            gc_stats=False, extra=("--bot-workers", "1", "--bot-time", "1.0"), name=name,
        )  # fmt: skip
        server.start()
        try:
            lat, seen = asyncio.run(_window(server.url, seconds, abused))
        finally:
            server.stop()
        out[name] = {"replies": len(lat), **percentiles(lat), "abuser": seen}
    base, hit = out["unabused"], out["abused"]
    ratio = (hit["p99"] / base["p99"]) if base.get("p99") and hit.get("p99") else None
    out["ratio_p99"] = ratio
    print(
        f"abuse run: {VICTIMS} players against the computer, {seconds:.0f} s each, one bot worker"
    )
    for name in ("unabused", "abused"):
        f = out[name]
        print(
            f"  {name:9} bot replies {f['replies']:5}  p50 {ms(f.get('p50'))}  "
            f"p99 {ms(f.get('p99'))}  max {ms(f.get('max'))}"
        )
    print(f"  p99 abused / unabused: {'-' if ratio is None else f'{ratio:.2f}'}")
    print("  the abuser heard: " + ", ".join(f"{k} {v}" for k, v in sorted(hit["abuser"].items())))
    return out
