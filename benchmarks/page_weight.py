"""Page weight: what a player's browser downloads, against real ``trumps serve`` processes.

Run: ``python benchmarks/page_weight.py [--before SRC] [--after SRC] [--runs N]``.  Each
``SRC`` is the ``src`` folder of a checkout (default ``--after``: this one's); the script
starts ``trumps serve`` from it (a fresh SQLite file, 127.0.0.1, random bots) and drives
Debian's Chromium (``/usr/bin/chromium``) through Playwright, with Chromium's own record of
each request (the DevTools protocol):

* **first screen**: a first visit with an empty cache — HTTP bytes on the wire (headers and
  bodies, compressed as sent) and the number of requests until the first screen is shown
  (the two games since issue 27; the lobby before);
* **+ one hand**: the same visit, then a Svoi Kozyri duel against the random bot, started
  from the lobby's form (``#lobby``), played to its end (one hand: every card face the table
  drew is fetched);
* **frames**: while that hand is played (cards flying in, tricks swept), the gaps between
  animation frames (``requestAnimationFrame``): the 95th percentile and the longest, and the
  tasks of over 50 ms (the Long Tasks API) — at 60 frames a second a gap is 16.7 ms;
* **reload**: the page reloaded, unchanged — requests that went to the server (a 304 counts;
  a file taken from the browser's cache does not) and their bytes;
* **return visit**: the same profile opens the address in a new tab — the same counts;
* **first paint**: ``first-contentful-paint`` of the Performance API, on the first visit,
  the reload and the return visit (median of ``--runs``).

A server that sends no ``Cache-Control`` leaves the browser to guess how long a file stays
fresh (10% of its age since ``Last-Modified``, RFC 9111 §4.2.2): files just checked out are
asked for again within minutes, files installed long ago are not.  ``--deployed`` sets the
modification time of every file of the page to the moment its server starts (a fresh
deploy): the reload and the return visit, seconds later, then find them stale and ask again
(a 304 each, where the server before gets one), while fingerprinted files are never asked
for.  Without it the heuristic hides the difference on a checkout a few minutes old.

To compare with the server before compression and fingerprinted caching (commit 283bbd4),
measure its parent from a temporary worktree, never committed::

    git worktree add --detach /tmp/before 283bbd4^
    python benchmarks/page_weight.py --before /tmp/before/src
    git worktree remove /tmp/before

Both columns are printed side by side with the ratio after / before.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, CDPSession, Page, async_playwright
from playwright.async_api import Error as PlaywrightError

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-dev-shm-usage"]
HERE = Path(__file__).resolve().parent.parent / "src"
WAIT = 30_000  # ms
SHOW: dict[str, bool] = {
    "verbose": False,
    "deployed": False,
}  # --verbose: list what each reload asked for
LEGAL = "[data-testid='hand'] [data-legal='true'], [data-testid^='action-']"
SETTLED = (
    "() => !document.querySelector(\"[data-testid='result']\")?.hidden"
    f' || document.querySelector("{LEGAL}") !== null'
)
# Every animation frame's time and every long task, from the page's first moment.
FRAMES_JS = """(() => {
  window.__frames = []; window.__long = [];
  const tick = (t) => { window.__frames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); })
    .observe({ type: "longtask", buffered: true }); } catch {}
})()"""
FRAME_GAPS = """(from) => { const f = window.__frames.filter((t) => t >= from);
  return [f.slice(1).map((t, i) => t - f[i]), window.__long.length]; }"""
FIRST_SCREEN = "[data-testid='home-screen'], [data-testid='play-computer']"
GONE = "(e) => !e.isConnected || (e.dataset.legal !== undefined && e.dataset.legal !== 'true')"
DESCRIBE = "(e) => e.outerHTML.slice(0, 300)"
FCP = (
    "() => new Promise((done) => { const look = () => {"
    " const e = performance.getEntriesByName('first-contentful-paint')[0];"
    " if (e) done(e.startTime); else requestAnimationFrame(look); }; look(); })"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``trumps serve`` from the checkout whose ``src`` is ``src``."""

    def __init__(self, src: Path, workdir: Path) -> None:
        self.src, self.workdir, self.port = src, workdir, free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def __enter__(self) -> Server:
        if SHOW["deployed"]:  # every file of the page modified now, as right after a deploy
            for path in (self.src / "trumps" / "web" / "static").rglob("*"):
                if path.is_file():
                    os.utime(path)
        env = {**os.environ, "PYTHONPATH": str(self.src)}
        base = [sys.executable, "-m", "trumps", "serve"]
        help_text = subprocess.run(
            [*base, "--help"], check=False, env=env, capture_output=True, text=True
        ).stdout
        args = [
            *base, "--port", str(self.port), "--db", f"sqlite+aiosqlite:///{self.workdir / 'w.db'}",
            "--secret-file", str(self.workdir / "secret.key"), "--bot-time", "0.02",
            "--log-level", "warning", "--rate", "10000", "--rate-minute", "1000000",
            "--seed", "1040",  # the same deals on both servers
        ]  # fmt: skip
        if "--bot-pace" in help_text:  # servers after pacing came: no wait between moves
            args += ["--bot-pace", "instant"]
        self.proc = subprocess.Popen(args, env=env, cwd=self.workdir)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url + "healthz", timeout=1):
                    return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"trumps serve from {self.src} did not start") from None
                time.sleep(0.1)

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(10)


@dataclass
class Traffic:
    """Chromium's record of the requests of one page (DevTools ``Network`` events)."""

    requests: int = 0
    bytes: int = 0
    to_server: int = 0  # answered by the server (not from the browser's cache)
    to_server_bytes: int = 0
    _ids: dict[str, bool] = field(default_factory=dict)  # request id -> went to the server
    urls: list[str] = field(default_factory=list)  # status and address of each of those
    _cached: set[str] = field(default_factory=set)  # answered from the browser's memory cache

    def reset(self) -> None:
        self.requests = self.bytes = self.to_server = self.to_server_bytes = 0
        self._ids.clear()
        self.urls.clear()
        self._cached.clear()

    async def watch(self, cdp: CDPSession) -> None:
        def sent(e: dict[str, Any]) -> None:
            if e["request"]["url"].startswith("http"):
                self.requests += 1
                self._ids.setdefault(e["requestId"], False)

        def from_cache(e: dict[str, Any]) -> None:
            self._cached.add(e["requestId"])

        def answered(e: dict[str, Any]) -> None:
            r = e["response"]
            cached = r.get("fromDiskCache") or r.get("fromPrefetchCache")
            cached = cached or e["requestId"] in self._cached
            if e["requestId"] in self._ids and not cached:
                self._ids[e["requestId"]] = True
                self.to_server += 1
                self.urls.append(f"{r['status']} {r['url']}")

        def finished(e: dict[str, Any]) -> None:
            if self._ids.get(e["requestId"]):
                n = int(e.get("encodedDataLength", 0))
                self.bytes += n
                self.to_server_bytes += n

        cdp.on("Network.requestWillBeSent", sent)
        cdp.on("Network.requestServedFromCache", from_cache)
        cdp.on("Network.responseReceived", answered)
        cdp.on("Network.loadingFinished", finished)
        await cdp.send("Network.enable")


async def play_one_hand(page: Page) -> None:
    """A Svoi Kozyri duel against the random bot, the first legal card or word each turn."""
    await page.get_by_test_id("pc-game").wait_for(timeout=WAIT)
    await page.get_by_test_id("pc-game").select_option("kozyri")
    await page.get_by_test_id("pc-level").select_option("random")
    await page.get_by_test_id("play-computer").click()
    await page.get_by_test_id("hand").wait_for()
    misses = 0
    for _ in range(400):
        await page.wait_for_function(SETTLED, timeout=WAIT)
        if await page.get_by_test_id("result").is_visible():
            await page.wait_for_load_state("networkidle")
            return
        handle = await page.locator(LEGAL).first.element_handle()
        try:
            await handle.click(timeout=2000)
        except PlaywrightError:  # drawn again by an event meanwhile: look again
            misses += 1
            if misses > 20:  # the same control would not take a click: say which
                stuck = await page.locator(LEGAL).first.evaluate(DESCRIBE)
                raise SystemExit(f"no click is taken: {stuck}") from None
            continue
        misses = 0
        await page.wait_for_function(GONE, arg=handle, timeout=WAIT)
    raise SystemExit("the hand did not end in 400 moves")


async def measure(browser: Browser, url: str) -> dict[str, float]:
    context = await browser.new_context(locale="en-GB")
    await context.add_init_script("localStorage.setItem('trumps.name', 'Ana')")
    await context.add_init_script(FRAMES_JS)
    page = await context.new_page()
    traffic = Traffic()
    await traffic.watch(await context.new_cdp_session(page))
    await page.goto(url)
    await page.locator(FIRST_SCREEN).first.wait_for(timeout=WAIT)
    await page.wait_for_load_state("networkidle")
    out: dict[str, float] = {
        "first screen: KiB": traffic.bytes / 1024,
        "first screen: requests": traffic.requests,
        "first paint, first visit: ms": await page.evaluate(FCP),
    }
    await page.goto(url + "#lobby")  # (the same document: the lobby where it has an address)
    started = await page.evaluate("performance.now()")
    long_before = await page.evaluate("window.__long.length")
    await play_one_hand(page)
    gaps, long_after = await page.evaluate(FRAME_GAPS, started)
    out["+ one hand: KiB"] = traffic.bytes / 1024
    out["+ one hand: requests"] = traffic.requests
    gaps.sort()
    out["frames: 95th percentile gap, ms"] = gaps[int(0.95 * (len(gaps) - 1))] if gaps else 0.0
    out["frames: longest gap, ms"] = gaps[-1] if gaps else 0.0
    out["frames: tasks over 50 ms"] = long_after - long_before
    traffic.reset()
    await page.reload()
    await page.get_by_test_id("connection").wait_for(timeout=WAIT)
    await page.wait_for_load_state("networkidle")
    out["reload: requests to the server"] = traffic.to_server
    out["reload: KiB"] = traffic.to_server_bytes / 1024
    if SHOW["verbose"]:
        print("reload asked the server for:", *traffic.urls, sep="\n  ")
    out["first paint, reload: ms"] = await page.evaluate(FCP)
    # A return visit: the same profile (its disk cache) opens the address in a new tab.
    again = await context.new_page()
    traffic = Traffic()
    await traffic.watch(await context.new_cdp_session(again))
    await again.goto(url)
    await again.locator(FIRST_SCREEN).first.wait_for(timeout=WAIT)
    await again.wait_for_load_state("networkidle")
    out["return visit: requests to the server"] = traffic.to_server
    out["return visit: KiB"] = traffic.to_server_bytes / 1024
    out["first paint, return visit: ms"] = await again.evaluate(FCP)
    if SHOW["verbose"]:
        print("the return visit asked the server for:", *traffic.urls, sep="\n  ")
    await context.close()
    return out


async def measure_server(src: Path, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, Server(src, Path(tmp)) as server:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                samples = [await measure(browser, server.url) for _ in range(runs)]
            finally:
                await browser.close()
    return {k: statistics.median(s[k] for s in samples) for k in samples[0]}


def show(columns: dict[str, dict[str, float]]) -> None:
    names = list(columns)
    keys = list(next(iter(columns.values())))
    print(
        f"{'':34}"
        + "".join(f"{n:>12}" for n in names)
        + ("       ratio" if len(names) == 2 else "")
    )
    for key in keys:
        row = [columns[n][key] for n in names]
        line = f"{key:34}" + "".join(f"{v:12.1f}" for v in row)
        if len(row) == 2:
            line += f"{row[1] / row[0]:12.2f}" if row[0] else f"{'—':>12}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="src folder of the server to compare with")
    parser.add_argument("--after", type=Path, default=HERE, help="src folder (default: this one)")
    parser.add_argument("--runs", type=int, default=3, help="fresh browser profiles per server")
    parser.add_argument("--verbose", action="store_true", help="list each reload's requests")
    parser.add_argument(
        "--deployed", action="store_true", help="the page's files modified as the server starts"
    )
    args = parser.parse_args()
    SHOW["verbose"] = args.verbose
    SHOW["deployed"] = args.deployed
    columns: dict[str, dict[str, float]] = {}
    if args.before is not None:
        columns["before"] = asyncio.run(measure_server(args.before.resolve(), args.runs))
    columns["after"] = asyncio.run(measure_server(args.after.resolve(), args.runs))
    show(columns)


if __name__ == "__main__":
    main()
