"""``trumps serve`` options: bad ones are usage errors; the defaults and the printed URL;
a database it cannot open is one line of error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from server.e2e import free_port
from store.postgres import need_postgres
from trumps.cli import cli
from trumps.server import run as server_run


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
