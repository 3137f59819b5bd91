"""The page's own engine (issue 28): what it costs a player, measured in Chromium.

Run: ``python benchmarks/offline.py [--moves N]``.  It writes a site with ``trumps site``
into a temporary folder, serves it with Python's static file server on 127.0.0.1, and drives
Debian's Chromium (``/usr/bin/chromium``) through Playwright:

* **bytes**: the engine's files as stored and as gzip would send them (a static host that
  compresses; Python's server does not);
* **to a playable table**: from opening the address to the player's first turn at a new
  Svoi Kozyri duel (one tap on the first screen), on a first visit (everything fetched) and
  on a repeat visit in the same profile (the service worker's copy and the engine's memory
  snapshot; the target is 3 s); median of ``--runs``; beside it the same at a ``trumps
  serve`` on this machine (SQLite; the repeat visit a new guest, the files from the
  browser's cache);
* **a bot's move per level**: the same Python code timing ``decide`` for each level on the
  same positions (a game of random moves, every ``N``-th position), in the page (Pyodide,
  the engine interpreted) and in this process (CPython, the engine as installed: compiled
  with mypyc unless ``TRUMPS_PURE=1``) — the median per level and the ratio page / here.

The levels keep their budgets in the page (``trumps.ai.level_limits``): a search level stops
on its time, so it searches less deep there in the same time; the ratio of the fixed-work
levels (random, easy, medium) is the interpreter's cost.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from functools import partial
from pathlib import Path
from typing import Any

from playwright.async_api import ConsoleMessage, async_playwright

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.server_common import ServerProc

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"]

# Runs in the page (Pyodide) and here: each level's decide timed on the same positions.
TIMING = r"""
import json, random, statistics, time
from trumps.ai import level_limits, make_bot
from trumps.games import new_game

def positions(game_id, players, every, seed=7):
    game = new_game(game_id, players=players, seed=seed)
    rng = random.Random(seed)
    found = []
    while game.outcome is None and len(found) < 40:
        if len(game.history) % every == 0:
            found.append((game.view(game.current_player), game.legal_actions()))
        game.play(rng.choice(game.legal_actions()))
    return found

def timings(moves):
    out = {}
    for game_id, players in (("kozyri", 2), ("twentyfive", 4)):
        spots = positions(game_id, players, 3)[:moves]
        for level in ("random", "easy", "medium", "hard", "expert"):
            bot = make_bot(level, game_id)
            limits = level_limits(game_id, level, players)
            took, work = [], []
            for n, (view, legal) in enumerate(spots):
                start = time.perf_counter()
                decision = bot.decide(view, legal, limits, random.Random(n))
                took.append(time.perf_counter() - start)
                numbers = decision.explain.numbers if decision.explain else {}
                if "depth" in numbers or "deals" in numbers:
                    work.append(numbers.get("depth", numbers.get("deals")))
            out[f"{game_id} {level}"] = [statistics.median(took), statistics.median(work) if work else None]
    return json.dumps(out)
"""

# A worker of the benchmark's own: Pyodide and the engine, then TIMING.
WORKER_JS = """
self.onmessage = async (e) => {
  try {
    const { loadPyodide } = await import(location.origin + "/pyodide/pyodide.mjs");
    const pyodide = await loadPyodide({ indexURL: location.origin + "/pyodide/" });
    const zip = await (await fetch(location.origin + "/engine.zip")).arrayBuffer();
    pyodide.unpackArchive(zip, "zip", { extractDir: "/trumps-engine" });
    pyodide.runPython("import sys; sys.path.insert(0, '/trumps-engine')");
    pyodide.runPython(e.data.code);
    self.postMessage({ ok: pyodide.runPython(`timings(${e.data.moves})`) });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
"""

PAGE_TIMING_JS = """async ([worker, code, moves]) => {
  const w = new Worker(URL.createObjectURL(new Blob([worker], { type: "text/javascript" })), { type: "module" });
  return await new Promise((resolve, reject) => {
    w.onmessage = (e) => (e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.ok));
    w.onerror = (e) => reject(new Error(e.message));
    w.postMessage({ code, moves });
  });
}"""

KEPT = "the engine's snapshot is"  # kept, or not kept: the worker's note (offline/worker.js)
MINE = "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "/index.html", timeout=1).close()
            return proc, url
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the static server did not start")


def note_into(notes: list[str], message: ConsoleMessage) -> None:
    notes.append(message.text)


def progress(line: str) -> None:
    print(f"  {line}", file=sys.stderr, flush=True)


async def to_table(page: Any, url: str) -> float:
    """Seconds from opening ``url`` to my first turn at a new duel (one tap)."""
    start = time.perf_counter()
    await page.goto(url)
    await page.get_by_test_id("home-play-kozyri").click(timeout=120_000)
    await page.wait_for_function(MINE, timeout=120_000)
    return time.perf_counter() - start


async def measure_server(browser: Any, url: str, runs: int, figures: dict[str, Any]) -> None:
    """The same, at a ``trumps serve`` on this machine: the page's files from the browser's
    cache on the repeat visit (a new guest, so that the first screen shows again)."""
    for _ in range(runs):
        context = await browser.new_context()
        page = await context.new_page()
        figures["server first"].append(await to_table(page, url))
        await page.evaluate("localStorage.clear()")
        await context.clear_cookies()
        await page.close()
        page = await context.new_page()
        figures["server repeat"].append(await to_table(page, url))
        progress(
            f"at a server: {figures['server first'][-1]:.1f} s, again {figures['server repeat'][-1]:.1f} s"
        )
        await context.close()


async def measure(url: str, server: str, runs: int, moves: int) -> dict[str, Any]:
    figures: dict[str, Any] = {"first": [], "repeat": [], "server first": [], "server repeat": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        await measure_server(browser, server, runs, figures)
        for _ in range(runs):
            context = await browser.new_context()
            page = await context.new_page()
            notes: list[str] = []
            page.on("console", partial(note_into, notes))
            figures["first"].append(await to_table(page, url))
            progress(f"first visit: {figures['first'][-1]:.1f} s")
            await page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            # The engine's memory snapshot is written while the first game starts: a player
            # who plays a move has given it the second it takes.
            if not any(KEPT in note for note in notes):
                await page.wait_for_event(
                    "console", predicate=lambda m: KEPT in m.text, timeout=60_000
                )
            await page.evaluate("localStorage.removeItem('trumps.offline.game')")  # a new game
            await page.close()
            page = await context.new_page()
            figures["repeat"].append(await to_table(page, url))
            progress(f"repeat visit: {figures['repeat'][-1]:.1f} s")
            await context.close()
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(url + "/pyodide/package.json")
        figures["page"] = json.loads(
            await page.evaluate(PAGE_TIMING_JS, [WORKER_JS, TIMING, moves])
        )
        await browser.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=8, help="positions timed per level")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "www"
        subprocess.run([sys.executable, "-m", "trumps", "site", str(folder)], check=True)
        engine = [folder / "engine.zip", *sorted((folder / "pyodide").iterdir())]
        raw = sum(f.stat().st_size for f in engine)
        packed = sum(len(gzip.compress(f.read_bytes(), 6)) for f in engine)
        print(f"engine files: {raw / 1e6:.1f} MB stored, {packed / 1e6:.1f} MB gzipped")
        proc, url = serve(folder)
        server = ServerProc(
            db=f"sqlite+aiosqlite:///{Path(tmp) / 'games.db'}", workdir=Path(tmp),
            rate=(1000, 100_000), cpu=None, gc_stats=False,
        )  # fmt: skip
        server.start()
        try:
            figures = asyncio.run(
                measure(url, f"http://127.0.0.1:{server.port}/", args.runs, args.moves)
            )
        finally:
            proc.terminate()
            server.stop()
    median = {key: statistics.median(values) for key, values in figures.items() if key != "page"}
    print(f"to a playable table (median of {args.runs}), seconds:")
    print(f"{'':28} {'first visit':>12} {'repeat visit':>13}")
    print(
        f"{'the page, its own engine':28} {median['first']:12.1f} {median['repeat']:13.1f}  (target: repeat under 3 s)"
    )
    print(
        f"{'a trumps serve here':28} {median['server first']:12.1f} {median['server repeat']:13.1f}"
    )
    here_ns: dict[str, Any] = {}
    exec(compile(TIMING, "timing", "exec"), here_ns)
    here = json.loads(here_ns["timings"](args.moves))
    print("a bot's move, median: time, and for the search levels how far it looked (plies")
    print("ahead in the duel, deals sampled at Twenty-Five) in that time")
    print(f"{'':20} {'page':>9} {'here':>9} {'page/here':>9} {'looked: page':>13} {'here':>6}")
    for key, (seconds, work) in figures["page"].items():
        there, there_work = here[key]
        ratio = f"{seconds / there:9.1f}" if there >= 1e-4 else f"{'-':>9}"
        looked = f"{work:13.0f} {there_work:6.0f}" if work is not None else ""
        print(f"{key:20} {seconds * 1000:7.1f}ms {there * 1000:7.1f}ms {ratio} {looked}")


if __name__ == "__main__":
    main()
