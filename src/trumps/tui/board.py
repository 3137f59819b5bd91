"""The terminal picture of a table: one renderer for ``trumps play``, the online client
(``trumps connect``) and its replay, as the page has one ``board.js``.

A ``Board`` is read from one view (``trumps.games.viewtypes``): a seat's view, the public
view (``seat`` null: what a spectator may know) or, in a replay of a finished game, the
public view with every hand shown (``replay_view``: the game's ``open_view``).  Only what that view holds is drawn, so a screen built from a seat's view
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
from trumps.games import GAMES, from_json
from trumps.games.options import resolve_rules
from trumps.games.viewtypes import KozyriView, TwentyFiveView, View
from trumps.tui.cardtext import (
    card_text,
    cards_text,
    hand_text,
    join,
    joker_discard_owed,
    sorted_cards,
    suit_text,
)


@dataclass(frozen=True)
class Board:
    """What to draw: ``view`` as ``me`` sees it (None: a spectator or a replay; ``view``
    None: nothing dealt yet to draw).

    ``names`` are the seats' display names (``You`` for the human in ``trumps play``),
    ``legal`` the actions ``me`` may take now, ``pile_max`` how many of the pile's top
    cards to show (None: all) and ``pile_more`` a note added when some are left out.
    """

    view: View | None
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
        over = view["outcome"] is not None
        return cls(view, names, me, legal, to_move=view["to_move"], over=over, **kw)

    @property
    def game(self) -> str:
        return "" if self.view is None else self.view["game"]

    @property
    def players(self) -> int:
        return 0 if self.view is None else len(self.view["hands"])

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    def moving(self) -> int | None:
        """The seat to move, or None when no one is (between games, or over)."""
        return None if self.over else self.to_move


# ---------------------------------------------------------------- what the view says


def replay_view(position: Mapping[str, Any]) -> View:
    """A finished game's stored position as a replay draws it: the game's view for a reader
    who may see everything (``Game.open_view``), since a replay hides nothing."""
    return from_json(position).open_view()


def hand_size(view: View, seat: int) -> int:
    """How many cards ``seat`` holds."""
    h = view["hands"][seat]
    return h["count"] if isinstance(h, dict) else len(h)


def take_count(view: View) -> int | None:
    """How many cards ``take`` would pick up now for the seat to move (Svoi Kozyri; the
    game's K12 answer, carried in the view), or None when there is no pick-up."""
    return view["take_count"] if view["game"] == "kozyri" else None


def marked_suit(view: View, seat: int | None) -> int | None:
    """The suit ``seat``'s hand marks as trumps: its own (Svoi Kozyri), the table's
    (Twenty-Five), or None while there is none."""
    if view["game"] == "kozyri":
        trumps = view["trumps"]
        t = trumps[seat] if seat is not None and 0 <= seat < len(trumps) else None
    else:
        t = view["trump"]
    return None if t is None else parse_suit(t)


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


def title_line(game: str, rules: Any, hand: int = 1) -> str:
    """``Svoi Kozyri · rules: seed · hand 1``."""
    cls = GAMES.get(game)
    title = cls.title if cls is not None else game
    return f"{title} · rules: {rules_label(game, rules or {})} · hand {hand}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------- the seats


def seat_line(
    b: Board, seat: int, tags: Sequence[str] = (), prefix: str = "", clock: Text | None = None
) -> Text:
    """One seat: ``▶ Bot 1 (tags) · 4 cards · trump ♦ · known 9♥ 10♦ · void ♠``, its whole
    hand after a colon when the view shows it (a replay), then ``clock``."""
    v = b.view
    line = Text("▶ " if b.moving() == seat else "  ", style="bold yellow")
    if prefix:
        line.append(prefix, style="dim")
    line.append(b.name(seat), style="bold" if seat == b.me else "")
    if tags:
        line.append(f" ({', '.join(tags)})", style="dim")
    if v is None:
        return line
    hand = v["hands"][seat] if seat < len(v["hands"]) else None
    if v["game"] == "kozyri" and seat in v["out"]:
        line.append(" · out")
    elif hand is not None:
        line.append(f" · {_plural(hand_size(v, seat), 'card')}")
    if v["game"] == "kozyri":
        trumps = v["trumps"]
        line.append_text(join(" · trump ", suit_text(trumps[seat] if seat < len(trumps) else None)))
    if isinstance(hand, dict) and hand["known"]:
        line.append_text(join(" · known ", cards_text(sorted_cards(hand["known"], v))))
    voids = v["voids"] if v["game"] == "twentyfive" else []
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
    if b.view is None:
        return [Text("Waiting for the table…", style="dim")]
    if b.view["game"] == "kozyri":
        return _kozyri_centre(b, b.view)
    return _twentyfive_centre(b, b.view)


def _kozyri_centre(b: Board, v: KozyriView) -> list[Text]:
    out: list[Text] = []
    match = int(v["rules"].get("match_losses", 1) or 1)
    if match > 1:
        tally = " · ".join(f"{b.name(s)} {n}" for s, n in enumerate(v["losses"]))
        out.append(Text(f"Lost hands (a match is lost at {match}): {tally}"))
    pile = v["pile"]
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


def _twentyfive_centre(b: Board, v: TwentyFiveView) -> list[Text]:
    out: list[Text] = []
    scores = v["scores"]
    teams = v["teams"]
    if teams:
        shown = " · ".join(
            "Team " + "+".join(b.name(s) for s in team) + f" {scores[i] if i < len(scores) else 0}"
            for i, team in enumerate(teams)
        )
    else:
        shown = " · ".join(f"{b.name(s)} {p}" for s, p in enumerate(scores))
    target = v["rules"].get("target")
    out.append(Text(f"Scores{f' (first to {target})' if target else ''}: {shown}"))
    line = join("Trumps: ", suit_text(v["trump"]), " · turn-up ")
    if v["turnup"]:
        line.append_text(card_text(v["turnup"]))
    robbed = v["robbed"]
    if robbed is not None and "seat" in robbed:
        line.append(f" (robbed by {b.name(robbed['seat'])}")
        if "discard" in robbed and robbed["seat"] == b.me:
            line.append_text(join(", you discarded ", card_text(robbed["discard"])))
        elif "discard" in robbed:  # a replay: every card is shown
            line.append_text(join(", who discarded ", card_text(robbed["discard"])))
        line.append(")")
    if v["joker_discard"]:  # the dealer's own view, or a replay
        took = "you took" if b.me is not None and b.me == v["dealer"] else "the dealer took"
        line.append_text(
            join(f" ({took} the joker and discarded ", card_text(v["joker_discard"]), ")")
        )
    out.append(line)
    tricks = v["tricks"]
    if tricks:
        last = tricks[-1]
        head = f"Last trick ({len(tricks)} played this hand), won by {b.name(last['winner'])}: "
        out.append(join(head, _played(b, last["leader"], last["cards"])))
    trick = v["trick"]
    if trick:
        out.append(join("Trick: ", _played(b, v["leader"] or 0, trick)))
    else:
        out.append(Text("Trick: (none yet)"))
    return out


# ---------------------------------------------------------------- whose turn


def turn_line(b: Board) -> Text | None:
    """``Your turn: …`` or ``Bot 1 to move: …`` (what they must do), or None when no one
    is to move."""
    seat, v = b.moving(), b.view
    if seat is None or v is None:
        return None
    mine = seat == b.me
    who = "Your turn: " if mine else f"{b.name(seat)} to move: "
    task = _kozyri_task(b, v, mine) if v["game"] == "kozyri" else _twentyfive_task(b, v, mine)
    line = join(who, task)
    line.stylize("bold")
    return line


def _kozyri_task(b: Board, v: KozyriView, mine: bool) -> Text:
    pile = v["pile"]
    if None in v["trumps"]:
        return Text(f"choose {'your' if mine else 'a'} trump suit.")
    if v["owes_second"]:
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


def _twentyfive_task(b: Board, v: TwentyFiveView, mine: bool) -> Text:
    if joker_discard_owed(v):
        if mine:
            return Text("discard a card face down — you took the turned-up joker.")
        return Text("discard a card face down (took the turned-up joker).")
    trick = v["trick"]
    task = Text("lead a card.") if not trick else join("play to ", card_text(trick[0]), " led.")
    if mine and any(a.startswith("rob ") for a in b.legal):
        task.append(" You may rob the turn-up: rob XX takes it and discards XX.")
    return task


# ---------------------------------------------------------------- the board's own hand


def hand_line(b: Board) -> Text | None:
    """``Your hand (4): ♠ Q 8   ♥ A   ♣ 6 (trumps)`` for the board's seat (None for a
    spectator or a replay)."""
    v = b.view
    if v is None or b.me is None or b.me >= len(v["hands"]):
        return None
    hand = v["hands"][b.me]
    if isinstance(hand, dict):
        return None
    return join(f"Your hand ({len(hand)}): ", hand_text(hand, marked_suit(v, b.me), v))


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
    "replay_view",
    "rules_label",
    "seat_line",
    "seat_lines",
    "take_count",
    "title_line",
    "turn_line",
]
