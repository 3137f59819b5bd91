"""Fixtures of the browser tests: one Chromium for the session, a fresh browser context
per test (``run``), and one ``trumps serve`` per module (``server``) whose deals each test
sets back to the module's ``SEED`` (the server's test-only ``POST /api/test/deals``), so
every test meets the deals it was written for without a server of its own."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from server.e2e import ServerProc
from web.kit import KOZYRI_SEED, BrowserHost, Run, browser_path


@pytest.fixture(scope="session")
def browser_host() -> Iterator[BrowserHost]:
    if browser_path() is None:
        reason = "Debian's chromium-headless-shell (or chromium) is not installed"
        if os.environ.get("TRUMPS_REQUIRE_BROWSER"):  # .ci/run: a missing browser fails
            pytest.fail(reason)
        pytest.skip(f"{reason}; TRUMPS_REQUIRE_BROWSER=1 fails instead")
    host = BrowserHost()
    yield host
    host.close()


@pytest.fixture
def run(browser_host: BrowserHost) -> Run:
    """``run(body)``: the test's ``body(browser)`` on the session's Chromium; every context
    it opens is closed after it."""
    return browser_host.run


@pytest.fixture(scope="module")
def module_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProc]:
    """The module's server: SQLite, deals from the module's ``SEED`` (KOZYRI_SEED unless
    the module says), with the module's ``SERVER_ARGS`` to ``trumps serve`` if it has any."""
    seed = getattr(request.module, "SEED", KOZYRI_SEED)
    work = tmp_path_factory.mktemp("web")
    extra = tuple(getattr(request.module, "SERVER_ARGS", ()))
    proc = ServerProc(f"sqlite+aiosqlite:///{work / 'web.db'}", work, seed=seed, extra=extra)
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture
def server(module_server: ServerProc) -> ServerProc:
    """The module's server, its next table dealt from the module's seed as on a fresh one."""
    module_server.deal_from(module_server.seed)
    return module_server
