"""Fixtures of the end-to-end server tests: each runs on SQLite and on PostgreSQL (skipped
without PostgreSQL on a developer machine, required in CI: ``store.postgres``).

``serve`` starts servers of the test's own on a fresh database (``db_url``): for a test that
kills, freezes or restarts its server, or reads what only its own server wrote.  A test
that only plays against a running server asks ``served`` instead: the module's server of
each backend with those options, started once per module (``module_servers``), its next
table dealt as on a fresh server.  Such tests share the server's accounts, lobby and
history, so they make unique logins and look only at their own tables."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from server.e2e import ServerProc, postgres_database
from store.postgres import need_postgres

BACKENDS = ["sqlite", "postgresql"]
DEFAULT_SEED = 1000  # ServerProc's


@contextlib.contextmanager
def database(backend: str, where: Path) -> Iterator[str]:
    """An empty database of ``backend``: an SQLite file in ``where`` or a fresh PostgreSQL
    database (dropped afterwards)."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{where / 'trumps.db'}"
    else:
        need_postgres()  # a skip on a machine without PostgreSQL, a failure in CI
        with postgres_database() as url:
            yield url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each backend."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def serve(db_url: str, tmp_path: Path) -> Iterator[Callable[..., ServerProc]]:
    """Start ``trumps serve`` processes on the test's database; all stopped at the end."""
    procs: list[ServerProc] = []

    def start(**options: object) -> ServerProc:
        proc = ServerProc(db_url, tmp_path, **options)  # type: ignore[arg-type]
        procs.append(proc)
        return proc.start()

    yield start
    for proc in procs:
        proc.stop()


class ModuleServers:
    """The servers of one test module on one backend: one per set of options, each on a
    database of its own, started when first asked for and stopped at the module's end."""

    def __init__(self, backend: str, workdir: Path, stack: contextlib.ExitStack) -> None:
        self.backend, self.workdir, self.stack = backend, workdir, stack
        self.procs: dict[str, ServerProc] = {}

    def get(self, **options: object) -> ServerProc:
        key = repr(sorted(options.items()))
        if key not in self.procs:
            work = self.workdir / f"server-{len(self.procs)}"
            work.mkdir()
            url = self.stack.enter_context(database(self.backend, work))
            proc = ServerProc(url, work, **options)  # type: ignore[arg-type]
            self.procs[key] = proc
            self.stack.callback(proc.stop)  # before its database goes (last in, first out)
            proc.start()
        return self.procs[key]


@pytest.fixture(scope="module", params=BACKENDS)
def module_servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ModuleServers]:
    """The module's servers on each backend (``served`` starts and hands them out)."""
    if request.param == "postgresql":
        need_postgres()
    with contextlib.ExitStack() as stack:
        yield ModuleServers(request.param, tmp_path_factory.mktemp("served"), stack)


@pytest.fixture
def served(module_servers: ModuleServers) -> Callable[..., ServerProc]:
    """``served(seed=…, **options)``: the module's server with ``options`` (started at its
    first use), whose next table is dealt from ``seed`` and the one after from seed + 1, as
    on a server just started with ``--seed seed``; ``seed=None`` asks for a server that
    deals fairly (without ``--seed``), which is never told how to deal."""

    def get(seed: int | None = DEFAULT_SEED, **options: object) -> ServerProc:
        proc = module_servers.get(seed=None if seed is None else DEFAULT_SEED, **options)
        proc.deal_from(seed)
        return proc

    return get
