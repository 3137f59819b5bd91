"""Svoi Kozyri positions (docs/positions.md): parsing and checking a position dict into a core."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from trumps.cards import SUITS, card_str, card_strs, mask_of, parse_suit
from trumps.errors import InvalidAction, InvalidRules
from trumps.games.base import Outcome
from trumps.games.kozyri._core import (
    DRAWN,
    LOST,
    MAX_PLIES,
    PACK_MASK,
    REASONS,
    SIX,
    KozyriCore,
    beats,
)
from trumps.games.kozyri.options import (
    DEFAULT_PRESET,
    GAME_ID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    PRESETS,
    make_core,
)
from trumps.games.options import rules_from_json
from trumps.games.position import Reader, check_unique

POSITION_KEYS = (
    "rules", "dealer", "trumps", "hands", "pile", "to_move", "owes_second", "out", "ply",
    "outcome", "seed", "hand", "losses", "known",
)  # fmt: skip


class Loaded(NamedTuple):
    """What a position gives the game: its core, rules and a forced outcome (resigned,
    timeout) if it has one."""

    core: KozyriCore
    rules: dict[str, object]
    forced: Outcome | None


def hand_result(n: int, loser: int, reason: int) -> Outcome:
    """K16: the outcome of a hand lost by ``loser`` (-1: drawn) for the core's ``reason``."""
    if loser < 0:
        return Outcome([], [], True, REASONS[reason])
    return Outcome([s for s in range(n) if s != loser], [loser], False, REASONS[reason])


def load(data: Mapping[str, Any]) -> Loaded:
    """Parses and checks a position dict (docs/positions.md); raises ``InvalidPosition``."""
    r = Reader(data, GAME_ID, POSITION_KEYS)
    try:
        rules = rules_from_json(GAME_ID, OPTIONS, PRESETS, DEFAULT_PRESET, r.raw("rules"))
    except InvalidRules as e:
        raise r.fail(str(e)) from None
    hands_l = r.seat_lists("hands")
    n = len(hands_l)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise r.fail(f"'hands' has {n} seats; Svoi Kozyri is for 2–4 players")
    raw_trumps = r.raw("trumps")
    if not isinstance(raw_trumps, list) or len(raw_trumps) != n:
        raise r.fail(
            f"'trumps' must be a list with one suit letter (or null) per seat ({n} seats), "
            f"not {raw_trumps!r:.80}"
        )
    trumps: list[int] = []
    for seat, t in enumerate(raw_trumps):
        if t is None:
            trumps.append(-1)
            continue
        try:
            if not isinstance(t, str):
                raise InvalidAction(repr(t))
            s = parse_suit(t)
        except InvalidAction:
            raise r.fail(
                f"'trumps' item {seat} must be a suit letter S H D C or null, not {t!r}"
            ) from None
        if s in trumps:
            raise r.fail(
                f"'trumps' must differ (K3): seats {trumps.index(s)} and {seat} both have {SUITS[s]}"
            )
        trumps.append(s)
    pile_l = r.cards("pile", default=[])
    for where, cards in [
        *((f"hands[{i}]", h) for i, h in enumerate(hands_l)),
        ("pile", pile_l),
    ]:
        for c in cards:
            if not (PACK_MASK >> c) & 1:
                raise r.fail(f"card {card_str(c)} in {where} is not in the 36-card pack (K2: A–6)")
    check_unique(r, [*((f"hands[{i}]", h) for i, h in enumerate(hands_l)), ("pile", pile_l)])
    hands = [mask_of(h) for h in hands_l]
    seed = r.int("seed", 0, minimum=0)
    hand_no = r.int("hand", 1, minimum=1)
    ply = r.int("ply", 0, minimum=0)
    owes = r.bool("owes_second", False)
    to_move = r.seat("to_move", n, nullable=True)
    dealer = r.seat("dealer", n, nullable=True)
    match_losses = int(str(rules["match_losses"]))
    losses = _read_losses(r, n)
    outcome: Outcome | None = None
    if r.has("outcome"):
        try:
            outcome = Outcome.from_json(r.raw("outcome"))
        except ValueError as e:
            raise r.fail(str(e)) from None
        for seat in (*outcome.winners, *outcome.losers):
            if not 0 <= seat < n:
                raise r.fail(f"outcome names seat {seat}, but there are {n} seats")
    forced = outcome is not None and outcome.reason in ("resigned", "timeout")
    if (
        outcome is not None
        and not outcome.draw
        and (
            len(outcome.losers) != 1
            or sorted(outcome.winners) != [s for s in range(n) if s != outcome.losers[0]]
        )
    ):
        raise r.fail(
            f"outcome {outcome.to_json()} contradicts the position: a Svoi Kozyri game has "
            "one loser and everyone else wins"
        )
    if losses is None:
        losses = [0] * n
        if outcome is not None and not forced and not outcome.draw:
            losses[outcome.losers[0]] = match_losses  # K18: the finished game's loser
    if outcome is not None and not forced and not outcome.draw:
        loser = outcome.losers[0]
        if losses[loser] != match_losses or any(
            x >= match_losses for s, x in enumerate(losses) if s != loser
        ):
            raise r.fail(
                f"'losses' {losses} contradicts the outcome: seat {loser} lost the game "
                f"with match_losses {match_losses}"
            )
    elif any(x >= match_losses for x in losses):
        raise r.fail(
            f"'losses' {losses} contradicts the outcome {outcome and outcome.to_json()}: "
            f"a game ends when a seat has lost {match_losses} hand(s) (K18)"
        )
    core = make_core(n, rules, seed)
    core.hand_no = hand_no
    core.losses = losses
    if -1 in trumps:
        _load_choice(
            r,
            core,
            trumps=trumps,
            hands=hands,
            pile=pile_l,
            to_move=to_move,
            dealer=dealer,
            owes=owes,
            ply=ply,
            outcome=outcome,
            forced=forced,
        )
    else:
        _load_play(
            r,
            core,
            trumps=trumps,
            hands=hands,
            pile=pile_l,
            to_move=to_move,
            dealer=dealer,
            owes=owes,
            ply=ply,
            outcome=outcome,
            forced=forced,
        )
    return Loaded(core, rules, outcome if forced else None)


def _read_losses(r: Reader, n: int) -> list[int] | None:
    raw = r.raw("losses")
    if raw is None:
        return None
    if (
        not isinstance(raw, list)
        or len(raw) != n
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in raw)
    ):
        raise r.fail(f"'losses' must be a list of {n} whole numbers ≥ 0, not {raw!r:.80}")
    return list(raw)


def _load_choice(
    r: Reader,
    core: KozyriCore,
    *,
    trumps: list[int],
    hands: list[int],
    pile: list[int],
    to_move: int | None,
    dealer: int | None,
    owes: bool,
    ply: int,
    outcome: Outcome | None,
    forced: bool,
) -> None:
    """A position during the trump choice (K3): blank hands, choices in seat order."""
    n = core.n
    for seat, h in enumerate(hands):
        if h:
            raise r.fail(
                f"hands must be empty during the trump choice, but seat {seat} holds cards"
            )
    if pile or owes or ply:
        raise r.fail("during the trump choice 'pile' must be empty, 'owes_second' false, 'ply' 0")
    out = r.raw("out", [])
    if out not in ([], None):
        raise r.fail(f"'out' must be empty during the trump choice, not {out!r:.80}")
    known = r.raw("known")
    if known is not None and (
        not isinstance(known, list) or len(known) != n or any(k != [] for k in known)
    ):
        raise r.fail(f"'known' must be {n} empty lists during the trump choice, not {known!r:.80}")
    if outcome is not None and not forced:
        raise r.fail(
            f"outcome {outcome.to_json()} contradicts the position: trumps are being chosen"
        )
    chosen = sum(1 for t in trumps if t >= 0)
    if to_move is None:
        if not forced:
            raise r.fail("'to_move' is null, but the game is not over: a seat must choose a trump")
        if dealer is None:
            dealer = n - 1
        to_move = (dealer + 1 + chosen) % n  # K3: the next seat in choosing order
    if dealer is None:
        dealer = (to_move - 1 - chosen) % n
    order = [(dealer + 1 + i) % n for i in range(n)]
    if any(trumps[s] < 0 for s in order[:chosen]) or to_move != order[chosen]:
        raise r.fail(
            f"trumps are chosen in seat order from the dealer's left (K3): with dealer {dealer}, "
            f"seats {order[:chosen]} have chosen and seat {order[chosen]} is to move, "
            f"not trumps {[SUITS[t] if t >= 0 else None for t in trumps]} with to_move {to_move}"
        )
    core.dealer = dealer
    core.begin_choice()
    core.trumps = trumps
    core.tm = to_move


def _load_play(
    r: Reader,
    core: KozyriCore,
    *,
    trumps: list[int],
    hands: list[int],
    pile: list[int],
    to_move: int | None,
    dealer: int | None,
    owes: bool,
    ply: int,
    outcome: Outcome | None,
    forced: bool,
) -> None:
    """A position in play (K7–K17), maybe already over."""
    n = core.n
    empty = [s for s in range(n) if not hands[s]]
    raw_out = r.raw("out")
    if raw_out is None:
        out = empty
    else:
        if not isinstance(raw_out, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in raw_out
        ):
            raise r.fail(f"'out' must be a list of seat numbers, not {raw_out!r:.80}")
        if len(set(raw_out)) != len(raw_out) or sorted(raw_out) != empty:
            raise r.fail(
                f"'out' must list exactly the seats with empty hands {empty} (in the order "
                f"they went out), not {raw_out}"
            )
        out = list(raw_out)
    if len(empty) == n:
        raise r.fail("no seat holds a card: a hand in play needs cards")
    raw_known = r.raw("known")
    known = [0] * n
    if raw_known is None:
        if core.sixes:  # K6: one's own trump six is public while held
            for s in range(n):
                known[s] = hands[s] & (1 << (SIX * 4 + trumps[s]))
    else:
        if not isinstance(raw_known, list) or len(raw_known) != n:
            raise r.fail(
                f"'known' must be a list with one list of cards per seat, not {raw_known!r:.80}"
            )
        for s in range(n):
            k = mask_of(r.cards(f"known[{s}]", value=raw_known[s]))
            if k & ~hands[s]:
                raise r.fail(
                    f"'known' lists {', '.join(card_strs(k & ~hands[s]))} for seat {s}, "
                    "which that seat does not hold"
                )
            known[s] = k
    if dealer is None:
        dealer = (to_move - 1) % n if to_move is not None else n - 1
    core.choosing = False
    core.dealer = dealer
    core.trumps = trumps
    core.hands = hands
    core.known = known
    core.pile = list(pile)
    core.owes = owes
    core.out = out
    core.ply = ply
    holders = [s for s in range(n) if hands[s]]
    capped = ply >= core.max_plies
    if outcome is not None and not forced:
        # A finished game: the outcome must be the one the position implies.
        if to_move is not None:
            raise r.fail(
                f"'to_move' must be null: the outcome says the game is over, not {to_move}"
            )
        if owes:
            raise r.fail("'owes_second' must be false when the game is over")
        core.finish_setup(-1)
        if len(holders) == 1:
            loser, reason = core.hand_outcome()
            expected = hand_result(n, loser, reason)
            if outcome != expected:
                raise r.fail(
                    f"outcome {outcome.to_json()} contradicts the position: by K16 it is "
                    f"{expected.to_json()}"
                )
        elif outcome.reason in ("out_of_cards", "draw_rule"):
            raise r.fail(
                f"outcome {outcome.to_json()} contradicts the position: {len(holders)} seats "
                "still hold cards (K16 needs one)"
            )
        elif outcome.reason == "max_plies" and not capped:
            raise r.fail(f"outcome max_plies contradicts 'ply' {ply} < max_plies {core.max_plies}")
        elif outcome.reason not in ("repetition", "max_plies"):
            raise r.fail(f"outcome reason {outcome.reason!r} is not possible in Svoi Kozyri")
        if outcome.draw and core.match_losses > 1:
            raise r.fail(
                "a drawn game is impossible with match_losses > 1 (a drawn hand is "
                "followed by the next deal, K18)"
            )
        core.tm = -1
        if outcome.draw:
            core.result = DRAWN
            core.loser = -1
        else:
            core.result = LOST
            core.loser = outcome.losers[0]
        core.reason = REASONS.index(outcome.reason)
        return
    if to_move is not None and not hands[to_move]:
        raise r.fail(f"'to_move' is seat {to_move}, which holds no cards (it is out)")
    if (owes and not (forced and to_move is None)) and (
        to_move is None or len(pile) < 2 or not beats(pile[-1], pile[-2], trumps[to_move])
    ):
        raise r.fail(
            "'owes_second' is true, but the top card is not a beat by the player to "
            "move (K10 needs a pile whose top card beat the one below it)"
        )
    if len(holders) == 1 or capped:
        # Over already: finish the hand as the engine would have (K16, K17, K18).
        if forced:
            raise r.fail("the position is already over by the rules: it cannot end by resignation")
        core.finish_setup(to_move if to_move is not None else holders[0])
        if len(holders) == 1:
            loser, reason = core.hand_outcome()
        else:
            loser, reason = -1, MAX_PLIES
        core.end_hand(loser, reason)
        return
    if to_move is None:
        if not forced:
            raise r.fail("'to_move' is null, but the game is not over")
        core.finish_setup(-1)  # resigned: who was to move is not recorded
        return
    core.finish_setup(to_move)
