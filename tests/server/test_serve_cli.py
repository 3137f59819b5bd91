"""``trumps serve`` options: bad ones are usage errors; the defaults and the printed URL;
a database or Redis it cannot reach is one line of error; several processes are refused
without PostgreSQL and Redis, and get their settings from the environment, not the command
line."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from server.e2e import TIMEOUT, free_port, postgres_database
from server.redis_env import REDIS_URL, need_redis
from store.postgres import need_postgres
from trumps.ai import BOTS
from trumps.cli import cli
from trumps.ratings import FAMILIES, Rating, calibration_json
from trumps.server import run as server_run
from trumps.server.transport.app import SETTINGS_ENV, app_from_env, bot_calibration
from trumps.web import STATIC
from trumps.web.i18n import catalog_json

PG = "postgresql+asyncpg://postgres@localhost/trumps"
SERVICE = (
    "several processes need PostgreSQL (--db postgresql+asyncpg://…) and Redis (--redis redis://…)"
)


def test_a_bad_database_url_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", "mysql://root@localhost/x"])
    assert result.exit_code == 2
    assert "sqlite+aiosqlite:///FILE" in result.output and "--db" in result.output


def test_bad_numbers_are_usage_errors() -> None:
    for args in (["--port", "70000"], ["--bot-time", "0"], ["--rate", "0"], ["--seed", "-1"]):
        result = CliRunner().invoke(cli, ["serve", *args])
        assert result.exit_code == 2, (args, result.output)


def test_defaults_live_in_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TRUMPS_DATA_DIR", str(tmp_path))
    assert server_run.default_db() == f"sqlite+aiosqlite:///{tmp_path / 'trumps.db'}"
    monkeypatch.delenv("TRUMPS_DATA_DIR")
    assert "trumps" in str(server_run.data_dir())
    assert server_run.default_bot_workers() >= 1


def test_the_serve_command_wires_its_options(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What the command passes to uvicorn: the app, the address, the frame limit."""
    seen: dict[str, object] = {}

    def fake_run(app: object, **options: object) -> None:
        seen.update(options, app=app)

    monkeypatch.setattr("uvicorn.run", fake_run)
    monkeypatch.setenv("TRUMPS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("TRUMPS_SECRET", raising=False)
    result = CliRunner().invoke(cli, ["serve", "--port", "8123", "--bot-workers", "0"])
    assert result.exit_code == 0, result.output
    assert "http://127.0.0.1:8123/" in result.output and "trumps.db" in result.output
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123
    assert seen["ws_max_size"] == 64 * 1024 and seen["ws_per_message_deflate"] is False
    secret = (tmp_path / "secret.key").read_text().strip()
    assert len(secret) >= 32 and (tmp_path / "secret.key").stat().st_mode & 0o077 == 0
    result = CliRunner().invoke(
        cli, ["serve", "--db", "postgresql+asyncpg://u:pw@db.example/x", "--bot-workers", "0"]
    )
    assert "u:***@db.example/x" in result.output and "pw" not in result.output
    assert (tmp_path / "secret.key").read_text().strip() == secret  # kept across starts


def test_open_opens_the_page_once_the_server_listens(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--open``: the browser is asked for the page only once the port takes connections,
    and where no browser is found the address to open is said."""
    urls: list[str] = []

    def no_browser(url: str) -> bool:
        urls.append(url)
        return False

    monkeypatch.setattr("webbrowser.open", no_browser)
    port = free_port()

    def fake_run(app: object, **options: object) -> None:
        opener = next(t for t in threading.enumerate() if t.name == "open-browser")
        opener.join(0.5)
        assert opener.is_alive() and not urls  # nothing listens yet: it waits
        with socket.create_server(("127.0.0.1", port)):
            opener.join(10)
        assert not opener.is_alive()

    monkeypatch.setattr("uvicorn.run", fake_run)
    monkeypatch.setenv("TRUMPS_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--bot-workers", "0", "--open"])
    assert result.exit_code == 0, result.output
    assert urls == [f"http://127.0.0.1:{port}/"]
    assert f"no browser found here: open http://127.0.0.1:{port}/" in result.output


def _serve(db: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``trumps serve --db DB`` as a user runs it; it must give up by itself, quickly."""
    env = {**os.environ, "TRUMPS_DATA_DIR": str(tmp_path / "data")}
    env.pop("TRUMPS_SECRET", None)
    args = [sys.executable, "-m", "trumps", "serve", "--db", db, "--bot-workers", "0"]
    args += ["--port", str(free_port())]
    return subprocess.run(args, check=False, capture_output=True, text=True, env=env, timeout=60)


def _one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


def test_an_unreachable_postgresql_is_one_line_naming_it(tmp_path: Path) -> None:
    """Nothing listens on the port: one line with the URL (password masked) and what to
    check, not uvicorn's startup traceback."""
    port = free_port()
    line = _one_line_error(
        _serve(f"postgresql+asyncpg://bob:s3cret@127.0.0.1:{port}/games", tmp_path)
    )
    assert f"bob:***@127.0.0.1:{port}/games" in line and "s3cret" not in line
    assert "running" in line and "port" in line and "password" in line


def test_a_missing_postgresql_database_is_named(tmp_path: Path) -> None:
    need_postgres()
    line = _one_line_error(
        _serve("postgresql+asyncpg://postgres@localhost/no_such_db_x1", tmp_path)
    )
    assert "no_such_db_x1" in line and "does not exist" in line


def test_an_sqlite_file_that_cannot_be_created_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    path = blocker / "sub" / "trumps.db"
    line = _one_line_error(_serve(f"sqlite+aiosqlite:///{path}", tmp_path))
    assert str(path) in line and "cannot create" in line
    assert f"{blocker} is not a directory" in line


# -- several processes ---------------------------------------------------------------------


def _refused(args: list[str], env: dict[str, str] | None = None) -> str:
    """``trumps serve ARGS`` must end as a usage error: one ``Error:`` line, status 2."""
    result = CliRunner().invoke(cli, ["serve", *args], env=env)
    assert result.exit_code == 2, (args, result.output)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.fixture
def nothing_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refusals come before any database, Redis or socket is touched."""

    def opened(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the command went on after a refusal")

    for name in ("check_database", "check_redis", "migrate_database"):
        monkeypatch.setattr(server_run, name, opened)
    monkeypatch.setattr("uvicorn.run", opened)
    monkeypatch.delenv("TRUMPS_REDIS", raising=False)
    monkeypatch.delenv("TRUMPS_DB", raising=False)


@pytest.mark.usefixtures("nothing_opened")
def test_several_processes_need_postgresql_and_redis() -> None:
    for args in (
        ["--workers", "2"],
        ["--workers", "2", "--redis", REDIS_URL],
        ["--workers", "2", "--db", PG],
        ["--workers", "3", "--redis", REDIS_URL, "--db", "sqlite+aiosqlite:///x.db"],
    ):
        assert SERVICE in _refused(args), args


@pytest.mark.usefixtures("nothing_opened")
def test_redis_with_sqlite_is_refused() -> None:
    """A service of several processes has one shared database: never an SQLite file."""
    for args, env in (
        (["--redis", REDIS_URL], None),
        (["--redis", REDIS_URL, "--db", "sqlite+aiosqlite:///x.db"], None),
        ([], {"TRUMPS_REDIS": REDIS_URL}),  # the environment says the same as the option
    ):
        line = _refused(args, env)
        assert "shared database" in line and "postgresql+asyncpg://" in line, (args, line)


@pytest.mark.usefixtures("nothing_opened")
def test_bad_service_options_are_usage_errors() -> None:
    assert "--node-id" in _refused(
        ["--workers", "2", "--redis", REDIS_URL, "--db", PG, "--node-id", "a"]
    )
    assert "redis://HOST:6379/0" in _refused(["--redis", "localhost:6379", "--db", PG])
    assert "--workers" in _refused(["--workers", "0"])
    assert "--node-id" in _refused(["--node-id", " ", "--redis", REDIS_URL, "--db", PG])
    for origin in (
        "cards.example.org",
        "ftp://cards.example.org",
        "https://x.org/page",
        "https://",
    ):
        assert "--allowed-origin" in _refused(["--allowed-origin", origin])


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    """What ``trumps serve`` would open and run, recorded instead of done."""
    seen: dict[str, Any] = {"checked": []}
    monkeypatch.setattr(server_run, "check_database", seen["checked"].append)
    monkeypatch.setattr(server_run, "check_redis", seen["checked"].append)
    monkeypatch.setattr(server_run, "migrate_database", lambda db: seen.update(migrated=db))

    def fake_run(app: object, **options: object) -> None:
        seen.update(options, app=app, env=os.environ.get(SETTINGS_ENV))

    monkeypatch.setattr("uvicorn.run", fake_run)
    monkeypatch.setenv("TRUMPS_DATA_DIR", str(tmp_path))
    for name in ("TRUMPS_SECRET", "TRUMPS_REDIS", "TRUMPS_DB", SETTINGS_ENV):
        monkeypatch.delenv(name, raising=False)
    return seen


def test_workers_get_their_settings_from_the_environment(
    opened: dict[str, Any], tmp_path: Path
) -> None:
    """``--workers 2``: uvicorn's supervisor builds each worker's app with the factory,
    from JSON in the environment; the secret is nowhere in uvicorn's arguments, and each
    worker names itself."""
    redis_url = "redis://:hush@127.0.0.1:6379/0"
    args = ["serve", "--workers", "2", "--redis", redis_url, "--db", PG, "--port", "8124"]
    result = CliRunner().invoke(cli, [*args, "--bot-workers", "0", "--log-level", "warning"])
    assert result.exit_code == 0, result.output
    assert "2 processes" in result.output and "redis://:***@127.0.0.1:6379/0" in result.output
    assert "hush" not in result.output
    assert opened["checked"] == [PG, redis_url] and opened["migrated"] == PG
    assert opened["app"] == "trumps.server.transport.app:app_from_env"
    assert opened["factory"] is True and opened["workers"] == 2 and opened["port"] == 8124
    secret = (tmp_path / "secret.key").read_text().strip()
    options = {k: v for k, v in opened.items() if k != "env"}
    assert secret not in repr(options)
    sent = json.loads(opened["env"])
    assert sent["secret"] == secret and sent["db"] == PG and sent["hub"]["redis_url"] == redis_url
    assert sent["hub"]["node_id"] is None and sent["hub"]["bot_workers"] == 0
    assert sent["hub"]["bot_pace"] == "normal"  # `trumps serve`'s, not a hub in code's

    # One worker process: the app the factory builds from that environment.
    os.environ[SETTINGS_ENV] = opened["env"]
    app = app_from_env()
    assert SETTINGS_ENV not in os.environ  # not inherited by the bot processes it starts
    server = app.state.server
    settings = server.settings
    assert settings.secret == secret and settings.static == STATIC
    assert settings.catalogs is catalog_json
    assert settings.hub.node_id == f"{socket.gethostname()}-{os.getpid()}"
    assert server.hub.options.redis_url == redis_url
    assert server.hub.options.node_id == settings.hub.node_id
    assert server.hub.options.bot_pace == "normal" and server.hub.options.bot_ratings


def test_the_database_and_redis_may_come_from_the_environment(opened: dict[str, Any]) -> None:
    """TRUMPS_DB and TRUMPS_REDIS keep passwords off the command line (``ps`` shows it)."""
    db = "postgresql+asyncpg://trumps:pw@db.example/trumps"
    env = {"TRUMPS_DB": db, "TRUMPS_REDIS": "redis://:pw@cache.example:6379/0"}
    result = CliRunner().invoke(cli, ["serve", "--workers", "2", "--bot-workers", "0"], env=env)
    assert result.exit_code == 0, result.output
    assert opened["checked"] == [db, env["TRUMPS_REDIS"]]
    assert "pw" not in result.output


def test_one_process_of_a_service_is_named(opened: dict[str, Any]) -> None:
    """``--redis`` on one process (one machine of several): the app itself goes to uvicorn,
    named by ``--node-id`` or else by host and process id."""
    for extra, node in ((["--node-id", "east-1"], "east-1"), ([], None)):
        args = ["serve", "--redis", REDIS_URL, "--db", PG, "--bot-workers", "0", *extra]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert opened["workers"] == 1 and opened["factory"] is False
        assert opened["env"] is None  # one process: nothing goes through the environment
        options = opened["app"].state.server.hub.options
        assert options.redis_url == REDIS_URL
        assert options.node_id == (node or f"{socket.gethostname()}-{os.getpid()}")


def test_bot_processes_are_shared_between_workers() -> None:
    cores = os.cpu_count() or 2
    assert server_run.default_bot_workers() == max(1, cores - 1)
    assert server_run.default_bot_workers(cores) == 1
    assert server_run.default_bot_workers(2) == max(1, (cores - 2) // 2)


def test_an_unreachable_redis_is_one_line_naming_it(tmp_path: Path) -> None:
    """Nothing listens on the Redis port: one line with the URL (password masked) and what
    to check; the database is not migrated before Redis answers."""
    need_postgres()
    port = free_port()
    with postgres_database() as db:
        env = {**os.environ, "TRUMPS_DATA_DIR": str(tmp_path / "data")}
        env.pop("TRUMPS_SECRET", None)
        args = [sys.executable, "-m", "trumps", "serve", "--db", db, "--bot-workers", "0"]
        args += ["--redis", f"redis://:hush@127.0.0.1:{port}/0", "--port", str(free_port())]
        result = subprocess.run(
            args, check=False, capture_output=True, text=True, env=env, timeout=60
        )
        line = _one_line_error(result)
        assert f"redis://:***@127.0.0.1:{port}/0" in line and "hush" not in line
        assert "connection refused" in line and "running" in line
        migrated = subprocess.run(
            ["psql", "-h", "localhost", "-U", "postgres", "-d", db.rsplit("/", 1)[1], "-tAc",
             "SELECT count(*) FROM pg_tables WHERE tablename = 'alembic_version'"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        assert migrated.stdout.strip() == "0"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _children(pid: int) -> list[int]:
    found = []
    for proc_stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = proc_stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(proc_stat.parent.name))
    return found


def test_two_workers_share_one_port(tmp_path: Path) -> None:
    """``trumps serve --workers 2`` on PostgreSQL and Redis: two processes answer on one
    port under different names, both ready; the database was migrated once (the workers
    starting together do not race); the secret is on no command line; SIGTERM stops all."""
    need_postgres()
    need_redis()
    secret = "workers-secret-0123456789abcdef"
    (tmp_path / "secret.key").write_text(secret)
    port = free_port()
    with postgres_database() as db:
        env = {**os.environ, "TRUMPS_DATA_DIR": str(tmp_path / "data")}
        env.pop("TRUMPS_SECRET", None)
        args = [
            sys.executable, "-m", "trumps", "serve", "--workers", "2", "--port", str(port),
            "--db", db, "--redis", REDIS_URL, "--secret-file", str(tmp_path / "secret.key"),
            "--bot-workers", "0", "--log-level", "warning",
        ]  # fmt: skip
        log = tmp_path / "serve.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            nodes: set[str] = set()
            deadline = time.monotonic() + TIMEOUT
            while len(nodes) < 2:  # each connection goes to whichever worker accepts it
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, (nodes, log.read_text())
                try:
                    health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
                    ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5)
                except httpx.TransportError:
                    time.sleep(0.05)  # not listening yet: poll the start, as users do
                    continue
                assert ready.status_code == 200 and ready.json() == {"ready": True}
                nodes.add(health.json()["node"])
            children = _children(proc.pid)  # the workers, and multiprocessing's tracker
            workers = [c for c in children if "spawn_main" in _cmdline(c)]
            assert {n.rsplit("-", 1)[1] for n in nodes} == {str(w) for w in workers}
            for pid in [proc.pid, *children]:
                assert secret not in _cmdline(pid)
            assert "Traceback" not in log.read_text()
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=TIMEOUT)
        assert code == 0, log.read_text()
        assert not any(_cmdline(w) for w in workers)  # the supervisor waited for them


def test_the_database_file_and_data_folder_are_for_the_owner_only(tmp_path: Path) -> None:
    """The running records hold each game's seed, i.e. every hidden hand: the SQLite file
    is made 0600 and the folders made for it 0700 (``secret.key`` already was 0600)."""
    path = tmp_path / "data" / "deep" / "trumps.db"
    before = stat.S_IMODE(tmp_path.stat().st_mode)
    server_run.check_database(f"sqlite+aiosqlite:///{path}")
    server_run.migrate_database(f"sqlite+aiosqlite:///{path}")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for folder in (path.parent, path.parent.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE(tmp_path.stat().st_mode) == before  # a folder it did not make


def test_bot_ratings_come_from_the_shipped_calibration_or_a_file(
    opened: dict[str, Any], tmp_path: Path
) -> None:
    """``--bot-ratings FILE``: the bots' fixed ratings of rated games (docs/ratings.md);
    without it the calibration shipped with trumps; a bad file is one line, nothing starts."""
    calibration = tmp_path / "bots.json"
    calibration.write_text(
        calibration_json({"kozyri-duel": {"medium": Rating(1650.0, 60.0)}}), encoding="utf-8"
    )
    args = ["serve", "--workers", "2", "--redis", "redis://127.0.0.1:6379/0", "--db", PG]
    result = CliRunner().invoke(cli, [*args, "--bot-ratings", str(calibration)])
    assert result.exit_code == 0, result.output
    os.environ[SETTINGS_ENV] = opened["env"]
    hub = app_from_env().state.server.hub
    assert hub.options.bot_ratings == {"kozyri-duel": {"medium": Rating(1650.0, 60.0)}}
    shipped = bot_calibration(None)  # what a server without the option rates bots by
    assert set(shipped) == set(FAMILIES) and all(
        set(levels) == set(BOTS) for levels in shipped.values()
    )
    for bad, words in (("{}", "families"), ("not json", "JSON")):
        calibration.write_text(bad, encoding="utf-8")
        refused = CliRunner().invoke(cli, [*args, "--bot-ratings", str(calibration)])
        assert refused.exit_code == 2 and words in refused.output, refused.output
        assert "Traceback" not in refused.output
    missing = CliRunner().invoke(cli, [*args, "--bot-ratings", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
