"""trumps.ai.determinize: every sampled deal is consistent with the view it came from.

Consistency is checked three ways: loading the sampled position (``from_json`` rejects
duplicate cards, wrong counts, illegal earlier plays and impossible robs), viewing it
from the seat (it must give back the very same view), and checking the inferred
constraints (voids, reneges, the trump ace of a rob) directly, written here
independently of the determinizer.  The fast path (a copied core with the hidden cards
overwritten) must equal the core loaded from the same deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

import trumps
from trumps.ai.determinize import Determinizer
from trumps.cards import JOKER, card_str, cards_of, parse_card, parse_suit
from trumps.games.kozyri._core import KozyriCore
from trumps.games.twentyfive._core import PLAIN_MASKS, TRUMP_MASKS, TwentyFiveCore
from trumps.games.viewtypes import twentyfive_view

TWENTYFIVE_SETUPS: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (4, {}),
    (4, {"teams": 2}),
    (5, {"joker": True}),
    (6, {"teams": 3, "joker": True}),
    (4, {"rob": "mandatory"}),
    (3, {"ranking": "as-written", "renege_limit": "always"}),
    (7, {"joker": True, "rob": "mandatory", "renege_cards": "five_only"}),
    (10, {}),
]
KOZYRI_SETUPS: list[tuple[int, dict[str, object]]] = [
    (3, {}),
    (4, {}),
    (3, {"voluntary_pickup": True}),
    (4, {"sixes_to_owner": False}),
    (2, {}),
]


def random_positions(
    game_id: str, players: int, rules: dict[str, object], count: int, seed: int = 0
) -> list[trumps.Game]:
    """Games in play after a random number of random actions (robbing whenever one can,
    mostly, so robbed positions are common)."""
    out: list[trumps.Game] = []
    rng = random.Random(f"{game_id}/{players}/{sorted(rules.items())}/{seed}")
    extra: dict[str, Any] = {}
    if game_id == "kozyri":
        extra["trumps"] = list("SHDC"[:players])
    k = 0
    while len(out) < count:
        game = trumps.new_game(game_id, players=players, rules=rules, seed=seed * 1000 + k, **extra)
        k += 1
        limit = rng.randrange(0, 60 if game_id == "kozyri" else 5 * players)
        for _ in range(limit):
            legal = game.legal_actions()
            if game.is_over or not legal:
                break
            robs = [a for a in legal if a.startswith("rob ")]
            game.play(rng.choice(robs) if robs and rng.random() < 0.8 else rng.choice(legal))
        if not game.is_over:
            out.append(game)
    return out


def joker_pending_position(players: int) -> trumps.Game:
    """A Twenty-Five game whose turn-up is the joker (F17a)."""
    for seed in range(5000):
        game = trumps.new_game("twentyfive", players=players, rules={"joker": True}, seed=seed)
        if game.to_json()["turnup"] == "JK":
            return game
    raise AssertionError("no seed turns up the joker")


def _hidden_hand(pos: dict[str, Any], seat: int) -> int:
    return sum(1 << parse_card(c) for c in pos["hands"][seat])


def check_twentyfive_constraints(view: Mapping[str, Any], pos: dict[str, Any]) -> None:
    """Voids and reneges shown in ``view``'s tricks hold for the hands of ``pos``."""
    if view["trump"] is None:
        return
    trump = parse_suit(view["trump"])
    tmask = TRUMP_MASKS[trump]
    game = trumps.from_json(pos)
    core = game.core
    assert isinstance(core, TwentyFiveCore)
    n = len(view["hands"])
    tricks = [(t["leader"], t["cards"]) for t in view["tricks"]]
    if view["trick"]:
        tricks.append((view["leader"], view["trick"]))
    for leader, cards in tricks:
        lead = parse_card(cards[0])
        for j in range(1, len(cards)):
            s = (leader + j) % n
            c = parse_card(cards[j])
            hand = _hidden_hand(pos, s)
            if core.tval[c]:
                continue
            if core.tval[lead]:
                # F14: a non-trump to a trump lead: no trump it may not renege with.
                assert core.play_mask_for(hand | (1 << c), lead) >> c & 1
            elif (c & 3) != (lead & 3) or c == parse_card("AH"):
                assert not hand & PLAIN_MASKS[lead & 3] & ~tmask, (s, cards)
    for s, suits in enumerate(view["voids"]):
        for suit in suits:
            assert not _hidden_hand(pos, s) & PLAIN_MASKS[parse_suit(suit)] & ~tmask


def _check_samples(game: trumps.Game, seat: int, samples: int, seed: int) -> set[str]:
    view = game.view(seat)
    det = Determinizer(view)
    rng = random.Random(seed)
    deals: set[str] = set()
    for _ in range(samples):
        pos = det.position(rng)
        loaded = trumps.from_json(pos)  # raises on any inconsistency
        assert loaded.view(seat) == view
        if view["game"] == "twentyfive":
            check_twentyfive_constraints(view, pos)
        deals.add(repr((pos["hands"], pos.get("stock"), pos.get("robbed"))))
    return deals


@pytest.mark.parametrize(("players", "rules"), TWENTYFIVE_SETUPS)
def test_twentyfive_samples_are_consistent(players: int, rules: dict[str, object]) -> None:
    spread = 0
    for i, game in enumerate(random_positions("twentyfive", players, rules, 12)):
        seat = game.current_player
        assert seat is not None
        for s in (seat, (seat + 1 + i) % players):
            deals = _check_samples(game, s, 6, i)
            spread += len(deals) > 1
    assert spread >= 12  # sampling spreads over the possibilities


@pytest.mark.parametrize(("players", "rules"), KOZYRI_SETUPS)
def test_kozyri_samples_are_consistent(players: int, rules: dict[str, object]) -> None:
    spread = 0
    for i, game in enumerate(random_positions("kozyri", players, rules, 12)):
        seat = game.current_player
        assert seat is not None
        for s in (seat, (seat + 1 + i) % players):
            deals = _check_samples(game, s, 6, i)
            spread += len(deals) > 1
    if players > 2:
        assert spread >= 12
    else:
        assert spread == 0  # K19: two players see everything


def test_joker_turned_up_and_discarded() -> None:
    game = joker_pending_position(5)
    dealer = game.current_player
    assert dealer is not None
    for s in range(5):
        _check_samples(game, s, 5, s)  # the dealer still owes the discard
    game.play(game.legal_actions()[0])  # the dealer's discard (F17a)
    for s in range(5):
        view = game.view(s)
        det = Determinizer(view)
        if s != dealer:
            assert "joker discard" in det.describe_slots()
        _check_samples(game, s, 5, s)


def test_robbing_discard_is_hidden_and_sampled() -> None:
    found = spread = 0
    for game in random_positions("twentyfive", 4, {}, 60, seed=3):
        robbed = game.to_json()["robbed"]
        seat = game.current_player
        if robbed is None or seat is None or robbed["seat"] == seat:
            continue
        found += 1
        view = game.view(seat)
        det = Determinizer(view)
        assert "robbing discard" in det.describe_slots()
        discards = {det.position(random.Random(k))["robbed"]["discard"] for k in range(20)}
        spread += len(discards) > 1  # (one when the trump ace must be the discard)
        _check_samples(game, seat, 5, 1)
    assert found >= 3
    assert spread >= found // 2


def test_trump_ace_stays_with_the_robber() -> None:
    # Seat 1 robbed the 7C turn-up: the A♣ is in its hand (or its discard), never elsewhere.
    pos = {
        "game": "twentyfive",
        "dealer": 3,
        "turnup": "7C",
        "robbed": {"seat": 1, "discard": "2D"},
        "hands": [
            ["3S", "4S", "5H"],
            ["AC", "7C", "8H", "9H"],
            ["TS", "JS", "QS", "KS"],
            ["2H", "3H", "4H", "6S"],
        ],
        "trick": ["8S"],
        "to_move": 1,
    }
    game = trumps.from_json(pos)
    det = Determinizer(game.view(2))
    for k in range(40):
        sample = det.position(random.Random(k))
        held = "AC" in sample["hands"][1] or sample["robbed"]["discard"] == "AC"
        assert held
        assert "AC" not in sample["stock"]


def test_renege_inference_is_used() -> None:
    # Trumps are spades; seat 1 threw a heart to the K♠ lead: it holds no trump but the
    # 5♠, J♠ or A♥ (privileged above the K).
    pos = {
        "game": "twentyfive",
        "dealer": 3,
        "turnup": "2S",
        "hands": [["3D", "4D", "5D"], ["6H", "7H", "8H"], ["9D", "TD", "JD"], ["2C", "3C", "4C"]],
        "tricks": [{"leader": 0, "cards": ["KS", "9H", "QS", "5C"], "winner": 0}],
        "trick": [],
        "to_move": 0,
        "scores": [5, 0, 0, 0],
    }
    game = trumps.from_json(pos)
    det = Determinizer(game.view(0))
    allowed = det.allowed[det.targets.index(1)]
    for c in cards_of(TRUMP_MASKS[0]):
        if card_str(c) not in ("5S", "JS", "AH") and c != JOKER:
            assert not allowed >> c & 1
    for k in range(30):
        hand = det.position(random.Random(k))["hands"][1]
        assert not [c for c in hand if c[1] == "S" and c[0] not in "5J"]


def test_sampling_is_deterministic_for_a_seed() -> None:
    game = random_positions("twentyfive", 4, {}, 1, seed=9)[0]
    seat = game.current_player
    assert seat is not None
    det = Determinizer(game.view(seat))
    a = [det.position(random.Random(5)) for _ in range(3)]
    b = [Determinizer(game.view(seat)).position(random.Random(5)) for _ in range(3)]
    assert a == b


def _same_twentyfive(a: TwentyFiveCore, b: TwentyFiveCore) -> None:
    fields = [
        *("hand_no", "dealer", "turnup", "trump", "next_up", "stock", "robbed_seat"),
        *("robbed_discard", "joker_discard", "hands", "scores", "hand_tricks", "plays"),
        *("winners", "leader", "to_play", "tlen", "led_suit", "follow", "led_trump"),
        *("priv_now", "best_seat", "best_val", "win_side", "trump_mask", "tops"),
    ]
    for f in fields:
        assert getattr(a, f) == getattr(b, f), f


def _same_kozyri(a: KozyriCore, b: KozyriCore) -> None:
    fields = [
        *("hand_no", "dealer", "choosing", "trumps", "hands", "known", "pile", "pkey"),
        *("tm", "owes", "out", "active", "ply", "losses", "result", "loser", "reason", "rep"),
    ]
    for f in fields:
        assert getattr(a, f) == getattr(b, f), f


def _position_of_core(det: Determinizer, core: TwentyFiveCore | KozyriCore) -> dict[str, Any]:
    """The loadable position holding the deal of a fast-path core (built from the view)."""
    from trumps.ai.views import position_from_view

    hands = {s: cards_of(core.hands[s]) for s in range(det.players) if s != det.seat}
    if isinstance(core, TwentyFiveCore):
        robbed_seat = twentyfive_view(det.view)["robbed"]
        robbed = core.robbed_discard if robbed_seat and "discard" not in robbed_seat else None
        joker = (
            core.joker_discard
            if det.view.get("joker_discard") is None and core.joker_discard >= 0
            else None
        )
        pos = position_from_view(det.view, hands, robbed_discard=robbed, joker_discard=joker)
        stock = cards_of(core.stock)
        if core.next_up >= 0:
            stock.remove(core.next_up)
            stock.insert(0, core.next_up)
        pos["stock"] = [card_str(c) for c in stock]
        return pos
    return position_from_view(det.view, hands)


@pytest.mark.parametrize(
    ("game_id", "players", "rules"),
    [("twentyfive", p, r) for p, r in TWENTYFIVE_SETUPS[:6]]
    + [("kozyri", p, r) for p, r in KOZYRI_SETUPS[:4]],
)
def test_fast_path_equals_a_loaded_core(
    game_id: str, players: int, rules: dict[str, object]
) -> None:
    games = random_positions(game_id, players, rules, 6, seed=2)
    if game_id == "twentyfive" and rules.get("joker"):
        games.append(joker_pending_position(players))
    for i, game in enumerate(games):
        seat = game.current_player
        assert seat is not None
        det = Determinizer(game.view(seat))
        rng = random.Random(i)
        for _ in range(4):
            fast = det.sample(rng)
            slow = trumps.from_json(_position_of_core(det, fast)).core
            assert slow.legal_moves() == fast.legal_moves()
            if isinstance(fast, TwentyFiveCore):
                assert isinstance(slow, TwentyFiveCore)
                _same_twentyfive(fast, slow)
            else:
                assert isinstance(slow, KozyriCore)
                _same_kozyri(fast, slow)
            # Independent copies: playing one out leaves the base and the next sample alone.
            base_core = det.base.core
            assert isinstance(base_core, (TwentyFiveCore, KozyriCore))
            base_hands = list(base_core.hands)
            a, b = fast.copy(), slow.copy()
            assert a.playout(random.Random(7)) == b.playout(random.Random(7))
            assert a.hands == b.hands
            assert base_core.hands == base_hands
            fast.playout(random.Random(1))
            assert base_core.hands == base_hands
