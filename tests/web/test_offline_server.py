"""A server's page that offers its own engine (``trumps serve --offline``, issue 28): the
first visit plays online as before and offers "Play offline too (about N MB)"; only when
the player agrees is anything kept on the device; then, with the network cut, the page
opens from the device's copy and plays the computer on its own engine."""

from __future__ import annotations

import asyncio
import gzip
import http.client as http_client
import json
import re
import shutil
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from trumps.web.offline import PYODIDE_VERSION, device_folder, engine_zip, pyodide_dir
from web.kit import SHOTS, WAIT, Run, check_record, device_instant, my_move, open_page

SERVER_ARGS = ("--offline",)
BOOT = 60_000  # ms: Pyodide and the engine starting in a loaded machine's Chromium

# The files the server's service worker lists, each kept in its cache: their count, or 0.
KEPT_JS = """async () => {
  const text = await (await fetch("/sw.js")).text();
  const first = text.split("\\n", 1)[0];
  const list = JSON.parse(first.slice("self.TRUMPS_PRECACHE = ".length, -1));
  const cache = await caches.open("trumps-site-" + list.version);
  const kept = await Promise.all(list.files.map((f) => cache.match(f)));
  return kept.every(Boolean) ? list.files.length : 0;
}"""
TOKEN_JS = "() => localStorage.getItem('trumps.token')"


# Whether each game kept on the device holds its analysis.
ANALYSED_JS = """async () => {
  const { getGame, listGames } = await import("/static/offline/games.js");
  const games = await listGames(0, 100);
  return Promise.all(games.map(async (g) => !!(await getGame(g.id)).analysis));
}"""
REGISTERED_JS = "async () => (await navigator.serviceWorker.getRegistrations()).length"


def precache(server: ServerProc) -> dict[str, Any]:
    first = httpx.get(server.http + "/sw.js").text.split("\n", 1)[0]
    assert first.startswith("self.TRUMPS_PRECACHE = ") and first.endswith(";"), first[:80]
    listed: dict[str, Any] = json.loads(first.removeprefix("self.TRUMPS_PRECACHE = ")[:-1])
    return listed


def test_the_catalog_names_the_device_s_files_and_every_one_answers(server: ServerProc) -> None:
    """The catalog's ``device`` names the worker, Pyodide, the engine and the service
    worker, on the server's own origin, and the bytes it costs; every file the service
    worker keeps answers, Pyodide's wasm as ``application/wasm`` (compressed on the wire)
    and kept for a year; the page, catalog and translations are asked of the server first."""
    device = httpx.get(server.http + "/api/catalog").json()["device"]
    assert device["sw"] == "/sw.js"
    listed = precache(server)
    files = listed["files"]
    assert isinstance(files, list)
    assert set(listed["fresh"]) == {
        "/",
        "/api/catalog",
        *(f"/i18n/{x}.json" for x in ("en", "fa", "pt", "fr")),
    }
    assert device["worker"] in files and device["engine"] in files
    assert device["pyodide"] + "pyodide.asm.wasm" in files
    sizes = 0
    with httpx.Client(base_url=server.http) as http:
        for path in files:
            answer = http.get(path, headers={"accept-encoding": "gzip"})
            assert answer.status_code == 200, path
            sizes += int(answer.headers.get("content-length") or len(answer.content))
        wasm = http.get(device["pyodide"] + "pyodide.asm.wasm", headers={"accept-encoding": "gzip"})
        assert wasm.headers["content-type"] == "application/wasm"
        assert wasm.headers["content-encoding"] == "gzip"
        assert "immutable" in wasm.headers["cache-control"]
        assert http.get("/sw.js").headers["cache-control"] == "no-cache"
        # The engine's worker may compile WebAssembly; the page may not.
        worker = http.get(device["worker"]).headers["content-security-policy"]
        assert "script-src 'self' 'wasm-unsafe-eval';" in worker
        assert "wasm" not in http.get("/").headers["content-security-policy"]
        # (a raw path: httpx would resolve the dots before sending it)
        folder = http.base_url.host, http.base_url.port
        raw = http_client.HTTPConnection(*folder, timeout=10)
        for climb in ("../../../app.py", "../device.json", "pyodide.asm.wasm.gz"):
            raw.request("GET", device["pyodide"] + climb)
            reply = raw.getresponse()
            reply.read()
            assert reply.status == 404, (climb, reply.status)
        raw.close()
        assert http.post(device["engine"]).status_code == 405
    # "about N MB": what keeping it costs on the wire, within the page's own compression
    assert 0.9 * sizes <= device["bytes"] <= 1.1 * sizes, (device["bytes"], sizes)


async def _kept_then_cut(browser: Browser, server: ServerProc) -> tuple[Page, str]:
    """A first visit that agrees to keep the game, then the network cut and a reload; the
    page's token with the server."""
    context, page = await open_page(browser, server.http + "/", still=True, setup=device_instant)
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    offer = page.get_by_test_id("device-keep")
    await expect(offer).to_contain_text("Play offline too (about ")
    # Nothing is kept before the player agrees.
    assert await page.evaluate(REGISTERED_JS) == 0
    assert await page.evaluate("async () => (await caches.keys()).length") == 0
    await page.screenshot(path=str(SHOTS / "offline-server-offer.png"))
    await offer.click()
    await expect(page.get_by_test_id("device-kept")).to_be_visible(timeout=BOOT)
    assert await page.evaluate(KEPT_JS) > 30
    # Online, the page is what it was: the server's page, its lobby, a game on the server;
    # what is kept is the browser's to say (a page reloaded while keeping never noted it).
    await page.evaluate("localStorage.removeItem('trumps.device')")
    await page.reload()
    await expect(page.locator("html[data-ready='1']")).to_have_count(1, timeout=WAIT)
    await expect(page.get_by_test_id("connection")).to_have_text("online")
    await expect(page.get_by_test_id("home-lobby")).to_be_visible()
    await expect(page.get_by_test_id("device-kept")).to_be_visible()
    token = await page.evaluate(TOKEN_JS)
    await context.set_offline(True)
    await page.reload()
    await expect(page.locator("html[data-ready='1']")).to_have_count(1, timeout=WAIT)
    return page, token


def test_kept_on_the_device_it_plays_the_computer_with_the_network_cut(
    server: ServerProc, run: Run, tmp_path: Path
) -> None:
    """Agreed to, the game is kept on the device; with the network cut the server's page
    still opens, says the server cannot be reached, and a Svoi Kozyri duel against the
    computer is played on the page's own engine (a move, then resigned) and kept in the
    history; back
    online the page is the server's again; "Remove" drops the copy."""

    async def body(browser: Browser) -> None:
        page, token = await _kept_then_cut(browser, server)
        await expect(page.get_by_test_id("device-away")).to_be_visible()
        sections = await page.locator("nav button:visible").all_inner_texts()
        assert sections == ["Play", "History"], sections
        await page.screenshot(path=str(SHOTS / "offline-server-away.png"))
        await page.get_by_test_id("home-play-kozyri").click()
        await expect(page.get_by_test_id("connection")).to_have_text("on this device", timeout=BOOT)
        # (a whole duel on the device is played in test_offline_site.py: here, four
        # moves, then the game resigned)
        legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")
        for _ in range(4):
            if not await my_move(page, legal):
                break
        page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        if not await page.get_by_test_id("result").is_visible():
            await page.get_by_test_id("resign").click()
        await expect(page.get_by_test_id("result")).to_be_visible()
        await page.locator("nav [data-show='history']").click()
        await expect(page.locator("#history li.row")).to_have_count(1, timeout=WAIT)
        # The network back: the server's page again, the copy still kept.
        # The engine's own "player" is no identity with the server: the page keeps the
        # server's token for when the network is back.
        assert await page.evaluate(TOKEN_JS) == token
        await page.context.set_offline(False)
        await page.goto(server.http + "/")
        await expect(page.get_by_test_id("connection")).to_have_text("online", timeout=WAIT)
        await expect(page.get_by_test_id("device-away")).to_have_count(0)
        # The history lists the server's games, and beside them the one played on the
        # device, replayed by the page's own engine (analysis is a server's, of its games).
        await page.locator("nav [data-show='history']").click()
        device = page.get_by_test_id("history-device")
        await expect(device.locator("li.row")).to_have_count(1, timeout=WAIT)
        await expect(page.locator("#history li.row")).to_have_count(1)
        # (a guest the server never stored has no games there: said plainly, no error)
        await expect(page.get_by_test_id("history")).to_contain_text("No finished games yet.")
        await expect(page.locator("#status")).to_be_hidden()
        # Its record downloads from the device, and `trumps record check` accepts it.
        async with page.expect_download() as saving:
            await device.get_by_test_id("history-download").click()
        record = json.loads(Path(await (await saving.value).path()).read_text(encoding="utf-8"))
        checked = check_record(record, tmp_path)
        assert checked.startswith(f"ok: kozyri, {len(record['actions'])} actions"), checked
        await device.get_by_role("button", name="Replay").click()
        await expect(page.get_by_test_id("replay-move")).to_contain_text("Move 0 of ", timeout=BOOT)
        # Analysed on the device, by the page's engine, when asked (and kept with the game).
        await expect(page.get_by_test_id("analysis-offer")).to_contain_text("This device can judge")
        await page.get_by_test_id("analyse").click()
        summary = page.get_by_test_id("analysis-summary")
        await expect(summary).to_contain_text("judged", timeout=BOOT)
        judged = re.match(r"(\d+) decisions? judged", await summary.inner_text())
        assert judged and int(judged[1]) >= 1, await summary.inner_text()
        assert "this device's budget" in await summary.inner_text()
        kept = await page.evaluate(ANALYSED_JS)
        assert kept == [True], kept
        await page.screenshot(path=str(SHOTS / "offline-server-history.png"), full_page=True)
        await page.locator("nav [data-show='home']").click()
        await page.get_by_test_id("device-remove").click()
        await expect(page.get_by_test_id("device-keep")).to_be_visible()
        assert await page.evaluate(REGISTERED_JS) == 0
        assert await page.evaluate("async () => (await caches.keys()).length") == 0
        # Kept again: every file is downloaded again, not a copy said kept with none.
        await page.get_by_test_id("device-keep").click()
        await expect(page.get_by_test_id("device-kept")).to_be_visible(timeout=BOOT)
        assert await page.evaluate(KEPT_JS) > 30

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_the_device_folder_is_made_once_and_its_copies_are_the_files(tmp_path: Path) -> None:
    """``device_folder`` (what ``--offline`` serves) holds Pyodide's files, each gzipped
    copy equal to its file once unpacked, and the engine's zip; asked again it is the same
    folder, not written again; a folder left half made (no ``device.json``) is made anew."""
    cache = tmp_path / "cache"
    shutil.copytree(pyodide_dir(), cache / f"pyodide-{PYODIDE_VERSION}")
    folder = device_folder(cache, langs=("en", "fa"))
    assert json.loads((folder / "device.json").read_text())["langs"] == ["en", "fa"]
    assert (folder / "engine.zip").read_bytes() == engine_zip()
    packed = sorted((folder / "pyodide").glob("*.gz"))
    assert {p.name for p in packed} >= {"pyodide.asm.wasm.gz", "pyodide.asm.mjs.gz"}
    for copy in packed:
        assert gzip.decompress(copy.read_bytes()) == (folder / "pyodide" / copy.stem).read_bytes()
    stamp = (folder / "device.json").stat().st_mtime_ns
    assert device_folder(cache, langs=("en", "fa")) == folder
    assert (folder / "device.json").stat().st_mtime_ns == stamp
    (folder / "device.json").unlink()
    assert device_folder(cache, langs=("en", "fa")) == folder
    assert (folder / "device.json").is_file()
