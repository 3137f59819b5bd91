"""Ratings over a real server (issue 13, part 1): two accounts' quick match is rated, the
finished game moves both ratings, and the HTTP API shows them: the history list, the
profiles, the leaderboard; guests have no profile and play casual games."""

from __future__ import annotations

import random
from collections.abc import Callable

from server.e2e import Client, ServerProc, connected, run
from server.playkit import play_out

Serve = Callable[..., ServerProc]


async def signed_in(server: ServerProc, name: str) -> tuple[Client, int]:
    """A guest of ``name`` turned into an account, then a connection signed in with it."""
    guest = await connected(server.ws, name)
    made = server.post(
        "/api/accounts",
        json={"login": name.lower(), "password": "correct horse battery", "name": name},
        headers={"authorization": f"Bearer {guest.token}"},
    )
    assert made.status_code == 201, made.text
    await guest.close()
    logged = server.post(
        "/api/login", json={"login": name.lower(), "password": "correct horse battery"}
    ).json()
    client = await connected(server.ws, name, logged["resume_token"])
    return client, int(logged["player_id"])


def test_a_rated_quick_match_shows_in_history_profiles_and_leaderboard(serve: Serve) -> None:
    server = serve()

    async def main() -> None:
        ann, ann_id = await signed_in(server, "Ann")
        bob, bob_id = await signed_in(server, "Bob")
        await ann.send({"type": "quick_match", "game": "kozyri"})
        waiting = await ann.expect("waiting")
        assert waiting["rated"] is True
        await bob.send({"type": "quick_match", "game": "kozyri"})
        sa, sb = await ann.expect("table_state"), await bob.expect("table_state")
        assert sa["rated"] and sb["rated"] and sa["table_id"] == sb["table_id"]
        over = await play_out({sa["seat"]: ann, sb["seat"]: bob}, sa["table_id"], random.Random(3))

        [row] = server.get("/api/games").json()["games"]
        assert row["id"] == over["record_id"] and row["rated"] is True
        changes = {c["seat"]: c for c in row["rating_changes"]}
        assert set(changes) == {0, 1} and all(c["before"] == 1500 for c in changes.values())
        if not over["outcome"]["draw"]:
            [winner] = over["outcome"]["winners"]
            assert changes[winner]["after"] > 1500 > changes[1 - winner]["after"]

        profile = server.get(f"/api/players/{ann_id}")
        assert profile.status_code == 200, profile.text
        p = profile.json()
        assert p["name"] == "Ann" and "login" not in p
        duel = p["ratings"]["kozyri-duel"]
        assert duel["games"] == 1 and duel["provisional"] is True
        # "You play like …": the bot rated nearest, by the server's (shipped) calibration.
        bots = {
            b["level"]: b["rating"]
            for b in server.get("/api/leaderboard/kozyri-duel").json()["bots"]
        }
        assert set(bots) == {"random", "easy", "medium", "hard", "expert"}
        assert duel["like"] == min(
            bots, key=lambda level: (abs(bots[level] - duel["rating"]), level)
        )
        assert duel["rating"] == changes[sa["seat"]]["after"]
        assert [h["game_id"] for h in p["history"]] == [over["record_id"]]
        assert sum(p["results"]["kozyri"].values()) == 1
        assert [(h["player_id"], h["name"]) for h in p["head_to_head"]] == [(bob_id, "Bob")]
        assert [g["id"] for g in p["games"]] == [over["record_id"]]

        # Provisional ratings after one game: nobody is on the leaderboard yet.
        board = server.get("/api/leaderboard/kozyri-duel").json()
        assert board["players"] == [] and board["min_games"] >= 1
        assert board["title"]

        # Errors: one line each, nothing else.
        assert server.get("/api/leaderboard/chess").status_code == 404
        assert server.get("/api/leaderboard/kozyri-duel?limit=-1").status_code == 400
        for bad in ("abc", "0", "99999999999", str(bob_id + 100)):
            missing = server.get(f"/api/players/{bad}")
            assert missing.status_code == 404 and missing.json()["error"] == "no_such_player"

        guest = await connected(server.ws, "Guest")
        await guest.send({"type": "play_computer", "game": "kozyri", "rated": True})
        refused = await guest.expect("error")
        assert refused["code"] == "not_allowed"
        guest_profile = server.get(f"/api/players/{guest.player_id}")
        assert guest_profile.status_code == 404

    run(main)
