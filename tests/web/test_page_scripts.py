"""The page's JavaScript outside a browser (issue 29): TypeScript's checker reads every
module against the wire protocol's types, made from ``protocol.py`` for this run, and the
pure modules' unit tests (``tests/js/*.test.mjs``) run on Node's own test runner.

Both need Node.js; the checker also needs ``npm ci`` in ``tests/js`` (TypeScript, pinned in
its lock file).  Without them these tests are skipped, unless ``TRUMPS_REQUIRE_NODE`` is set
(``.ci/run``): then they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from trumps.server.wire.protocol import CLIENT_TYPES, SERVER_TYPES
from trumps.server.wire.typescript import declarations

JS = Path(__file__).resolve().parents[1] / "js"
TSC = JS / "node_modules" / ".bin" / "tsc"
UNIT_TESTS = sorted(JS.glob("*.test.mjs"))


def _needs(what: str, present: bool) -> None:
    if present:
        return
    if os.environ.get("TRUMPS_REQUIRE_NODE"):
        pytest.fail(f"{what} is not installed (TRUMPS_REQUIRE_NODE is set)")
    pytest.skip(f"{what} is not installed; TRUMPS_REQUIRE_NODE=1 fails instead")


def _checked(
    config: str, tmp_path: Path, files: list[Path] | None = None
) -> subprocess.CompletedProcess[str]:
    """``tsc`` with ``tests/js/<config>`` over its own files (or ``files``) and this run's
    declarations of the protocol, written to ``tmp_path``."""
    _needs("TypeScript (npm ci in tests/js)", TSC.exists() and shutil.which("node") is not None)
    (tmp_path / "protocol.d.ts").write_text(declarations(), encoding="utf-8")
    base = json.loads((JS / config).read_text(encoding="utf-8"))
    own = [str((JS / p).resolve()) for p in base["include"] if not p.startswith("generated/")]
    project = {
        "extends": str(JS / config),
        "include": [*(own if files is None else map(str, files)), str(tmp_path / "protocol.d.ts")],
        "exclude": [str((JS / p).resolve()) for p in base.get("exclude", [])],
    }
    (tmp_path / "tsconfig.json").write_text(json.dumps(project), encoding="utf-8")
    return subprocess.run(
        [str(TSC), "-p", str(tmp_path / "tsconfig.json")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("config", ["tsconfig.json", "tsconfig.worker.json"])
def test_the_page_type_checks_against_the_protocol(config: str, tmp_path: Path) -> None:
    """Every module of the page (the service worker and the engine's worker with the
    worker's globals) passes TypeScript's checker, its messages typed by ``Proto``."""
    done = _checked(config, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def _refused(tmp_path: Path, source: str) -> str:
    """What the checker says of a page module holding ``source``, which it must refuse."""
    bad = tmp_path / "wrong.js"
    bad.write_text(source, encoding="utf-8")
    done = _checked("tsconfig.json", tmp_path, files=[bad])
    assert done.returncode != 0, done.stdout
    return done.stdout


def test_the_checker_finds_a_field_the_protocol_does_not_have(tmp_path: Path) -> None:
    """A message the page sends with a misspelt field, or a field of a server message the
    protocol does not have, fails the check (so the check above can fail)."""
    out = _refused(
        tmp_path,
        "/** @param {Proto.ClientMessage} m */ const send = (m) => m;\n"
        'send({ type: "spectate", table: "t-1" });\n'
        "/** @type {Proto.Handlers} */\n"
        "const handlers = { welcome(m) { return m.player; } };\n"
        "export { handlers };\n",
    )
    assert "'table' does not exist in type 'Spectate'" in out, out
    assert "Property 'player' does not exist on type 'Welcome'" in out, out


def test_the_checker_holds_a_view_to_its_game_s_type(tmp_path: Path) -> None:
    """The view a ``table_state`` or ``event`` carries is declared as the games' view types
    (``trumps.games.viewtypes``): a key neither game's view has fails, and one game's key is
    read only once the view's ``game`` says it is that game."""
    out = _refused(
        tmp_path,
        "/** @type {Proto.Handlers} */\n"
        "const handlers = {\n"
        "  table_state(m) { return m.view.pile_size; },\n"
        "  event(m) { return m.view.take_count; },\n"
        "  error(m) { return m; },\n"
        "};\n"
        "/** @param {Proto.View} v */\n"
        'const pile = (v) => (v.game === "kozyri" ? v.pile : v.trick);\n'
        "export { handlers, pile };\n",
    )
    assert "Property 'pile_size' does not exist on type 'View'" in out, out
    assert "Property 'take_count' does not exist on type 'View'" in out, out
    assert out.count("error TS") == 2, out  # the narrowed reads in ``pile`` are fine
    views = declarations()
    for shape in ("KozyriView", "TwentyFiveView", "HiddenHand"):
        assert f"interface {shape} {{" in views
    assert "type View = KozyriView | TwentyFiveView;" in views
    assert "    view: View;" in views


def test_the_declarations_name_every_message_and_field() -> None:
    """Each message of both directions is declared under its ``type`` with its fields (a
    field with a default may be left out), and nothing else is made up."""
    text = declarations()
    for types in (CLIENT_TYPES, SERVER_TYPES):
        for tag, cls in types.items():
            block = re.search(rf"interface {cls.__name__} \{{\n(.*?)\n  \}}", text, re.S)
            assert block is not None, cls.__name__
            body = block.group(1)
            assert f'type: "{tag}";' in body
            for name in cls.__struct_fields__:
                assert re.search(rf"^    {name}\??: ", body, re.M), (cls.__name__, name)
    assert "player_id: string;" in text and "resume_token: string;" in text
    assert "    welcome: Welcome;" in text and "    hint: HintAsk;" in text  # by direction


@pytest.mark.parametrize("script", UNIT_TESTS, ids=[p.name for p in UNIT_TESTS])
def test_a_pure_module_s_unit_tests(script: Path) -> None:
    _needs("Node.js", shutil.which("node") is not None)
    done = subprocess.run(
        ["node", "--test", str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"^# fail 0$", done.stdout, re.M) and not re.search(
        r"^# pass 0$", done.stdout, re.M
    ), done.stdout
