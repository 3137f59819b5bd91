"""Sessions and guest expiry in the store, on SQLite and on PostgreSQL (issue 17 §1–§2).

A session row keeps a token's digest, its player, when it was made and last used and a
label; ending deletes it.  ``expire`` drops sessions unused for too long, and guests that
hold nothing (no login, no seat, no running table they made, no recent session), never a
guest whose games are in the history or an account.
"""

from __future__ import annotations

from gamekit import finished_game
from store.storekit import Db
from trumps.records import record_of
from trumps.store import SqlStore, TableWrite, UnknownPlayer

DAY = 86_400.0


def test_sessions_are_made_found_touched_listed_and_ended(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        ana = await store.add_player("Ana", "h", login="ana")
        rui = await store.add_player("Rui")
        first = await store.add_session(ana, "a" * 64, "Firefox on Linux", 100.0)
        second = await store.add_session(ana, "b" * 64, "", 200.0)
        theirs = await store.add_session(rui, "c" * 64, "", 300.0)
        found = await store.find_session("a" * 64)
        assert found == first and found.player_id == ana and found.label == "Firefox on Linux"
        assert await store.find_session("d" * 64) is None
        await store.touch_session(first.id, 400.0)
        listed = await store.player_sessions(ana)
        assert [s.id for s in listed] == [first.id, second.id]  # the most recently used first
        assert listed[0].last_used == 400.0 and listed[0].created == 100.0
        # Another player's session is not ended by id.
        assert await store.end_sessions(ana, [theirs.id]) == []
        assert await store.find_session("c" * 64) is not None
        assert await store.end_sessions(ana, keep=second.id) == [first.id]
        assert await store.end_sessions(ana) == [second.id]
        assert await store.player_sessions(ana) == []
        try:
            await store.add_session(999_999, "e" * 64, "", 1.0)
        except UnknownPlayer:
            pass
        else:
            raise AssertionError("a session of no player was stored")

    db.on_store(body)


def test_a_guest_and_its_session_are_stored_together(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        made = await store.add_guest("Eve", "f" * 64, "Chrome", 50.0)
        player = await store.get_player(made.player_id)
        assert player.name == "Eve" and player.login is None
        assert await store.find_session("f" * 64) == made

    db.on_store(body)


def test_expire_drops_idle_sessions_and_guests_that_hold_nothing(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        now = 100 * DAY
        idle = await store.add_guest("Idle", "1" * 64, "", now - 10 * DAY)
        recent = await store.add_guest("Recent", "2" * 64, "", now - 1 * DAY)
        played = await store.add_guest("Played", "3" * 64, "", now - 50 * DAY)
        maker = await store.add_guest("Maker", "4" * 64, "", now - 50 * DAY)
        bare = await store.add_player("Before sessions")  # a guest row of old, no session
        account = await store.add_player("Ana", "h", login="ana")
        old = await store.add_session(account, "5" * 64, "", now - 200 * DAY)
        kept = await store.add_session(account, "6" * 64, "", now - 10 * DAY)
        game = finished_game("kozyri", 2, 7)
        await store.save_game(record_of(game), None, [played.player_id, None])
        waiting = record_of(finished_game("kozyri", 2, 8))
        waiting.update(outcome=None, finished=None, actions=[])
        await store.commit_tables([TableWrite("t1", waiting, creator=maker.player_id)])
        ended, guests = await store.expire(now - 90 * DAY, now - 7 * DAY)
        assert (ended, guests) == (1, 2)  # the account's 200-day-old one; Idle and bare
        for gone in (idle.player_id, bare):
            try:
                await store.get_player(gone)
            except UnknownPlayer:
                continue
            raise AssertionError(f"guest {gone} was kept")
        assert await store.find_session("1" * 64) is None  # its session went with it
        for still in (recent.player_id, played.player_id, maker.player_id, account):
            await store.get_player(still)
        assert [s.id for s in await store.player_sessions(account)] == [kept.id]
        assert old.id != kept.id

    db.on_store(body)


def test_a_guest_whose_token_was_never_used_again_goes_sooner(db: Db) -> None:
    """Every token-less ``hello`` wrote a player row that was never removed."""

    async def body(store: SqlStore) -> None:
        now = 100 * DAY
        flood = [await store.add_guest(f"G{n}", f"{n:064d}", "", now - 2 * 3600) for n in range(5)]
        fresh = await store.add_guest("Fresh", "f" * 64, "", now - 600)
        back = await store.add_guest("Back", "b" * 64, "", now - 3 * DAY)
        await store.touch_session(back.id, now - 2 * DAY)  # it came back the next day
        assert await store.expire(now - 90 * DAY, now - 7 * DAY, now - 3600) == (0, 5)
        for n, gone in enumerate(flood):
            assert await store.find_session(f"{n:064d}") is None
            try:
                await store.get_player(gone.player_id)
            except UnknownPlayer:
                continue
            raise AssertionError(f"guest {gone.player_id} was kept")
        for kept in (fresh, back):
            await store.get_player(kept.player_id)

    db.on_store(body)


def test_reserved_player_ids_are_never_given_twice(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        first = await store.reserve_player_id()  # before any player was stored
        ana = await store.add_player("Ana", "h", login="ana")
        second = await store.reserve_player_id()
        rui = await store.add_player("Rui")
        ids = [first, ana, second, rui]
        assert len(set(ids)) == 4 and ids == sorted(ids)
        stored = await store.add_guest("Eve", "e" * 64, "", 1.0, player_id=second)
        assert stored.player_id == second and (await store.get_player(second)).name == "Eve"
        assert await store.add_player("Bo") > rui

    db.on_store(body)
