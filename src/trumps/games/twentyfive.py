"""Twenty-Five, Ireland's national card game (RULES.md §2): the public, checked game.

The rules live in the fast core ``_twentyfive_core``; this module is the string and JSON
surface: rule options and presets, positions (SPEC §4) with validation, and views
(SPEC §6).

Position keys beyond SPEC §4 (needed to round-trip):

- ``joker_discard``: null, or the card the dealer put face down after taking a turned-up
  joker (F17a).  While that discard is still owed, ``turnup`` is ``"JK"``, ``trump`` is
  null, ``to_move`` is the dealer (who holds the joker) and the legal actions are
  ``rob XX`` for each other card of the dealer's hand: the ``rob`` action string serves
  this discard too.  Then ``stock[0]`` is the card that will be turned up next (the rest of
  ``stock`` is sorted; on input without ``stock`` the lowest unlisted card is next).

Interpretations (RULES.md leaves them open):

- The joker is a trump between the J and the A♥ (F2) and, for reneging (F14), is
  privileged like the top three (with ``renege_cards = top3``; never with ``five_only``).
- A rob (F9, F10) is possible only while the seat to move has played no card this hand
  (so only in trick 1) and only once per hand; the discard is taken from the hand before
  the turn-up joins it, so the turn-up itself cannot be discarded.  With ``rob =
  mandatory`` the seat that may rob has only ``rob`` actions at that turn.
- ``plus10`` (F17) is added when the hand's five tricks are finished; when the game has
  already ended at once on reaching the target, the hand is not finished and no bonus is
  added.  ``wins_game`` ends the game with reason ``target``.
- A composed position may hold fewer than five cards a seat: every seat must have held the
  same number this hand (at most five), counting the cards it played.
- Views: the dealer's ``known`` holds the turned-up joker while still held (it was seen
  going there); ``joker_discard`` is null in every other seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from trumps.cards import JOKER, SUITS, card_str, cards_of, mask_of
from trumps.errors import InvalidPosition, InvalidRules
from trumps.games._twentyfive_core import (
    BONUS_NONE,
    BONUS_PLUS10,
    BONUS_WINS_GAME,
    PLAIN_MASKS,
    RANK_AS_WRITTEN,
    RANK_CLASSIC,
    RENEGE_FIVE_ONLY,
    RENEGE_NONE,
    RENEGE_TOP3,
    ROB_MANDATORY,
    ROB_OFF,
    ROB_OPTIONAL,
    Config,
    TwentyFiveCore,
)
from trumps.games.base import Game, Option, Outcome, Preset, resolve_rules, rules_from_json
from trumps.games.position import Reader, check_unique

GAME_ID = "twentyfive"

OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("teams", "none", "team size: none, pairs (2) or threes (3) (F1)", ("none", 2, 3)),
        Option("joker", False, "add a joker, the third-best trump (F2, F17a)"),
        Option("deal_packets", "2-3", "packets of the deal (F4)", ("2-3", "3-2", "4-1")),
        Option("ranking", "classic", "card ranking (F5–F8)", ("classic", "as-written")),
        Option(
            "rob", "optional", "robbing the turn-up (F9, F10)", ("optional", "mandatory", "off")
        ),
        Option(
            "renege_cards", "top3", "trumps that may renege (F14)", ("top3", "five_only", "none")
        ),
        Option("renege_limit", "lower_led", "when they may renege (F14)", ("lower_led", "always")),
        Option("points_per_trick", 5, "points for each trick won (F16)", minimum=1),
        Option("target", 25, "points that win the game (F16)", minimum=1),
        Option("play_out_hand", False, "finish the hand after the target is reached (F16)"),
        Option(
            "five_trick_bonus",
            "none",
            "reward for taking all five tricks of a hand (F17)",
            ("none", "plus10", "wins_game"),
        ),
    )
}

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("classic", "every rule with its default (RULES.md 2.7)"),
        Preset(
            "as-written",
            "the seed text's wording",
            {"ranking": "as-written", "renege_limit": "always"},
        ),
        Preset("forty-five", "a longer game: target 45", {"target": 45}),
    )
}

_KEYS = (
    "rules",
    "dealer",
    "turnup",
    "trump",
    "robbed",
    "hands",
    "stock",
    "tricks",
    "trick",
    "leader",
    "to_move",
    "scores",
    "teams",
    "outcome",
    "seed",
    "hand",
    "joker_discard",
)
_PACKETS = {"2-3": (2, 3), "3-2": (3, 2), "4-1": (4, 1)}
_RANKING = {"classic": RANK_CLASSIC, "as-written": RANK_AS_WRITTEN}
_ROB = {"optional": ROB_OPTIONAL, "mandatory": ROB_MANDATORY, "off": ROB_OFF}
_RENEGE = {"top3": RENEGE_TOP3, "five_only": RENEGE_FIVE_ONLY, "none": RENEGE_NONE}
_BONUS = {"none": BONUS_NONE, "plus10": BONUS_PLUS10, "wins_game": BONUS_WINS_GAME}


def seat_teams(players: int, team_size: object) -> list[list[int]] | None:
    """F1: the teams a new game seats (seat s in team s mod number-of-teams), or None."""
    if team_size == "none":
        return None
    fits = {2: (4, 6, 8, 10), 3: (6, 9)}
    if not isinstance(team_size, int) or players not in fits.get(team_size, ()):
        raise InvalidRules(
            f"twentyfive rule teams={team_size!r} does not fit {players} players "
            "(pairs need 4, 6, 8 or 10 players; threes need 6 or 9)"
        )
    count = players // team_size
    return [[s for s in range(players) if s % count == t] for t in range(count)]


def _config(
    players: int, rules: Mapping[str, object], teams: list[list[int]] | None, seed: int
) -> Config:
    if teams is None:
        side_of = list(range(players))
        sides = players
    else:
        side_of = [0] * players
        for t, members in enumerate(teams):
            for s in members:
                side_of[s] = t
        sides = len(teams)
    ppt = rules["points_per_trick"]
    target = rules["target"]
    assert isinstance(ppt, int) and isinstance(target, int)
    return Config(
        players=players,
        side_of=side_of,
        sides=sides,
        joker=bool(rules["joker"]),
        packets=_PACKETS[str(rules["deal_packets"])],
        ranking=_RANKING[str(rules["ranking"])],
        rob=_ROB[str(rules["rob"])],
        renege_cards=_RENEGE[str(rules["renege_cards"])],
        renege_always=rules["renege_limit"] == "always",
        points_per_trick=ppt,
        target=target,
        play_out_hand=bool(rules["play_out_hand"]),
        bonus=_BONUS[str(rules["five_trick_bonus"])],
        seed=seed,
    )


class TwentyFive(Game):
    """Twenty-Five for 2–10 players (RULES.md §2); see the module docstring for the
    position keys beyond SPEC §4 and the rule interpretations."""

    game_id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Twenty-Five"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    default_players: ClassVar[int] = 4
    OPTIONS: ClassVar[Mapping[str, Option]] = OPTIONS
    PRESETS: ClassVar[Mapping[str, Preset]] = PRESETS
    DEFAULT_PRESET: ClassVar[str] = "classic"

    def __init__(
        self, core: TwentyFiveCore, rules: dict[str, object], teams: list[list[int]] | None
    ) -> None:
        super().__init__()
        self._core = core
        self._rules = rules
        self._teams = teams

    # -- construction -----------------------------------------------------------------
    @classmethod
    def new(cls, *, players: int, rules: dict[str, object], seed: int, **kwargs: Any) -> TwentyFive:
        if kwargs:
            raise InvalidRules(f"twentyfive takes no keyword {sorted(kwargs)[0]!r}")
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 10:
            raise InvalidRules(f"twentyfive is for 2–10 players, not {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise InvalidRules(f"seed must be a whole number ≥ 0, not {seed!r}")
        resolved, _ = resolve_rules(GAME_ID, OPTIONS, PRESETS, cls.DEFAULT_PRESET, rules)
        teams = seat_teams(players, resolved["teams"])
        core = TwentyFiveCore(_config(players, resolved, teams, seed))
        core.start()
        return cls(core, resolved, teams)

    # -- state ------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._core.n

    @property
    def rules(self) -> dict[str, object]:
        return dict(self._rules)

    @property
    def seed(self) -> int:
        return self._core.cfg.seed

    @property
    def core(self) -> TwentyFiveCore:
        return self._core

    @property
    def teams(self) -> list[list[int]] | None:
        """The teams (seat lists), or None when everyone plays alone."""
        return None if self._teams is None else [list(t) for t in self._teams]

    def _current_player(self) -> int | None:
        p = self._core.to_play
        return None if p < 0 else p

    def _outcome(self) -> Outcome | None:
        core = self._core
        if core.to_play >= 0 or core.win_side < 0:
            return None
        winners = [s for s in range(core.n) if core.side_of[s] == core.win_side]
        losers = [s for s in range(core.n) if core.side_of[s] != core.win_side]
        return Outcome(winners, losers, False, "target")

    def _legal_codes(self) -> list[int]:
        return self._core.legal_moves()

    def side_of(self, seat: int) -> list[int]:
        side = self._core.side_of[seat]
        return [s for s in range(self._core.n) if self._core.side_of[s] == side]

    def _apply(self, code: int) -> None:
        self._core.apply(code)

    def _undo(self) -> None:
        self._core.undo()

    def clone(self) -> TwentyFive:
        g = TwentyFive(self._core.copy(), dict(self._rules), self.teams)
        g.history = list(self.history)
        g._forced = self._forced
        return g

    # -- positions ----------------------------------------------------------------------
    def _tricks(self) -> tuple[list[dict[str, Any]], list[int]]:
        core = self._core
        n = core.n
        out: list[dict[str, Any]] = []
        leader = (core.dealer + 1) % n
        for k, w in enumerate(core.winners):
            cards = core.plays[k * n : (k + 1) * n]
            out.append({"leader": leader, "cards": [card_str(c) for c in cards], "winner": w})
            leader = w
        return out, core.plays[len(core.winners) * n :]

    def to_json(self) -> dict[str, Any]:
        core = self._core
        tricks, trick = self._tricks()
        stock = cards_of(core.stock)
        if core.next_up >= 0:
            stock.remove(core.next_up)
            stock.insert(0, core.next_up)
        outcome = self.outcome
        robbed = None
        if core.robbed_seat >= 0:
            robbed = {"seat": core.robbed_seat, "discard": card_str(core.robbed_discard)}
        return {
            "game": GAME_ID,
            "rules": dict(self._rules),
            "dealer": core.dealer,
            "turnup": card_str(core.turnup),
            "trump": SUITS[core.trump] if core.trump >= 0 else None,
            "robbed": robbed,
            "hands": [[card_str(c) for c in cards_of(h)] for h in core.hands],
            "stock": [card_str(c) for c in stock],
            "tricks": tricks,
            "trick": [card_str(c) for c in trick],
            "leader": core.leader,
            "to_move": self.current_player,
            "scores": list(core.scores),
            "teams": self.teams,
            "outcome": None if outcome is None else outcome.to_json(),
            "seed": core.cfg.seed,
            "hand": core.hand_no,
            "joker_discard": None if core.joker_discard < 0 else card_str(core.joker_discard),
        }

    def voids(self) -> list[list[str]]:
        """F18: per seat, the suits it has shown it lacks this hand by not following a
        plain-suit lead (playing neither a non-trump card of that suit nor a trump)."""
        core = self._core
        n = core.n
        lacking = [0] * n
        leader = (core.dealer + 1) % n
        k = 0
        while k * n < len(core.plays):
            cards = core.plays[k * n : (k + 1) * n]
            lead = cards[0]
            if not core.tval[lead]:
                suit = lead & 3
                for j in range(1, len(cards)):
                    c = cards[j]
                    if not (PLAIN_MASKS[suit] >> c & 1) and not core.tval[c]:
                        lacking[(leader + j) % n] |= 1 << suit
            if k < len(core.winners):
                leader = core.winners[k]
            k += 1
        return [[SUITS[s] for s in range(4) if lacking[p] >> s & 1] for p in range(n)]

    def view(self, seat: int) -> dict[str, Any]:
        core = self._core
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < core.n:
            raise ValueError(f"there is no seat {seat!r} in {self.describe()}")
        d = self.to_json()
        del d["seed"], d["stock"]
        hands: list[Any] = []
        for s, h in enumerate(core.hands):
            if s == seat:
                hands.append(d["hands"][s])
                continue
            known = 0
            if s == core.robbed_seat:
                known |= h & (1 << core.turnup)  # F18: the robbed turn-up, while held
            if s == core.dealer and (core.joker_discard >= 0 or core.trump < 0):
                known |= h & (1 << JOKER)  # F17a: the turned-up joker went to the dealer
            hands.append({"count": h.bit_count(), "known": [card_str(c) for c in cards_of(known)]})
        d["hands"] = hands
        if core.robbed_seat >= 0 and core.robbed_seat != seat:
            d["robbed"] = {"seat": core.robbed_seat}  # F10: the discard stays secret
        if seat != core.dealer:
            d["joker_discard"] = None
        d["voids"] = self.voids()
        d["seat"] = seat
        return d

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TwentyFive:
        return _Loader(data).game()


class _Loader:
    """Parses and checks a position dict (SPEC §4); every failure is ``InvalidPosition``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.r = Reader(data, GAME_ID, _KEYS)

    def fail(self, message: str) -> InvalidPosition:
        return self.r.fail(message)

    def game(self) -> TwentyFive:
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

        core = TwentyFiveCore(_config(n, rules, teams, seed))
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
        game = TwentyFive(core, rules, teams)
        game._forced = forced
        return game

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
        fit this hand's tricks (F16) and bonus (F17)."""
        ppt = core.ppt
        target = core.target
        play_out = core.cfg.play_out_hand
        bonus = core.cfg.bonus
        sweep = -1
        if complete and len(tricks) == 5:
            for side, k in enumerate(won):
                if k == 5:
                    sweep = side
        before = [scores[s] - ppt * won[s] for s in range(len(scores))]
        tries = [before]
        if sweep >= 0 and bonus == BONUS_PLUS10:
            with_bonus = list(before)
            with_bonus[sweep] -= 10
            tries.append(with_bonus)
        problems: list[str] = []  # the first is the plain reading (no bonus)
        for start in tries:
            if min(start) < 0:
                problems.append(f"'scores' {scores} are lower than this hand's tricks give")
                continue
            if max(start) >= target:
                problems.append(
                    f"'scores' {scores}: a side had reached the target {target} before this hand's tricks"
                )
                continue
            running = list(start)
            win = -1
            at = -1
            for k, t in enumerate(tricks):
                side = core.side_of[t[2]]
                running[side] += ppt
                if win < 0 and running[side] >= target:
                    win, at = side, k
            if win >= 0 and not play_out and (at < len(tricks) - 1 or self.r.raw("trick")):
                problems.append(
                    f"the target was reached at tricks[{at}], which ends the game at once (F16); "
                    "no further card can have been played"
                )
                continue
            bonus_applies = sweep >= 0 and (play_out or win < 0)
            if bonus == BONUS_PLUS10 and bonus_applies:
                if start is before:
                    problems.append(
                        f"'scores' {scores} lack the plus10 bonus for taking all five tricks (F17)"
                    )
                    continue
                running[sweep] += 10
                if win < 0 and running[sweep] >= target:
                    win = sweep
            elif start is not before:
                continue
            if bonus == BONUS_WINS_GAME and bonus_applies and win < 0:
                win = sweep
            if complete and win < 0:
                problems.append(
                    "the hand is finished and nobody has won: the next hand would have been dealt"
                )
                continue
            return win
        raise self.fail(problems[0])
