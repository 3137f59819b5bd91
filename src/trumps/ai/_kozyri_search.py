"""Exact alpha-beta search for the two-player Svoi Kozyri duel (compiled with mypyc).

After the deal the duel has perfect information (K19), so a position is solved by
negamax alpha-beta (principal-variation search) over the engine's fast ``KozyriCore``
with ``apply``/``undo``.  Scores are from the side to move: a win is ``WIN - plies``
(faster wins score higher, slower losses less badly), a draw 0, and a position cut off
at the search horizon gets a heuristic ``evaluate`` strictly inside ``±EVAL_MAX``.

Exactness.  A score beyond ``±WIN_MIN`` is a proof whatever the depth (heuristic
leaves can never produce one: the winner's strategy tree contains only terminals).  A
draw (or any score) is exact only when the iteration that produced it never cut a line
at the horizon nor relied on a depth-limited table entry: ``hz`` counts those events,
and a subtree whose search left ``hz`` unchanged is stored as *proven* (valid at any
depth).  Iterative deepening stops as soon as the root is proven.

A cutoff's lower bound rests on the move that cut alone, so the node gives back the
``hz`` and repetitions of the moves it refuted before that one: a fail-high is proven
when its cutting move's subtree is.

Proofs (``prove``, what ``solve`` asks for).  Only the value is wanted, so two
null-window probes deepen in turn instead of a full window: "a win within the depth?"
(window ``WIN_MIN - 1``) and "a loss?" (``-WIN_MIN``), each at its own depth (a far
cheaper one runs ahead).  Either succeeding is a proof; the value is a draw once the
first has failed proven (no win) and the second has succeeded proven (no loss).
Horizon leaves then score 0 (any non-decisive score does), lead moves that leave the
opponent few replies come first, and past the first iterations the depth goes up by
three.  A proven win's score is a fail-soft bound: the
length of a winning line found, not necessarily the shortest.

Repetitions (K17).  Inside the search a position that is already on the current path
is scored as a draw.  With the 3-fold rule this gives the true value at the root:
if the side to move can win in this "second occurrence draws" game, its winning
strategy never repeats a position, so it also wins when only the third occurrence
draws; symmetrically for a loss; and if both sides can hold the draw here, each can
hold it there too by playing, after any repetition, as it did at the first occurrence
(cycling only ever ends in a repetition draw).  The same argument shows that the value
of a position reached with a repetition-free history is the value of that position
as a fresh root, so a table entry is stored only when its subtree did not score a
repetition of a position *above* it on the path (graph-history interaction: such a
value is path-dependent).  The K16 draw rule and the ``max_plies`` cap are the
engine's own (a terminal draw); near the cap the ply count joins the table key.

Budget.  ``nodes`` counts searched positions; the clock (``time.perf_counter``) and
the node limit are checked every ``CHECK_EVERY`` nodes (the node limit exactly, so a
node-limited search is deterministic), and so is ``poll`` when given: a callable that
returns True to stop now (``interrupted``; the caller's way to honour Ctrl-C, which must
never be raised inside this compiled code).  On a stop the unfinished iteration's result
is discarded except for a root move that already proved better than the previous best.

Arithmetic.  mypyc multiplies tagged ints natively only when both operands are small
and non-negative; any other product goes through Python objects (slower, and a slow
path that aborts the process if an exception appears there).  The hot code therefore
multiplies non-negative values only and builds sort keys with shifts.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
from typing import Final

from trumps.games.kozyri._core import (
    BEAT,
    POP12,
    RUNNING,
    TAKE,
    KozyriCore,
    card_moves,
    take_count,
)

WIN: Final = 1_000_000
WIN_MIN: Final = WIN - 100_000  # |score| ≥ WIN_MIN: a proven win or loss
EVAL_MAX: Final = 50_000  # heuristic scores lie strictly inside ±EVAL_MAX
INF: Final = 10_000_000
PROVEN: Final = 1 << 20  # the table depth of a proven entry: valid at any depth
MAX_PLY: Final = 400  # the longest path searched (a horizon beyond it)
CHECK_EVERY: Final = 256
TT_CAP: Final = 1_000_000  # table entries before depth-limited ones are dropped
PROVE_STEP_FROM: Final = 6  # proof iterations deepen by 3 from this depth on
PROBE_RATIO: Final = 8  # a probe this many times cheaper than the other runs ahead
MOBILITY: Final = 100  # proof move ordering: per reply the opponent would have

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2

_NO_LIMIT: Final = 1 << 62


def _suit_masks() -> list[int]:
    out: list[int] = []
    for s in range(4):
        m = 0
        for r in range(4, 13):
            m |= 1 << (r * 4 + s)
        out.append(m)
    return out


SUIT_MASK: Final[list[int]] = _suit_masks()


def popcount(x: int) -> int:
    """The cards in a hand (a mask of pack cards, bits 16–51)."""
    return POP12[(x >> 16) & 4095] + POP12[(x >> 28) & 4095] + POP12[x >> 40]


def to_tt(v: int, ply: int) -> int:
    """A score relative to the node (mate distances counted from it)."""
    if v >= WIN_MIN:
        return v + ply
    if v <= -WIN_MIN:
        return v - ply
    return v


def from_tt(v: int, ply: int) -> int:
    if v >= WIN_MIN:
        return v - ply
    if v <= -WIN_MIN:
        return v + ply
    return v


def next_depth(depth: int) -> int:
    """Proofs need deep iterations and each costs about the sum of those before it:
    past the first few, the depth goes up by three."""
    return depth + 1 if depth < PROVE_STEP_FROM else depth + 3


class Weights:
    """Evaluation weights (per card unless said otherwise)."""

    def __init__(
        self,
        *,
        card: int = 100,
        unbeatable: int = 45,
        trump: int = 12,
        high_trump: int = 8,
        pickup: int = 70,
        tempo: int = 25,
    ) -> None:
        self.card = card  # each card fewer in hand than the opponent
        self.unbeatable = unbeatable  # a card the opponent cannot beat (forces a pick-up)
        self.trump = trump  # a card of one's own trump suit (a beater)
        self.high_trump = high_trump  # … per rank above the ten
        self.pickup = pickup  # each card a forced pick-up would take now
        self.tempo = tempo  # to lead (or owe the second card) rather than to answer


class SearchResult:
    """What a search found: the root's best move and score, and how it got there."""

    def __init__(self) -> None:
        self.best: int = -1
        self.score: int = 0
        self.exact: bool = False
        self.depth: int = 0  # the deepest completed iteration
        self.nodes: int = 0
        self.seconds: float = 0.0
        self.stopped: bool = False  # a limit ended the search
        self.interrupted: bool = False  # ``poll`` ended it
        self.pv: list[int] = []
        self.scores: dict[int, int] = {}  # root move → score (bounds for non-best moves)


class KozyriSearch:
    """Iterative-deepening PVS over ``core`` (two players, in play, not over).

    ``time_limit`` (seconds) and ``node_limit`` ≤ 0 mean no limit; ``max_depth`` caps
    the iterations (at most ``MAX_PLY``).  The core is restored when ``run`` returns.
    """

    def __init__(
        self,
        core: KozyriCore,
        time_limit: float,
        node_limit: int,
        max_depth: int,
        weights: Weights,
    ) -> None:
        self.core = core
        self.w = weights
        self.time_limit = time_limit
        self.node_limit = node_limit if node_limit > 0 else _NO_LIMIT
        self.max_depth = max_depth if 0 < max_depth < MAX_PLY else MAX_PLY
        self.start = 0.0
        self.deadline = 0.0
        self.nodes = 0
        self.next_check = 0
        self.stop = False
        self.poll: Callable[[], bool] | None = None  # see the module doc
        self.prove = False  # prove the value only (see ``run``)
        self.interrupted = False
        self.hz = 0  # horizon cuts and depth-limited table hits (see the module doc)
        self.rep_low = INF  # lowest path index a subtree scored a repetition of
        self.tt: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
        self.path: dict[tuple[int, ...], int] = {}
        self.hist: list[int] = [0] * 160
        self.last_scores: dict[int, int] = {}
        # K17 cap: values near it depend on the ply count, which then joins the key.
        self.ply_key = core.max_plies - core.ply <= MAX_PLY + 2
        # The searched position: the core's, played here by ``play``/``unplay`` (two
        # players: hands h0 and h1, the pile and ``pkey`` as in the core).
        self.h0: int = core.hands[0]
        self.h1: int = core.hands[1]
        self.t0: int = core.trumps[0]
        self.t1: int = core.trumps[1]
        self.pile: list[int] = list(core.pile)
        self.pkey: int = core.pkey
        self.tm: int = core.tm
        self.owes: bool = core.owes
        self.ply: int = core.ply
        self.vol: bool = core.vol
        self.rep_limit: int = core.rep_limit
        self.max_plies: int = core.max_plies
        # K17: the positions before the root that one more occurrence draws.
        self.history: dict[tuple[int, ...], int] = {}
        for k, count in core.rep.items():
            if core.rep_limit and count + 1 >= core.rep_limit:
                self.history[k] = count

    # -- the position ---------------------------------------------------------------
    def key(self) -> tuple[int, ...]:
        """K17: the core's key of the searched position."""
        return (self.h0, self.pkey, (self.tm << 1) | (1 if self.owes else 0))

    def legal(self) -> list[int]:
        """The core's ``legal_moves`` for the searched position (K7–K11)."""
        p = self.tm
        pile = self.pile
        top = pile[-1] if pile else -1
        if p == 0:
            return card_moves(self.h0, top, self.t0, self.owes, self.vol)
        return card_moves(self.h1, top, self.t1, self.owes, self.vol)

    def play(self, m: int) -> None:
        """The core's move ``m`` (K8–K14); ``unplay`` takes it back."""
        p = self.tm
        pile = self.pile
        if m == TAKE:
            # K12: how many the picker takes; K13: the other player faces the new top.
            k = take_count(pile[-1], self.t0 if p == 0 else self.t1, len(pile))
            taken = 0
            for _ in range(k):
                taken |= 1 << pile.pop()
            self.pkey >>= 6 * k
            if p == 0:
                self.h0 |= taken
            else:
                self.h1 |= taken
            self.tm = 1 - p
            self.owes = False
        else:
            bit = 1 << m
            if p == 0:
                h = self.h0 ^ bit
                self.h0 = h
            else:
                h = self.h1 ^ bit
                self.h1 = h
            beating = not self.owes and len(pile) > 0
            pile.append(m)
            self.pkey = (self.pkey << 6) | m
            if beating and h != 0:
                self.owes = True  # K10: a beat owes a second card
            else:
                self.owes = False  # K14: out, however the last card went
                self.tm = 1 - p
        self.ply += 1

    def unplay(self, m: int, p: int, pkey: int, owes: bool) -> None:
        """Take back ``m``, played by ``p`` from ``pkey`` and ``owes``."""
        pile = self.pile
        if m == TAKE:
            k = (pkey.bit_length() - 1) // 6 - len(pile)
            taken = 0
            for i in range(k - 1, -1, -1):
                c = (pkey >> (6 * i)) & 63
                pile.append(c)
                taken |= 1 << c
            if p == 0:
                self.h0 ^= taken
            else:
                self.h1 ^= taken
        else:
            if p == 0:
                self.h0 |= 1 << m
            else:
                self.h1 |= 1 << m
            pile.pop()
        self.pkey = pkey
        self.owes = owes
        self.tm = p
        self.ply -= 1

    # -- driver ---------------------------------------------------------------------
    def run(self) -> SearchResult:
        res = SearchResult()
        self.start = perf_counter()
        self.deadline = self.start + self.time_limit if self.time_limit > 0 else 1e300
        self.next_check = min(CHECK_EVERY, self.node_limit)
        moves = self.legal()
        res.best = self.order(moves, -1, self.tm)[0]
        root_key = self.key()
        if self.prove:
            self.prove_value(res, root_key)
        depth = 0 if self.prove else 1
        while 0 < depth <= self.max_depth:
            self.new_iteration()
            hz0 = self.hz
            best, score, fallback = self.root(root_key, depth, res.best)
            if self.stop:
                if fallback >= 0:
                    res.best = fallback
                break
            res.best = best
            res.score = score
            res.depth = depth
            res.scores = self.last_scores
            if score >= WIN_MIN or score <= -WIN_MIN or self.hz == hz0:
                res.exact = True
                break
            depth += 1
        res.stopped = self.stop
        res.interrupted = self.interrupted
        res.nodes = self.nodes
        res.pv = self.principal_variation(res.best)
        res.seconds = perf_counter() - self.start
        return res

    def new_iteration(self) -> None:
        if len(self.tt) >= TT_CAP:
            self.prune_tt()
        for i in range(len(self.hist)):
            self.hist[i] >>= 2

    def prove_value(self, res: SearchResult, root_key: tuple[int, ...]) -> None:
        """Iterative deepening of two null-window probes, each at its own depth: a win
        (window ``WIN_MIN - 1``) and a loss (``-WIN_MIN``); a draw once both fail
        without a horizon cut.  They take turns, but a probe whose last iteration
        cost ``PROBE_RATIO`` times fewer nodes than the other's goes on alone (one
        side's proof is often far cheaper).  A win's or a loss's score is a
        bound (fail-soft): a winning line's length, not the shortest."""
        not_win = False
        not_loss = False
        win_depth = 1
        loss_depth = 1
        win_cost = 0
        loss_cost = 0
        while not (not_win and not_loss):
            if not_win or not_loss:
                win_next = not not_win
            elif win_cost * PROBE_RATIO <= loss_cost:
                win_next = True  # far cheaper: let it run ahead
            elif loss_cost * PROBE_RATIO <= win_cost:
                win_next = False
            else:
                win_next = win_depth <= loss_depth
            depth = win_depth if win_next else loss_depth
            if depth > self.max_depth:
                break
            self.new_iteration()
            n0 = self.nodes
            if win_next:
                best, score, proven = self.probe(root_key, depth, WIN_MIN - 1, res.best)
                if self.stop:
                    break
                if score >= WIN_MIN:
                    res.best = best
                    res.score = score
                    res.depth = depth
                    res.exact = True
                    return
                not_win = proven
                win_cost = self.nodes - n0
                win_depth = next_depth(depth)
            else:
                best, score, proven = self.probe(root_key, depth, -WIN_MIN, res.best)
                if self.stop:
                    break
                res.best = best  # the best guess: a move not (yet) shown to lose
                res.depth = depth
                if score <= -WIN_MIN:
                    res.score = score
                    res.exact = True
                    return
                not_loss = proven
                loss_cost = self.nodes - n0
                loss_depth = next_depth(depth)
        if not_win and not_loss:
            res.score = 0
            res.exact = True

    def probe(
        self, key: tuple[int, ...], depth: int, alpha: int, prev: int
    ) -> tuple[int, int, bool]:
        """A root search with the window (alpha, alpha + 1): (best move, fail-soft
        score, whether that bound is proven)."""
        p = self.tm
        pkey = self.pkey
        owes = self.owes
        moves = self.order(self.legal(), prev, p)
        best = -INF
        best_move = moves[0]
        self.path[key] = 0
        hz0 = self.hz
        proven = False
        for i in range(len(moves)):
            m = moves[i]
            hzc = self.hz
            self.play(m)
            v = self.after(p, depth - 1, alpha, alpha + 1, 1)
            self.unplay(m, p, pkey, owes)
            if self.stop:
                break
            if v > best:
                best = v
                best_move = m
            if v > alpha:
                proven = self.hz == hzc
                break
        else:
            proven = self.hz == hz0
        del self.path[key]
        return best_move, best, proven

    def root(self, key: tuple[int, ...], depth: int, prev: int) -> tuple[int, int, int]:
        """One iteration: (best move, score, a move proved better than ``prev`` before
        a stop, or -1)."""
        p = self.tm
        pkey = self.pkey
        owes = self.owes
        moves = self.order(self.legal(), prev, p)
        alpha = -INF
        best = moves[0]
        better = -1
        self.path[key] = 0
        self.rep_low = INF
        scores: dict[int, int] = {}
        for i in range(len(moves)):
            m = moves[i]
            self.play(m)
            if i == 0:
                v = self.after(p, depth - 1, -INF, INF, 1)
            else:
                v = self.after(p, depth - 1, alpha, alpha + 1, 1)
                if v > alpha and not self.stop:
                    better = m  # it beats the best so far, whatever the re-search says
                    v = self.after(p, depth - 1, alpha, INF, 1)
            self.unplay(m, p, pkey, owes)
            if self.stop:
                break
            scores[m] = v
            if i == 0 or v > alpha:
                alpha = v
                best = m
        del self.path[key]
        self.last_scores = scores
        return best, alpha, better

    def prune_tt(self) -> None:
        kept: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
        for k, e in self.tt.items():
            if e[0] >= PROVEN:
                kept[k] = e
        self.tt = kept if len(kept) < TT_CAP else {}

    def check(self) -> None:
        if self.nodes >= self.node_limit or perf_counter() >= self.deadline:
            self.stop = True
        elif self.poll is not None and self.poll():
            self.stop = True
            self.interrupted = True
        self.next_check = min(self.nodes + CHECK_EVERY, self.node_limit)

    # -- the search -----------------------------------------------------------------
    def after(self, p: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score for ``p`` of the position just reached by ``p``'s move."""
        if (self.h0 if p == 0 else self.h1) == 0:
            # K14/K16: p is out and the other player L holds cards: L loses, unless
            # L's one card beats the top card (the draw rule).
            h = self.h1 if p == 0 else self.h0
            if (
                h & (h - 1) == 0
                and h & BEAT[(self.pile[-1] << 2) | (self.t1 if p == 0 else self.t0)]
            ):
                return 0
            return WIN - ply
        key = self.key()
        r = self.path.get(key, -1)
        if r >= 0:
            # K17: a repetition on the path scores a draw (see the module doc).
            self.rep_low = min(self.rep_low, r)
            return 0
        if (self.history and key in self.history) or self.rep_limit == 1:
            return 0  # K17: a position seen before the root (or any, at 1), now drawn
        if self.ply >= self.max_plies:
            return 0  # K17 safety cap
        if self.tm == p:  # K10: p owes the second card
            return self.node(key, depth, alpha, beta, ply)
        return -self.node(key, depth, -beta, -alpha, ply)

    def node(self, key: tuple[int, ...], depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        if self.stop:
            return 0
        tkey = (*key, self.ply) if self.ply_key else key
        entry = self.tt.get(tkey)
        ttmove = -1
        if entry is not None:
            e_depth, e_flag, e_val, e_move = entry
            ttmove = e_move
            if e_depth >= depth and e_depth >= 0:
                v = from_tt(e_val, ply)
                if (
                    e_flag == EXACT
                    or (e_flag == LOWER and v >= beta)
                    or (e_flag == UPPER and v <= alpha)
                ):
                    if e_depth < PROVEN:
                        self.hz += 1
                    return v
        if depth <= 0 or ply >= MAX_PLY:
            self.hz += 1
            return 0 if self.prove else self.evaluate()
        p = self.tm
        pkey = self.pkey
        owes = self.owes
        moves = self.legal()
        if len(moves) == 1:
            child_depth = depth  # a forced move costs no depth
        else:
            child_depth = depth - 1
            if len(moves) > 2:
                moves = self.order(moves, ttmove, p)
            elif moves[1] == ttmove:
                moves = [moves[1], moves[0]]
        self.path[key] = ply
        hz0 = self.hz
        saved_low = self.rep_low
        low = INF
        best = -INF
        best_move = moves[0]
        a = alpha
        for i in range(len(moves)):
            m = moves[i]
            hzc = self.hz
            self.rep_low = INF
            self.play(m)
            if i == 0:
                v = self.after(p, child_depth, a, beta, ply + 1)
            else:
                v = self.after(p, child_depth, a, a + 1, ply + 1)
                if a < v < beta and not self.stop:
                    v = self.after(p, child_depth, a, beta, ply + 1)
            self.unplay(m, p, pkey, owes)
            if self.stop:
                break
            if v > best:
                best = v
                best_move = m
                if v > a:
                    a = v
                    if a >= beta:
                        # A cutoff's lower bound rests on this move alone: the horizon
                        # cuts and repetitions of the moves refuted before it do not count.
                        self.hz = hz0 + (self.hz - hzc)
                        low = self.rep_low
                        self.hist[p * 80 + (m & 63)] += depth * depth
                        break
            low = min(low, self.rep_low)
        del self.path[key]
        self.rep_low = min(low, saved_low)
        if self.stop:
            return 0
        if low >= ply:  # path-independent (see the module doc): worth keeping
            if best <= alpha:
                flag = UPPER
            elif best >= beta:
                flag = LOWER
            else:
                flag = EXACT
            d = PROVEN if self.hz == hz0 else depth
            if d == PROVEN or len(self.tt) < TT_CAP or tkey in self.tt:
                self.tt[tkey] = (d, flag, to_tt(best, ply), best_move)
        elif entry is None and len(self.tt) < TT_CAP:
            self.tt[tkey] = (-1, EXACT, 0, best_move)  # the move only, for ordering
        return best

    # -- heuristics -----------------------------------------------------------------
    def order(self, moves: list[int], first: int, p: int) -> list[int]:
        """Moves best-first, sorted in place: ``first`` (the table's move), then by
        rules of thumb and the history heuristic; a pick-up last."""
        if len(moves) <= 1:
            return moves
        tp = self.t0 if p == 0 else self.t1
        tq = self.t1 if p == 0 else self.t0
        hq = self.h1 if p == 0 else self.h0
        facing = len(self.pile) > 0 and not self.owes
        prove = self.prove
        for i in range(len(moves)):
            m = moves[i]
            if m == first:
                s = 1 << 30
            elif m == TAKE:
                s = -(1 << 30)
            else:
                r = m >> 2
                own = (m & 3) == tp
                if facing:
                    s = -(r << 2)  # K9: beat with the cheapest card that does
                    if own:
                        s -= 100 + 8 * r  # … keeping own trumps, the high ones most
                else:
                    s = -(3 * r)  # shed low cards first
                    if own:
                        s -= 200 + 8 * r
                    bq = hq & BEAT[(m << 2) | tq]
                    if not bq:
                        s += 600  # the opponent cannot beat it: K11 pick-up
                    elif prove:
                        s -= MOBILITY * popcount(bq)  # few replies: small proof trees
                s += self.hist[p * 80 + m]
            moves[i] = (s << 7) | m  # = s * 128 + m (m < 128), without a product
        moves.sort(reverse=True)
        for i in range(len(moves)):
            moves[i] &= 127
        return moves

    def evaluate(self) -> int:
        """A heuristic score for the side to move, strictly inside ±EVAL_MAX."""
        w = self.w
        p = self.tm
        hp = self.h0 if p == 0 else self.h1
        hq = self.h1 if p == 0 else self.h0
        tp = self.t0 if p == 0 else self.t1
        tq = self.t1 if p == 0 else self.t0
        score = w.card * popcount(hq) - w.card * popcount(hp)
        # Cards the other side cannot beat force pick-ups (K9, K11).
        up = 0
        x = hp
        while x:
            low = x & -x
            c = low.bit_length() - 1
            if not hq & BEAT[(c << 2) | tq]:
                up += 1
            x ^= low
        uq = 0
        x = hq
        while x:
            low = x & -x
            c = low.bit_length() - 1
            if not hp & BEAT[(c << 2) | tp]:
                uq += 1
            x ^= low
        score += w.unbeatable * up - w.unbeatable * uq
        score += self.trump_strength(hp, tp) - self.trump_strength(hq, tq)
        pile = self.pile
        if pile and not self.owes:
            top = pile[-1]
            if not hp & BEAT[(top << 2) | tp]:
                score -= w.pickup * take_count(top, tp, len(pile))  # K12
        else:
            score += w.tempo
        if score >= EVAL_MAX:
            return EVAL_MAX - 1
        if score <= -EVAL_MAX:
            return -EVAL_MAX + 1
        return score

    def trump_strength(self, hand: int, trump: int) -> int:
        w = self.w
        x = hand & SUIT_MASK[trump]
        s = 0
        while x:
            low = x & -x
            r = (low.bit_length() - 1) >> 2
            s += w.trump + (w.high_trump * (r - 8) if r > 8 else 0)
            x ^= low
        return s

    def principal_variation(self, best: int) -> list[int]:
        """The best move and the table's replies after it (stops at a repetition, the
        end, or a missing entry); the core is restored."""
        core = self.core
        pv: list[int] = []
        if best < 0:
            return pv
        seen: set[tuple[int, ...]] = {core.key()}
        m = best
        while m >= 0 and len(pv) < 60:
            if m not in core.legal_moves():
                break
            core.apply(m)
            pv.append(m)
            if core.result != RUNNING or core.choosing:
                break
            key = core.key()
            if key in seen:
                break
            seen.add(key)
            entry = self.tt.get((*key, core.ply) if self.ply_key else key)
            m = entry[3] if entry is not None else -1
        for _ in range(len(pv)):
            core.undo()
        return pv
