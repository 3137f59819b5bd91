"""The analysed replay in the page (issue 13 §3, docs/analysis.md), in Debian's Chromium
against a real server: the Analyse button, the progress while the server works, then the
marked moves with what they cost, the better move and why in the hints' words, and the
evaluation graph; a game analysed already shows at once; the server's refusal (429) is
said; right to left in Persian; no serious accessibility violation.

The games are written to the store before the server starts (as tests/web/ratingseed.py
does): three-player Twenty-Five games played at random, whose marks are known from
``analyze_game`` at the server's budget (300 deals, seed 0: the same on every machine), and
a long Svoi Kozyri duel whose exact analysis keeps the server busy (1 s a position)."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, Route, expect

import trumps
from server.e2e import ServerProc
from trumps.ai.analysis import Analysis, Budget, analyze_game, judged_plies
from trumps.records import record_of
from trumps.server.api.analysisapi import AnalysisLimits
from trumps.server.identity.auth import Passwords
from trumps.store import SqlStore, TableWrite
from web.a11y import axe, severe
from web.kit import SHOTS, Run, open_page

DOCS_SHOTS = Path(__file__).parents[2] / "docs" / "screenshots"
PASSWORD = "correct horse battery staple 42"
NAMES = ["Ana", "Bruno", "Chen"]
SYMBOL = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# Three-player Twenty-Five games (random play): seed 20 has one mark of each kind, one per
# seat; seed 32 a robbery whose better move is another robbery.
MAIN, ROBBED, DUEL = 20, 32, 1040


@dataclass(frozen=True)
class Game:
    id: int
    start: trumps.Game
    actions: list[str]


@dataclass(frozen=True)
class Served:
    proc: ServerProc
    token: str  # Ana's resume token
    games: dict[int, Game]  # by the seed it was dealt from


def played_out(game_id: str, players: int, seed: int) -> tuple[trumps.Game, trumps.Game]:
    game = trumps.new_game(game_id, players=players, seed=seed)
    start = game.clone()
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
    return start, game


async def _seed(url: str) -> tuple[int, dict[int, tuple[int, trumps.Game, trumps.Game]]]:
    store = SqlStore(url)
    await store.create()
    try:
        ana = await store.add_player("Ana", await Passwords().hash(PASSWORD), login="ana")
        games = {
            MAIN: played_out("twentyfive", 3, MAIN),
            ROBBED: played_out("twentyfive", 3, ROBBED),
            DUEL: played_out("kozyri", 2, DUEL),
        }
        writes = [
            TableWrite(
                f"analysis-{seed}",
                record_of(end, NAMES[: end.players]),
                player_ids=[ana] + [None] * (end.players - 1),
            )
            for seed, (_, end) in games.items()
        ]
        ids = await store.commit_tables(writes)
        return ana, {
            seed: (int(str(gid)), start, end)
            for (seed, (start, end)), gid in zip(games.items(), ids, strict=True)
        }
    finally:
        await store.close()


def serve(tmp: Path, bot_workers: int = 0) -> Served:
    url = f"sqlite+aiosqlite:///{tmp / 'analysis.db'}"
    _, seeded = asyncio.run(_seed(url))
    proc = ServerProc(url, tmp, bot_workers=bot_workers).start()
    login = proc.post("/api/login", json={"login": "ana", "password": PASSWORD})
    assert login.status_code == 200, login.text
    games = {
        seed: Game(gid, start, list(end.history)) for seed, (gid, start, end) in seeded.items()
    }
    return Served(proc, str(login.json()["resume_token"]), games)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = serve(tmp_path)
    yield s
    s.proc.stop()


@pytest.fixture
def busy(tmp_path: Path) -> Iterator[Served]:
    """A server whose analyses run in a worker process (the duel's solver holds it long)."""
    s = serve(tmp_path, bot_workers=1)
    yield s
    s.proc.stop()


def expected(game: Game) -> Analysis:
    """The analysis the server makes, at its budget."""
    limits = AnalysisLimits()
    return analyze_game(game.start, game.actions, Budget(deals=limits.deals, seed=0))


def card(code: str) -> str:
    """A card as the page writes it in a sentence: 10♥, Q♠."""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def move_text(action: str) -> str:
    if action.startswith("rob "):
        return f"Rob, discarding {card(action[4:])}"
    return card(action)


async def as_ana(browser: Browser, s: Served, **options: Any) -> tuple[BrowserContext, Page]:
    async def signed_in(context: BrowserContext) -> None:
        await context.add_init_script(
            f"localStorage.setItem('trumps.token', {s.token!r});"
            " localStorage.setItem('trumps.named', '1')"
        )

    return await open_page(browser, s.proc.http + "/#lobby", name="Ana", setup=signed_in, **options)


async def open_replay(page: Page, game_id: int) -> None:
    await page.locator("nav button[data-show='history']").click()
    row = page.locator("#history li.row").filter(
        has=page.locator(f"a[href='/api/games/{game_id}?download=1']")
    )
    await row.get_by_role("button", name=re.compile("Replay|بازپخش|Repetir|Revoir")).click()
    await expect(page.get_by_test_id("replay-move")).to_have_attribute("data-move", "0")


def test_analyse_shows_progress_then_the_marks_the_graph_and_why(served: Served, run: Run) -> None:
    game = served.games[MAIN]
    result = expected(game)
    marked = [m for m in result.moves if m.mark is not None]
    assert {m.mark for m in marked} == {"blunder", "mistake", "inaccuracy"}, marked
    release = asyncio.Event()  # holds the polls until the progress has been seen

    async def body(browser: Browser) -> None:
        context, page = await as_ana(browser, served, still=True)
        polls: list[str] = []

        async def held(route: Route) -> None:
            if route.request.method == "GET":
                polls.append(route.request.url)
                if len(polls) > 1:  # the first asks on opening; the polls wait
                    await release.wait()
            await route.continue_()

        await context.route(re.compile(r"/api/games/\d+/analysis$"), held)
        await open_replay(page, game.id)
        analyse = page.get_by_role("button", name="Analyse")
        await expect(analyse).to_be_visible()  # nobody asked yet: 404 not_analysed
        await analyse.click()
        progress = page.get_by_test_id("analysis-progress")
        await expect(progress).to_have_text(
            re.compile(rf"^Analysing… \d+ of {len(result.moves)} decisions$")
        )
        assert await progress.get_attribute("role") == "status"  # said politely
        release.set()

        items = page.get_by_test_id("mark-list").locator("li")
        await expect(items).to_have_count(len(marked))
        await expect(progress).to_have_text("")
        await expect(page.get_by_test_id("analysis-summary")).to_contain_text(
            f"{len(result.moves)} decisions judged, {len(marked)} marked."
        )
        for item, m in zip(await items.all(), marked, strict=True):
            jump = item.get_by_test_id("mark-jump")
            await expect(jump).to_contain_text(
                f"{SYMBOL[m.mark or '']} {m.mark} Move {m.ply + 1}: {NAMES[m.seat]} "
            )
            assert m.better is not None and m.explain is not None
            percent = m.explain.numbers["percent"]
            better = move_text(m.better)
            await expect(item.get_by_test_id("mark-better")).to_have_text(
                f"Better: {better}. Play {better}: of all your moves it wins the most deals "
                f"({percent} of 100)."
            )
            lost = round(m.lost or 0)
            await expect(item.locator(".mark-cost")).to_have_text(
                f"It lost {lost} points of the estimated chance to win "
                f"({round((m.before or 0) * 100)}% → {round((m.after or 0) * 100)}%)."
            )

        # The graph: a line per seat, a marker per marked move, a table for screen readers.
        plot = page.get_by_test_id("eval-plot")
        await expect(plot).to_have_attribute("role", "img")
        await expect(plot.locator("path.seat-line")).to_have_count(3)
        await expect(plot.locator(".mark-point")).to_have_count(len(marked))
        dashes = await plot.locator("path.seat-line").evaluate_all(
            "(ps) => ps.map((p) => p.getAttribute('stroke-dasharray'))"
        )
        assert len(set(dashes)) == 3, dashes  # told apart without colour
        legend = page.get_by_test_id("eval-legend")
        for name in NAMES:
            await expect(legend).to_contain_text(name)
        rows = page.get_by_test_id("eval-figure").locator("details table tbody tr")
        await expect(rows).to_have_count(len(result.moves))

        # A mark in the list jumps to the moment of the choice; the next position says it.
        m = marked[1]
        await items.nth(1).get_by_test_id("mark-jump").click()
        caption = page.get_by_test_id("replay-move")
        await expect(caption).to_have_attribute("data-move", str(m.ply))
        await expect(plot.locator("line.cursor")).to_have_attribute("data-ply", str(m.ply))
        await expect(page.get_by_test_id("replay-mark")).to_have_count(0)
        await page.get_by_role("button", name="Next", exact=True).click()
        await expect(caption).to_have_attribute("data-move", str(m.ply + 1))
        await expect(caption).to_contain_text(f"{SYMBOL[m.mark or '']} {m.mark}")
        note = page.get_by_test_id("replay-mark")
        await expect(note).to_contain_text(f"{NAMES[m.seat]} played {card(m.action)}.")
        await expect(note.get_by_test_id("replay-better")).to_contain_text(
            f"Better: {move_text(m.better or '')}."
        )
        # A point of the graph jumps too.
        last = marked[-1]
        await plot.locator(f".mark-point[data-ply='{last.ply}'] circle").click()
        await expect(caption).to_have_attribute("data-move", str(last.ply))
        await page.get_by_role("button", name="Next", exact=True).click()
        await expect(page.get_by_test_id("replay-mark")).to_be_visible()
        await page.get_by_test_id("analysis").scroll_into_view_if_needed()
        await page.screenshot(path=str(DOCS_SHOTS / "analysis-en.png"), full_page=True)

        found = severe(await axe(page))
        assert not found, [(v.rule, v.impact, v.nodes, v.help, v.targets) for v in found]

    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("fa", "fa-IR")])
def test_an_analysed_game_shows_at_once_for_the_next_visit(
    served: Served, lang: str, locale: str, run: Run
) -> None:
    game = served.games[ROBBED]
    marked = [m for m in expected(game).moves if m.mark is not None]
    robbed = next(m for m in marked if (m.better or "").startswith("rob "))

    async def body(browser: Browser) -> None:
        _, first = await as_ana(browser, served, locale=locale, still=True)
        await open_replay(first, game.id)
        await first.get_by_test_id("analyse").click()
        await expect(first.get_by_test_id("mark-list").locator("li")).to_have_count(len(marked))
        await first.context.close()

        context, page = await as_ana(browser, served, locale=locale, still=True)
        posts: list[str] = []
        context.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        await open_replay(page, game.id)
        await expect(page.get_by_test_id("analysis")).to_have_attribute("data-state", "done")
        await expect(page.get_by_test_id("mark-list").locator("li")).to_have_count(len(marked))
        await expect(page.get_by_test_id("analyse")).to_have_count(0)
        assert not [u for u in posts if u.endswith("/analysis")]
        plot = page.get_by_test_id("eval-plot")
        await expect(plot.locator(".mark-point")).to_have_count(len(marked))
        item = page.locator(f".mark-entry[data-ply='{robbed.ply}']")
        if lang == "en":
            await expect(item.get_by_test_id("mark-better")).to_contain_text(
                f"Better: {move_text(robbed.better or '')}."
            )
        else:
            await expect(page.locator("html")).to_have_attribute("dir", "rtl")
            shown = await page.get_by_test_id("analysis").inner_text()
            assert any("\u0600" <= ch <= "\u06ff" for ch in shown), shown[:200]
            assert not re.search("[0-9]", shown), shown[:400]  # Persian digits
            # Time runs from the right: the first judged move's point is right of the last.
            at = await plot.locator("circle").evaluate_all(
                "(cs) => cs.map((c) => [Number(c.closest('[data-ply]').dataset.ply),"
                " Number(c.getAttribute('cx'))])"
            )
            assert max(at)[1] < min(at)[1], at
        await item.get_by_test_id("mark-jump").click()
        await expect(page.get_by_test_id("replay-move")).to_have_attribute(
            "data-move", str(robbed.ply)
        )
        await page.keyboard.press("ArrowLeft" if lang == "fa" else "ArrowRight")
        await expect(page.get_by_test_id("replay-mark")).to_be_visible()
        if lang == "fa":
            await page.screenshot(path=str(DOCS_SHOTS / "analysis-fa.png"), full_page=True)
        await page.locator("details.plot-table summary").first.click()  # the table, open
        found = severe(await axe(page))
        assert not found, [(v.rule, v.impact, v.nodes, v.help, v.targets) for v in found]

    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)


def test_a_refusal_is_said_and_a_running_analysis_shows_its_progress(
    busy: Served, run: Run
) -> None:
    duel = busy.games[DUEL]
    started = busy.proc.post(
        f"/api/games/{duel.id}/analysis", headers={"Authorization": f"Bearer {busy.token}"}
    )
    assert started.status_code == 202, started.text  # Ana's duel, a long exact analysis

    async def body(browser: Browser) -> None:
        _, page = await as_ana(browser, busy)
        await open_replay(page, busy.games[MAIN].id)
        await page.get_by_test_id("analyse").click()
        status = page.locator("#status")
        await expect(status).to_be_visible()
        await expect(status).to_contain_text("The analysis could not be started.")
        await expect(status).to_contain_text("your other analysis is still running")
        await expect(page.get_by_test_id("analyse")).to_be_enabled()  # nothing broke

        # The running one shows its progress without a press, and moves on.
        await open_replay(page, duel.id)
        progress = page.get_by_test_id("analysis-progress")
        await expect(progress).to_have_text(re.compile(r"^Analysing… \d+ of \d+ decisions$"))
        await expect(page.get_by_test_id("analyse")).to_have_count(0)
        text = await progress.inner_text()
        await expect(progress).not_to_have_text(text, timeout=30_000)  # polled: k grew
        await page.get_by_test_id("replay-close").click()
        await expect(page.locator("#history section.replay")).to_be_hidden()

    run(body)


def duel_analysis(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """An exact analysis of the duel as the server would send it, made up where the solver
    could not finish (the early positions of a full deal stay unproved: null), with one
    blunder (a won position played into a lost one); and that blunder."""
    plies = judged_plies(game.start, game.actions)
    replayed = game.start.clone()
    seats: dict[int, int] = {}
    legal: dict[int, list[str]] = {}
    for ply, action in enumerate(game.actions):
        if ply in plies:
            seats[ply] = replayed.current_player or 0
            legal[ply] = replayed.legal_actions()
        replayed.play(action)
    late = plies[len(plies) // 2 :]
    gap = late[len(late) // 3]  # an unproved value inside the proved part: a gap in the line
    blunder = next(p for p in late[len(late) // 2 :] if seats[p] == 0)
    moves = []
    for ply in plies:
        proved = ply in late and ply != gap
        value = (1.0 if ply < blunder else 0.0) if seats[ply] == 0 else 0.5
        move: dict[str, Any] = {
            "ply": ply, "seat": seats[ply], "action": game.actions[ply],
            "before": value if proved else None, "after": value if proved else None,
            "lost": 0.0 if proved else None, "mark": None, "better": None,
            "reason": None if proved else "unproved", "explain": None,
        }  # fmt: skip
        if ply == blunder:
            better = next(a for a in legal[ply] if a != game.actions[ply])
            move.update(
                before=1.0, after=0.0, lost=100.0, mark="blunder", better=better,
                reason="win_to_loss", explain={"code": "solved_win", "numbers": {"moves": 7}},
            )  # fmt: skip
        moves.append(move)
    unproved = sum(1 for m in moves if m["after"] is None)
    analysis = {
        "game": "kozyri", "players": 2, "method": "solver",
        "budget": {"time_limit": 1.0, "node_limit": None}, "moves": moves,
        "summary": {"analysed": len(moves), "evaluated": len(moves) - unproved, "marked": 1,
                    "unproved": unproved},
    }  # fmt: skip
    return analysis, next(m for m in moves if m["mark"])


def test_a_duels_exact_analysis_words_its_reasons_and_leaves_gaps(served: Served, run: Run) -> None:
    """The duel's analysis (made up here: the real one takes minutes) as the page shows it:
    won, drawn and lost on the graph's scale, unproved values as gaps, the reason worded."""
    duel = served.games[DUEL]
    analysis, blunder = duel_analysis(duel)

    async def body(browser: Browser) -> None:
        context, page = await as_ana(browser, served)

        async def done(route: Route) -> None:
            await route.fulfill(json={"status": "done", "analysis": analysis})

        await context.route(re.compile(rf"/api/games/{duel.id}/analysis$"), done)
        await open_replay(page, duel.id)
        summary = page.get_by_test_id("analysis-summary")
        await expect(summary).to_contain_text(
            f"{analysis['summary']['analysed']} decisions judged, 1 marked, "
            f"{analysis['summary']['unproved']} not proved."
        )
        item = page.get_by_test_id("mark-list").locator("li")
        await expect(item).to_have_count(1)
        await expect(item.locator(".mark-cost")).to_have_text(
            "It turned a won position into a lost one."
        )
        better = blunder["better"]
        label = "Take from the pile" if better == "take" else card(better)
        await expect(item.get_by_test_id("mark-better")).to_have_text(
            f"Better: {label}. Play {label}: with it you win this hand whatever the others do "
            "(7 moves to the end)."
        )
        plot = page.get_by_test_id("eval-plot")
        await expect(plot.locator("text.axis").filter(has_text="won")).to_have_count(1)
        await expect(plot.locator("text.axis").filter(has_text="drawn")).to_have_count(1)
        await expect(plot.locator(".mark-point")).to_have_count(1)
        lines = plot.locator("path.seat-line")
        await expect(lines).to_have_count(2)
        # Each line starts where the solver's proofs start; the unproved value inside breaks one.
        paths = [await line.get_attribute("d") or "" for line in await lines.all()]
        assert sorted(p.count("M") for p in paths) == [1, 2], paths
        await page.get_by_test_id("eval-figure").screenshot(path=str(SHOTS / "analysis-duel.png"))

    SHOTS.mkdir(parents=True, exist_ok=True)
    run(body)
