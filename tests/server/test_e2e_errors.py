"""Bad input against a real server (issue 4 item 6, checked end to end as item 8 asks).

"Bad input gets a clear error and changes nothing": every test sends bad frames, bad
requests and bad HTTP calls over real sockets to ``trumps serve`` on SQLite and on
PostgreSQL (the module's server of each, ``served``; the rate-limit test's own, for its
limit).  After each rejection it proves that (a) the error ``code`` is the documented one
(from the closed list) with a non-empty ``message``, (b) the connection still works (a
``ping`` gets its ``pong``) and (c) the table is unchanged: every seat and spectator gets its
``pong`` as the very next message (nothing was broadcast for the rejected request) and a
``resync`` returns the same ``event``, ``view``, ``legal`` and ``to_move`` as before.  A
later valid action is then the next thing everyone hears.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import uuid
from collections.abc import Callable
from typing import Any, Final

import pytest
import websockets

from server.e2e import Msg, ServerProc
from server.scenekit import Pool, check_error, essence, open_table, ping_pong, run_pool
from trumps.server.wire.wiretypes import ERROR_CODES, MAX_SEATS

Serve = Callable[..., ServerProc]

# ---------------------------------------------------------------- frames, hello, tokens


def test_bad_frames_hello_and_tokens_are_rejected_and_change_nothing(served: Serve) -> None:
    """Issue 4 item 6 (+ item 8, end to end): before ``hello`` → ``not_hello``/``bad_version``;
    malformed JSON, arrays, binary garbage → ``bad_json``; unknown or missing ``type`` →
    ``unknown_type``; wrong field types, unknown fields, out-of-range values → ``bad_field``
    naming the field; a 17 KiB frame → ``too_large``; forged, foreign and garbage resume
    tokens → ``bad_token``; over-long names → ``bad_field`` and control/bidi characters cleaned
    from names; a frame over 64 KiB closes only that socket (close code 1009).  A player's own
    valid token resumes that player: not an error."""
    server = served()

    async def main(pool: Pool) -> None:
        scene = await open_table(pool)
        tid = scene.table_id
        olena, taras = scene.seats[0], scene.seats[1]

        # -- before hello: nothing but hello is accepted, and a bad hello changes nothing.
        fresh = await pool.raw()

        async def before_hello(msg: Msg | str | bytes, code: str, name: str | None = None) -> None:
            check_error(await fresh.error(msg), code, name)
            check_error(await fresh.error({"type": "ping", "nonce": 1}), "not_hello")
            await scene.unharmed()

        await before_hello({"type": "ping", "nonce": 1}, "not_hello")
        await before_hello({"type": "list_tables"}, "not_hello")
        await before_hello({"type": "resync", "table_id": tid, "last_event": 0}, "not_hello")
        await before_hello(
            {"type": "action", "table_id": tid, "action": scene.legal()[0], "expected": 0},
            "not_hello",
        )
        await before_hello("{oops", "bad_json")
        await before_hello({"type": "hello", "protocol": 2, "name": "Eve"}, "bad_version")
        await before_hello({"type": "hello", "protocol": 0, "name": "Eve"}, "bad_field", "protocol")
        await before_hello(
            {"type": "hello", "protocol": "1", "name": "Eve"}, "bad_field", "protocol"
        )
        await before_hello({"type": "hello", "protocol": 1, "name": "x" * 33}, "bad_field", "name")
        await before_hello({"type": "hello", "protocol": 1, "name": "\u202e\x00 \u200b"}, "bad_field", "name")  # fmt: skip
        await before_hello({"type": "hello", "protocol": 1, "name": ""}, "bad_field", "name")
        await before_hello({"type": "hello", "protocol": 1, "name": 7}, "bad_field", "name")

        # Resume tokens: forged, from another server, garbage, naming nobody → bad_token.
        token = olena.token
        assert token is not None
        at = len(token) - 6  # inside the signature, a character whose every bit counts
        forged = token[:at] + ("A" if token[at] != "A" else "B") + token[at + 1 :]
        secret = (server.workdir / "secret.key").read_text(encoding="utf-8").strip()
        for bad in (
            forged,
            token[:-1],
            secrets.token_urlsafe(32),  # a guess
            # The digest the store keeps (someone who read the database) opens nothing.
            hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest(),
            "garbage",
            "a.b.c",
        ):
            await before_hello(
                {"type": "hello", "protocol": 1, "name": "Eve", "resume_token": bad}, "bad_token"
            )
        await before_hello(
            {"type": "hello", "protocol": 1, "name": "Eve", "resume_token": "t" * 129},
            "bad_field",
            "resume_token",
        )

        # The same connection still says hello; the name is cleaned, markup left alone.
        welcome = await fresh.hello("\u202eMal\x00lo\u200bry\x1b\u2028 ")
        assert welcome["name"] == "Mallory" and welcome["account"] is None
        assert welcome["player_id"] not in (olena.player_id, taras.player_id)
        assert welcome["tables"] == []
        mallory = fresh
        markup = await pool.hello("<b>Bob</b> & <i>co</i>")
        assert markup.received[-1]["name"] == "<b>Bob</b> & <i>co</i>"
        await scene.reject(mallory, {"type": "hello", "protocol": 1, "name": "Again"}, "bad_field")

        # -- frames that are not messages, from a seated player and from an outsider.
        big_chat = {"type": "chat", "table_id": tid, "text": "x" * (17 * 1024)}
        junk: list[tuple[Msg | str | bytes, str, str | None]] = [
            ("{oops", "bad_json", None),
            ('{"type": "ping"', "bad_json", None),
            ("", "bad_json", None),
            ("[1, 2]", "bad_json", None),
            ('["ping"]', "bad_json", None),
            ('"ping"', "bad_json", None),
            ("null", "bad_json", None),
            (b"\xff\xfe\x00\x80 binary \x9c garbage", "bad_json", None),
            (b'{"type": "ping", "nonce": 1}\xff', "bad_json", None),
            ({"type": "nope"}, "unknown_type", None),
            ({"type": "NOPE", "table_id": tid}, "unknown_type", None),
            ({"nonce": 1}, "unknown_type", None),
            ({"type": 7}, "unknown_type", None),
            ({"type": None}, "unknown_type", None),
            ({"type": "ping", "nonce": "seven"}, "bad_field", "nonce"),
            ({"type": "ping", "nonce": -1}, "bad_field", "nonce"),
            ({"type": "ping", "nonce": 1, "extra": True}, "bad_field", "extra"),
            ({"type": "resync", "table_id": tid}, "bad_field", "last_event"),
            ({"type": "resync", "table_id": tid, "last_event": -1}, "bad_field", "last_event"),
            ({"type": "join_table", "table_id": tid, "seat": MAX_SEATS}, "bad_field", "seat"),
            ({"type": "join_table", "table_id": tid, "seat": -1}, "bad_field", "seat"),
            ({"type": "join_table", "table_id": tid, "seat": "0"}, "bad_field", "seat"),
            ({"type": "spectate", "table_id": "../" + tid}, "bad_field", "table_id"),
            ({"type": "spectate", "table_id": 42}, "bad_field", "table_id"),
            ({"type": "list_tables", "game": "chess"}, "bad_field", "game"),
            ({"type": "action", "table_id": tid, "action": 5, "expected": 0}, "bad_field", "action"),
            ({"type": "action", "table_id": tid, "action": "", "expected": 0}, "bad_field", "action"),
            ({"type": "action", "table_id": tid, "action": "AS", "expected": "0"}, "bad_field", "expected"),
            ({"type": "action", "table_id": tid, "action": "AS"}, "bad_field", "expected"),
            ({"type": "create_table", "game": "kozyri", "seats": "human"}, "bad_field", "seats"),
            ({"type": "create_table", "game": "kozyri", "seats": ["human"]}, "bad_field", "seats"),
            ({"type": "create_table", "game": "kozyri", "seats": ["human", "robot"]}, "bad_field", "seats[1]"),
            ({"type": "chat", "table_id": tid, "text": ["hi"]}, "bad_field", "text"),
            (big_chat, "too_large", None),
            (json.dumps(big_chat).encode(), "too_large", None),
        ]  # fmt: skip
        for sender in (olena, mallory):
            for msg, code, name in junk:
                await scene.reject(sender, msg, code, name)

        # Acting for another seat: the seat comes from the connection, never from the message.
        seat_claim = {
            "type": "action",
            "table_id": tid,
            "action": scene.legal()[0],
            "expected": scene.number,
            "seat": scene.to_move,
        }
        await scene.reject(scene.waiter, seat_claim, "bad_field", "seat")
        await scene.reject(mallory, seat_claim, "bad_field", "seat")

        # -- a frame beyond the transport limit closes that socket, and only that one.
        await mallory.send(json.dumps({"type": "chat", "table_id": tid, "text": "y" * 70_000}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await mallory.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        await scene.unharmed(markup)
        newcomer = await pool.hello("Newcomer")
        await ping_pong(newcomer)

        # -- Olena's own valid token on a new connection is Olena: resuming, not an error.
        again = await pool.hello("Olena", token)
        assert again.player_id == olena.player_id
        assert again.received[-1]["tables"] == [tid]
        state = await again.expect("table_state")
        assert state["seat"] == 0 and essence(state) == essence(scene.base[0])
        for member in (again, taras, scene.watcher):
            event = await member.recv()
            assert event["type"] == "event" and event["kind"] == "return" and event["seat"] == 0

    run_pool(server, main)


# ---------------------------------------------------------------- requests at a table


def test_table_requests_that_are_not_allowed_change_nothing(served: Serve) -> None:
    """Issue 4 item 6 (+ item 8): at a running two-person table, an action out of turn →
    ``not_your_turn``; from a spectator or a stranger → ``not_seated``; the opponent's card
    sent by the wrong player → ``not_your_turn``/``illegal_action`` (acting for another seat is
    impossible); ``zz`` → ``invalid_action``; a card not in hand → ``illegal_action``; stale
    ``expected`` (lower and higher) → ``stale_event``; bad rules → ``bad_rules``; unknown
    table → ``no_such_table``; taken seat or full table → ``table_full``; a seat the table
    does not have → ``bad_field``; 301-character chat →
    ``bad_field``; markup in chat arrives verbatim (control characters removed); after a
    resignation, action and resign → ``game_over``.  Each changes nothing."""
    server = served()

    async def main(pool: Pool) -> None:
        scene = await open_table(pool)
        tid = scene.table_id
        stranger = await pool.hello("Stranger")
        legal = scene.legal()
        card = next(a for a in legal if len(a) == 2)
        assert card in scene.hand(scene.to_move)
        theirs = scene.hand(1 - scene.to_move)[0]  # the waiting player's card

        def act(action: str, expected: int | None = None) -> Msg:
            number = scene.number if expected is None else expected
            return {"type": "action", "table_id": tid, "action": action, "expected": number}

        # Not seated here: a stranger and a spectator can neither act nor resign.
        for outsider in (stranger, scene.watcher):
            await scene.reject(outsider, act(card), "not_seated")
            await scene.reject(outsider, {"type": "resign", "table_id": tid}, "not_seated")
        await scene.reject(stranger, {"type": "resync", "table_id": tid, "last_event": 0}, "not_seated")  # fmt: skip
        await scene.reject(stranger, {"type": "chat", "table_id": tid, "text": "hi"}, "not_seated")
        await scene.reject(stranger, {"type": "leave_table", "table_id": "t-nope"}, "no_such_table")

        # Out of turn: the waiting player plays the mover's card or its own.
        await scene.reject(scene.waiter, act(card), "not_your_turn")
        await scene.reject(scene.waiter, act(theirs), "not_your_turn")
        await scene.reject(scene.waiter, act("zz"), "not_your_turn")
        # The mover: not an action, a card it does not hold, the opponent's card.
        await scene.reject(scene.mover, act("zz"), "invalid_action")
        await scene.reject(scene.mover, act("trump"), "invalid_action")
        await scene.reject(scene.mover, act(theirs), "illegal_action")
        await scene.reject(scene.mover, act("trump S"), "illegal_action")
        # Stale event numbers, lower and higher.
        for expected in (scene.number - 1, 0, scene.number + 1, 10**12):
            await scene.reject(scene.mover, act(card, expected), "stale_event")
            await scene.reject(scene.waiter, act(card, expected), "stale_event")

        # Rules the games do not have: no table appears anywhere.
        tables_before = server.get("/api/tables").json()
        for create in (
            {"rules": "nope"},
            {"rules": {"nope": 1}},
            {"rules": {"voluntary_pickup": "yes"}},
            {"rules": {"max_plies": -5}},
            {"seats": ["human"] * 5},
            {"game": "twentyfive", "seats": ["human", "easy"], "rules": "nope"},
        ):
            msg = {"type": "create_table", "game": "kozyri", "seats": ["human", "human"], **create}
            await scene.reject(stranger, msg, "bad_rules")
            await scene.reject(scene.waiter, msg, "bad_rules")
        await scene.reject(stranger, {"type": "play_computer", "game": "kozyri", "players": 5}, "bad_rules")  # fmt: skip
        # The option at fault is named for the client to word; for teams, the counts that fit.
        faults: dict[str, tuple[dict[str, Any], list[int]]] = {
            "teams": ({"game": "twentyfive", "seats": ["human"] * 3, "rules": {"teams": 2}}, [4, 6, 8, 10]),
            "max_plies": ({"rules": {"max_plies": -5}}, []),
            "nope": ({"rules": {"preset": "standard", "nope": 1}}, []),
        }  # fmt: skip
        for option, (create, fits) in faults.items():
            msg = {
                "type": "create_table",
                "game": "kozyri",
                "seats": ["human", "human"],
                **create,
            }
            err = await scene.reject(stranger, msg, "bad_rules")
            assert err["rule"] == {"option": option, "fits": fits}, err
        err = await scene.reject(stranger, {"type": "create_table", "game": "kozyri", "rules": "nope", "seats": ["human", "human"]}, "bad_rules")  # fmt: skip
        assert err.get("rule") is None, err
        assert server.get("/api/tables").json() == tables_before

        # No such table, no open seat.
        for kind in ("join_table", "spectate", "leave_table", "resign"):
            await scene.reject(stranger, {"type": kind, "table_id": "t-nope"}, "no_such_table")
        await scene.reject(stranger, act(card) | {"table_id": "t-nope"}, "no_such_table")
        await scene.reject(stranger, {"type": "join_table", "table_id": tid}, "table_full")
        # Seats 0 and 1 are taken; this two-seat table has no seat 5 (issue 26: bad_field).
        for seat, code in ((0, "table_full"), (1, "table_full"), (5, "bad_field")):
            join: Msg = {"type": "join_table", "table_id": tid, "seat": seat}
            await scene.reject(stranger, join, code)
            await scene.reject(scene.watcher, join, code)

        # Chat: too long or invisible → bad_field; markup is plain text, only controls go.
        for text in ("x" * 301, "\x00\u200b \u202e", " "):
            chat = {"type": "chat", "table_id": tid, "text": text}
            await scene.reject(scene.waiter, chat, "bad_field", "text")
        said = {
            scene.mover: "<script>alert('x')</script>\x07 <b>bold</b>\u202e &amp; <i>",
            scene.watcher: "<img src=x onerror=alert(1)>\u200b\x1b[31m",
        }
        shown = {
            scene.mover: "<script>alert('x')</script> <b>bold</b> &amp; <i>",
            scene.watcher: "<img src=x onerror=alert(1)>[31m",
        }
        for speaker, text in said.items():
            await speaker.send({"type": "chat", "table_id": tid, "text": text})
            for member in scene.members:
                posted = await member.expect("chat")
                assert posted["text"] == shown[speaker], posted
                assert posted["seat"] == (None if speaker is scene.watcher else scene.to_move)
            await scene.unharmed(stranger)
        await scene.reject(stranger, {"type": "chat", "table_id": tid, "text": "x" * 300}, "not_seated")  # fmt: skip

        # A valid action now is the first thing everyone hears: nothing came before it.
        await scene.advance(scene.mover, card)

        # After the game ended (one resigns), acting and resigning are game_over.
        resigner = scene.waiter
        await resigner.send({"type": "resign", "table_id": tid})
        overs = [await c.until(lambda m: m["type"] == "game_over") for c in scene.members]
        assert overs[0] == overs[1] == overs[2] and overs[0]["outcome"]["reason"] == "resigned"
        scene.base = await scene.snapshots()
        assert scene.base[0]["outcome"] is not None and scene.base[0]["legal"] == []
        for player in scene.seats.values():
            await scene.reject(player, act(card), "game_over")
            await scene.reject(player, act("zz"), "game_over")
            await scene.reject(player, {"type": "resign", "table_id": tid}, "game_over")
        await scene.reject(scene.watcher, act(card), "not_seated")

    run_pool(server, main)


# ---------------------------------------------------------------- rate limits


def test_rate_limit_rejects_the_excess_and_keeps_the_connection(served: Serve) -> None:
    """Issue 4 item 6 (per-connection rate limits), end to end (item 8): at 5 messages per
    second a burst of 30 pings gets at most 5 pongs and then ``rate_limited`` errors; an
    action in the burst is rejected and changes nothing; other connections are not limited;
    the connection stays open and, once the window has passed, a ping works again."""
    server = served(rate=(5, 1000))

    async def main(pool: Pool) -> None:
        olena = await pool.hello("Olena")
        taras = await pool.hello("Taras")
        await olena.send({"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        tid = (await olena.expect("table_state"))["table_id"]
        await taras.send({"type": "join_table", "table_id": tid})
        await taras.expect("table_state")
        starts = {
            seat: await c.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            for seat, c in ((0, olena), (1, taras))
        }
        to_move = starts[0]["to_move"]
        assert isinstance(to_move, int)
        mover, other = (olena, taras) if to_move == 0 else (taras, olena)
        start = starts[to_move]
        action = {
            "type": "action",
            "table_id": tid,
            "action": start["legal"][0],
            "expected": start["number"],
        }

        for nonce in range(30):
            await mover.send({"type": "ping", "nonce": nonce})
        await mover.send(action)
        replies = [await mover.recv() for _ in range(31)]
        pongs = [r for r in replies if r["type"] == "pong"]
        errors = [r for r in replies if r["type"] == "error"]
        assert 1 <= len(pongs) <= 5, replies
        assert len(pongs) + len(errors) == 31, replies
        for err in errors:
            check_error(err, "rate_limited")
        assert replies[-1]["type"] == "error"  # the action was one of the rejected
        assert [p["nonce"] for p in pongs] == list(range(len(pongs)))

        await ping_pong(other)  # another connection is not limited, and heard nothing

        # The budget refills (a token bucket: 5 a second): the same connection works again.
        async def allowed(msg: Msg) -> Msg:
            """Send ``msg`` until it is not refused for the rate (bounded retries)."""
            for _ in range(40):
                await mover.send(msg)
                reply = await mover.recv()
                if reply["type"] != "error" or reply["code"] != "rate_limited":
                    return reply
                await asyncio.sleep(0.25)
            pytest.fail("the rate limit never let a message through again")

        reply = await allowed({"type": "ping", "nonce": 99})
        assert reply == {"type": "pong", "nonce": 99}
        state = await allowed({"type": "resync", "table_id": tid, "last_event": 0})
        assert state["type"] == "table_state" and state["event"] == start["number"]
        assert (state["view"], state["legal"]) == (start["view"], start["legal"])
        moved = await allowed(action)  # now it is played, and it is the next thing both hear
        assert moved["type"] == "event" and moved["number"] == start["number"] + 1, moved
        event = await other.recv()
        assert event["type"] == "event" and event["number"] == start["number"] + 1, event

    run_pool(server, main)


# ---------------------------------------------------------------- the HTTP API


def test_http_api_rejects_bad_requests(served: Serve) -> None:
    """Issue 4 item 6 (+ item 8) for the HTTP API: bad logins and short passwords → 400,
    a taken login → 409, a wrong password → 401, ``mine=1`` without or with a forged bearer →
    401, unknown or non-numeric game ids → 404.  A registration's token works in ``hello``
    (``welcome.account`` is the login) and logging in gives back the same player."""
    server = served()

    def refused(response: Any, status: int) -> None:
        assert response.status_code == status, response.text
        body = response.json()
        assert isinstance(body["error"], str) and body["error"]
        assert isinstance(body["message"], str) and body["message"].strip()

    password = "correct horse battery"
    login = f"olena{uuid.uuid4().hex[:8]}"  # unique on the module's server
    refused(server.post("/api/accounts", json={"login": "A!", "password": password}), 400)
    refused(server.post("/api/accounts", json={"login": "ab", "password": password}), 400)
    refused(server.post("/api/accounts", json={"login": login, "password": "short"}), 400)
    json_type = {"content-type": "application/json"}
    refused(server.post("/api/accounts", content=b"{not json", headers=json_type), 400)
    refused(server.post("/api/accounts", content=b"{}"), 415)  # not sent as JSON
    made = server.post(
        "/api/accounts", json={"login": login.title(), "password": password, "name": "Olena K"}
    )
    assert made.status_code == 201, made.text
    account = made.json()
    assert account["login"] == login and account["name"] == "Olena K"
    refused(server.post("/api/accounts", json={"login": login, "password": password}), 409)

    refused(server.post("/api/login", json={"login": login, "password": password + "!"}), 401)
    logged = server.post("/api/login", json={"login": login.upper(), "password": password})
    assert logged.status_code == 200, logged.text
    assert logged.json()["player_id"] == account["player_id"]

    token = account["resume_token"]
    at = len(token) - 6
    forged = token[:at] + ("A" if token[at] != "A" else "B") + token[at + 1 :]
    refused(server.get("/api/games?mine=1"), 401)
    for bad in (forged, secrets.token_urlsafe(32), "garbage"):
        refused(server.get("/api/games?mine=1", headers={"authorization": f"Bearer {bad}"}), 401)
    mine = server.get("/api/games?mine=1", headers={"authorization": f"Bearer {token}"})
    assert mine.status_code == 200 and mine.json() == {"games": []}
    for path in ("/api/games/999999", "/api/games/abc", "/api/games/999999/replay"):
        refused(server.get(path), 404)

    async def main(pool: Pool) -> None:
        for tok in (token, logged.json()["resume_token"]):
            client = await pool.hello("Olena", tok)
            welcome = client.received[-1]
            assert welcome["account"] == login
            assert welcome["player_id"] == str(account["player_id"])
            await ping_pong(client)

    run_pool(server, main)


# ---------------------------------------------------------------- edge cases (were server bugs)


def test_deeply_nested_json_is_rejected_and_keeps_the_connection(served: Serve) -> None:
    """Issue 4 item 6 (+ item 8): a frame within 16 KiB but nested thousands of levels deep
    is bad input like any other: a documented error code, and the connection stays open."""
    server = served()

    async def main(pool: Pool) -> None:
        client = await pool.hello("Nester")
        check_error(await client.error("[" * 5000 + "]" * 5000), "bad_json")
        await ping_pong(client)
        deep_rules = (
            '{"type": "create_table", "game": "kozyri", "seats": ["human", "human"], '
            '"rules": {"max_plies": ' + "[" * 3000 + "]" * 3000 + "}}"
        )
        err = await client.error(deep_rules)
        assert err["code"] in set(ERROR_CODES) - {"internal_error"}, err
        await ping_pong(client)

    run_pool(server, main)


def test_game_ids_out_of_the_database_range_are_404(served: Serve) -> None:
    """Issue 4 item 6 (+ item 8): an unknown game id is ``404`` however large it is."""
    server = served()
    for path in (
        "/api/games/3000000000",
        "/api/games/99999999999999999999",
        "/api/games/3000000000/replay",
    ):
        response = server.get(path)
        assert response.status_code == 404, (path, response.status_code, response.text)


def test_rejected_join_keeps_the_lobby_feed(served: Serve) -> None:
    """Issue 4 item 6 (+ item 8): a ``join_table`` refused with ``table_full`` changes nothing,
    so a connection that watches the table list keeps getting its pushes."""
    server = served()

    async def main(pool: Pool) -> None:
        olena = await pool.hello("Olena")
        taras = await pool.hello("Taras")
        carol = await pool.hello("Carol")
        dave = await pool.hello("Dave")
        await olena.send({"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        tid = (await olena.expect("table_state"))["table_id"]
        await taras.send({"type": "join_table", "table_id": tid})
        await taras.expect("table_state")
        for watcher in (carol, dave):
            await watcher.send({"type": "list_tables"})
            await watcher.expect("table_list")
        check_error(await carol.error({"type": "join_table", "table_id": tid}), "table_full")

        await olena.send({"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        new = (await olena.until(lambda m: m["type"] == "table_state"))["table_id"]

        def lists_new(m: Msg) -> bool:
            return m["type"] == "table_list" and new in [t["table_id"] for t in m["tables"]]

        await dave.until(lists_new)  # the push went out to every lobby watcher …
        await carol.send({"type": "ping", "nonce": 1})
        before_pong: list[Msg] = []
        while (msg := await carol.recv())["type"] != "pong":
            before_pong.append(msg)
        assert any(lists_new(m) for m in before_pong), before_pong  # … Carol included

    run_pool(server, main)


def test_asking_for_the_other_players_seat_is_table_full(served: Serve) -> None:
    """Issue 4 item 6 (+ item 8): a seated player asking for the opponent's (taken) seat is
    refused with ``table_full`` and changes nothing: no event, the event number stays."""
    server = served()

    async def main(pool: Pool) -> None:
        scene = await open_table(pool, cards=False)
        for seat, player in scene.seats.items():
            msg = {"type": "join_table", "table_id": scene.table_id, "seat": 1 - seat}
            await scene.reject(player, msg, "table_full")

    run_pool(server, main)


# Every character with the Unicode Bidi_Control property.
BIDI_CONTROLS: Final = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_bidi_controls_are_removed_from_names_and_chat(served: Serve) -> None:
    """Issue 4 item 6 (+ item 8): names and chat are plain text with control and bidi
    characters removed, so no name or chat line can reorder what is shown around it."""
    server = served()

    async def main(pool: Pool) -> None:
        name = "Ol" + BIDI_CONTROLS[:6] + "ena" + BIDI_CONTROLS[6:]
        olena = await pool.hello(name)
        assert olena.received[-1]["name"] == "Olena"
        taras = await pool.hello("Taras")
        await olena.send({"type": "create_table", "game": "kozyri", "seats": ["human", "human"]})
        tid = (await olena.expect("table_state"))["table_id"]
        await taras.send({"type": "join_table", "table_id": tid})
        assert (await taras.expect("table_state"))["seats"][0]["name"] == "Olena"
        await olena.send({"type": "chat", "table_id": tid, "text": f"<b>{BIDI_CONTROLS}gg</b>"})
        said = await taras.until(lambda m: m["type"] == "chat")
        assert said["name"] == "Olena" and said["text"] == "<b>gg</b>", said

    run_pool(server, main)
