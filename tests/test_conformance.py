"""One conformance suite run over every game in ``trumps.GAMES`` (STYLE habit 7).

Each property is checked on games made by ``trumps.new_game`` with random players,
rule options (drawn from each game's ``OPTIONS``) and seeds, driven by seeded random
play: cards are conserved, JSON round-trips exactly, undo restores exactly, views hide
what they must (and do not change when hidden cards are re-dealt consistently with
them), seeds reproduce games, random play ends, nothing is legal after the end, bad
input changes nothing, and ``from_json`` rejects mutated positions only with
``InvalidPosition``.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trumps
from gamekit import CONF, GAME_IDS, draw_rules, make_game, pack_of, play_random, redeal
from reference import twentyfive_ref

CARD = re.compile(r"^(?:[23456789TJQKA][SHDC]|JK)$")


def card_places(pos: dict[str, Any]) -> list[tuple[str, str]]:
    """Every (place, card) of a full position, from the docs/positions.md keys (plus the Twenty-Five
    F17a joker discard): the turn-up counts only while it is not taken into a hand."""
    out = [(f"hands[{s}]", c) for s, h in enumerate(pos["hands"]) for c in h]
    if pos["game"] == "kozyri":
        return out + [("pile", c) for c in pos["pile"]]
    out += [("stock", c) for c in pos["stock"]]
    out += [(f"tricks[{k}]", c) for k, t in enumerate(pos["tricks"]) for c in t["cards"]]
    out += [("trick", c) for c in pos["trick"]]
    joker_taken = pos.get("turnup") == "JK" and "JK" in pos["hands"][pos["dealer"]]
    if pos.get("robbed"):
        out.append(("robbed", pos["robbed"]["discard"]))
    elif pos.get("turnup") and not joker_taken:
        # (F17a: a turned-up joker already handed to the dealer is listed in that hand.)
        out.append(("turnup", pos["turnup"]))
    if pos.get("joker_discard"):
        out.append(("joker_discard", pos["joker_discard"]))
    return out


def dealt(pos: dict[str, Any]) -> bool:
    return pos["game"] != "kozyri" or all(t is not None for t in pos["trumps"])


def strings_in(value: Any) -> Iterator[str]:
    """Every string value in a JSON tree (dict keys excluded), skipping the rules."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "rules":
                yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def cards_in(value: Any) -> set[str]:
    return {s for s in strings_in(value) if CARD.match(s)}


# ---------------------------------------------------------------------------------------
# Properties.


def check_conserved(pos: dict[str, Any]) -> None:
    if not dealt(pos):
        return
    places = card_places(pos)
    counts = Counter(c for _, c in places)
    dupes = {c: [p for p, x in places if x == c] for c, k in counts.items() if k > 1}
    assert not dupes, f"cards in two places: {dupes}"
    assert sorted(counts) == sorted(pack_of(pos)), (
        f"missing {set(pack_of(pos)) - set(counts)}, extra {set(counts) - set(pack_of(pos))}"
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(data=st.data())
def test_cards_are_conserved(game_id: str, data: st.DataObject) -> None:
    game = make_game(data, game_id)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    check_conserved(game.to_json())
    for _ in play_random(game, rng, 400):
        check_conserved(game.to_json())


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(data=st.data())
def test_json_round_trip_is_exact(game_id: str, data: st.DataObject) -> None:
    game = make_game(data, game_id)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for i, _ in enumerate([None, *play_random(game, rng, 300)]):
        if i % 7:
            continue
        pos = game.to_json()
        again = trumps.from_json(pos)
        assert again.to_json() == pos
        wire = json.loads(json.dumps(pos))
        loaded = trumps.from_json(wire)
        assert loaded.to_json() == pos
        assert loaded.legal_actions() == game.legal_actions()
        assert loaded.current_player == game.current_player
        assert loaded.outcome == game.outcome


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(data=st.data())
def test_undo_restores_exactly(game_id: str, data: st.DataObject) -> None:
    # Short Svoi Kozyri hands (ply cap, several hands per match) so undo crosses deals.
    fixed = {"max_plies": 40, "match_losses": 3} if game_id == "kozyri" else {}
    game = make_game(data, game_id, **fixed)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    snaps: list[dict[str, Any]] = []  # the position before each action still played

    def advance(steps: int) -> None:
        for _ in range(steps):
            legal = game.legal_actions()
            if not legal:
                return
            snaps.append(game.to_json())
            game.play(rng.choice(legal))

    advance(data.draw(st.integers(1, 250), label="depth"))
    # Undo part of the way, play on differently, then undo everything.
    for _ in range(data.draw(st.integers(0, len(snaps)), label="back")):
        game.undo()
        assert game.to_json() == snaps.pop()
    advance(data.draw(st.integers(0, 60), label="again"))
    while snaps:
        game.undo()
        assert game.to_json() == snaps.pop()
    assert game.history == []
    with pytest.raises(trumps.IllegalAction):
        game.undo()


def test_undo_crosses_hand_changes() -> None:
    """Deterministic companion: undo through several deals and the game's end."""
    for game_id, rules in (
        ("kozyri", {"max_plies": 2000, "match_losses": 2}),
        ("twentyfive", {"target": 25}),
    ):
        game = trumps.new_game(
            game_id, players=2 if game_id == "kozyri" else 4, rules=rules, seed=11
        )
        rng = random.Random(3)
        snaps = [game.to_json()]
        hands = {snaps[0].get("hand", 1)}
        for _ in play_random(game, rng, 20000):
            snaps.append(game.to_json())
            hands.add(snaps[-1].get("hand", 1))
        assert game.is_over and len(hands) >= 2, (game_id, hands)
        while len(snaps) > 1:
            snaps.pop()
            game.undo()
            assert game.to_json() == snaps[-1]


# -- views ---------------------------------------------------------------------------


def public_cards(pos: dict[str, Any], view: Mapping[str, Any], seat: int) -> set[str]:
    public: set[str] = set(pos["hands"][seat])
    for s, h in enumerate(view["hands"]):
        if s != seat and isinstance(h, dict):
            public |= set(h["known"])
    if pos["game"] == "kozyri":
        return public | set(pos["pile"])
    public |= {c for t in pos["tricks"] for c in t["cards"]} | set(pos["trick"])
    if pos.get("turnup"):
        public.add(pos["turnup"])
    if pos.get("robbed") and pos["robbed"]["seat"] == seat:
        public.add(pos["robbed"]["discard"])
    if pos.get("joker_discard") and pos["dealer"] == seat:
        public.add(pos["joker_discard"])
    return public


def check_view(pos: dict[str, Any], view: Mapping[str, Any], seat: int) -> None:
    assert view["seat"] == seat
    assert "seed" not in view and "stock" not in view
    assert sorted(view["hands"][seat]) == sorted(pos["hands"][seat])
    for s, h in enumerate(view["hands"]):
        if s == seat:
            continue
        assert isinstance(h, dict) and set(h) == {"count", "known"}, h
        assert h["count"] == len(pos["hands"][s])
        assert set(h["known"]) <= set(pos["hands"][s]), (s, h["known"])
    leaked = cards_in(view) - public_cards(pos, view, seat)
    assert not leaked, f"view({seat}) shows hidden cards {leaked}"
    others = [h for s, h in enumerate(view["hands"]) if s != seat]
    if pos["game"] == "twentyfive":
        assert "voids" in view and len(view["voids"]) == len(pos["hands"])
        expected = shown_voids(pos)
        for s, voids in enumerate(view["voids"]):
            assert set(voids) == expected[s], f"voids of seat {s}: {voids} vs {expected[s]}"
        if pos.get("robbed") and pos["robbed"]["seat"] != seat:
            assert (view["robbed"] or {}).get("discard") is None
        if not pos["tricks"] and not pos["trick"] and not pos.get("robbed"):
            # docs/views.md: nothing is known after the deal, but for a turned-up joker (F17a).
            joker = pos["turnup"] == "JK" or pos.get("joker_discard") is not None
            allowed = {"JK"} if joker else set()
            assert all(set(h["known"]) <= allowed for h in others), "known after the deal"
    else:
        assert "voids" not in view
        if len(pos["hands"]) == 2 and dealt(pos):
            # docs/views.md: in 2-player Svoi Kozyri the other hand is deducible.
            other = pos["hands"][1 - seat]
            assert sorted(others[0]["known"]) == sorted(other)


def shown_voids(pos: dict[str, Any]) -> list[set[str]]:
    """docs/views.md: the suits each seat showed it lacks by not following a plain-suit lead
    (trumping does not show a void; the A♥ is never a heart)."""
    n = len(pos["hands"])
    voids: list[set[str]] = [set() for _ in range(n)]
    trump = pos.get("trump")
    if not trump:
        return voids
    tricks = [(t["leader"], t["cards"]) for t in pos["tricks"]]
    if pos["trick"]:
        tricks.append((pos["leader"], pos["trick"]))
    for leader, cards in tricks:
        led = cards[0]
        if twentyfive_ref.is_trump(led, trump):
            continue
        for j, c in enumerate(cards[1:], start=1):
            if not twentyfive_ref.is_trump(c, trump) and c[1] != led[1]:
                voids[(leader + j) % n].add(led[1])
    return voids


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(data=st.data())
def test_views_hide_what_they_must(game_id: str, data: st.DataObject) -> None:
    game = make_game(data, game_id)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    depth = data.draw(st.integers(0, 120), label="depth")
    for _ in play_random(game, rng, depth):
        pass
    pos = game.to_json()
    for seat in range(len(pos["hands"])):
        view = game.view(seat)
        check_view(pos, view, seat)
        again = redeal(pos, view, seat, rng)
        if again is None:
            continue
        check_conserved(again)
        other = trumps.from_json(again)
        assert other.view(seat) == view, f"view({seat}) changed by a consistent re-deal"


# -- seeds, termination, the end, bad input ---------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(data=st.data())
def test_games_reproduce_from_their_seed(game_id: str, data: st.DataObject) -> None:
    cls = trumps.GAMES[game_id]
    players = data.draw(st.integers(cls.min_players, cls.max_players))
    rules = draw_rules(data, game_id)
    rules.pop("teams", None)
    seed = data.draw(st.integers(0, 2**40))
    one = trumps.new_game(game_id, players=players, rules=rules, seed=seed)
    two = trumps.new_game(game_id, players=players, rules=rules, seed=seed)
    assert one.to_json() == two.to_json()
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for action in play_random(one, rng, 600):
        two.play(action)
        assert one.to_json() == two.to_json()
    three = trumps.new_game(game_id, players=players, rules=rules, seed=seed)
    for action in one.history:
        three.play(action)
    assert three.to_json() == one.to_json()


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(data=st.data())
def test_random_play_ends(game_id: str, data: st.DataObject) -> None:
    if game_id == "kozyri":
        # K17: the ply cap ends a one-hand match within max_plies actions (+ trump choices).
        cap = data.draw(st.sampled_from([300, 2000]))
        game = make_game(data, game_id, max_plies=cap, match_losses=1)
        bound = cap + game.players
    else:
        game = make_game(data, game_id)
        rules: dict[str, Any] = game.rules
        n = game.players
        sides = n if game.to_json()["teams"] is None else len(game.to_json()["teams"])
        # F16: each hand hands out 5 tricks; the game ends once a side reaches the target.
        hands = sides * rules["target"] // (5 * rules["points_per_trick"]) + 2
        bound = hands * (5 * n + 2)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in play_random(game, rng, bound):
        pass
    assert game.is_over, f"{game_id} still running after {bound} random actions"
    check_the_end(game)


def check_the_end(game: trumps.Game) -> None:
    pos = game.to_json()
    assert game.legal_actions() == [] and game.current_player is None
    assert pos["to_move"] is None and pos["outcome"] is not None
    outcome = game.outcome
    assert outcome is not None and outcome.to_json() == pos["outcome"]
    seats = set(range(game.players))
    assert set(outcome.winners) | set(outcome.losers) <= seats
    assert not set(outcome.winners) & set(outcome.losers)
    if not outcome.draw:
        assert set(outcome.winners) | set(outcome.losers) == seats
    for action in [*pack_of(pos)[:8], "take", "trump S", "rob 2S", "rob AH"]:
        with pytest.raises(trumps.IllegalAction):
            game.play(action)
    assert game.to_json() == pos


GARBAGE = [
    "",
    " ",
    "XX",
    "1H",
    "11H",
    "ZZ",
    "take 3",
    "take take",
    "trump",
    "trump X",
    "rob",
    "rob XX",
    "rob 2S 3S",
    "AHH",
    "♥",
    "play AH",
    "🂡",
]


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(data=st.data())
def test_bad_input_changes_nothing(game_id: str, data: st.DataObject) -> None:
    game = make_game(data, game_id)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    depth = data.draw(st.integers(0, 100))
    for _ in play_random(game, rng, depth):
        pass
    pos, history = game.to_json(), list(game.history)
    junk = data.draw(st.one_of(st.sampled_from(GARBAGE), st.text(max_size=6)))
    try:
        code = trumps.cards.parse_action(junk)
    except trumps.InvalidAction:
        code = None
    if code is None:
        with pytest.raises(trumps.InvalidAction):
            game.play(junk)
    for bad in (None, 7, ["AH"]):
        with pytest.raises(trumps.InvalidAction):
            game.play(bad)  # type: ignore[arg-type]
    legal = set(game.legal_actions())
    illegal = [
        a
        for a in [*pack_of(pos), "take", "trump S", "trump H", "rob 2S", "rob AH", "rob KD"]
        if a not in legal
    ]
    for action in rng.sample(illegal, min(6, len(illegal))):
        with pytest.raises(trumps.IllegalAction):
            game.play(action)
    assert game.to_json() == pos and game.history == history


# -- from_json fuzzing -------------------------------------------------------------------


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_of(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths_of(v, (*prefix, i))


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.sampled_from([-1, 10**9, 2.5, "AH", "JK", "th", "ZZ", "S", "x"]),
    st.text(max_size=3),
    st.lists(st.integers(-1, 5), max_size=3),
    st.lists(st.sampled_from(["AH", "2S", "6D", "KC"]), max_size=3),
    st.dictionaries(
        st.sampled_from(["seat", "discard", "count", "x"]), st.integers(0, 3), max_size=2
    ),
)


def mutate(pos: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    new = copy.deepcopy(pos)
    kind = data.draw(st.sampled_from(["replace", "delete", "duplicate_card", "seat", "extend"]))
    paths = [p for p in paths_of(new) if p]
    if kind == "duplicate_card":
        cards = sorted({c for _, c in card_places(new)} if dealt(new) else {"AS"})
        card = data.draw(st.sampled_from(cards))
        s = data.draw(st.integers(0, len(new["hands"]) - 1))
        new["hands"][s].append(card)
        return new
    if kind == "seat":
        key = data.draw(st.sampled_from([k for k in ("to_move", "dealer", "leader") if k in new]))
        new[key] = data.draw(st.sampled_from([len(new["hands"]), -1, 99, len(new["hands"]) - 1]))
        return new
    path = data.draw(st.sampled_from(paths))
    parent: Any = new
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if kind == "replace":
        parent[last] = data.draw(JUNK)
    elif kind == "delete":
        del parent[last]
    elif isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
    else:
        parent["unknown_key"] = 1
    return new


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_from_json_rejects_mutations_cleanly(game_id: str, data: st.DataObject) -> None:
    game = make_game(data, game_id)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in play_random(game, rng, data.draw(st.integers(0, 80))):
        pass
    bad = mutate(game.to_json(), data)
    try:
        loaded = trumps.from_json(bad)
    except trumps.InvalidPosition:
        return
    # Accepted: it must be a sound game that round-trips exactly.
    pos = loaded.to_json()
    assert trumps.from_json(pos).to_json() == pos
    assert json.loads(json.dumps(pos)) == pos
    places = [c for _, c in card_places(pos)] if dealt(pos) else []
    assert len(places) == len(set(places)), "an accepted position lists a card twice"
    loaded.legal_actions()
    for seat in range(loaded.players):
        loaded.view(seat)


def test_from_json_rejects_non_positions() -> None:
    junks: list[Any] = [None, 3, "kozyri", [], {}, {"game": "chess"}, {"game": None}]
    # An unhashable 'game' must not crash the registry's lookup.
    junks += [{"game": []}, {"game": {"x": 1}}, {"game": ["kozyri"]}]
    for junk in junks:
        with pytest.raises(trumps.InvalidPosition):
            trumps.from_json(junk)
