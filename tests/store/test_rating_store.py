"""Rated games in the store (issue 13, part 1; docs/ratings.md): a rated game moves its
people's ratings in the transaction that stores it finished, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

import trumps
from store.ratedgames import resigned_duel
from store.storekit import Db
from trumps.ratings import NEW, Rating, glicko2
from trumps.records import record_of
from trumps.store import Fenced, RatingPlan, SqlStore, TableWrite

DUEL = [[0], [1]]


def _write(
    table: str, game: trumps.Game, plan: RatingPlan | None, ids: Sequence[int | None]
) -> TableWrite:
    return TableWrite(table, record_of(game, ["a", "b"]), player_ids=ids, rating=plan)


def test_a_rated_duel_moves_both_ratings_once_and_says_so_in_the_history(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        bob = await store.add_player("bob")
        plan = RatingPlan("kozyri-duel", {0: alice, 1: bob}, DUEL)
        write = _write("t1", resigned_duel(1, winner=0), plan, [alice, bob])
        [game_id] = await store.commit_tables([write])
        assert isinstance(game_id, int)
        # Glicko-2 from two new players: the winner's rating is what glicko2 says.
        expect = glicko2(NEW, [(NEW, 1.0)])
        mine = await store.player_ratings(alice)
        assert mine["kozyri-duel"].value == pytest.approx(expect.value)
        assert mine["kozyri-duel"].games == 1 and mine["kozyri-duel"].provisional
        assert (await store.player_ratings(bob))["kozyri-duel"].value < 1500
        # A retry of the same finishing write (its answer lost) rates nothing twice.
        [again] = await store.commit_tables([write])
        assert isinstance(again, Fenced)
        assert (await store.player_ratings(alice))["kozyri-duel"].games == 1
        [summary] = await store.finished_games(player=alice)
        assert summary.rated
        changes = {c.seat: c for c in summary.rating_changes}
        assert changes[0].player_id == alice and changes[0].after > changes[0].before == 1500
        assert changes[1].player_id == bob and changes[1].after < 1500
        [history] = await store.rating_history(alice)
        assert history.game_id == game_id and history.family == "kozyri-duel"

    db.on_store(body)


def test_ratings_survive_a_restart_and_the_next_game_starts_from_them(db: Db) -> None:
    async def body() -> None:
        store = await db.opened()
        alice = await store.add_player("alice")
        bob = await store.add_player("bob")
        plan = RatingPlan("kozyri-duel", {0: alice, 1: bob}, DUEL)
        await store.commit_tables([_write("t1", resigned_duel(1, 0), plan, [alice, bob])])
        first = (await store.player_ratings(alice))["kozyri-duel"]
        await store.close()
        restarted = await db.opened()
        assert (await restarted.player_ratings(alice))["kozyri-duel"] == first
        await restarted.commit_tables([_write("t2", resigned_duel(2, 0), plan, [alice, bob])])
        second = (await restarted.player_ratings(alice))["kozyri-duel"]
        bob_now = (await restarted.player_ratings(bob))["kozyri-duel"]
        assert second.games == 2 and second.value > first.value
        history = await restarted.rating_history(alice)
        assert [round(h.before, 6) for h in history] == [1500.0, round(first.value, 6)]
        assert bob_now.games == 2

    db.run(body)


def test_a_casual_game_and_a_bot_move_no_stored_rating_but_the_persons(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        bob = await store.add_player("bob")
        await store.commit_tables([_write("casual", resigned_duel(3, 0), None, [alice, bob])])
        assert await store.player_ratings(alice) == {}
        [casual] = await store.finished_games(player=alice)
        assert not casual.rated and casual.rating_changes == []
        # Against a bot of fixed rating 1800: the person's rating moves by that rating.
        bot = Rating(1800.0, 50.0)
        plan = RatingPlan("kozyri-duel", {0: alice}, DUEL, fixed={1: bot})
        await store.commit_tables([_write("bot", resigned_duel(4, 0), plan, [alice, None])])
        got = (await store.player_ratings(alice))["kozyri-duel"]
        assert got.value == pytest.approx(glicko2(NEW, [(bot, 1.0)]).value)
        assert got.value > glicko2(NEW, [(NEW, 1.0)]).value  # beating a stronger side pays more

    db.on_store(body)


def test_an_abandoned_seat_is_a_loss_for_its_person_even_when_its_side_won(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        bob = await store.add_player("bob")
        plan = RatingPlan("kozyri-duel", {0: alice, 1: bob}, DUEL, forfeited=[0])
        await store.commit_tables([_write("t", resigned_duel(5, winner=0), plan, [alice, bob])])
        assert (await store.player_ratings(alice))["kozyri-duel"].value < 1500
        assert (await store.player_ratings(bob))["kozyri-duel"].value < 1500  # bob lost

    db.on_store(body)


def test_a_bad_rating_plan_is_refused_before_anything_is_stored(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        bob = await store.add_player("bob")
        game = resigned_duel(6, 0)
        cases = [
            (RatingPlan("chess", {0: alice, 1: bob}, DUEL), "family"),
            (RatingPlan("kozyri-duel", {0: alice, 1: bob}, [[0]]), "sides"),
            (RatingPlan("kozyri-duel", {0: alice, 1: alice}, DUEL), "two seats"),
            (RatingPlan("kozyri-duel", {0: alice, 5: bob}, DUEL), "seat the game"),
            (RatingPlan("kozyri-duel", {0: alice}, DUEL, fixed={0: NEW}), "both"),
            (RatingPlan("kozyri-duel", {0: alice}, DUEL, forfeited=[1]), "forfeits"),
        ]
        for plan, words in cases:
            with pytest.raises(ValueError, match=words):
                await store.commit_tables([_write("t", game, plan, [alice, bob])])
        assert await store.player_ratings(alice) == {}
        assert await store.finished_games() == []

    db.on_store(body)


def test_the_leaderboard_lists_settled_accounts_best_first(db: Db) -> None:
    """Accounts only (no guests), at least ``min_games`` rated games, not provisional."""

    async def body(store: SqlStore) -> None:
        strong = await store.add_player("strong", login="strong")
        weak = await store.add_player("weak", login="weak")
        guest = await store.add_player("guest")
        newcomer = await store.add_player("new", login="new")
        plan = RatingPlan("kozyri-duel", {0: strong, 1: weak}, DUEL)
        guest_plan = RatingPlan("kozyri-duel", {0: guest, 1: weak}, DUEL)
        # Strong wins three games in four: after 24 games both ratings are settled.
        writes = [
            _write(f"s{k}", resigned_duel(10 + k, 0 if k % 4 else 1), plan, [strong, weak])
            for k in range(24)
        ]
        writes += [
            _write(f"g{k}", resigned_duel(40 + k, k % 2), guest_plan, [guest, weak])
            for k in range(24)
        ]
        for w in writes:
            await store.commit_tables([w])
        new_plan = RatingPlan("kozyri-duel", {0: newcomer, 1: weak}, DUEL)
        await store.commit_tables([_write("n", resigned_duel(70, 0), new_plan, [newcomer, weak])])
        board = await store.leaderboard("kozyri-duel", min_games=20)
        assert [row.player_id for row in board] == [strong, weak]
        assert board[0].rating.value > board[1].rating.value
        assert all(not row.rating.provisional for row in board)
        assert await store.leaderboard("kozyri-duel", min_games=60) == []
        assert await store.leaderboard("twentyfive", min_games=0) == []
        with pytest.raises(ValueError, match="family"):
            await store.leaderboard("chess", min_games=1)

    db.on_store(body)


def test_head_to_head_counts_each_persons_results_from_the_players_side(db: Db) -> None:
    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        bob = await store.add_player("bob")
        carol = await store.add_player("carol")
        for k, (ids, winner) in enumerate(
            [([alice, bob], 0), ([alice, bob], 1), ([bob, alice], 0), ([carol, alice], 1)]
        ):
            await store.commit_tables([_write(f"h{k}", resigned_duel(80 + k, winner), None, ids)])
        rows = {row.player_id: row for row in await store.head_to_head(alice)}
        assert (rows[bob].won, rows[bob].drawn, rows[bob].lost) == (1, 0, 2)
        assert (rows[carol].won, rows[carol].lost) == (1, 0)
        assert [r.player_id for r in await store.head_to_head(alice)] == [bob, carol]

    db.on_store(body)


def test_a_plan_with_movers_writes_only_their_ratings(db: Db) -> None:
    """A game given up before any move: the resigner's loss against the others' real
    ratings, and nobody else's rating is written."""

    async def body(store: SqlStore) -> None:
        alice = await store.add_player("alice")
        bob = await store.add_player("bob")
        plan = RatingPlan("kozyri-duel", {0: alice, 1: bob}, DUEL)
        await store.commit_tables([_write("t1", resigned_duel(1, winner=0), plan, [alice, bob])])
        strong = (await store.player_ratings(alice))["kozyri-duel"]
        quit_plan = RatingPlan("kozyri-duel", {0: alice, 1: bob}, DUEL, forfeited=[1], movers=[1])
        bob_before = (await store.player_ratings(bob))["kozyri-duel"]
        await store.commit_tables(
            [_write("t2", resigned_duel(2, winner=0), quit_plan, [alice, bob])]
        )
        assert (await store.player_ratings(alice))["kozyri-duel"] == strong
        bob_after = (await store.player_ratings(bob))["kozyri-duel"]
        assert bob_after.games == 2 and bob_after.value < bob_before.value
        [second, _] = await store.finished_games()
        assert [c.player_id for c in second.rating_changes] == [bob]
        with pytest.raises(ValueError, match="only people"):
            bad = RatingPlan("kozyri-duel", {0: alice}, DUEL, fixed={1: NEW}, movers=[1])
            await store.commit_tables([_write("t3", resigned_duel(3, 0), bad, [alice, None])])

    db.on_store(body)


def test_two_processes_rating_one_new_player_at_once_both_succeed(db: Db) -> None:
    """On PostgreSQL the rows of every player a batch rates are made and locked first, in
    one order: a second process rating the same new player waits, then rates from the
    first one's result (no duplicate first row, no deadlock, no lost update)."""
    if db.backend != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing to race")

    class Paused(SqlStore):
        """Holds its transaction open after locking, until told to go on."""

        locked = asyncio.Event()
        go_on = asyncio.Event()

        async def _rate(self, *args: Any, **kwargs: Any) -> None:
            Paused.locked.set()
            await Paused.go_on.wait()
            await super()._rate(*args, **kwargs)

    async def body() -> None:
        first = Paused(db.url, **db.options)
        db.stores.append(first)
        await first.create()
        second = await db.opened()
        alice = await second.add_player("alice")
        bob = await second.add_player("bob")
        carol = await second.add_player("carol")
        ab = RatingPlan("kozyri-duel", {0: alice, 1: bob}, DUEL)
        ca = RatingPlan("kozyri-duel", {0: carol, 1: alice}, DUEL)
        one = asyncio.create_task(
            first.commit_tables([_write("p1", resigned_duel(1, 0), ab, [alice, bob])])
        )
        await Paused.locked.wait()  # the first holds alice's new row, locked
        two = asyncio.create_task(
            second.commit_tables([_write("p2", resigned_duel(2, 1), ca, [carol, alice])])
        )
        Paused.go_on.set()
        assert all(isinstance(r, int) for r in [*await one, *await two])
        rating = (await second.player_ratings(alice))["kozyri-duel"]
        assert rating.games == 2
        # The second game was rated from the first one's result, as it waited for it.
        p1, p2 = await second.rating_history(alice)  # in game order: p1 was stored first
        assert p1.before == 1500.0 and p2.before == pytest.approx(p1.after)

    db.run(body)
