"""The terminal picture of a table: one renderer for ``trumps play``, the online client
(``trumps connect``) and its replay, as the page has one ``board.js``.

A ``Board`` is read from one dict: a seat's view, the public view (``seat`` null: what a
spectator may know) or, in a replay of a finished game, a whole position (every hand a
list of cards).  Only what that dict holds is drawn, so a screen built from a seat's view
cannot show a card the seat may not know.  Nothing here restates a rule: counts such as
how many cards ``take`` picks up come from the view.

The parts, each a list of ``rich.text.Text`` lines: ``seat_line`` (who sits where, cards
held, known cards, trump, voids), ``centre_lines`` (scores, trumps and turn-up, the pile
or the last and current trick), ``turn_line`` (whose turn and what they must do) and
``hand_line`` (the board's own seat's hand).  ``board_lines`` puts them together.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from trumps.cards import parse_suit
from trumps.errors import InvalidRules
from trumps.games import GAMES
from trumps.games.options import resolve_rules
from trumps.tui.cardtext import (
    card_text,
    cards_text,
    hand_text,
    join,
    joker_discard_owed,
    sorted_cards,
    suit_text,
)

View = Mapping[str, Any]


@dataclass(frozen=True)
class Board:
    """What to draw: ``view`` as ``me`` sees it (None: a spectator or a replay).

    ``names`` are the seats' display names (``You`` for the human in ``trumps play``),
    ``legal`` the actions ``me`` may take now, ``pile_max`` how many of the pile's top
    cards to show (None: all) and ``pile_more`` a note added when some are left out.
    """

    view: View
    names: Sequence[str]
    me: int | None = None
    legal: Sequence[str] = ()
    pile_max: int | None = 6
    pile_more: str = ""
    to_move: int | None = field(default=None)
    over: bool = False

    @classmethod
    def of(
        cls,
        view: View,
        names: Sequence[str],
        me: int | None = None,
        legal: Sequence[str] = (),
        **kw: Any,
    ) -> Board:
        """A board whose turn and end come from the view itself."""
        to_move = view.get("to_move")
        over = view.get("outcome") is not None
        return cls(view, names, me, legal, to_move=to_move, over=over, **kw)

    @property
    def game(self) -> str:
        return str(self.view.get("game", ""))

    @property
    def players(self) -> int:
        return len(self.view.get("hands") or [])

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    def moving(self) -> int | None:
        """The seat to move, or None when no one is (between games, or over)."""
        return None if self.over else self.to_move


# ---------------------------------------------------------------- what the view says


def hand_size(view: View, seat: int) -> int:
    """How many cards ``seat`` holds, from a view or a position."""
    h = view["hands"][seat]
    return int(h["count"]) if isinstance(h, Mapping) else len(h)


def take_count(view: View) -> int | None:
    """How many cards ``take`` would pick up now for the seat to move (Svoi Kozyri; the
    game's K12 answer, carried in the view), or None when the view does not say."""
    count = view.get("take_count")
    return None if count is None else int(count)


def marked_suit(view: View, seat: int | None) -> int | None:
    """The suit ``seat``'s hand marks as trumps: its own (Svoi Kozyri), the table's
    (Twenty-Five), or None while there is none."""
    if view.get("game") == "kozyri":
        trumps = view.get("trumps") or []
        t = trumps[seat] if seat is not None and 0 <= seat < len(trumps) else None
    else:
        t = view.get("trump")
    return None if t is None else parse_suit(str(t))


def rules_label(game: str, rules: Any) -> str:
    """A table's rules in a few words: its preset's name, else ``custom: `` and the options
    that differ from the default preset."""
    cls = GAMES.get(game)
    if isinstance(rules, str):
        return rules
    if cls is None:
        return "custom"

    def resolve(r: Any) -> dict[str, object]:
        return resolve_rules(game, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, r)[0]

    try:
        resolved = resolve(dict(rules) if isinstance(rules, Mapping) and rules else None)
    except InvalidRules:
        return "custom"
    for name in cls.PRESETS:
        if resolve(name) == resolved:
            return name
    base = resolve(None)
    changed = sorted((k, v) for k, v in resolved.items() if base.get(k) != v)
    return "custom: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed)


def title_line(view: View) -> str:
    """``Svoi Kozyri · rules: seed · hand 1``."""
    game = str(view.get("game", ""))
    cls = GAMES.get(game)
    title = cls.title if cls is not None else game
    return f"{title} · rules: {rules_label(game, view.get('rules') or {})} · hand {view.get('hand', 1)}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------- the seats


def seat_line(
    b: Board, seat: int, tags: Sequence[str] = (), prefix: str = "", clock: Text | None = None
) -> Text:
    """One seat: ``▶ Bot 1 (tags) · 4 cards · trump ♦ · known 9♥ 10♦ · void ♠``, its whole
    hand after a colon when the dict shows it (a replay), then ``clock``."""
    v = b.view
    line = Text("▶ " if b.moving() == seat else "  ", style="bold yellow")
    if prefix:
        line.append(prefix, style="dim")
    line.append(b.name(seat), style="bold" if seat == b.me else "")
    if tags:
        line.append(f" ({', '.join(tags)})", style="dim")
    hands = v.get("hands") or []
    hand = hands[seat] if seat < len(hands) else None
    if seat in [int(s) for s in v.get("out") or []]:
        line.append(" · out")
    elif hand is not None:
        line.append(f" · {_plural(hand_size(v, seat), 'card')}")
    if b.game == "kozyri":
        trumps = v.get("trumps") or []
        line.append_text(join(" · trump ", suit_text(trumps[seat] if seat < len(trumps) else None)))
    if isinstance(hand, Mapping) and hand.get("known"):
        line.append_text(join(" · known ", cards_text(sorted_cards(hand["known"], v))))
    voids = v.get("voids") or []
    if seat != b.me and seat < len(voids) and voids[seat]:
        line.append_text(join(" · void ", Text("").join(suit_text(x) for x in voids[seat])))
    if isinstance(hand, list) and seat != b.me:
        line.append(": ")
        line.append_text(cards_text(sorted_cards(hand, v)) if hand else Text("—"))
    if clock is not None:
        line.append(" · ")
        line.append_text(clock)
    return line


def seat_lines(b: Board) -> list[Text]:
    """A ``seat_line`` per seat, in seat order."""
    return [seat_line(b, s) for s in range(b.players)]


# ---------------------------------------------------------------- the middle of the table


def centre_lines(b: Board) -> list[Text]:
    """Svoi Kozyri: lost hands (in a match) and the pile.  Twenty-Five: the scores, the
    trumps and turn-up, the last trick and the trick being played."""
    if not b.view:
        return [Text("Waiting for the table…", style="dim")]
    if b.game == "kozyri":
        return _kozyri_centre(b)
    return _twentyfive_centre(b)


def _kozyri_centre(b: Board) -> list[Text]:
    v = b.view
    out: list[Text] = []
    match = int((v.get("rules") or {}).get("match_losses", 1) or 1)
    losses = v.get("losses")
    if match > 1 and isinstance(losses, list):
        tally = " · ".join(f"{b.name(s)} {n}" for s, n in enumerate(losses))
        out.append(Text(f"Lost hands (a match is lost at {match}): {tally}"))
    pile = [str(c) for c in v.get("pile") or []]
    if not pile:
        out.append(Text("Pile: empty"))
        return out
    shown = pile if b.pile_max is None else pile[-b.pile_max :]
    line = Text(f"Pile ({_plural(len(pile), 'card')}, top last): ")
    if len(pile) > len(shown):
        line.append("… ")
    if len(shown) > 1:
        line.append_text(cards_text(shown[:-1]))
        line.append(" ")
    line.append_text(join("[", card_text(shown[-1]), "]"))
    if len(pile) > len(shown) and b.pile_more:
        line.append(f"   ({b.pile_more})", style="dim")
    out.append(line)
    return out


def _played(b: Board, leader: int, cards: Sequence[Any]) -> Text:
    n = max(1, b.players)
    return Text(", ").join(
        join(f"{b.name((leader + i) % n)} ", card_text(str(c))) for i, c in enumerate(cards)
    )


def _twentyfive_centre(b: Board) -> list[Text]:
    v = b.view
    out: list[Text] = []
    scores = list(v.get("scores") or [])
    teams = v.get("teams")
    if teams:
        shown = " · ".join(
            "Team "
            + "+".join(b.name(int(s)) for s in team)
            + f" {scores[i] if i < len(scores) else 0}"
            for i, team in enumerate(teams)
        )
    else:
        shown = " · ".join(f"{b.name(s)} {p}" for s, p in enumerate(scores))
    target = (v.get("rules") or {}).get("target")
    out.append(Text(f"Scores{f' (first to {target})' if target else ''}: {shown}"))
    line = join("Trumps: ", suit_text(v.get("trump")), " · turn-up ")
    if v.get("turnup"):
        line.append_text(card_text(str(v["turnup"])))
    robbed = v.get("robbed")
    if isinstance(robbed, Mapping) and robbed.get("seat") is not None:
        line.append(f" (robbed by {b.name(int(robbed['seat']))}")
        if robbed.get("discard") and robbed["seat"] == b.me:
            line.append_text(join(", you discarded ", card_text(str(robbed["discard"]))))
        line.append(")")
    if v.get("joker_discard"):
        line.append_text(
            join(" (you took the joker and discarded ", card_text(str(v["joker_discard"])), ")")
        )
    out.append(line)
    tricks = v.get("tricks") or []
    if tricks:
        last = tricks[-1]
        head = (
            f"Last trick ({len(tricks)} played this hand), won by {b.name(int(last['winner']))}: "
        )
        out.append(join(head, _played(b, int(last["leader"]), last["cards"])))
    trick = v.get("trick") or []
    if trick:
        out.append(join("Trick: ", _played(b, int(v.get("leader") or 0), trick)))
    else:
        out.append(Text("Trick: (none yet)"))
    return out


# ---------------------------------------------------------------- whose turn


def turn_line(b: Board) -> Text | None:
    """``Your turn: …`` or ``Bot 1 to move: …`` (what they must do), or None when no one
    is to move."""
    seat = b.moving()
    if seat is None or not b.view:
        return None
    mine = seat == b.me
    who = "Your turn: " if mine else f"{b.name(seat)} to move: "
    task = _kozyri_task(b, mine) if b.game == "kozyri" else _twentyfive_task(b, mine)
    line = join(who, task)
    line.stylize("bold")
    return line


def _kozyri_task(b: Board, mine: bool) -> Text:
    v = b.view
    pile = [str(c) for c in v.get("pile") or []]
    if any(t is None for t in v.get("trumps") or []):
        return Text(f"choose {'your' if mine else 'a'} trump suit.")
    if v.get("owes_second"):
        return Text("add a second card (after the beat).")
    if not pile:
        return Text("lead any card.")
    top = card_text(pile[-1])
    if not mine:
        task = join("faces ", top, ".")
    elif list(b.legal) == ["take"]:
        task = join("you cannot beat ", top, ": take.")
    elif "take" in b.legal:
        task = join("beat ", top, " or take.")
    else:
        task = join("beat ", top, ".")
    count = take_count(v)
    if count is not None:
        task.append(f" A pick-up now takes {_plural(count, 'card')}.")
    return task


def _twentyfive_task(b: Board, mine: bool) -> Text:
    v = b.view
    if joker_discard_owed(v):
        if mine:
            return Text("discard a card face down — you took the turned-up joker.")
        return Text("discard a card face down (took the turned-up joker).")
    trick = v.get("trick") or []
    task = (
        Text("lead a card.") if not trick else join("play to ", card_text(str(trick[0])), " led.")
    )
    if mine and any(a.startswith("rob ") for a in b.legal):
        task.append(" You may rob the turn-up: rob XX takes it and discards XX.")
    return task


# ---------------------------------------------------------------- the board's own hand


def hand_line(b: Board) -> Text | None:
    """``Your hand (4): ♠ Q 8   ♥ A   ♣ 6 (trumps)`` for the board's seat (None for a
    spectator or a replay)."""
    hands = b.view.get("hands") or []
    if b.me is None or b.me >= len(hands) or not isinstance(hands[b.me], list):
        return None
    hand = [str(c) for c in hands[b.me]]
    return join(f"Your hand ({len(hand)}): ", hand_text(hand, marked_suit(b.view, b.me), b.view))


def board_lines(b: Board, *, seats: bool = True, hand: bool = True) -> list[Text]:
    """The whole picture: seats, the middle of the table, whose turn, the hand."""
    lines = seat_lines(b) if seats else []
    lines += centre_lines(b)
    turn = turn_line(b)
    if turn is not None:
        lines.append(turn)
    mine = hand_line(b) if hand else None
    if mine is not None:
        lines.append(mine)
    return lines


__all__ = [
    "Board",
    "board_lines",
    "centre_lines",
    "hand_line",
    "hand_size",
    "marked_suit",
    "rules_label",
    "seat_line",
    "seat_lines",
    "take_count",
    "title_line",
    "turn_line",
]
