"""The PostgreSQL gate of the tests: skipped on a laptop without it, a failure in CI."""

from __future__ import annotations

from pathlib import Path

from store.postgres import REQUIRE_ENV, verdict

CI_RUN = Path(__file__).resolve().parents[2] / ".ci" / "run"


def test_present_postgres_runs_the_tests() -> None:
    assert verdict(None, {}) is None
    assert verdict(None, {REQUIRE_ENV: "1"}) is None


def test_missing_postgres_skips_with_one_line_on_a_developer_machine() -> None:
    for env in ({}, {REQUIRE_ENV: ""}, {REQUIRE_ENV: "0"}):
        found = verdict("ConnectionRefusedError: [Errno 111] Connection refused", env)
        assert found is not None
        action, reason = found
        assert action == "skip" and "\n" not in reason
        assert "Connection refused" in reason and f"{REQUIRE_ENV}=1" in reason


def test_missing_postgres_fails_where_it_is_required() -> None:
    found = verdict("TimeoutError: ", {REQUIRE_ENV: "1"})
    assert found is not None and found[0] == "fail" and "start PostgreSQL" in found[1]


def test_ci_requires_postgres() -> None:
    """CI must not pass by skipping the database tests."""
    lines = [line.strip() for line in CI_RUN.read_text().splitlines()]
    assert f"export {REQUIRE_ENV}=1" in lines
