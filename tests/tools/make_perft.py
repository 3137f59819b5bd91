"""Generate the perft vectors of tests/data/ with the REFERENCE rules (tests/reference).

    /work/venv/bin/python tests/tools/make_perft.py

Writes ``tests/data/perft_kozyri.json`` and ``tests/data/perft_twentyfive.json``: JSON
lists of ``{"name", "rules", "position", "perft": {"1": n1, ...}}``.  Perft(d) counts
the action sequences of length d from the position; an ended hand (or game) is a leaf
counted once.  Positions are composed here: dealt-looking ones come from this script's
own seeded shuffles (not the engine's deal), then random reference play.

Svoi Kozyri K17: the reference perft tracks repetitions along each path (so deep
endgame vectors stay exact), and ``max_plies`` is part of the position (``ply``), so
one vector puts the cap within reach on purpose.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

from reference import kozyri_ref as kref  # noqa: E402
from reference import sort_cards  # noqa: E402
from reference import twentyfive_ref as fref  # noqa: E402

Position = dict[str, Any]
Vector = dict[str, Any]

SUITS = "SHDC"


# ---------------------------------------------------------------------------------------
# Svoi Kozyri


def kozyri_deal(
    rng: random.Random,
    players: int,
    trumps: list[str],
    dealer: int,
    rules: dict[str, Any] | None = None,
    *,
    sixes: bool = True,
) -> Position:
    """K5/K6/K7: the whole 36-card pack dealt clockwise from the dealer's left, the
    sixes handed to their owners, the player left of the dealer to lead."""
    pack = [r + s for r in "6789TJQKA" for s in SUITS]
    rng.shuffle(pack)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, c in enumerate(pack):
        hands[(dealer + 1 + i) % players].append(c)
    if sixes:
        for seat, t in enumerate(trumps):
            for h in hands:
                if "6" + t in h:
                    h.remove("6" + t)
            hands[seat].append("6" + t)
    return {
        "game": "kozyri",
        "rules": dict(rules or {}),
        "dealer": dealer,
        "trumps": list(trumps),
        "hands": [sort_cards(h) for h in hands],
        "pile": [],
        "to_move": (dealer + 1) % players,
        "owes_second": False,
        "out": [],
        "ply": 0,
        "outcome": None,
    }


def all_cards(pos: Position) -> list[str]:
    """Every card a position lists (the turn-up once, even when robbed into a hand)."""
    cards = [c for h in pos["hands"] for c in h] + list(pos.get("pile", []))
    cards += [c for t in pos.get("tricks", []) for c in t["cards"]] + list(pos.get("trick", []))
    cards += list(pos.get("stock", []))
    if pos.get("robbed"):
        cards.append(pos["robbed"]["discard"])
    elif pos.get("turnup"):
        cards.append(pos["turnup"])
    return cards


def check_composed(pos: Position, name: str) -> None:
    cards = all_cards(pos)
    assert len(cards) == len(set(cards)), f"{name}: a card is listed twice"


def random_play(pos: Position, rng: random.Random, plies: int, ref: Any) -> Position:
    for _ in range(plies):
        actions = ref.legal_actions(pos)
        if not actions:
            break
        pos = ref.apply(pos, rng.choice(actions))
    return pos


def play_until(
    pos: Position, rng: random.Random, ref: Any, stop: Any, limit: int = 400
) -> Position:
    """Random reference play until ``stop(pos)`` holds (the hand not over)."""
    start = pos
    for _attempt in range(200):
        pos = start
        for _ in range(limit):
            if ref.hand_over(pos):
                break
            if stop(pos):
                return pos
            pos = ref.apply(pos, rng.choice(ref.legal_actions(pos)))
    raise RuntimeError("no position found")


def kozyri_vectors() -> list[Vector]:
    out: list[Vector] = []

    def add(name: str, rules: str, pos: Position, depth: int) -> None:
        assert not kref.hand_over(pos), name
        check_composed(pos, name)
        out.append(
            {"name": name, "rules": rules, "position": pos, "perft": kref.perft_counts(pos, depth)}
        )

    rng = random.Random(2024)
    # 2 players: the duel, from the opening lead.
    p = kozyri_deal(rng, 2, ["S", "H"], 1)
    add("2p opening lead, trumps S/H", "K7 K8 K9 K10 K11", p, 4)
    p = kozyri_deal(rng, 2, ["D", "C"], 0, {"voluntary_pickup": True})
    add("2p opening lead, voluntary pick-up, trumps D/C", "K7 K9 K10 K11 K12", p, 4)
    # 2 players mid-hand, after random play.
    p = random_play(kozyri_deal(rng, 2, ["C", "S"], 1), rng, 17, kref)
    add("2p mid-hand, trumps C/S", "K8 K9 K10 K12 K13", p, 5)
    p = play_until(
        kozyri_deal(rng, 2, ["H", "D"], 0, {"voluntary_pickup": True}),
        rng,
        kref,
        lambda q: q["ply"] > 20 and len(q["pile"]) >= 6 and not q["owes_second"],
    )
    add("2p mid-hand, big pile, voluntary pick-up", "K9 K11 K12 K13", p, 5)
    p = play_until(
        kozyri_deal(rng, 2, ["S", "D"], 1), rng, kref, lambda q: q["owes_second"] and q["ply"] > 10
    )
    add("2p owes the second card", "K10 K9 K12", p, 4)
    # 3 and 4 players.
    p = random_play(kozyri_deal(rng, 3, ["H", "C", "S"], 2), rng, 12, kref)
    add("3p mid-hand, trumps H/C/S", "K1 K8 K9 K10 K12 K13", p, 6)
    p = play_until(
        kozyri_deal(rng, 3, ["D", "S", "H"], 0, {"voluntary_pickup": True}),
        rng,
        kref,
        lambda q: q["owes_second"] and q["ply"] > 6,
    )
    add("3p owes second, voluntary pick-up", "K10 K11 K12", p, 5)
    p = play_until(
        kozyri_deal(rng, 3, ["S", "D", "C"], 1),
        rng,
        kref,
        lambda q: len(q["out"]) == 1 and not q["owes_second"],
        limit=1500,
    )
    add("3p after one player went out", "K14 K15 K16", p, 6)
    p = random_play(kozyri_deal(rng, 4, ["C", "D", "S", "H"], 3), rng, 9, kref)
    add("4p mid-hand, all suits owned", "K1 K9 K10 K12 K13", p, 6)
    p = play_until(
        kozyri_deal(rng, 4, ["H", "S", "C", "D"], 1, {"voluntary_pickup": True}),
        rng,
        kref,
        lambda q: q["ply"] > 15 and len(q["pile"]) >= 4,
    )
    add("4p mid-hand, voluntary pick-up", "K9 K11 K12 K13", p, 5)
    p = play_until(
        kozyri_deal(rng, 4, ["D", "C", "H", "S"], 2),
        rng,
        kref,
        lambda q: len(q["out"]) >= 1 and q["owes_second"],
        limit=3000,
    )
    add("4p owes second after a player went out", "K10 K14 K15", p, 6)
    # Composed endgames that reach the end of the hand (K14, K16 draw rule, K12 ace).
    p = {
        "game": "kozyri",
        "trumps": ["S", "H"],
        "dealer": 1,
        "to_move": 0,
        "pile": ["7D", "9D"],
        "hands": [["AS", "KH", "8D", "6C"], ["QS", "AH", "TD", "7C"]],
    }
    add("2p endgame, trump aces, to the end", "K9 K12 K14 K16", p, 14)
    p = {
        "game": "kozyri",
        "rules": {"voluntary_pickup": True},
        "trumps": ["D", "C"],
        "dealer": 0,
        "to_move": 1,
        "pile": ["6H", "AC"],
        "hands": [["7H", "KD", "9S"], ["8H", "JC"]],
    }
    add("2p voluntary endgame, deep", "K11 K12 K16 K17", p, 13)
    p = {
        "game": "kozyri",
        "trumps": ["H", "S", "D"],
        "dealer": 0,
        "to_move": 1,
        "pile": ["9C"],
        "hands": [["TC", "6H"], ["JC", "QS"], ["KC", "7D", "6S"]],
    }
    add("3p endgame, draw rule and order of going out", "K14 K15 K16", p, 12)
    p = {
        "game": "kozyri",
        "rules": {"max_plies": 100},
        "trumps": ["C", "H"],
        "dealer": 0,
        "to_move": 1,
        "ply": 96,
        "pile": ["KS"],
        "hands": [["AS", "7C", "8H", "TD"], ["9S", "JH", "QC", "6D"]],
    }
    add("2p near the ply cap", "K17", p, 6)
    # K17 repetition: an 8-ply cycle (lead QD, beat AD, second 7H, take, ...) from here.
    for limit, depth in ((2, 12), (3, 18), (0, 12)):
        p = {
            "game": "kozyri",
            "rules": {"voluntary_pickup": True, "repetition_draw": limit},
            "dealer": 1,
            "trumps": ["H", "D"],
            "to_move": 0,
            "pile": [],
            "hands": [["6S", "QD"], ["6H", "7H", "7S", "AD"]],
        }
        add(f"2p repetition cycle, repetition_draw {limit}", "K11 K12 K17", p, depth)
    return out


# ---------------------------------------------------------------------------------------
# Twenty-Five


def twentyfive_deal(
    rng: random.Random,
    players: int,
    dealer: int,
    rules: dict[str, Any] | None = None,
    teams: list[list[int]] | None = None,
) -> Position:
    """F4: five cards each, the next card turned up (a turned joker is redealt here)."""
    rules = dict(rules or {})
    pack = [r + s for r in "23456789TJQKA" for s in SUITS]
    if rules.get("joker"):
        pack.append("JK")
    while True:
        rng.shuffle(pack)
        if pack[5 * players] != "JK":
            break
    first = (dealer + 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players):
        hands[(first + i) % players] = sort_cards(pack[5 * i : 5 * i + 5])
    turnup = pack[5 * players]
    return {
        "game": "twentyfive",
        "rules": rules,
        "dealer": dealer,
        "turnup": turnup,
        "trump": turnup[1],
        "robbed": None,
        "hands": hands,
        "stock": sort_cards(pack[5 * players + 1 :]),
        "tricks": [],
        "trick": [],
        "leader": first,
        "to_move": first,
        "scores": [0] * (len(teams) if teams else players),
        "teams": teams,
        "outcome": None,
    }


def deal_where(
    rng: random.Random,
    players: int,
    dealer: int,
    want: Any,
    rules: dict[str, Any] | None = None,
    *,
    teams: list[list[int]] | None = None,
) -> Position:
    for _ in range(20000):
        p = twentyfive_deal(rng, players, dealer, rules, teams)
        if want(p):
            return p
    raise RuntimeError("no deal found")


def holds_trump_ace(p: Position) -> int | None:
    ace = "A" + p["trump"]
    for s, h in enumerate(p["hands"]):
        if ace in h:
            return s
    return None


def twentyfive_vectors() -> list[Vector]:
    out: list[Vector] = []

    def add(name: str, rules: str, pos: Position, depth: int) -> None:
        assert not fref.hand_over(pos), name
        check_composed(pos, name)
        for t in pos.get("tricks", []):  # F15: composed tricks name their true winner
            assert fref.trick_winner(t["cards"], t["leader"], pos) == t["winner"], name
        out.append(
            {"name": name, "rules": rules, "position": pos, "perft": fref.perft_counts(pos, depth)}
        )

    rng = random.Random(25)
    # Trick 1 with rob chances.
    p = deal_where(rng, 4, 0, lambda q: holds_trump_ace(q) not in (None, 1))
    add("4p trick 1, trump ace held (optional rob)", "F9 F10 F11 F13 F15", p, 6)
    p = deal_where(
        rng, 4, 2, lambda q: q["turnup"][0] == "A" and q["turnup"] != "AH", {"rob": "mandatory"}
    )
    add("4p trick 1, ace turned: dealer must rob", "F9 F10 F11", p, 7)
    p = deal_where(rng, 2, 1, lambda q: holds_trump_ace(q) is not None, {"rob": "mandatory"})
    add("2p whole hand, mandatory rob", "F9 F10 F13 F14 F15 F16", p, 8)
    p = deal_where(rng, 5, 3, lambda q: q["trump"] == "H" and holds_trump_ace(q) is not None)
    add("5p trick 1, hearts trumps, A♥ holder may rob", "F5 F9 F10 F12", p, 6)
    p = deal_where(
        rng,
        6,
        5,
        lambda q: (
            q["trump"] != "H"
            and any("AH" in h for h in q["hands"])
            and holds_trump_ace(q) is not None
        ),
    )
    add("6p trick 1, A♥ holder cannot rob (not hearts)", "F9 F12", p, 6)
    p = deal_where(
        rng, 4, 1, lambda q: holds_trump_ace(q) is not None, {"rob": "off"}, teams=[[0, 2], [1, 3]]
    )
    add("4p teams of two, rob off", "F1 F10 F15 F16", p, 7)
    # Trump leads with privileged trumps, under each renege option.
    base_hands = [["7D", "QS", "3C"], ["5D", "KS", "2H"], ["JD", "4S", "6C"], ["AH", "9S", "8C"]]
    for cards, limit, lead in (
        ("top3", "lower_led", 2),
        ("top3", "always", 2),
        ("five_only", "lower_led", 2),
        ("none", "lower_led", 2),
        ("top3", "lower_led", 1),
        ("top3", "always", 1),
    ):
        clubs = ["AC", "2C", "QC", "4C"]
        clubs[lead] = "KC"
        p = {
            "game": "twentyfive",
            "rules": {"renege_cards": cards, "renege_limit": limit},
            "dealer": 3,
            "turnup": "TD",
            "hands": [list(h) for h in base_hands],
            "tricks": [
                {"leader": 0, "cards": ["KH", "QH", "JH", "TH"], "winner": 0},
                {"leader": 0, "cards": clubs, "winner": lead},
            ],
            "trick": [],
            "leader": lead,
            "to_move": lead,
            "scores": [5, 0, 0, 0],
        }
        p["scores"][lead] += 5
        add(f"4p trump leads by seat {lead}, renege {cards}/{limit}", "F12 F14 F15", p, 12)
    p = {
        "game": "twentyfive",
        "rules": {"renege_cards": "top3"},
        "dealer": 0,
        "turnup": "3S",
        "hands": [["9S", "AH", "KD", "4C"], ["5S", "2D", "3D", "7H"], ["JS", "8D", "2C"]],
        "tricks": [{"leader": 1, "cards": ["QD", "KS", "5D"], "winner": 2}],
        "trick": ["AS"],
        "leader": 2,
        "to_move": 0,
        "scores": [0, 0, 5],
    }
    add("3p trump ace led: A♥ must follow, 5 and J renege", "F14 F15", p, 11)
    # As-written ranking, the joker, teams, the target.
    p = deal_where(
        rng, 4, 3, lambda q: q["trump"] in "SC", {"ranking": "as-written", "renege_limit": "always"}
    )
    add("4p as-written ranking, black trumps", "F8 F14 F15", p, 6)
    p = deal_where(rng, 4, 0, lambda q: any("JK" in h for h in q["hands"]), {"joker": True})
    add("4p joker in play", "F2 F6 F14 F15", p, 7)
    p = {
        "game": "twentyfive",
        "rules": {"joker": True},
        "dealer": 1,
        "turnup": "8H",
        "hands": [["JK", "KH", "2S"], ["JH", "4H", "QC"], ["5H", "AD", "9D"], ["AH", "3H", "TS"]],
        "tricks": [
            {"leader": 2, "cards": ["KD", "QD", "7D", "6D"], "winner": 2},
            {"leader": 2, "cards": ["2D", "3D", "TD", "JD"], "winner": 1},
        ],
        "trick": [],
        "leader": 1,
        "to_move": 1,
        "scores": [0, 5, 5, 0],
    }
    add("4p joker and hearts trumps, trump leads", "F2 F5 F6 F14", p, 12)
    p = {
        "game": "twentyfive",
        "dealer": 3,
        "turnup": "6C",
        "teams": [[0, 2], [1, 3]],
        "scores": [20, 15],
        "hands": [["5C", "KS", "4H"], ["AC", "QS", "7D"], ["2C", "8S", "9H"], ["JC", "4D", "TH"]],
        "tricks": [
            {"leader": 0, "cards": ["KD", "QD", "JD", "TD"], "winner": 0},
            {"leader": 0, "cards": ["KH", "2S", "3H", "2H"], "winner": 0},
        ],
        "trick": [],
        "leader": 0,
        "to_move": 0,
    }
    add("4p teams near the target: ends at once", "F1 F16", p, 12)
    p = {
        "game": "twentyfive",
        "rules": {"ranking": "as-written"},
        "dealer": 0,
        "turnup": "7D",
        "scores": [10, 15],
        "robbed": {"seat": 0, "discard": "3C"},
        "hands": [["AD", "7D", "KS", "9H"], ["2D", "TS", "AC", "5H"]],
        "tricks": [{"leader": 1, "cards": ["QH", "KH"], "winner": 0}],
        "trick": [],
        "leader": 0,
        "to_move": 0,
    }
    add("2p as-written red ranking, near the target", "F7 F8 F16", p, 8)
    return out


def main() -> None:
    data = TESTS / "data"
    data.mkdir(exist_ok=True)
    for name, vectors in (("kozyri", kozyri_vectors()), ("twentyfive", twentyfive_vectors())):
        path = data / f"perft_{name}.json"
        path.write_text(json.dumps(vectors, indent=1, ensure_ascii=False) + "\n")
        for v in vectors:
            print(name, v["name"], v["perft"])


if __name__ == "__main__":
    main()
