"""What the terminal shows: pure functions from a seat's view to text.

Only the human's own view (SPEC §6) is ever rendered, so the screen cannot show a card
the human may not know.  ``render`` returns a styled ``rich.text.Text`` (its ``.plain``
is the same text without colour); the ``Legal:`` line is always plain and lists the
canonical action strings separated by spaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from trumps.ai.simple import TrickRanker, hand_size, kozyri_pickup_count, kozyri_trump_of
from trumps.cards import JOKER, RED_SUITS, SUIT_SYMBOLS, parse_card, parse_suit, rank_of
from trumps.cards import suit_of as _suit_of
from trumps.games import GAMES
from trumps.games.base import resolve_rules

RED = "red"


def seat_names(players: int, human: int) -> list[str]:
    """``You`` for the human's seat and ``Bot 1``, ``Bot 2`` … for the others in seat order."""
    names: list[str] = []
    bot = 0
    for s in range(players):
        if s == human:
            names.append("You")
        else:
            bot += 1
            names.append(f"Bot {bot}")
    return names


def preset_name(game_id: str, rules: dict[str, Any]) -> str:
    """The name of the preset whose options are exactly ``rules``, else ``custom``."""
    cls = GAMES[game_id]
    for name in cls.PRESETS:
        resolved, _ = resolve_rules(game_id, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, name)
        if resolved == rules:
            return name
    return "custom"


def card_text(code: str | int) -> Text:
    """A card as ``10♥`` (red suits red)."""
    c = parse_card(code) if isinstance(code, str) else code
    if c == JOKER:
        return Text("Joker", style="bold magenta")
    rank = "23456789TJQKA"[rank_of(c)]
    label = ("10" if rank == "T" else rank) + SUIT_SYMBOLS[_suit_of(c)]
    return Text(label, style=RED if _suit_of(c) in RED_SUITS else "")


def suit_text(suit: str | int | None) -> Text:
    """A suit symbol (red suits red); ``–`` for none."""
    if suit is None:
        return Text("–")
    s = parse_suit(suit) if isinstance(suit, str) else suit
    return Text(SUIT_SYMBOLS[s], style=RED if s in RED_SUITS else "")


def cards_text(codes: Sequence[str | int], sep: str = " ") -> Text:
    return Text(sep).join(card_text(c) for c in codes)


def hand_text(codes: Sequence[str], marked_suit: int | None = None) -> Text:
    """A hand grouped by suit (♠ ♥ ♦ ♣), high cards first: ``♠ A K 9  ♥ Q 6``."""
    cards = [parse_card(c) for c in codes]
    out = Text()
    groups: list[Text] = []
    jokers = [c for c in cards if c == JOKER]
    for s in range(4):
        in_suit = sorted((c for c in cards if c != JOKER and _suit_of(c) == s), reverse=True)
        if not in_suit:
            continue
        style = RED if s in RED_SUITS else ""
        g = Text(SUIT_SYMBOLS[s], style=style + " bold" if style else "bold")
        for c in in_suit:
            rank = "23456789TJQKA"[rank_of(c)]
            g.append(" " + ("10" if rank == "T" else rank), style=style)
        if s == marked_suit:
            g.append(" (trumps)", style="dim")
        groups.append(g)
    if jokers:
        groups.append(Text("Joker", style="bold magenta"))
    out.append_text(Text("   ").join(groups) if groups else Text("(no cards)"))
    return out


def _line(*parts: str | Text) -> Text:
    t = Text()
    for p in parts:
        if isinstance(p, Text):
            t.append_text(p)
        else:
            t.append(p)
    return t


def legal_line(legal: Sequence[str]) -> Text:
    """``Legal: 6C QS take`` — plain, canonical strings separated by spaces."""
    return Text("Legal: " + " ".join(legal))


def render(view: dict[str, Any], legal: Sequence[str], names: Sequence[str]) -> Text:
    """The screen for the seat whose ``view`` this is, when it is that seat's turn."""
    game_id = str(view["game"])
    lines: list[Text] = [_header(view)]
    if game_id == "kozyri":
        lines += _kozyri_lines(view, names)
    else:
        lines += _twentyfive_lines(view, legal, names)
    lines.append(legal_line(legal))
    return Text("\n").join(lines)


def render_plain(view: dict[str, Any], legal: Sequence[str], names: Sequence[str]) -> str:
    """``render`` without styles."""
    return render(view, legal, names).plain


def _header(view: dict[str, Any]) -> Text:
    game_id = str(view["game"])
    title = GAMES[game_id].title
    preset = preset_name(game_id, dict(view.get("rules", {})))
    head = f"── {title} · rules: {preset} · hand {view.get('hand', 1)} "
    return Text(head + "─" * max(3, 60 - len(head)), style="bold cyan")


# ---------------------------------------------------------------------------------------
# Svoi Kozyri


def _kozyri_lines(view: dict[str, Any], names: Sequence[str]) -> list[Text]:
    seat = int(view["seat"])
    n = len(view["hands"])
    rules = view.get("rules", {})
    out: list[Text] = []
    losses = view.get("losses")
    match = int(rules.get("match_losses", 1))
    if match > 1:
        if isinstance(losses, list) and len(losses) == n:
            tally = " · ".join(f"{names[s]} {losses[s]}" for s in range(n))
            out.append(Text(f"Losses (a match is lost at {match}): {tally}"))
        else:
            out.append(Text(f"A match is lost at {match} lost hands."))
    trumps = Text("Trumps: ")
    trumps.append_text(
        Text(" · ").join(_line(f"{names[s]} ", suit_text(view["trumps"][s])) for s in range(n))
    )
    out.append(trumps)
    gone = [int(s) for s in view.get("out", [])]
    for s in range(n):
        if s == seat:
            continue
        h = view["hands"][s]
        if s in gone:
            out.append(Text(f"{names[s]}: out"))
            continue
        t = Text(f"{names[s]}: {hand_size(view, s)} cards")
        known: list[str] = [str(c) for c in h["known"]] if isinstance(h, dict) else []
        if known:
            t.append(" (known: ")
            known.sort(key=parse_card)
            t.append_text(cards_text(known))
            t.append(")")
        out.append(t)
    pile = list(view["pile"])
    if not pile:
        out.append(Text("Pile: empty"))
    else:
        shown = pile[-6:]
        t = Text(f"Pile ({len(pile)} card{'s' if len(pile) != 1 else ''}, top last): ")
        if len(pile) > len(shown):
            t.append("… ")
        t.append_text(cards_text(shown[:-1]))
        if len(shown) > 1:
            t.append(" ")
        t.append("[")
        t.append_text(card_text(shown[-1]))
        t.append("]")
        out.append(t)
    to_move = view.get("to_move")
    mine = kozyri_trump_of(view, seat)
    if to_move == seat:
        if legal_is_trump_choice(view):
            out.append(Text("Your turn: choose your trump suit (K3).", style="bold"))
        elif view.get("owes_second"):
            out.append(Text("Your turn: you beat — now play a second card (K10).", style="bold"))
        elif not pile:
            out.append(Text("Your turn: lead any card.", style="bold"))
        else:
            take = kozyri_pickup_count(len(pile), parse_card(pile[-1]), mine)
            t = _line("Your turn: beat ", card_text(pile[-1]), " or pick up")
            t.stylize("bold")
            t.append(f" (a pick-up now takes {take} card{'s' if take != 1 else ''}).")
            out.append(t)
    elif to_move is not None:
        out.append(Text(f"{names[int(to_move)]} to move."))
    hand = list(view["hands"][seat])
    if hand or view["trumps"][seat] is not None:
        out.append(_line(f"Your hand ({len(hand)}): ", hand_text(hand, mine)))
    return out


def legal_is_trump_choice(view: dict[str, Any]) -> bool:
    """True during the K3 trump choice (some seat has not chosen yet)."""
    return view["game"] == "kozyri" and any(t is None for t in view["trumps"])


# ---------------------------------------------------------------------------------------
# Twenty-Five


def _team_label(team: Sequence[int], names: Sequence[str]) -> str:
    return "Team " + "+".join(names[int(s)] for s in team)


def _twentyfive_lines(
    view: dict[str, Any], legal: Sequence[str], names: Sequence[str]
) -> list[Text]:
    seat = int(view["seat"])
    n = len(view["hands"])
    rules = view.get("rules", {})
    out: list[Text] = []
    scores = list(view.get("scores", []))
    teams = view.get("teams")
    target = rules.get("target", 25)
    if teams:
        shown = " · ".join(
            f"{_team_label(team, names)} {scores[i]}" for i, team in enumerate(teams)
        )
    else:
        shown = " · ".join(f"{names[s]} {scores[s]}" for s in range(min(n, len(scores))))
    out.append(Text(f"Scores (first to {target}): {shown}"))
    t = _line("Trumps: ", suit_text(view["trump"]), " · turn-up ", card_text(view["turnup"]))
    robbed = view.get("robbed")
    if isinstance(robbed, dict) and "seat" in robbed:
        who = names[int(robbed["seat"])]
        t.append(f" (robbed by {who}")
        if int(robbed["seat"]) == seat and robbed.get("discard"):
            t.append(", you discarded ")
            t.append_text(card_text(robbed["discard"]))
        t.append(")")
    out.append(t)
    tricks = list(view.get("tricks", []))
    if tricks:
        last = tricks[-1]
        t = Text(f"Previous trick: {names[int(last['winner'])]} won (")
        t.append_text(_played(last["leader"], last["cards"], n, names))
        t.append(")")
        out.append(t)
    trick = list(view.get("trick", []))
    if trick:
        out.append(_line("Trick: ", _played(view["leader"], trick, n, names)))
    else:
        out.append(Text("Trick: (none yet)"))
    others = []
    voids = view.get("voids") or []
    for s in range(n):
        if s == seat:
            continue
        h = view["hands"][s]
        o = Text(f"{names[s]} {hand_size(view, s)}")
        known: list[str] = [str(c) for c in h["known"]] if isinstance(h, dict) else []
        if known:
            o.append(" (holds ")
            o.append_text(cards_text(known))
            o.append(")")
        if s < len(voids) and voids[s]:
            o.append(" (void ")
            o.append_text(Text("").join(suit_text(v) for v in voids[s]))
            o.append(")")
        others.append(o)
    out.append(_line("Cards in hand: ", Text(" · ").join(others)))
    to_move = view.get("to_move")
    if to_move == seat:
        if not trick:
            msg = _line("Your turn: lead a card.")
        else:
            msg = _line("Your turn: play to ", card_text(trick[0]), " led.")
        msg.stylize("bold")
        if any(a.startswith("rob ") for a in legal):
            msg.append(" You may rob the turn-up: rob XX discards XX.")
        out.append(msg)
    elif to_move is not None:
        out.append(Text(f"{names[int(to_move)]} to move."))
    hand = list(view["hands"][seat])
    ranker = TrickRanker.of_view(view)
    out.append(_line(f"Your hand ({len(hand)}): ", hand_text(hand, ranker.trump)))
    return out


def _played(leader: int, cards: Sequence[str], n: int, names: Sequence[str]) -> Text:
    return Text(", ").join(
        _line(f"{names[(int(leader) + i) % n]} ", card_text(c)) for i, c in enumerate(cards)
    )


__all__ = [
    "card_text",
    "hand_text",
    "legal_line",
    "preset_name",
    "render",
    "render_plain",
    "seat_names",
]
