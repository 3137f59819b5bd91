"""A folder written by ``trumps site`` and served by a plain static server (issue 28): the
page plays the computer through its own engine (Pyodide in a Web Worker), with the network
cut once it has loaded, by clicks as a player does."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest
from playwright.async_api import Browser, BrowserContext, Page, Route, expect

from server.e2e import ServerProc, free_port
from trumps.host.catalog import catalog
from trumps.web.site import write_site
from web.kit import (
    MINE,
    MINE_OR_OVER,
    SHOTS,
    WAIT,
    Run,
    check_record,
    device_instant,
    open_page,
    play_out,
    setting,
    to_a_dimmed_card,
)

BOOT = 60_000  # ms: Pyodide and the engine starting in a loaded machine's Chromium


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``trumps site`` into a folder, served by Python's own static file server."""
    folder = tmp_path_factory.mktemp("site") / "www"
    made = subprocess.run(
        [sys.executable, "-m", "trumps", "site", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    assert "serve it at the root" in made.stdout
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/index.html", timeout=1.0).status_code == 200:
                break
        assert time.monotonic() < deadline, "the static server did not start"
        time.sleep(0.05)
    yield url
    proc.terminate()
    proc.wait(timeout=30)


async def open_site(browser: Browser, site: str) -> tuple[BrowserContext, Page]:
    """A new profile at the site, the bots instant and motion reduced: a tap lands on a
    card at rest (a card still flying in from the deal can be missed by a tap at where it
    is going — seen as a lost why-not); the table's motion has tests of its own."""
    return await open_page(browser, site + "/", pace=None, setup=device_instant, still=True)


async def offline_site(browser: Browser, site: str) -> Page:
    """The site opened once (its service worker keeps it), then the network cut and the
    page loaded again: what a player sees on the train."""
    context, page = await open_site(browser, site)
    await page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    await page.wait_for_function(KEPT_JS, timeout=BOOT)
    await context.set_offline(True)
    await page.reload()
    await expect(page.locator("html[data-ready='1']")).to_have_count(1, timeout=WAIT)
    return page


# Every file of the site kept by its service worker (precache.json's list, in one cache).
KEPT_JS = """async () => {
  const list = await (await fetch("/precache.json")).json();
  const cache = await caches.open("trumps-site-" + list.version);
  const kept = await Promise.all(list.files.map((f) => cache.match(f)));
  return kept.every(Boolean) && list.files.length;
}"""


def test_a_static_site_plays_the_computer_with_the_network_cut(
    site: str, run: Run, tmp_path: Path
) -> None:
    """A first visit to the site keeps it (its service worker) and it is installable as an
    app (Chromium's checks of the manifest and service worker); the network is then cut
    and the page reloaded: one tap starts a Svoi Kozyri duel against the computer, played
    to its end by clicks, every card drawn and nothing fetched from the network. The game
    is kept on the device: its record downloads (and ``trumps record check`` accepts it),
    and after a reload the history lists it and replays it."""

    async def body(browser: Browser) -> None:
        context, page = await open_site(browser, site)
        await page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        await page.wait_for_function(KEPT_JS, timeout=BOOT)
        cdp = await context.new_cdp_session(page)  # Chromium's own installability checks
        assert (await cdp.send("Page.getInstallabilityErrors"))["installabilityErrors"] == []
        manifest = await cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/static/manifest.webmanifest")
        await context.set_offline(True)
        await page.reload()
        await expect(page.locator("html[data-ready='1']")).to_have_count(1, timeout=WAIT)
        # No server here: only the computer to play, on this device.
        sections = await page.locator("nav button:visible").all_inner_texts()
        assert sections == ["Play", "History"], sections
        assert await page.get_by_test_id("home-friend-kozyri").count() == 0
        assert await page.get_by_test_id("home-lobby").count() == 0
        failed: list[str] = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
        await page.get_by_test_id("home-play-kozyri").click()
        await expect(page.get_by_test_id("connection")).to_have_attribute(
            "data-state", "online", timeout=BOOT
        )
        await expect(page.get_by_test_id("table")).to_be_visible()
        await expect(page.get_by_test_id("connection")).to_have_text("on this device")
        moves = await play_out(page)
        assert moves >= 3
        await expect(page.get_by_test_id("result")).to_be_visible()
        broken = await page.evaluate(
            "[...document.images].filter((i) => i.complete && !i.naturalWidth).map((i) => i.src)"
        )
        await page.screenshot(path=str(SHOTS / "offline-site-result.png"))
        assert not broken and not failed, (broken, failed)
        # The finished game is kept on the device: its record downloads and checks out ...
        async with page.expect_download() as saving:
            await page.get_by_test_id("download-record").click()
        record = json.loads(Path(await (await saving.value).path()).read_text(encoding="utf-8"))
        checked = check_record(record, tmp_path)
        assert checked.startswith(f"ok: kozyri, {len(record['actions'])} actions"), checked
        # ... and after a reload (still no network) the history lists it and replays it.
        await page.reload()
        await page.locator("nav [data-show='history']").click()
        rows = page.locator("#history li.row")
        await expect(rows).to_have_count(1, timeout=BOOT)
        await rows.get_by_role("button", name="Replay").click()
        last = len(record["actions"])
        await expect(page.get_by_test_id("replay-move")).to_have_text(f"Move 0 of {last}")
        await page.keyboard.press("End")
        await expect(page.get_by_test_id("replay-move")).to_contain_text(f"Move {last} of {last}")
        # (its analysis is offered, made by the page's engine: tests/web/test_offline_server.py)
        await expect(page.get_by_test_id("analysis-offer")).to_contain_text("This device can judge")
        await page.screenshot(path=str(SHOTS / "offline-site-history.png"))
        assert not failed, failed

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_twenty_five_for_four_offline_with_a_why_not_and_a_hint(site: str, run: Run) -> None:
    """With the network cut, a 4-player Twenty-Five game against the computer (all bots
    in the page's engine): a dimmed card says why it cannot be played (the game's reason,
    F-rules), the hint answers from the expert thinking in the page, and the game is played
    to its end. (Against beginners, the bots that play any legal card: a game to 25 of
    three searching bots in the page took seconds more; the duel above plays the default
    level, and the hint is the expert's search.)"""

    async def body(browser: Browser) -> None:
        page = await offline_site(browser, site)
        await page.get_by_test_id("home-level-random").click()
        await page.get_by_test_id("home-players-twentyfive").select_option("4")
        await page.get_by_test_id("home-play-twentyfive").click()
        await expect(page.get_by_test_id("table")).to_be_visible(timeout=BOOT)
        for _ in range(3):  # (a random deal may end with no card ever dimmed: deal again)
            try:
                card = page.get_by_test_id(await to_a_dimmed_card(page))
                break
            except AssertionError:
                await page.get_by_test_id("rematch").click()
                await expect(page.get_by_test_id("result")).to_be_hidden(timeout=BOOT)
        else:
            raise AssertionError("no card was dimmed in three games")
        await card.click(force=True)  # a person can tap a dimmed card
        why = page.get_by_test_id("why-not")
        await expect(why).not_to_be_empty()
        assert (
            "follow" in (await why.inner_text()).lower()
            or "trump" in (await why.inner_text()).lower()
        )
        await page.get_by_test_id("hint").click()
        hint = page.get_by_test_id("hint-text")
        await expect(hint).to_be_visible(timeout=BOOT)
        assert (await hint.inner_text()).strip()
        await page.screenshot(path=str(SHOTS / "offline-site-twentyfive-hint.png"))
        assert await play_out(page) >= 1
        await expect(page.get_by_test_id("result")).to_be_visible()

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_rules_help_keyboard_and_text_mode_with_the_network_cut(site: str, run: Run) -> None:
    """With the network cut, the rules help opens on the game, a card is played by its
    number key (the keyboard play), and in text mode a move is played by its typed code
    and the table's facts are answered (the page's own engine behind all of it)."""

    async def body(browser: Browser) -> None:
        page = await offline_site(browser, site)
        await page.get_by_test_id("help-open").click()
        await expect(page.get_by_test_id("rules-kozyri")).to_contain_text("trump")
        await page.get_by_test_id("help-close").click()
        await page.get_by_test_id("home-play-kozyri").click()
        table = page.get_by_test_id("table")
        await expect(table).to_be_visible(timeout=BOOT)
        await page.wait_for_function(MINE)
        before = await table.get_attribute("data-event")
        await page.keyboard.press("1")  # the first move that may be made (the trump's choice)
        await expect(table).not_to_have_attribute("data-event", before or "", timeout=WAIT)
        await page.wait_for_function(MINE_OR_OVER)
        await setting(page, "text-mode", True)
        await expect(page.get_by_test_id("text-table")).to_be_visible()
        if await page.get_by_test_id("result").is_visible():
            return  # (a one-move game: there is nothing left to type)
        command = page.get_by_test_id("text-command")
        answers = page.get_by_test_id("text-answers")
        await command.fill("table")
        await command.press("Enter")
        await expect(answers).to_contain_text("Trumps:")
        await page.wait_for_function(MINE_OR_OVER)
        if await page.get_by_test_id("result").is_visible():
            return
        legal = page.locator("#table button.hcard[data-legal='true']")
        code = await legal.first.get_attribute("data-card") if await legal.count() else "take"
        before = await table.get_attribute("data-event")
        await command.fill(code or "")
        await command.press("Enter")
        await expect(table).not_to_have_attribute("data-event", before or "", timeout=WAIT)

    run(body)


def test_a_game_under_way_survives_closing_the_tab(site: str, run: Run) -> None:
    """A duel against the computer, a few moves in: the tab is closed and the site opened
    again at the same address (the network cut): the same table comes back at the same
    event, its log kept, and the game goes on to its end. The second visit's engine starts
    from the memory snapshot the first kept (offline/snapshot.js)."""

    async def body(browser: Browser) -> None:
        notes: list[str] = []

        async def setup(context: BrowserContext) -> None:  # (heard from the page's start)
            await device_instant(context)
            context.on("console", lambda message: notes.append(message.text))

        context, page = await open_page(browser, site + "/", pace=None, setup=setup, still=True)
        await page.get_by_test_id("home-play-kozyri").click()
        await expect(page.get_by_test_id("table")).to_be_visible(timeout=BOOT)
        table = page.get_by_test_id("table")
        legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")
        for _ in range(3):
            await page.wait_for_function(MINE)
            before = await table.get_attribute("data-event")
            await legal.first.click()
            await expect(table).not_to_have_attribute("data-event", before or "", timeout=WAIT)
        await page.wait_for_function(MINE)
        address, event = page.url, await table.get_attribute("data-event")
        log = await page.get_by_test_id("log").locator("li").count()
        assert "table=local-" in address, address
        kept = "trumps: the engine's snapshot is kept"
        if kept not in notes:  # it is kept while the game is played: wait for the word
            await page.wait_for_event("console", predicate=lambda m: m.text == kept, timeout=BOOT)
        assert not any("from its snapshot" in note for note in notes), notes
        await page.close()
        await context.set_offline(True)
        again = await context.new_page()
        await again.goto(address)
        table = again.get_by_test_id("table")
        await expect(table).to_be_visible(timeout=BOOT)
        await expect(table).to_have_attribute("data-event", event or "", timeout=BOOT)
        assert await again.get_by_test_id("log").locator("li").count() == log
        assert any(
            note.startswith("trumps: the engine started from its snapshot") for note in notes
        ), notes
        assert await play_out(again) >= 1
        await expect(again.get_by_test_id("result")).to_be_visible()

    run(body)


def test_a_tap_while_the_engine_starts_starts_the_game_once_it_is_up(site: str, run: Run) -> None:
    """The first screen shows before the page's engine is up (seconds on a first visit): a
    tap on Play then says the game is starting on this device, and the game starts once
    the engine is up (the engine's download is held back until after the tap)."""

    async def body(browser: Browser) -> None:
        context = await browser.new_context(locale="en-GB")
        await device_instant(context)
        held: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def hold(route: Route) -> None:
            await held
            await route.continue_()

        await context.route("**/engine.zip", hold)
        page = await context.new_page()
        await page.goto(site + "/")
        await page.get_by_test_id("home-play-kozyri").click()
        await expect(page.locator("#status")).to_contain_text("Starting the game on this device")
        held.set_result(None)
        await expect(page.get_by_test_id("table")).to_be_visible(timeout=BOOT)
        await expect(page.locator("#status")).to_be_hidden()
        await page.wait_for_function(MINE_OR_OVER)

    run(body)


def test_the_site_on_a_persian_phone(site: str, run: Run) -> None:
    """The site's first screen and table on a phone in Persian: only the computer to play,
    the engine "on this device" in Persian words, the table playable; a resigned game in
    the history with its seats named in Persian."""

    async def body(browser: Browser) -> None:
        _, page = await open_page(
            browser, site + "/", locale="fa-IR", phone=True, pace=None, setup=device_instant
        )
        await page.screenshot(path=str(SHOTS / "offline-site-home-phone-fa.png"))
        assert await page.get_by_test_id("home-friend-twentyfive").count() == 0
        await page.get_by_test_id("home-play-twentyfive").click()
        await expect(page.get_by_test_id("connection")).to_have_text(
            "روی همین دستگاه", timeout=BOOT
        )
        await page.wait_for_function(MINE_OR_OVER)
        await page.screenshot(path=str(SHOTS / "offline-site-table-phone-fa.png"))
        hand = page.locator("[data-testid='hand'] [data-legal='true']")
        assert await hand.count() >= 1
        # Resigned, the game is in the history, its seats named in Persian (the record
        # keeps the defaults in English: "Guest", "medium bot").
        page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        await page.get_by_test_id("resign").click()
        await expect(page.get_by_test_id("result")).to_be_visible()
        await page.locator("nav [data-show='history']").click()
        row = page.locator("#history li.row")
        await expect(row).to_have_count(1, timeout=WAIT)
        names = await row.inner_text()
        assert "مهمان" in names and "ربات متوسط" in names, names
        assert "Guest" not in names and " bot" not in names, names
        await page.screenshot(path=str(SHOTS / "offline-site-history-phone-fa.png"))

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_the_site_s_catalog_names_its_engine_on_its_own_origin(site: str) -> None:
    """Nothing is fetched from elsewhere: the engine's addresses are the site's own, and
    every file they name is in it."""
    data = json.loads(httpx.get(site + "/api/catalog").text)
    offline = data["offline"]
    assert all(url.startswith("/") and not url.startswith("//") for url in offline.values())
    for path in (offline["worker"], offline["engine"], offline["pyodide"] + "pyodide.mjs",
                 offline["pyodide"] + "pyodide.asm.wasm"):  # fmt: skip
        assert httpx.get(site + path).status_code == 200, path
    assert {g["id"] for g in data["games"]} == {"kozyri", "twentyfive"}


def test_site_refuses_a_file_for_a_folder_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("x")
    answer = subprocess.run(
        [sys.executable, "-m", "trumps", "site", str(target)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert answer.returncode != 0
    assert answer.stderr.count("\n") == 1 and "is a file" in answer.stderr
    assert target.read_text() == "x"


def test_the_server_s_page_names_a_valid_manifest_and_icon(server: ServerProc, run: Run) -> None:
    """The page a server serves names the same web app manifest (under its versioned
    prefix): Chromium reads it without errors and finds its icon. A server started
    without ``--offline`` offers no copy for the device (no service worker, no offer)."""

    async def body(browser: Browser) -> None:
        context, page = await open_page(browser, server.http + "/")
        cdp = await context.new_cdp_session(page)
        manifest = await cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        assert "/static/v-" in manifest["url"]
        for icon in json.loads(manifest["data"])["icons"]:  # the SVG and its PNGs
            assert (await page.request.get(urljoin(manifest["url"], icon["src"]))).ok, icon
        touch = await page.locator("link[rel='apple-touch-icon']").get_attribute("href")
        assert touch and (await page.request.get(urljoin(page.url, touch))).ok
        # Without --offline the server offers nothing to keep on a device.
        assert (await page.request.get(server.http + "/sw.js")).status == 404
        assert "device" not in await (await page.request.get(server.http + "/api/catalog")).json()
        await expect(page.get_by_test_id("home-screen")).to_be_visible()
        assert await page.get_by_test_id("device-keep").count() == 0

    run(body)


def test_a_new_site_is_a_new_service_worker(tmp_path: Path) -> None:
    """Browsers install a service worker again only when its bytes change: the site's
    list and version are written into sw.js, the same for the same files and new for any
    change, and every file it lists is in the folder."""

    def worker(folder: Path, games: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        write_site(folder, games)
        text = (folder / "sw.js").read_text(encoding="utf-8")
        first = text.split("\n", 1)[0]
        assert first.startswith("self.TRUMPS_PRECACHE = ") and first.endswith(";"), first
        listed = json.loads(first.removeprefix("self.TRUMPS_PRECACHE = ")[:-1])
        return text, listed

    same_a, listed = worker(tmp_path / "a", catalog())
    same_b, _ = worker(tmp_path / "b", catalog())
    changed, listed_c = worker(tmp_path / "c", {**catalog(), "levels": []})
    assert same_a == same_b
    assert changed != same_a and listed_c["version"] != listed["version"]
    assert listed == json.loads((tmp_path / "a" / "precache.json").read_text(encoding="utf-8"))
    assert "/index.html" in listed["files"] and "/engine.zip" in listed["files"]
    for file in listed["files"]:
        assert (tmp_path / "a" / file.lstrip("/")).is_file(), file
