"""Provably fair deals in the page (docs/fairness.md): it gives its own random value to the
deal once it has the commitment, remembers both, and checks the finished game's record —
beside the result and in the replay — saying so when the record was tampered with."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.async_api import Browser, Page, Route, expect

from server.e2e import ServerProc
from trumps.records import verify
from web.kit import Run, open_page

WAIT = 20_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    """A server as players run it: no fixed --seed, so its deals are committed to."""
    tmp_path = tmp_path_factory.mktemp("fair")
    proc = ServerProc(f"sqlite+aiosqlite:///{tmp_path / 'fair.db'}", tmp_path, seed=None)
    proc.start()
    yield proc
    proc.stop()


async def play_and_resign(page: Page) -> str:
    """A game against the computer, resigned; the stored game's id."""
    await page.get_by_test_id("play-computer").click()
    await expect(page.get_by_test_id("resign")).to_be_visible(timeout=WAIT)
    page.on("dialog", lambda d: d.accept())
    await page.get_by_test_id("resign").click()
    link = page.get_by_role("link", name="Download the game record")
    await expect(link).to_be_visible(timeout=WAIT)
    href = await link.get_attribute("href")
    assert href is not None
    return href.split("/api/games/")[1].split("?")[0]


def test_the_page_contributes_and_verifies_the_finished_game(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana")
        game_id = await play_and_resign(page)
        fair = page.get_by_test_id("fair-deal")
        await expect(fair).to_contain_text("Fair deal verified", timeout=WAIT)
        await expect(fair).to_contain_text("your own contribution")
        kept = json.loads(
            await page.evaluate(f"localStorage.getItem('trumps.fair.g.{game_id}')") or "null"
        )
        record = await (await page.request.get(f"{server.http}/api/games/{game_id}")).json()
        assert kept["commitment"] == record["fair"]["commitment"]
        assert record["fair"]["contributions"][0] == kept["value"]
        assert "your contribution is seat 0's" in verify(
            record, contribution=kept["value"], committed=kept["commitment"]
        )

    run(body)


def test_a_tampered_record_is_shown_as_failing(server: ServerProc, run: Run) -> None:
    async def body(browser: Browser) -> None:
        context, page = await open_page(browser, server.http + "/#lobby", name="Rui")

        async def secret_changed(route: Route) -> None:
            answer = await route.fetch()
            record = await answer.json()
            if "fair" in record:
                record["fair"]["secret"] = "0" * 64
            await route.fulfill(response=answer, json=record)

        async def contribution_changed(route: Route) -> None:
            answer = await route.fetch()
            data = await answer.json()
            data["record"]["fair"]["contributions"][0] = "ab" * 32
            await route.fulfill(response=answer, json=data)

        await context.route("**/api/games/*", secret_changed)
        await play_and_resign(page)
        fair = page.get_by_test_id("fair-deal")
        await expect(fair).to_contain_text("FAILED", timeout=WAIT)
        await expect(fair).to_contain_text("the secret is not the one committed to")
        await context.route("**/api/games/*/replay", contribution_changed)
        await page.locator("nav button[data-show='history']").click()
        await page.locator("#history .rows .row button.primary").first.click()
        replay = page.get_by_test_id("replay-fair")
        await expect(replay).to_contain_text("FAILED", timeout=WAIT)
        await expect(replay).to_contain_text("not the ones derived")

    run(body)
