"""Provably fair deals (trumps.fairdeal, docs/fairness.md): the derivation, the record's
``"fair"`` object and ``trumps record verify``, failing on every kind of tampering."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import trumps
from trumps.cli import cli
from trumps.errors import InvalidRecord
from trumps.fairdeal import Fairness, check_contribution, commitment, deal_seed
from trumps.records import record_of, replay, verify

SECRET = "5e" * 32
MINE = "0123456789abcdef" * 2
THEIRS = "fedcba9876543210"


def _record(game_id: str = "twentyfive", players: int = 4) -> dict[str, Any]:
    fair = Fairness(SECRET, (MINE, None, THEIRS, None)[:players])
    game = trumps.new_game(game_id, players=players, seed=fair.seed)
    rng = random.Random(3)
    while game.outcome is None:
        game.play(rng.choice(game.legal_actions()))
    return record_of(game, fair=fair)


def test_the_seed_is_the_documented_sha256_derivation() -> None:
    text = "trumps-deal/1\n" + SECRET + "\n" + MINE + "\n-"
    digest = hashlib.sha256(text.encode()).digest()
    assert deal_seed(SECRET, [MINE, None]) == int.from_bytes(digest[:8], "big") >> 11
    assert deal_seed(SECRET, [MINE, None]) < 2**53
    assert commitment(SECRET) == hashlib.sha256(SECRET.encode()).hexdigest()


def test_every_contribution_and_the_seat_it_came_from_change_the_seed() -> None:
    base = deal_seed(SECRET, [MINE, None])
    assert deal_seed(SECRET, [None, MINE]) != base  # the same value from another seat
    assert deal_seed(SECRET, [MINE, THEIRS]) != base
    assert deal_seed(SECRET, [MINE[:-1] + "0", None]) != base
    assert deal_seed("5f" + SECRET[2:], [MINE, None]) != base


@pytest.mark.parametrize(
    "value",
    [None, 7, "", "abc", "0" * 15, "0" * 17, "0" * 130, "ABCDEF0123456789", "0123456789abcdeg"],
)
def test_a_bad_contribution_is_refused_in_one_line(value: object) -> None:
    with pytest.raises(ValueError, match="contribution must") as e:
        check_contribution(value)
    assert "\n" not in str(e.value)


def test_contributions_of_16_and_128_hex_digits_are_taken() -> None:
    assert check_contribution("0" * 16) == "0" * 16
    assert check_contribution("a" * 128) == "a" * 128


@pytest.mark.parametrize("game_id,players", [("twentyfive", 4), ("kozyri", 2)])
def test_an_honest_record_verifies_and_names_its_checks(game_id: str, players: int) -> None:
    record = _record(game_id, players)
    report = verify(json.loads(json.dumps(record)), contribution=MINE, committed=commitment(SECRET))
    assert any("SHA-256 of the secret" in line for line in report)
    assert any(f"{players} seats' contributions" in line for line in report)
    assert "your contribution is seat 0's" in report
    assert replay(record).seed == deal_seed(SECRET, record["fair"]["contributions"])


def _tamper(record: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    fair = bad["fair"]
    if how == "secret":
        fair["secret"] = "6e" + fair["secret"][2:]
    elif how == "secret and commitment":  # a new secret with its own commitment: the seed
        fair["secret"] = "6e" + fair["secret"][2:]
        fair["commitment"] = commitment(fair["secret"])
    elif how == "contribution":
        fair["contributions"][2] = "0" * 16
    elif how == "dropped contribution":
        fair["contributions"][0] = None
    elif how == "deal":
        bad["seed"] += 1
    elif how == "deal and secret":  # a chosen seed cannot be given a secret that fits
        bad["seed"] += 1
        fair["secret"] = "7e" + fair["secret"][2:]
        fair["commitment"] = commitment(fair["secret"])
    return bad


@pytest.mark.parametrize(
    "how,message",
    [
        ("secret", "does not match the commitment"),
        ("secret and commitment", "not the one the secret and contributions give"),
        ("contribution", "not the one the secret and contributions give"),
        ("dropped contribution", "not the one the secret and contributions give"),
        ("deal", "not the one the secret and contributions give"),
        ("deal and secret", "not the one the secret and contributions give"),
    ],
)
def test_each_kind_of_tampering_fails_verification(how: str, message: str) -> None:
    with pytest.raises(InvalidRecord, match=message):
        verify(_tamper(_record(), how))
    with pytest.raises(InvalidRecord, match=message):  # and reading the record at all
        replay(_tamper(_record(), how))


def test_a_recommitted_record_fails_against_the_commitment_you_were_shown() -> None:
    fair = Fairness("6e" * 32, (MINE, None, THEIRS, None))  # the server dealt again …
    game = trumps.new_game("twentyfive", players=4, seed=fair.seed)
    game.play(game.legal_actions()[0])
    other = record_of(game, fair=fair)
    verify(other)  # … and the record is consistent in itself, …
    with pytest.raises(InvalidRecord, match="not the one you were shown"):
        verify(other, committed=commitment(SECRET))  # … but not with what was shown first


def test_a_record_that_left_out_your_contribution_fails_with_it() -> None:
    record = _record()
    with pytest.raises(InvalidRecord, match="your contribution is not in the record"):
        verify(record, contribution="ab" * 8)


def test_a_different_deal_under_the_same_seed_does_not_replay() -> None:
    record = _record()
    record["actions"][-1], record["actions"][-2] = record["actions"][-2], record["actions"][-1]
    with pytest.raises(InvalidRecord, match=r"does not replay|outcome"):
        verify(record)


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda f: f.pop("scheme"), "exactly the keys"),
        (lambda f: f.update(scheme="other/1"), "scheme must be"),
        (lambda f: f.update(secret="xyz"), "secret must be 64"),
        (lambda f: f.update(commitment=7), "commitment must be 64"),
        (lambda f: f.update(contributions=[None]), "a list of 4"),
        (lambda f: f["contributions"].__setitem__(1, "XYZ"), "contribution of seat 1"),
    ],
)
def test_a_malformed_fair_object_is_named(change: Any, message: str) -> None:
    record = _record()
    change(record["fair"])
    with pytest.raises(InvalidRecord, match=message):
        replay(record)


def test_a_record_without_fair_data_cannot_be_verified() -> None:
    record = _record()
    del record["fair"]
    replay(record)  # still a valid record
    with pytest.raises(InvalidRecord, match="no fair-deal data"):
        verify(record)


def test_record_of_refuses_fair_data_of_another_seed() -> None:
    game = trumps.new_game("kozyri", players=2, seed=1)
    with pytest.raises(ValueError, match="not the game's"):
        record_of(game, fair=Fairness(SECRET, (None, None)))


def test_trumps_record_verify(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_record()))
    run = CliRunner().invoke(
        cli,
        [
            "record",
            "verify",
            str(good),
            "--contribution",
            MINE.upper(),
            "--commitment",
            commitment(SECRET),
        ],
    )
    assert run.exit_code == 0, run.output
    assert run.output.splitlines()[-1].startswith("verified:")
    assert "ok: your contribution is seat 0's" in run.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_tamper(_record(), "contribution")))
    run = CliRunner().invoke(cli, ["record", "verify", str(bad)])
    assert run.exit_code == 1
    assert run.output.count("\n") == 1 and "not verified" in run.output
    assert "Traceback" not in run.output
    for text, message in (("{", "not JSON"), ("[]", "no fair-deal data")):
        bad.write_text(text)
        run = CliRunner().invoke(cli, ["record", "verify", str(bad)])
        assert run.exit_code == 1 and message in run.output
    run = CliRunner().invoke(cli, ["record", "verify", str(tmp_path / "none.json")])
    assert run.exit_code == 1 and "cannot read" in run.output
