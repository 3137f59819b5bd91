"""``trumps serve`` options: bad ones are usage errors; the defaults and the printed URL."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

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
