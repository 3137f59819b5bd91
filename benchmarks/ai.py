"""AI speed: ISMCTS iterations/s, determinizations/s and arena throughput (games/s).

Run: ``python benchmarks/ai.py [--seconds S]`` (one core).  Prints, for the search of
``trumps.ai._ismcts`` (compiled with mypyc when installed so):

* ISMCTS iterations/s from the first decision of a 4-player Twenty-Five hand (target
  ≥ 10,000/s, issue 3) and of a 3-player Svoi Kozyri hand, and PIMC rollouts/s;
* determinizations/s (a fresh core holding a consistent deal);
* OpenSpiel's Python ISMCTS on ``euchre`` (random-rollout evaluator) in the same run,
  when ``open_spiel`` is installed (``pip install -e .[benchmark]``): the ratio to beat;
* arena throughput: seeded 4-player Twenty-Five games per second between the ``random``
  and ``easy`` bots (one ``easy`` seat), through the bot interface (views and strings);
* the 2-player Svoi Kozyri solver on a fixed set of endgames (seeded deals played down
  to a few cards each by the ``medium`` bot): value, nodes, seconds and nodes/s, and how
  many of the set it proves within the time cap (issue 12: every 9-card endgame in under
  a second; how far it reaches with 12 cards a hand).

``--solver-only`` runs the solver part alone; ``--solver-cards 9,12``, ``--solver-count``
and ``--solver-cap`` (seconds per endgame) choose the sets.

The machines are shared and noisy: compare ratios from one run, not absolute figures
across runs.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import trumps
from trumps._accel import compiled_modules
from trumps.ai._ismcts import ISMCTS, PIMC
from trumps.ai.base import Limits
from trumps.ai.determinize import Determinizer
from trumps.ai.heuristics_kozyri import KozyriMediumBot
from trumps.ai.kozyri_search import solve
from trumps.ai.simple import EasyBot, RandomBot
from trumps.games.viewtypes import View


def _first_view(game_id: str, players: int, seed: int) -> View:
    extra: dict[str, Any] = {"trumps": list("SHDC"[:players])} if game_id == "kozyri" else {}
    game = trumps.new_game(game_id, players=players, seed=seed, **extra)
    seat = game.current_player
    assert seat is not None
    return game.view(seat)


def ismcts_rate(game_id: str, players: int, seconds: float) -> dict[str, float]:
    """Iterations/s over fresh searches (a new tree per decision, 2,000 iterations each)."""
    rng = random.Random(1)
    done = 0
    nodes = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        det = Determinizer(_first_view(game_id, players, seed))
        seed += 1
        search = ISMCTS(det.env(), 0.7)
        done += search.run(rng, 2000, 0, 0.0)
        nodes += search.nodes
    elapsed = time.perf_counter() - start
    return {"iterations_per_s": done / elapsed, "nodes_per_s": nodes / elapsed}


def pimc_rate(game_id: str, players: int, seconds: float) -> float:
    """PIMC rollouts/s (each determinization scores every root move once)."""
    rng = random.Random(1)
    rollouts = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        det = Determinizer(_first_view(game_id, players, seed))
        seed += 1
        moves = det.base.legal_codes()
        search = PIMC(det.env(), moves)
        search.run(rng, 300, 0, 0.0)
        rollouts += search.nodes
    return rollouts / (time.perf_counter() - start)


def determinization_rate(game_id: str, players: int, seconds: float) -> float:
    det = Determinizer(_first_view(game_id, players, 3))
    rng = random.Random(2)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            det.sample(rng)
        done += 100
    return done / (time.perf_counter() - start)


def openspiel_euchre_rate(seconds: float) -> float | None:
    """OpenSpiel's Python ISMCTS on euchre: simulations/s (None without open_spiel)."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    sims = 200
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        bot = ismcts.ISMCTSBot(game, evaluator, 1.0, sims, random_state=rs)
        bot.step(state)
        done += sims
    return done / (time.perf_counter() - start)


def arena_rate(seconds: float) -> float:
    """Seeded 4-player Twenty-Five games/s, one easy bot against three random ones."""
    bots = [EasyBot("twentyfive")] + [RandomBot("twentyfive") for _ in range(3)]
    limits = Limits()
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = trumps.new_game("twentyfive", players=4, seed=games)
        rng = random.Random(games)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            legal = game.legal_actions()
            game.play(bots[seat].decide(game.view(seat), legal, limits, rng).action)
        games += 1
    return games / (time.perf_counter() - start)


def solver_endgames(
    cards: int, count: int, cap: float = 30.0
) -> list[tuple[str, str | None, int, float]]:
    """Solve ``count`` fixed duel endgames with at most ``cards`` cards in each hand
    (``cap`` seconds each; the value is None when not proved within it)."""
    out: list[tuple[str, str | None, int, float]] = []
    bot = KozyriMediumBot()
    seed = 0
    while len(out) < count:
        seed += 1
        game = trumps.new_game("kozyri", seed=seed, trumps=["S", "H"])
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            hands = game.to_json()["hands"]
            if max(len(h) for h in hands) <= cards and not game.to_json()["owes_second"]:
                break
            game.play(bot.decide(game.view(seat), game.legal_actions(), Limits(), rng).action)
        if game.is_over or len(game.legal_actions()) < 2:
            continue
        res = solve(game, time_limit=cap)
        out.append((f"seed {seed}", res.value, res.nodes, res.seconds))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--solver-only", action="store_true", help="only the duel solver")
    parser.add_argument(
        "--solver-cards", default="6,9,12", help="hand sizes of the solver's endgame sets"
    )
    parser.add_argument("--solver-count", type=int, default=4, help="endgames in each set")
    parser.add_argument(
        "--solver-cap", type=float, default=10.0, help="seconds allowed per solver endgame"
    )
    args = parser.parse_args()
    if not args.solver_only:
        other_measurements(args.seconds)
    for cards in (int(c) for c in args.solver_cards.split(",")):
        solver_report(cards, args.solver_count, args.solver_cap)


def solver_report(cards: int, count: int, cap: float) -> None:
    print(f"Svoi Kozyri duel solver, endgames with ≤ {cards} cards a hand ({cap:g} s cap):")
    results = solver_endgames(cards, count, cap)
    for name, value, nodes, seconds in results:
        rate = nodes / seconds if seconds else 0.0
        print(
            f"  {name:>8}: {value or 'unproved':<8} {nodes:>10,} nodes "
            f"{seconds:7.3f} s  {rate:,.0f} nodes/s"
        )
    proved = [r for r in results if r[1] is not None]
    under = sum(1 for r in proved if r[3] < 1.0)
    worst = max((r[3] for r in proved), default=0.0)
    print(
        f"  proved {len(proved)}/{len(results)} within {cap:g} s, {under} in under 1 s; "
        f"slowest proof {worst:.3f} s"
    )


def other_measurements(s: float) -> None:
    compiled = compiled_modules()
    try:
        import trumps.ai._ismcts as search_module

        compiled["trumps.ai._ismcts"] = not (search_module.__file__ or "").endswith(".py")
    except ImportError:  # pragma: no cover
        pass
    print("compiled:", ", ".join(f"{k.rsplit('.', 1)[1]}={v}" for k, v in compiled.items()))
    tf = ismcts_rate("twentyfive", 4, s)
    kz = ismcts_rate("kozyri", 3, s)
    print(
        f"ISMCTS twentyfive 4p: {tf['iterations_per_s']:,.0f} iterations/s "
        f"({tf['nodes_per_s']:,.0f} nodes/s)   target ≥ 10,000"
    )
    print(f"ISMCTS kozyri 3p:     {kz['iterations_per_s']:,.0f} iterations/s")
    print(f"PIMC twentyfive 4p:   {pimc_rate('twentyfive', 4, s):,.0f} rollouts/s")
    print(f"PIMC kozyri 3p:       {pimc_rate('kozyri', 3, s):,.0f} rollouts/s")
    print(f"determinizations twentyfive 4p: {determinization_rate('twentyfive', 4, s):,.0f}/s")
    print(f"determinizations kozyri 3p:     {determinization_rate('kozyri', 3, s):,.0f}/s")
    euchre = openspiel_euchre_rate(s)
    if euchre is None:
        print("OpenSpiel not installed: no euchre reference (pip install -e .[benchmark])")
    else:
        print(f"OpenSpiel Python ISMCTS euchre: {euchre:,.0f} iterations/s")
        print(
            f"ratio twentyfive ISMCTS / OpenSpiel euchre ISMCTS: {tf['iterations_per_s'] / euchre:.1f}x"
        )
    print(f"arena twentyfive 4p (easy vs 3 random): {arena_rate(s):,.1f} games/s")


if __name__ == "__main__":
    main()
