"""Twenty-Five positions (docs/positions.md): parsing and checking a position dict into a core."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from trumps.cards import JOKER, SUITS, card_str, cards_of, mask_of
from trumps.errors import InvalidPosition, InvalidRules
from trumps.games.base import Outcome
from trumps.games.options import rules_from_json
from trumps.games.position import Reader, check_unique
from trumps.games.twentyfive._core import BONUS_PLUS10, HAND_TRICKS, TwentyFiveCore
from trumps.games.twentyfive.options import (
    GAME_ID,
    OPTIONS,
    POSITION_KEYS,
    PRESETS,
    make_config,
    seat_teams,
)


class Loaded(NamedTuple):
    """What a position gives the game: its core, rules, teams and a forced outcome."""

    core: TwentyFiveCore
    rules: dict[str, object]
    teams: list[list[int]] | None
    forced: Outcome | None


def load(data: Mapping[str, Any]) -> Loaded:
    """Parses and checks a position dict (docs/positions.md); raises ``InvalidPosition``."""
    return _Loader(data).load()


class _Loader:
    """Parses and checks a position dict (docs/positions.md); every failure is ``InvalidPosition``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.r = Reader(data, GAME_ID, POSITION_KEYS)

    def fail(self, message: str) -> InvalidPosition:
        return self.r.fail(message)

    def load(self) -> Loaded:
        r = self.r
        try:
            rules = rules_from_json(GAME_ID, OPTIONS, PRESETS, "classic", r.raw("rules"))
        except InvalidRules as e:
            raise self.fail(str(e)) from None
        hands = r.seat_lists("hands")
        n = len(hands)
        if not 2 <= n <= 10:
            raise self.fail(f"'hands' has {n} seats; twentyfive is for 2–10 players")
        try:
            seat_teams(n, rules["teams"])
        except InvalidRules as e:
            raise self.fail(str(e)) from None
        seed = r.int("seed", 0, minimum=0)
        hand_no = r.int("hand", 1, minimum=1)
        teams = self.teams(n)
        sides = n if teams is None else len(teams)

        # Cards.
        if not r.has("turnup"):
            raise self.fail("'turnup' is required (the card turned up for trumps)")
        turnup = r.card(r.raw("turnup"), "'turnup'")
        pending = turnup == JOKER  # F17a: the dealer still owes the joker discard
        tricks = self.tricks(n)
        trick = r.cards("trick", [])
        if len(trick) >= n:
            raise self.fail(
                f"'trick' has {len(trick)} cards; a trick of {n} players holds at most {n - 1} unfinished"
            )
        robbed = r.raw("robbed")
        rob_seat, rob_discard = -1, -1
        if robbed is not None:
            if not isinstance(robbed, Mapping) or set(robbed) != {"seat", "discard"}:
                raise self.fail(
                    f'\'robbed\' must be null or {{"seat": s, "discard": "XX"}}, not {robbed!r}'
                )
            rs = robbed["seat"]
            if not isinstance(rs, int) or isinstance(rs, bool) or not 0 <= rs < n:
                raise self.fail(f"'robbed' seat must be a seat number 0..{n - 1}, not {rs!r}")
            rob_seat = rs
            rob_discard = r.card(robbed["discard"], "'robbed' discard")
        joker_discard = -1
        if r.has("joker_discard"):
            joker_discard = r.card(r.raw("joker_discard"), "'joker_discard'")
        played = [c for t in tricks for c in t[1]] + trick
        groups: list[tuple[str, list[int]]] = [(f"hands[{i}]", h) for i, h in enumerate(hands)]
        groups += [(f"tricks[{k}]", t[1]) for k, t in enumerate(tricks)]
        groups.append(("trick", trick))
        if rob_seat < 0 and not pending:
            groups.append(("turnup", [turnup]))
        if rob_seat >= 0:
            groups.append(("'robbed' discard", [rob_discard]))
        if joker_discard >= 0:
            groups.append(("'joker_discard'", [joker_discard]))
        stock_given = r.has("stock")
        stock = r.cards("stock") if stock_given else []
        groups.append(("stock", stock))
        listed = check_unique(r, groups)
        if listed >> JOKER & 1 and not rules["joker"]:
            raise self.fail("card JK is not in the pack (rule joker is off)")
        if not stock_given:
            pack = (1 << (53 if rules["joker"] else 52)) - 1
            stock = cards_of(pack & ~listed)
        if joker_discard >= 0 and not rules["joker"]:
            raise self.fail("'joker_discard' is set but rule joker is off (F17a)")
        if turnup == JOKER and joker_discard >= 0:
            raise self.fail(
                "'turnup' JK with a 'joker_discard': after the discard the next card is turned up"
            )

        # Who leads, who dealt (F11), and the current trick.
        to_move = r.seat("to_move", n, nullable=True)
        dealer_given = r.seat("dealer", n, nullable=True)
        leader_given = r.seat("leader", n, nullable=True)
        if pending and (tricks or trick):
            raise self.fail(
                "the dealer still owes the joker discard (turn-up JK): no card can have been played (F17a)"
            )
        if tricks:
            first = tricks[0][0]
        elif leader_given is not None:
            first = leader_given
        elif pending and (dealer_given is not None or to_move is not None):
            first = ((dealer_given if dealer_given is not None else to_move) or 0) + 1
        elif to_move is not None:
            first = to_move - len(trick)
        elif dealer_given is not None:
            first = dealer_given + 1
        else:
            raise self.fail("cannot tell who leads: give 'to_move', 'leader' or 'dealer'")
        first %= n
        dealer = dealer_given if dealer_given is not None else (first - 1) % n
        if first != (dealer + 1) % n:
            raise self.fail(
                f"trick 1 must be led by seat {(dealer + 1) % n}, left of dealer {dealer} (F11), not seat {first}"
            )
        for k in range(1, len(tricks)):
            if tricks[k][0] != tricks[k - 1][2]:
                raise self.fail(
                    f"tricks[{k}] must be led by seat {tricks[k - 1][2]}, the winner of "
                    f"tricks[{k - 1}] (F11), not seat {tricks[k][0]}"
                )
        leader = tricks[-1][2] if tricks else (dealer + 1) % n
        if leader_given is not None and leader_given != leader:
            raise self.fail(f"'leader' must be seat {leader} (F11), not {leader_given}")

        # Trumps (F4, F17a).
        if pending:
            trump = -1
            if r.has("trump"):
                raise self.fail("'trump' must be null while the turn-up is the joker (F17a)")
            if not stock:
                raise self.fail("the turned-up joker needs a next card in 'stock' (F17a)")
        else:
            trump = turnup & 3
            if r.has("trump") and r.raw("trump") != SUITS[trump]:
                raise self.fail(
                    f"'trump' must be {SUITS[trump]!r}, the suit of the turn-up {card_str(turnup)}, not {r.raw('trump')!r}"
                )

        core = TwentyFiveCore(make_config(n, rules, teams, seed))
        core.set_trump(trump)

        # F15: each finished trick went to the right seat.
        for k, (tl, cards, w) in enumerate(tricks):
            core.leader = tl
            core.winners = []
            core.plays = list(cards)
            core.rebuild_trick()
            if core.best_seat != w:
                raise self.fail(f"tricks[{k}] was won by seat {core.best_seat} (F15), not seat {w}")

        # Hand sizes (F4): every seat held the same number of cards this hand.
        in_trick = [(leader + j) % n for j in range(len(trick))]
        sizes = []
        for s in range(n):
            size = len(hands[s]) + len(tricks) + (1 if s in in_trick else 0)
            if pending and s == dealer:
                size -= 1
            sizes.append(size)
        for s in range(n):
            if sizes[s] != sizes[0]:
                raise self.fail(
                    f"hand sizes do not fit the tricks played: seat {s} has held {sizes[s]} "
                    f"cards this hand, seat 0 {sizes[0]}"
                )
        if sizes[0] > 5:
            raise self.fail(f"each seat has held {sizes[0]} cards this hand; a hand is five (F4)")
        if sizes[0] == 0:
            raise self.fail("no seat holds or has played any card")
        if pending and JOKER not in hands[dealer]:
            raise self.fail(
                f"the turned-up joker must be in the dealer's hand (seat {dealer}) (F17a)"
            )

        # Each play was legal (F13, F14) and each trick went to the right seat (F15).
        seat_of_play: list[int] = []
        for t in tricks:
            seat_of_play += [(t[0] + j) % n for j in range(n)]
        seat_of_play += in_trick
        for i, c in enumerate(played):
            s = seat_of_play[i]
            start = i - i % n
            held = mask_of(hands[s]) | mask_of(
                played[j] for j in range(i, len(played)) if seat_of_play[j] == s
            )
            led = -1 if i == start else played[start]
            if not core.play_mask_for(held, led) >> c & 1:
                raise self.fail(
                    f"seat {s} could not play {card_str(c)} to trick {i // n + 1} led by "
                    f"{card_str(played[start])} (F13, F14): it held "
                    f"{' '.join(card_str(x) for x in cards_of(held))}"
                )

        def has_played(s: int, c: int) -> bool:
            return any(played[i] == c and seat_of_play[i] == s for i in range(len(played)))

        def holds(s: int, c: int) -> bool:
            return c in hands[s] or has_played(s, c)

        def seat_played(s: int) -> bool:
            return bool(tricks) or s in in_trick

        # Robbing (F9, F10).
        if not pending:
            ace = 48 + trump
            eligible = [s for s in range(n) if holds(s, ace)]
            if rob_seat >= 0 and rob_discard == ace:
                eligible = [rob_seat]  # the robber may discard the trump ace itself
            if turnup >> 2 == 12:
                eligible = [dealer]
            if rob_seat >= 0:
                if rules["rob"] == "off":
                    raise self.fail("'robbed' is set but rule rob is off (F10)")
                if rob_seat not in eligible:
                    raise self.fail(
                        f"seat {rob_seat} could not rob: it does not hold the trump ace "
                        f"{card_str(ace)}, nor is it the dealer of a turned-up ace (F9)"
                    )
                if not holds(rob_seat, turnup):
                    raise self.fail(
                        f"the robbed turn-up {card_str(turnup)} must be in seat {rob_seat}'s "
                        "hand or played by it (F9)"
                    )
                if not seat_played(rob_seat) and to_move != rob_seat:
                    raise self.fail(f"seat {rob_seat} robbed before its first turn (F10)")
            elif rules["rob"] == "mandatory":
                for s in eligible:
                    if seat_played(s):
                        raise self.fail(
                            f"seat {s} had to rob before playing (rule rob=mandatory, F10)"
                        )
        elif rob_seat >= 0:
            raise self.fail("'robbed' is set but the turn-up is still the joker (F17a)")
        if joker_discard >= 0:
            if not holds(dealer, JOKER):
                raise self.fail(
                    f"a 'joker_discard' means the dealer (seat {dealer}) took the joker, "
                    "but it neither holds nor played JK (F17a)"
                )
            if joker_discard == JOKER:
                raise self.fail("the dealer cannot discard the joker itself (F17a)")

        # Scores (F16, F17) and who has won.
        scores = self.scores(sides)
        won = [0] * sides
        for t in tricks:
            won[core.side_of[t[2]]] += 1
        complete = bool(tricks) and not trick and all(not h for h in hands)
        win_side = self.winner(core, scores, won=won, tricks=tricks, complete=complete)
        over = win_side >= 0 and (not rules["play_out_hand"] or complete)

        forced = None
        if r.has("outcome"):
            try:
                outcome = Outcome.from_json(r.raw("outcome"))
            except ValueError as e:
                raise self.fail(str(e)) from None
            if outcome.reason in ("resigned", "timeout"):
                if over:
                    raise self.fail(
                        f"outcome {outcome.reason!r} contradicts the position: the game was already won"
                    )
                forced = outcome
            else:
                winners = [s for s in range(n) if core.side_of[s] == win_side]
                losers = [s for s in range(n) if core.side_of[s] != win_side]
                if not over or outcome != Outcome(winners, losers, False, "target"):
                    raise self.fail(f"outcome {r.raw('outcome')!r} contradicts the position")
        if over:
            if to_move is not None:
                raise self.fail(f"'to_move' must be null: the game is over, not {to_move}")
            expected = -1
        else:
            expected = dealer if pending else (leader + len(trick)) % n
            if forced is not None:
                if to_move is not None:
                    raise self.fail(f"'to_move' must be null: the game ended by {forced.reason!r}")
            elif to_move != expected:
                raise self.fail(f"'to_move' must be seat {expected}, not {to_move}")

        # Build the core.
        core.hand_no = hand_no
        core.dealer = dealer
        core.turnup = turnup
        core.stock = mask_of(stock)
        core.next_up = stock[0] if pending else -1
        core.robbed_seat = rob_seat
        core.robbed_discard = rob_discard
        core.joker_discard = joker_discard
        core.hands = [mask_of(h) for h in hands]
        core.scores = scores
        core.hand_tricks = won
        core.plays = list(played)
        core.winners = [t[2] for t in tricks]
        core.leader = leader
        core.rebuild_trick()
        core.win_side = win_side
        core.to_play = expected
        return Loaded(core, rules, teams, forced)

    def teams(self, n: int) -> list[list[int]] | None:
        value = self.r.raw("teams")
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(t, list) and t for t in value):
            raise self.fail(
                f"'teams' must be null or a list of non-empty seat lists, not {value!r}"
            )
        seats = [s for t in value for s in t]
        if (
            not all(isinstance(s, int) and not isinstance(s, bool) for s in seats)
            or sorted(seats) != list(range(n))
            or len(value) < 2
        ):
            raise self.fail(
                f"'teams' must split the seats 0..{n - 1} into two or more teams, each seat once, not {value!r}"
            )
        return [sorted(t) for t in value]

    def tricks(self, n: int) -> list[tuple[int, list[int], int]]:
        value = self.r.raw("tricks", [])
        if value is None:
            value = []
        if not isinstance(value, list):
            raise self.fail(f"'tricks' must be a list of finished tricks, not {value!r:.80}")
        out: list[tuple[int, list[int], int]] = []
        for k, t in enumerate(value):
            if not isinstance(t, Mapping) or set(t) != {"leader", "cards", "winner"}:
                raise self.fail(
                    f'tricks[{k}] must be {{"leader", "cards", "winner"}}, not {t!r:.80}'
                )
            seats = []
            for key in ("leader", "winner"):
                s = t[key]
                if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < n:
                    raise self.fail(
                        f"tricks[{k}] {key} must be a seat number 0..{n - 1}, not {s!r}"
                    )
                seats.append(s)
            cards = self.r.cards(f"tricks[{k}] cards", value=t["cards"])
            if len(cards) != n:
                raise self.fail(
                    f"tricks[{k}] has {len(cards)} cards; a finished trick has one per seat ({n})"
                )
            out.append((seats[0], cards, seats[1]))
        if len(out) > 5:
            raise self.fail(f"'tricks' lists {len(out)} tricks; a hand has five")
        return out

    def scores(self, sides: int) -> list[int]:
        value = self.r.raw("scores")
        if value is None:
            return [0] * sides
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value
        ):
            raise self.fail(f"'scores' must be a list of whole numbers ≥ 0, not {value!r}")
        if len(value) != sides:
            what = "team" if sides != len(self.r.raw("hands")) or self.r.raw("teams") else "seat"
            raise self.fail(f"'scores' has {len(value)} entries, expected one per {what} ({sides})")
        return list(value)

    def winner(
        self,
        core: TwentyFiveCore,
        scores: list[int],
        *,
        won: list[int],
        tricks: list[tuple[int, list[int], int]],
        complete: bool,
    ) -> int:
        """The side that has won or reached the target (-1: none), checking that the scores
        fit this hand's tricks (F16) and bonus (F17): the core scores the tricks again
        from the scores before the hand, which are found by taking the tricks (and maybe
        a plus10 bonus) back off."""
        ppt = core.ppt
        before = [scores[s] - ppt * won[s] for s in range(len(scores))]
        tries = [before]
        swept = [side for side, k in enumerate(won) if k == HAND_TRICKS]
        if core.cfg.bonus == BONUS_PLUS10 and complete and len(tricks) == HAND_TRICKS and swept:
            with_bonus = list(before)
            with_bonus[swept[0]] -= 10
            tries.append(with_bonus)
        problems: list[str] = []  # the first is the plain reading (no bonus)
        for start in tries:
            if min(start) < 0:
                problems.append(f"'scores' {scores} are lower than this hand's tricks give")
                continue
            if max(start) >= core.target:
                problems.append(
                    f"'scores' {scores}: a side had reached the target {core.target} before this hand's tricks"
                )
                continue
            again = TwentyFiveCore(core.cfg)
            again.scores = list(start)
            ended_at = -1
            for k, t in enumerate(tricks):
                again.winners.append(t[2])
                if again.score_trick(t[2]) and ended_at < 0:
                    ended_at = k
            if ended_at >= 0 and (ended_at < len(tricks) - 1 or self.r.raw("trick")):
                problems.append(
                    f"the target was reached at tricks[{ended_at}], which ends the game at once (F16); "
                    "no further card can have been played"
                )
                continue
            if complete and ended_at < 0:
                again.score_sweep(core.side_of[tricks[-1][2]])
            if again.scores != scores:
                if start is before:  # only a bonus can make the difference
                    problems.append(
                        f"'scores' {scores} lack the plus10 bonus for taking all five tricks (F17)"
                    )
                continue
            if complete and again.win_side < 0:
                problems.append(
                    "the hand is finished and nobody has won: the next hand would have been dealt"
                )
                continue
            return again.win_side
        raise self.fail(problems[0])
