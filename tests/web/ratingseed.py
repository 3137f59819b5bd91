"""A database of rated games for the page's leaderboards and profiles, written through the
store before the server starts (``SqlStore`` + ``commit_tables`` with a ``RatingPlan``, as
the server writes a finished rated game).

Five accounts of known strength play a round robin of Svoi Kozyri duels — 32 games each,
enough to settle their ratings (deviation under 110) and put them on the leaderboard —
whose winners are drawn from their strengths with a fixed seed; Ana also plays three duels
against a ``hard`` bot of fixed rating and six Twenty-Five games with Bruno and Chen (a
provisional rating), and Fay, a newcomer, two duels (provisional: not on the leaderboard).
All accounts share one password, so a test can log in as any of them."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass

import trumps
from store.ratedgames import resigned_duel
from trumps.ratings import Rating
from trumps.records import record_of
from trumps.server.identity.auth import Passwords
from trumps.store import RatingPlan, SqlStore, TableWrite

PASSWORD = "correct horse battery staple 42"
# login, name, strength (an Elo-like number: who wins is drawn from the difference)
PEOPLE = [
    ("ana", "Ana", 1750),
    ("bruno", "Bruno", 1650),
    ("chen", "Chen", 1580),
    ("dara", "Dara", 1500),
    ("emil", "Emil", 1400),
]
HARD_BOT = Rating(1720.0, 50.0)
ROUNDS = 8  # of the round robin: 32 duels each settle every rating
DUEL = [[0], [1]]


@dataclass(frozen=True)
class Seeded:
    """The accounts' player ids by login, and the number of rated games of each family."""

    ids: dict[str, int]
    duels: int
    twentyfive: int


def _played_out(seed: int, players: int) -> trumps.Game:
    game = trumps.new_game("twentyfive", players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
    return game


def _write(
    n: int,
    game: trumps.Game,
    names: Sequence[str],
    ids: Sequence[int | None],
    plan: RatingPlan,
) -> TableWrite:
    return TableWrite(f"seed-{n}", record_of(game, list(names)), player_ids=ids, rating=plan)


async def _seed(url: str) -> Seeded:
    store = SqlStore(url)
    await store.create()
    try:
        password_hash = await Passwords().hash(PASSWORD)
        ids = {
            login: await store.add_player(name, password_hash, login=login)
            for login, name, _ in [*PEOPLE, ("fay", "Fay", 0)]
        }
        names = {login: name for login, name, _ in [*PEOPLE, ("fay", "Fay", 0)]}
        rng = random.Random(13)
        writes: list[TableWrite] = []
        pairs = [(a, b) for i, a in enumerate(PEOPLE) for b in PEOPLE[i + 1 :]]
        for _ in range(ROUNDS):
            for (la, _, sa), (lb, _, sb) in pairs:
                seats = [la, lb] if rng.random() < 0.5 else [lb, la]
                strength = {la: sa, lb: sb}
                first_wins = 1 / (1 + 10 ** ((strength[seats[1]] - strength[seats[0]]) / 400))
                winner = 0 if rng.random() < first_wins else 1
                plan = RatingPlan("kozyri-duel", {0: ids[seats[0]], 1: ids[seats[1]]}, DUEL)
                writes.append(
                    _write(
                        len(writes),
                        resigned_duel(100 + len(writes), winner),
                        [names[s] for s in seats],
                        [ids[s] for s in seats],
                        plan,
                    )
                )
        duels = len(writes)
        for k in range(3):  # Ana against the hard bot: it wins the second
            plan = RatingPlan("kozyri-duel", {0: ids["ana"]}, DUEL, fixed={1: HARD_BOT})
            game = resigned_duel(500 + k, 1 if k == 1 else 0)
            writes.append(_write(len(writes), game, ["Ana", "hard bot"], [ids["ana"], None], plan))
        for k in range(2):  # Fay, new: provisional, so not on the leaderboard
            plan = RatingPlan("kozyri-duel", {0: ids["fay"], 1: ids["emil"]}, DUEL)
            game = resigned_duel(600 + k, 0)
            writes.append(
                _write(len(writes), game, ["Fay", "Emil"], [ids["fay"], ids["emil"]], plan)
            )
        trio = ["ana", "bruno", "chen"]
        for k in range(6):
            plan = RatingPlan("twentyfive", {s: ids[trio[s]] for s in range(3)}, [[0], [1], [2]])
            game = _played_out(700 + k, 3)
            writes.append(
                _write(len(writes), game, [names[p] for p in trio], [ids[p] for p in trio], plan)
            )
        # One transaction, as the server's group commit stores the games ending together:
        # each game is rated from the ratings the ones before it left.
        await store.commit_tables(writes)
        return Seeded(ids, duels + 3 + 2, 6)
    finally:
        await store.close()


def seed(url: str) -> Seeded:
    """Fill the empty database at ``url`` (a SQLAlchemy URL) with the rated games above."""
    return asyncio.run(_seed(url))
