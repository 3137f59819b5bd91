"""The wire protocol's message types, decoding errors, schema and documentation."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest

from trumps.ai import BOTS, Limits, make_bot
from trumps.games import GAMES, new_game
from trumps.games.base import REASONS
from trumps.games.kozyri import Kozyri
from trumps.server.tables.botplay import hint_message
from trumps.server.wire import protocol as p
from trumps.server.wire import wiretypes as w

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

CLIENT_SAMPLES: list[p.ClientMessage] = [
    p.Hello(protocol=1, name="Olena"),
    p.Hello(protocol=1, name="Taras", resume_token="r-abc"),
    p.CreateTable(game="kozyri", seats=["human", "hard"]),
    p.CreateTable(
        game="twentyfive",
        rules={"target": 25},
        seats=["human", "human", "easy", "expert"],
        time_control=p.TimeControl(base=300.0, increment=5.0),
        private=True,
        grace=10.0,
        on_timeout="forfeit",
        takeover="hard",
    ),
    p.JoinTable(table_id="t-1"),
    p.JoinTable(table_id="t-1", seat=2),
    p.LeaveTable(table_id="t-1"),
    p.Spectate(table_id="t-1"),
    p.ListTables(),
    p.ListTables(game="twentyfive"),
    p.QuickMatch(game="kozyri"),
    p.CancelQuickMatch(),
    p.PlayComputer(game="twentyfive", players=4, level="expert"),
    p.Action(table_id="t-1", action="AS", expected=0),
    p.Resign(table_id="t-1"),
    p.ContinueHand(table_id="t-1", hand=2),
    p.ChatSend(table_id="t-1", text="hello <b>world</b> & co"),
    p.Resync(table_id="t-1", last_event=9),
    p.HintAsk(table_id="t-1"),
    p.TakebackAsk(table_id="t-1"),
    p.TakebackAnswer(table_id="t-1", accept=False),
    p.RematchAsk(table_id="t-1"),
    p.Contribute(table_id="t-1", value="00ff" * 8),
    p.Ping(),
    p.Ping(nonce=3),
]


def test_samples_cover_every_client_type() -> None:
    assert {type(m) for m in CLIENT_SAMPLES} == set(get_args(p.ClientMessage))


@pytest.mark.parametrize("msg", CLIENT_SAMPLES, ids=lambda m: type(m).__name__)
def test_client_messages_round_trip(msg: p.ClientMessage) -> None:
    data = p.encode(msg)
    assert json.loads(data)["type"] == type(msg).__struct_config__.tag
    assert p.decode_client(data) == msg
    assert p.decode_client(data.decode()) == msg


def test_chat_and_names_are_plain_text() -> None:
    msg = p.decode_client(
        json.dumps({"type": "hello", "protocol": 1, "name": " A\u0000n\u202ena\u0007 "})
    )
    assert isinstance(msg, p.Hello) and msg.name == "Anna"
    chat = p.decode_client(
        json.dumps({"type": "chat", "table_id": "t", "text": "<script>x</script>\r\n"})
    )
    assert isinstance(chat, p.ChatSend) and chat.text == "<script>x</script>"
    # Persian needs the zero-width non-joiner: it is kept; bidi overrides are not.
    persian = p.decode_client(
        json.dumps({"type": "hello", "protocol": 1, "name": "\u202eمی\u200cخواهم\u2066"})
    )
    assert isinstance(persian, p.Hello) and persian.name == "می\u200cخواهم"


def _doc_examples() -> list[dict[str, Any]]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return [json.loads(b) for b in blocks]


def test_doc_examples_decode_as_their_type() -> None:
    examples = _doc_examples()
    seen_client, seen_server = set(), set()
    for ex in examples:
        raw = json.dumps(ex)
        heading_type = ex["type"]
        # "chat" is both a client and a server message: try the client union first,
        # and validate server-only fields through the server union.
        if heading_type in p.CLIENT_TYPES and not set(ex) - _fields(p.CLIENT_TYPES[heading_type]):
            msg: msgspec.Struct = p.decode_client(raw)
            seen_client.add(heading_type)
        else:
            msg = p.decode_server(raw)
            seen_server.add(heading_type)
        assert json.loads(p.encode(msg)) == {**json.loads(p.encode(msg)), **ex}
    assert seen_client == set(p.CLIENT_TYPES)
    assert seen_server == set(p.SERVER_TYPES)


def test_the_doc_s_why_not_is_what_the_game_says() -> None:
    """The table_state example's ``why_not`` is the game's reason for each card of the hand
    not in ``legal`` (and ``take``), as the server sends it (docs/api.md#rule-queries)."""
    ex = next(e for e in _doc_examples() if e["type"] == "table_state")
    view = ex["view"]
    game = Kozyri.from_json(
        {
            "game": "kozyri",
            "trumps": view["trumps"],
            "hands": [view["hands"][0], view["hands"][1]["known"]],
            "pile": view["pile"],
            "to_move": 0,
            "dealer": 1,
        }
    )
    assert game.legal_actions() == ex["legal"]
    asked = [c for c in view["hands"][0] if c not in ex["legal"]] + ["take"]
    assert {a: game.why_not(a).to_json() for a in asked} == ex["why_not"]  # type: ignore[union-attr]
    error = next(e for e in _doc_examples() if e.get("code") == "illegal_action")
    assert error["why"] == ex["why_not"]["take"]


def test_the_doc_s_hint_is_what_the_server_sends() -> None:
    """The hint example has the shape of a real hint: the expert bot's decision on a
    Twenty-Five position, made into the message the table sends (``botplay.hint_message``);
    its ``why`` code is in the doc's table with the numbers the table names."""
    example = next(e for e in _doc_examples() if e["type"] == "hint" and "action" in e)
    game = new_game("twentyfive", players=4, seed=5)
    seat = game.current_player
    assert seat is not None
    decision = make_bot("expert", "twentyfive").decide(
        game.view(seat), game.legal_actions(), Limits(iterations=40), random.Random(1)
    )
    sent = json.loads(p.encode(hint_message("t-42", 17, decision)))
    assert set(sent) == set(example) and set(sent["why"]) == set(example["why"])
    assert sent["why"]["code"] == example["why"]["code"] == "sampled"
    assert set(sent["why"]["numbers"]) == set(example["why"]["numbers"])
    parts = [
        re.sub(r"\d[\d,]*", "@", re.escape(x))
        for x in example["reasoning"].split(example["action"])
    ]
    pattern = "[2-9TJQKA][SHDC]".join(parts).replace("@", r"[\d,]+")
    assert re.fullmatch(pattern, sent["reasoning"]), (pattern, sent["reasoning"])
    rows = DOC.read_text(encoding="utf-8").split("### hint")[2].split("```json")[0]
    documented = dict(re.findall(r"^\| `(\w+)` \| ([^|]*) \|", rows, re.M))
    assert "sampled" in documented and "solved_win" in documented
    assert set(re.findall(r"`(\w+)`", documented["sampled"])) == set(example["why"]["numbers"])


def _fields(cls: type[msgspec.Struct]) -> set[str]:
    return {"type", *cls.__struct_fields__}


LONG = "x" * (w.MAX_MESSAGE_BYTES + 1)

BAD_INPUTS: list[tuple[str, bytes | str]] = [
    ("bad_json", b"{"),
    ("bad_json", b"not json"),
    ("bad_json", b"\xff\xfe"),
    ("bad_json", b"[1, 2]"),
    ("bad_json", b'"hello"'),
    ("unknown_type", b"{}"),
    ("unknown_type", b'{"type": 3}'),
    ("unknown_type", b'{"type": "launch_missiles"}'),
    ("bad_field", b'{"type": "hello", "protocol": 1, "name": ""}'),  # none: null
    ("bad_field", b'{"type": "hello", "protocol": "1", "name": "a"}'),
    ("bad_field", b'{"type": "hello", "protocol": true, "name": "a"}'),
    ("bad_field", b'{"type": "ping", "extra": 1}'),
    ("bad_field", b'{"type": "action", "table_id": "t", "action": "AS"}'),
    ("bad_field", b'{"type": "action", "table_id": "t", "action": "AS", "expected": -1}'),
    ("bad_field", b'{"type": "join_table", "table_id": "t", "seat": "0"}'),
    ("bad_field", b'{"type": "create_table", "game": "chess", "seats": ["human", "human"]}'),
    ("bad_field", b'{"type": "create_table", "game": "kozyri", "seats": ["human", "god"]}'),
    ("bad_field", b'{"type": "create_table", "game": "kozyri", "seats": ["human"]}'),
    ("bad_field", b'{"type": "play_computer", "game": "kozyri", "level": "godlike"}'),
    ("bad_field", json.dumps({"type": "hello", "protocol": 1, "name": "n" * 33})),
    ("bad_field", json.dumps({"type": "hello", "protocol": 1, "name": "\u0001\u0002"})),
    ("bad_field", json.dumps({"type": "chat", "table_id": "t", "text": "c" * 301})),
    ("bad_field", json.dumps({"type": "chat", "table_id": "t", "text": ""})),
    ("too_large", json.dumps({"type": "chat", "table_id": "t", "text": LONG})),
    ("too_large", LONG.encode()),
]


@pytest.mark.parametrize(("code", "data"), BAD_INPUTS)
def test_bad_input_gets_its_code(code: str, data: bytes | str) -> None:
    with pytest.raises(w.ProtocolError) as info:
        p.decode_client(data)
    assert info.value.code == code
    assert info.value.code in w.ERROR_CODES
    assert info.value.message


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (b'{"type": "hello", "name": "a"}', "protocol"),  # (a name is optional)
        (b'{"type": "hello", "protocol": "x", "name": "a"}', "protocol"),
        (b'{"type": "ping", "extra": 1}', "extra"),
        (json.dumps({"type": "chat", "table_id": "t", "text": "c" * 301}), "text"),
    ],
)
def test_bad_field_message_names_the_field(data: bytes | str, field: str) -> None:
    with pytest.raises(w.ProtocolError) as info:
        p.decode_client(data)
    assert field in info.value.message


def test_bad_input_changes_nothing() -> None:
    before = p.encode(CLIENT_SAMPLES[3])
    for _, data in BAD_INPUTS:
        with pytest.raises(w.ProtocolError):
            p.decode_client(data)
    assert p.decode_client(before) == CLIENT_SAMPLES[3]
    assert p.encode(CLIENT_SAMPLES[3]) == before


def test_protocol_error_rejects_unknown_code() -> None:
    with pytest.raises(ValueError):
        w.ProtocolError("nope", "x")  # type: ignore[arg-type]


def test_schema_lists_every_message_type() -> None:
    schema = p.json_schema()
    assert schema["protocol"] == w.PROTOCOL_VERSION
    client = schema["client_message"]["discriminator"]["mapping"]
    server = schema["server_message"]["discriminator"]["mapping"]
    assert set(client) == set(p.CLIENT_TYPES)
    assert set(server) == set(p.SERVER_TYPES)
    for ref in [*client.values(), *server.values()]:
        assert ref.removeprefix("#/$defs/") in schema["$defs"]
    error_codes = schema["$defs"]["Error"]["properties"]["code"]["enum"]
    assert sorted(error_codes) == sorted(w.ERROR_CODES)
    json.dumps(schema)


def test_schema_command_prints_the_schema() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "trumps.server.wire.protocol"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert json.loads(out) == json.loads(json.dumps(p.json_schema()))


def test_error_codes_match_the_doc_table() -> None:
    text = DOC.read_text(encoding="utf-8").split("## Error codes", 1)[1]
    documented = re.findall(r"^\| `([a-z_]+)` \|", text, re.M)
    assert documented == list(w.ERROR_CODES)
    assert list(get_args(w.ErrorCode)) == list(w.ERROR_CODES)
    for code in (
        "bad_json",
        "unknown_type",
        "bad_field",
        "too_large",
        "not_your_turn",
        "illegal_action",
        "invalid_action",
        "stale_event",
        "bad_token",
        "not_seated",
        "table_full",
        "no_such_table",
        "rate_limited",
        "game_over",
    ):
        assert code in w.ERROR_CODES


def test_doc_states_the_version() -> None:
    assert f"Protocol version: {w.PROTOCOL_VERSION}" in DOC.read_text(encoding="utf-8")


def test_literals_match_the_engine() -> None:
    assert set(get_args(w.GameId)) == set(GAMES)
    assert set(get_args(w.BotLevel)) == set(BOTS)
    assert set(get_args(w.SeatKind)) == {"human", *BOTS}
    assert tuple(get_args(w.Reason)) == tuple(REASONS)


def test_server_messages_encode_and_decode() -> None:
    over = p.GameOver(
        table_id="t-1",
        outcome=p.OutcomeInfo(winners=[], losers=[], draw=True, reason="repetition"),
    )
    assert p.decode_server(p.encode(over)) == over
    err = p.Error(code="stale_event", message="event 4 is not the latest (6)")
    assert p.decode_server(p.encode(err)) == err
    with pytest.raises(msgspec.ValidationError):
        p.decode_server(b'{"type": "error", "code": "made_up", "message": "x"}')


def test_the_seat_limit_covers_every_game() -> None:
    """Twenty-Five is for up to 10 players: a 10-seat table is a valid request everywhere a
    seat count or number appears, and one seat more is ``bad_field``."""
    most = max(cls.max_players for cls in GAMES.values())
    assert most == 10 and w.MAX_SEATS == most
    seats = ["human"] + ["easy"] * (most - 1)
    create = {"type": "create_table", "game": "twentyfive", "seats": seats}
    assert len(p.decode_client(json.dumps(create)).seats) == most  # type: ignore[union-attr]
    computer = {"type": "play_computer", "game": "twentyfive", "players": most}
    assert p.decode_client(json.dumps(computer)).players == most  # type: ignore[union-attr]
    join = {"type": "join_table", "table_id": "t-1", "seat": most - 1}
    assert p.decode_client(json.dumps(join)).seat == most - 1  # type: ignore[union-attr]
    for too_many in (
        {**create, "seats": [*seats, "easy"]},
        {**computer, "players": most + 1},
        {**join, "seat": most},
    ):
        with pytest.raises(w.ProtocolError) as info:
            p.decode_client(json.dumps(too_many))
        assert info.value.code == "bad_field"


def _limit_rows() -> list[tuple[str, str, list[str]]]:
    """(limit, value, code names) of every row of the doc's Limits tables."""
    text = DOC.read_text(encoding="utf-8").split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("limit", "---"):
            rows.append((cells[0], cells[1], re.findall(r"`([a-z]+\.[A-Za-z_.]+)`", cells[3])))
    return rows


def _resolve(name: str) -> Any:
    """``folder.module.NAME`` (or ``module.NAME``) under ``trumps.server``: the object."""
    import importlib
    import importlib.util

    def is_module(dotted: str) -> bool:
        try:
            return importlib.util.find_spec(dotted) is not None
        except ModuleNotFoundError:  # a name inside a module, not a module
            return False

    parts = name.split(".")
    k = next(
        k for k in range(len(parts) - 1, 0, -1) if is_module("trumps.server." + ".".join(parts[:k]))
    )
    obj: Any = importlib.import_module("trumps.server." + ".".join(parts[:k]))
    for attr in parts[k:]:
        obj = getattr(obj, attr)
    return obj


def test_every_documented_limit_is_the_code_s() -> None:
    """Each row of the Limits tables names the constant it states, and states its value."""
    rows = _limit_rows()
    assert len(rows) >= 25
    for limit, value, names in rows:
        assert names, f"the limit {limit!r} names no constant"
        found = [_resolve(n) for n in names]
        if isinstance(found[0], re.Pattern):  # the login pattern: its length bounds
            assert found[0].pattern == r"^[a-z0-9][a-z0-9_.-]{2,31}$" and "3–32" in value
            continue
        numbers = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", value)]
        assert numbers, (limit, value)
        if len(found) == 2 and "–" in value:  # a range: minimum–maximum
            assert numbers[:2] == [float(found[0]), float(found[1])], (limit, value)
        else:
            assert numbers[0] == float(found[0]), (limit, value, names, found)


def test_the_limits_cover_every_bound_of_the_message_types() -> None:
    """No length or range limit of a message field is left out of the doc: every bound in
    the schema is one of the documented values (or a trivial one)."""
    documented = {float(x) for _, value, _ in _limit_rows() for x in re.findall(r"\d+", value)}
    bounds: set[float] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in ("maxLength", "maxItems", "maxProperties", "maximum"):
                if key in node:
                    bounds.add(float(node[key]))
            if "exclusiveMaximum" in node:  # a seat number: 0 … MAX_SEATS - 1
                bounds.add(float(node["exclusiveMaximum"]))
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(p.json_schema())
    assert bounds and bounds <= documented, sorted(bounds - documented)


@pytest.mark.parametrize(
    "blank",
    ["\u3164\u3164", "\u115f\u1160", "\uffa0", "\U000e0041\U000e0042", "\u2800\u2800"],
    ids=["hangul-filler", "hangul-choseong-jungseong", "halfwidth-filler", "tags", "braille"],
)
def test_a_name_that_would_render_blank_is_refused(blank: str) -> None:
    """Names of only Hangul fillers or tag characters showed as nobody at the table."""
    with pytest.raises(w.ProtocolError):
        p.decode_client(json.dumps({"type": "hello", "protocol": 1, "name": blank}))
    named = p.decode_client(json.dumps({"type": "hello", "protocol": 1, "name": f"Jin{blank}"}))
    assert isinstance(named, p.Hello) and named.name == "Jin"


def test_a_ping_nonce_is_a_number_the_page_can_echo_exactly() -> None:
    """JavaScript holds integers exactly up to 2**53 - 1: a larger nonce is refused."""
    assert p.decode_client(json.dumps({"type": "ping", "nonce": 2**53 - 1})) is not None
    with pytest.raises(w.ProtocolError):
        p.decode_client(json.dumps({"type": "ping", "nonce": 2**53}))
