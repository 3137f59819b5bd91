"""Pacing in the page (issue 11 part 1): a person can follow a Twenty-Five hand against
three bots.  The server paces the bots (``--bot-pace normal``); the page holds each finished
trick with its winner named, draws the last trick of the hand (the view already shows the
next deal), then sums the hand up; the log tells who won each trick and when a hand ends.

What a person sees over time is sampled in the page on every animation frame with its
timestamp, so a trick drawn for only a few frames fails.  Screenshots of the trick hold and
the hand summary are saved with the test artifacts (copied to ``docs/screenshots/``).
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.async_api import Browser, BrowserContext, Page, expect

from server.e2e import ServerProc
from web.kit import SHOTS, WS_URL, Run, open_page, relay, set_name, setting

# Written as test artifacts; the copies in docs/screenshots/ are these, looked at.
DOCS_SHOTS = SHOTS
WAIT = 20_000
HOLD_MS = 1000  # a finished trick a bot won stays at least this long

# Every animation frame: the finished trick shown (its cards and winner) and the open one.
SAMPLER = """() => {
  // Each change of the table as the page makes it (a MutationObserver, not frames: a frame
  // may be painted late on a busy machine; the page's own timing is what is tested here).
  window.__samples = [];
  const codes = (node) => [...node.querySelectorAll("[data-card]")].map((c) => c.dataset.card).join(" ");
  const look = () => {
    const area = document.querySelector("[data-testid='table'] .trick-area");
    const held = area?.querySelector(".last-trick");
    const open = area?.querySelector(".spread.trick:not(.done)");
    const sample = {
      t: performance.now(),
      held: held ? codes(held) : null,
      winner: held ? held.querySelector("[data-testid='trick-winner']")?.textContent ?? "" : null,
      open: open ? codes(open) : "",
    };
    const last = window.__samples.at(-1);
    if (last && last.held === sample.held && last.winner === sample.winner && last.open === sample.open) return;
    window.__samples.push(sample);
  };
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  look();
}"""


@pytest.fixture
def paced(tmp_path: Path) -> Iterator[ServerProc]:
    proc = ServerProc(
        f"sqlite+aiosqlite:///{tmp_path / 'pace.db'}", tmp_path, seed=2026, bot_pace="normal"
    )
    proc.start()
    yield proc
    proc.stop()


async def shoot(page: Page, selector: str, name: str) -> None:
    """A small PNG of part of the page for the docs (a palette of 96 colours)."""
    path = DOCS_SHOTS / name
    await page.locator(selector).screenshot(path=str(path))
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=96)
    small.save(path, optimize=True)


def shown_for(samples: list[dict[str, Any]]) -> list[tuple[str, str, float, bool]]:
    """Each finished trick drawn: its cards, the winner line, how long (ms) it stayed (from
    the change that drew it to the change that took it away), and whether it was still drawn
    at the last sample."""
    out: list[tuple[str, str, float, bool]] = []
    start: dict[str, Any] | None = None
    for prev, cur in zip([None, *samples], samples, strict=False):
        if cur["held"] != (prev or {}).get("held"):
            if start is not None and prev is not None:
                out.append((start["held"], start["winner"], cur["t"] - start["t"], False))
            start = cur if cur["held"] else None
    if start is not None:
        out.append((start["held"], start["winner"], samples[-1]["t"] - start["t"], True))
    return out


def test_a_hand_against_three_bots_can_be_followed(paced: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, paced.http + "/#lobby", pace=None)  # the page's pace
        await set_name(page, "Aoife")
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-players").select_option("4")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        await page.evaluate(SAMPLER)
        summary, turn = page.get_by_test_id("hand-summary"), page.get_by_test_id("turn")
        legal = page.locator("[data-testid='hand'] [data-legal='true']")
        shot = looked = False
        while True:
            await page.wait_for_function(
                "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
                " || document.querySelector(\"[data-testid='hand-summary']\")"
            )
            if await summary.count():
                break
            if await turn.get_attribute("data-mine") != "true":
                continue
            held = page.locator("[data-testid='trick-held']")
            button = page.get_by_test_id("last-trick")
            if not looked and await button.is_visible():
                # A new trick is on the table: the one before is a click away.
                await button.click()
                view = page.get_by_test_id("last-trick-view")
                await expect(view.locator("[data-card]")).to_have_count(4)
                await expect(view.get_by_test_id("trick-winner")).to_contain_text("won the trick")
                await button.click()
                await expect(view).to_be_hidden()
                looked = True
            if not shot and await held.count():
                await shoot(page, ".felt", "twentyfive-trick-hold.png")
                shot = True
            before = await page.get_by_test_id("table").get_attribute("data-event")
            await legal.first.click()
            await expect(page.get_by_test_id("table")).not_to_have_attribute(
                "data-event", before or ""
            )
        await expect(summary).to_be_visible()
        # The summary: the hand, each player's tricks (five in all), the last trick drawn.
        await expect(summary).to_contain_text("Hand 1 is over")
        tricks = summary.locator("tbody tr td:nth-child(2)")
        assert await tricks.count() == 4
        assert sum(int(x) for x in await tricks.all_inner_texts()) == 5
        last = summary.get_by_test_id("trick-view").locator("[data-card]")
        await expect(last).to_have_count(4)
        last_cards = " ".join([await c.get_attribute("data-card") or "" for c in await last.all()])
        await shoot(page, ".centre-wrap", "twentyfive-hand-summary.png")
        samples: list[dict[str, Any]] = await page.evaluate("window.__samples")
        drawn = shown_for(samples)
        # The hand's last trick is drawn on the table (as the next deal is already in view).
        assert drawn[-1][0] == last_cards, (drawn[-1], last_cards)
        finished = [d for d in drawn if not d[3]]
        by_bots = [d for d in finished if "Aoife" not in d[1]]
        assert by_bots, drawn
        for cards, winner, ms, _ in by_bots:
            assert "won the trick" in winner
            assert ms >= HOLD_MS, (cards, winner, ms)
        # Each card arrives on its own: the open trick never grows by two cards at once.
        for prev, cur in itertools.pairwise(samples):
            a, b = prev["open"].split(), cur["open"].split()
            if b[: len(a)] == a:
                assert len(b) - len(a) <= 1, (prev, cur)
        log = await page.get_by_test_id("log").inner_text()
        assert log.count("won the trick.") >= 5, log
        assert "Hand 1 is over." in log and "Hand 2 is dealt." in log, log
        assert looked
        # The animation speed is a page setting, kept for the next visit.
        await setting(page, "anim-speed", "fast")
        await expect(page.locator("html[data-anim='fast']")).to_have_count(1)
        assert await page.evaluate("localStorage.getItem('trumps.anim')") == "fast"
        # The summary closes; the next hand is played on.
        await summary.get_by_test_id("summary-close").click()
        await expect(summary).to_have_count(0)
        await ctx.close()

    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


REPLAY_SAMPLER = """() => {
  // Each change of the replay, when the page made it (a frame may be painted late on a busy
  // machine; the page's own timing is what is tested here).
  window.__replay = [];
  const box = document.querySelector("[data-testid='history'] .replay");
  const look = () => {
    const move = box.querySelector("[data-testid='replay-move']");
    const m = move ? Number(move.dataset.move) : -1;
    if (window.__replay.at(-1)?.move === m) return;
    window.__replay.push({ t: performance.now(), move: m, held: !!box.querySelector("[data-testid='trick-held']") });
  };
  new MutationObserver(look).observe(box, { childList: true, subtree: true });
  look();
}"""


@pytest.fixture(scope="module")
def instant_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    tmp = tmp_path_factory.mktemp("instant")
    proc = ServerProc(f"sqlite+aiosqlite:///{tmp / 'replay.db'}", tmp, seed=2026)
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture
def instant(instant_server: ServerProc) -> ServerProc:
    """The module's server with instant bots, its next table dealt from seed 2026."""
    instant_server.deal_from(2026)
    return instant_server


def test_a_replay_played_back_keeps_the_table_s_pace(instant: ServerProc, run: Run) -> None:
    """A finished game played back in the replay viewer moves at the live table's pace: about
    a second a move, longer on a finished trick, which stays drawn with its winner."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, instant.http + "/#lobby")
        await set_name(page, "Aoife")
        await page.get_by_test_id("pc-game").select_option("twentyfive")
        await page.get_by_test_id("pc-players").select_option("4")
        await page.get_by_test_id("pc-level").select_option("random")
        await page.get_by_test_id("play-computer").click()
        table = page.get_by_test_id("table")
        await expect(table).to_be_visible()
        legal = page.locator("[data-testid='hand'] [data-legal='true']")
        for _ in range(3):  # three cards of mine: the bots play the rest
            # The page asks for bots at a person's pace: three bots and a held trick can
            # take longer than expect's 5 s on a busy machine.
            await expect(page.get_by_test_id("turn")).to_have_attribute(
                "data-mine", "true", timeout=20_000
            )
            before = await table.get_attribute("data-event")
            await legal.first.click()
            await expect(table).not_to_have_attribute("data-event", before or "")
        page.on("dialog", lambda d: asyncio.ensure_future(d.accept()))
        await page.get_by_test_id("resign").click()
        await expect(page.get_by_test_id("result")).to_be_visible()
        await page.locator("button[data-show='history']").click()
        await page.get_by_role("button", name="Replay", exact=True).first.click()
        move = page.get_by_test_id("replay-move")
        await expect(move).to_have_attribute("data-move", "0")
        await page.evaluate(REPLAY_SAMPLER)
        await page.get_by_test_id("replay-play").click()
        await page.wait_for_function(
            "() => Number(document.querySelector(\"[data-testid='replay-move']\").dataset.move) >= 8",
            timeout=30_000,
        )
        samples: list[dict[str, Any]] = await page.evaluate("window.__replay")
        stays: list[tuple[int, bool, float]] = []  # move, a trick held, ms on screen
        start = samples[0]
        for cur in samples[1:]:
            if cur["move"] != start["move"]:
                assert cur["move"] == start["move"] + 1, (start, cur)  # one move at a time
                stays.append((start["move"], start["held"], cur["t"] - start["t"]))
                start = cur
        play = page.get_by_test_id("replay-play")
        if await play.get_attribute("aria-pressed") == "true":
            await play.click()  # pause
            await expect(play).to_have_attribute("aria-pressed", "false")
        assert len(stays) >= 8, stays
        for moved, held, ms in stays:
            assert ms >= (1300 if held else 850), (moved, held, ms)
        assert any(held for _, held, _ in stays), stays
        await ctx.close()

    run(body)


def test_the_log_names_the_move_made_on_a_timeout_and_a_pick_up_s_size(
    instant: ServerProc,
    run: Run,
) -> None:
    """Svoi Kozyri against a bot with a one-second clock (the page's request is turned into
    one by the test's WebSocket relay): the log says which move was made for the player
    whose time ran out, and how many cards a pick-up took."""

    def one_second(msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("type") != "play_computer":
            return msg
        return {
            "type": "create_table", "game": "kozyri", "seats": ["human", "random"],
            "time_control": {"base": 1},
        }  # fmt: skip

    async def setup(context: BrowserContext) -> None:
        await context.route_web_socket(WS_URL, relay([], one_second))

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, instant.http + "/#lobby", setup=setup)
        await set_name(page, "Aoife")
        await page.get_by_test_id("pc-game").select_option("kozyri")
        await page.get_by_test_id("play-computer").click()
        log = page.get_by_test_id("log")
        await expect(log).to_contain_text(
            re.compile(r"Aoife ran out of time; a move was made for them: Aoife (chose|played)")
        )
        table, turn = page.get_by_test_id("table"), page.get_by_test_id("turn")
        take = page.get_by_test_id("action-take")
        legal = page.locator("[data-testid='hand'] [data-legal='true'], [data-testid^='action-']")
        picked = re.compile(r"picked up \d+ cards?\.")
        for _ in range(60):
            if picked.search(await log.inner_text()):
                break
            await page.wait_for_function(
                "() => document.querySelector(\"[data-testid='turn']\")?.dataset.mine === 'true'"
                " || !document.querySelector(\"[data-testid='result']\")?.hidden"
            )
            if await page.get_by_test_id("result").is_visible():
                break
            if await turn.get_attribute("data-mine") != "true":
                continue
            before = await table.get_attribute("data-event")
            await (take if await take.count() else legal.first).click()
            await expect(table).not_to_have_attribute("data-event", before or "")
        await expect(log).to_contain_text(picked)
        await ctx.close()

    run(body)


def test_the_animation_setting_asks_for_faster_bots_in_a_new_game(
    instant: ServerProc, run: Run
) -> None:
    """A player who chose fast (or no) animations gets fast bots in the next game."""
    sent: list[dict[str, Any]] = []

    def keep(msg: dict[str, Any]) -> dict[str, Any]:
        sent.append(msg)
        return msg

    async def setup(context: BrowserContext) -> None:
        await context.add_init_script("localStorage.setItem('trumps.anim', 'fast')")
        await context.route_web_socket(WS_URL, relay([], keep))

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, instant.http + "/#lobby", setup=setup)
        await set_name(page, "Aoife")
        await page.get_by_test_id("play-computer").click()
        await expect(page.get_by_test_id("table")).to_be_visible()
        await expect(page.get_by_test_id("anim-speed")).to_have_value("fast")
        asked = [m for m in sent if m.get("type") == "play_computer"]
        assert [m.get("bot_pace") for m in asked] == ["fast"], asked
        await ctx.close()

    run(body)
