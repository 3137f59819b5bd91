"""Engine speed: random full games/hands per second and legal-move generations per second.

Run: ``python benchmarks/engine.py [--seconds S]`` (one core; set ``TRUMPS_PURE=1`` to
measure the pure-Python fallback).  Machines here are shared and noisy, so besides the
absolute figures it prints ratios against a reference measured in the same run:
OpenSpiel's C++ ``euchre`` through ``pyspiel`` when ``open_spiel`` is installed
(``pip install -e .[benchmark]``), else against this build's own pure-Python cores
measured in a subprocess.

Targets (issue 2): ≥ 20,000 random 4-player Twenty-Five hands/s and ≥ 1,500 random
2-player Svoi Kozyri games/s on one core.  Issue 14: through the *public* API (a new game
from a fresh seed, then the legal actions and one played at random until the end), the
integer API (``legal_action_ids`` + ``play_id``) at ≥ 1.5× OpenSpiel's euchre decisions/s
through ``pyspiel`` (its chance nodes played but not counted); the string API
(``legal_actions`` + ``play``) is reported beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import trumps
from trumps._accel import compiled_modules


def _timed(run: Callable[[], int], seconds: float) -> float:
    """Units per second of ``run`` (which returns the units it did), over ``seconds``."""
    run()  # warm up
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += run()
    return done / elapsed


def kozyri_games(seconds: float, players: int = 2) -> dict[str, float]:
    rng = random.Random(1)
    seeds = iter(range(10**9))
    plies = 0
    suits = ["S", "H", "D", "C"][:players]

    def one_game() -> int:
        nonlocal plies
        core: Any = trumps.new_game("kozyri", players=players, seed=next(seeds), trumps=suits).core
        plies += int(core.copy().playout(rng))
        return 1

    start = time.perf_counter()
    games = _timed(one_game, seconds)
    total = time.perf_counter() - start
    return {"games_per_s": games, "plies_per_s": plies / total}


def twentyfive_hands(seconds: float, players: int = 4) -> dict[str, float]:
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def one_game() -> int:
        game = trumps.new_game("twentyfive", players=players, seed=next(seeds))
        core: Any = game.core.copy()
        core.playout(rng)
        return int(core.hand_no)

    return {"hands_per_s": _timed(one_game, seconds)}


def legal_generations(game_id: str, players: int, seconds: float) -> float:
    """Legal-move generations per second over positions of random games."""
    rng = random.Random(2)
    kwargs: dict[str, Any] = (
        {"trumps": ["S", "H", "D", "C"][:players]} if game_id == "kozyri" else {}
    )
    cores: list[Any] = []
    for seed in range(40):
        core: Any = trumps.new_game(game_id, players=players, seed=seed, **kwargs).core.copy()
        for _ in range(rng.randrange(1, 30)):
            if core.over():
                break
            moves = core.legal_moves()
            core.step(moves[rng.randrange(len(moves))])
        if not core.over():
            cores.append(core)

    def run() -> int:
        for core in cores:
            core.legal_moves()
        return len(cores)

    return _timed(run, seconds)


def _euchre() -> Any | None:
    """OpenSpiel's C++ euchre through ``pyspiel``, or None when open_spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("euchre")


def _euchre_game(game: Any, rng: random.Random) -> int:
    """One random euchre game through ``pyspiel``; the player decisions in it (chance
    outcomes, the deal, played but not counted)."""
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
            done += 1
    return done


def openspiel_euchre(seconds: float) -> dict[str, float] | None:
    """Random euchre games (= hands) per second and legal-action generations per second."""
    game = _euchre()
    if game is None:
        return None
    rng = random.Random(1)

    def one_game() -> int:
        _euchre_game(game, rng)
        return 1

    states = []
    for _ in range(40):
        state = game.new_initial_state()
        for _ in range(rng.randrange(30, 45)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        if not state.is_terminal() and not state.is_chance_node():
            states.append(state)

    def gens() -> int:
        for state in states:
            state.legal_actions()
        return len(states)

    return {"hands_per_s": _timed(one_game, seconds), "legal_per_s": _timed(gens, seconds)}


def public_api(game_id: str, players: int, seconds: float, ids: bool) -> float:
    """Decisions per second of random games through the public API: integer ids
    (``legal_action_ids``/``play_id``) or strings (``legal_actions``/``play``)."""
    rng = random.Random(3)
    seeds = iter(range(10**9))
    count = 0

    def one_game() -> int:
        nonlocal count
        game = trumps.new_game(game_id, players=players, seed=next(seeds))
        done = 0
        if ids:
            while not game.is_over:
                legal = game.legal_action_ids()
                game.play_id(legal[int(rng.random() * len(legal))])
                done += 1
        else:
            while not game.is_over:
                actions = game.legal_actions()
                game.play(actions[int(rng.random() * len(actions))])
                done += 1
        count += done
        return done

    return _timed(one_game, seconds)


def euchre_decisions(seconds: float) -> float | None:
    """OpenSpiel's euchre through ``pyspiel``: player decisions per second of random games."""
    game = _euchre()
    if game is None:
        return None
    rng = random.Random(1)

    def one_game() -> int:
        return _euchre_game(game, rng)

    return _timed(one_game, seconds)


API_RUNS: tuple[tuple[str, int], ...] = (("twentyfive", 4), ("kozyri", 2), ("kozyri", 4))


def print_api(seconds: float, rounds: int = 3) -> None:
    """The public API against OpenSpiel's euchre (issue 14).  A shared machine's speed
    drifts, so each round measures euchre and then every figure of ours right after it, and
    the ratio reported is the median of the rounds' ratios."""
    ratios: dict[str, list[float]] = {}
    figures: dict[str, list[float]] = {}
    references: list[float] = []
    for _ in range(rounds):
        euchre = euchre_decisions(seconds)
        if euchre:
            references.append(euchre)
        for game_id, players in API_RUNS:
            for kind in ("ids", "strings"):
                key = f"{game_id} {players}p {kind}"
                value = public_api(game_id, players, seconds, ids=kind == "ids")
                figures.setdefault(key, []).append(value)
                if euchre:
                    ratios.setdefault(key, []).append(value / euchre)
    print(f"  public API, random games from fresh seeds, decisions/s (median of {rounds} rounds):")
    for key, values in figures.items():
        line = f"    {key:<22} {statistics.median(values):>12,.0f}"
        if key in ratios:
            target = "   (target 1.5)" if key.endswith("ids") else ""
            line += f"   ratio to euchre {statistics.median(ratios[key]):.2f}{target}"
        print(line)
    if references:
        print(
            f"    reference: OpenSpiel euchre via pyspiel "
            f"{statistics.median(references):>12,.0f} decisions/s"
        )
    else:
        print("    (open_spiel not installed: pip install -e .[openspiel] for the reference)")


def measure(seconds: float) -> dict[str, Any]:
    return {
        "compiled": all(compiled_modules().values()),
        "kozyri_2p": kozyri_games(seconds, 2),
        "kozyri_4p": kozyri_games(seconds, 4),
        "twentyfive_4p": twentyfive_hands(seconds, 4),
        "twentyfive_10p": twentyfive_hands(seconds, 10),
        "legal_kozyri_2p": legal_generations("kozyri", 2, seconds),
        "legal_twentyfive_4p": legal_generations("twentyfive", 4, seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    parser.add_argument("--no-reference", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--api", action="store_true", help="only the public API against OpenSpiel's euchre"
    )
    args = parser.parse_args()
    if args.api:
        print(f"trumps public API, one core, {args.seconds:g} s per figure")
        print_api(args.seconds)
        return

    figures = measure(args.seconds)
    if args.json:
        print(json.dumps(figures))
        return
    build = "mypyc-compiled" if figures["compiled"] else "pure Python"
    print(f"trumps engine, {build} cores, one core, {args.seconds:g} s per figure")
    k2, k4 = figures["kozyri_2p"], figures["kozyri_4p"]
    t4, t10 = figures["twentyfive_4p"], figures["twentyfive_10p"]
    print(
        f"  Svoi Kozyri 2p random games/s   {k2['games_per_s']:>12,.0f}   (target 1,500; "
        f"{k2['plies_per_s']:,.0f} plies/s)"
    )
    print(f"  Svoi Kozyri 4p random games/s   {k4['games_per_s']:>12,.0f}")
    print(f"  Twenty-Five 4p random hands/s   {t4['hands_per_s']:>12,.0f}   (target 20,000)")
    print(f"  Twenty-Five 10p random hands/s  {t10['hands_per_s']:>12,.0f}")
    print(f"  Svoi Kozyri legal gens/s        {figures['legal_kozyri_2p']:>12,.0f}")
    print(f"  Twenty-Five legal gens/s        {figures['legal_twentyfive_4p']:>12,.0f}")

    euchre = openspiel_euchre(args.seconds)
    if euchre is not None:
        print("  reference: OpenSpiel C++ euchre via pyspiel (one hand = one game)")
        print(
            f"    euchre random hands/s         {euchre['hands_per_s']:>12,.0f}   "
            f"ratio Twenty-Five/euchre {t4['hands_per_s'] / euchre['hands_per_s']:.2f}"
        )
        print(
            f"    euchre legal gens/s           {euchre['legal_per_s']:>12,.0f}   "
            f"ratio {figures['legal_twentyfive_4p'] / euchre['legal_per_s']:.2f}"
        )
    else:
        print("  (open_spiel not installed: pip install -e .[benchmark] for the euchre reference)")
    print_api(args.seconds)
    if figures["compiled"] and not args.no_reference:
        out = subprocess.run(
            [sys.executable, __file__, "--seconds", str(args.seconds), "--json", "--no-reference"],
            env={**os.environ, "TRUMPS_PURE": "1"},
            capture_output=True,
            text=True,
            check=True,
        )
        pure = json.loads(out.stdout)
        print("  reference: the same cores interpreted (TRUMPS_PURE=1), speed-up of compiling:")
        print(
            f"    Svoi Kozyri 2p games          x{k2['games_per_s'] / pure['kozyri_2p']['games_per_s']:.1f}"
        )
        print(
            f"    Twenty-Five 4p hands          x{t4['hands_per_s'] / pure['twentyfive_4p']['hands_per_s']:.1f}"
        )


if __name__ == "__main__":
    main()
