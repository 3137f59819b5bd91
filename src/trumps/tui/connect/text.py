"""What the online terminal client shows: pure functions from client state to rich Text.

Everything shown about a game comes from the view the server sent this seat (SPEC §6), so
the screen cannot show a card the player may not know.  Cards are drawn with
``trumps.tui.render`` (``10♥``, red suits red).  Names are shown as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from trumps.ai.simple import kozyri_pickup_count
from trumps.cards import JOKER, RED_SUITS, SUIT_SYMBOLS, parse_card, parse_suit, suit_of
from trumps.errors import InvalidAction
from trumps.games import GAMES
from trumps.tui.connect.model import FeedItem, Msg, TableModel
from trumps.tui.render import card_text, cards_text, suit_text

__all__ = [
    "board_text",
    "choice_label",
    "choices",
    "clock_text",
    "feed_text",
    "hand_line",
    "lobby_row",
    "position_text",
    "rules_text",
    "seats_text",
]


def _join(*parts: str | Text) -> Text:
    out = Text()
    for p in parts:
        out.append_text(p if isinstance(p, Text) else Text(p))
    return out


def clock_text(seconds: float | None) -> str:
    if seconds is None:
        return ""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def rules_text(game: str, rules: Any) -> str:
    """A table's rules in a few words: a preset name, or the options that differ."""
    if isinstance(rules, str):
        return rules
    if not isinstance(rules, dict) or not rules:
        cls = GAMES.get(game)
        return cls.DEFAULT_PRESET if cls is not None else "default"
    cls = GAMES.get(game)
    if cls is not None:
        defaults = {name: opt.default for name, opt in cls.OPTIONS.items()}
        for name, preset in cls.PRESETS.items():
            if {**defaults, **dict(preset.options)} == {**defaults, **rules}:
                return name
        changed = {k: v for k, v in rules.items() if defaults.get(k) != v}
        if not changed:
            return cls.DEFAULT_PRESET
        return ", ".join(f"{k}={v}" for k, v in sorted(changed.items()))
    return "custom"


def _game_title(game: str) -> str:
    cls = GAMES.get(game)
    return cls.title if cls is not None else game


# ---------------------------------------------------------------- the lobby


def lobby_row(summary: Msg) -> tuple[str, ...]:
    """One public table as cells: id, game, rules, seats, open seats, state, clock."""
    seats = []
    for s in summary.get("seats", []):
        if s.get("name"):
            seats.append(str(s["name"]) + ("" if s.get("connected") else " (away)"))
        elif s.get("bot"):
            seats.append(f"{s['bot']} bot")
        else:
            seats.append("·open·")
    tc = summary.get("time_control")
    clock = f"{clock_text(tc['base'])}+{tc.get('increment', 0):g}" if tc else "—"
    return (
        str(summary.get("table_id", "")),
        _game_title(str(summary.get("game", ""))),
        rules_text(str(summary.get("game", "")), summary.get("rules")),
        ", ".join(seats),
        str(summary.get("open_seats", 0)),
        "playing" if summary.get("started") else "waiting",
        clock,
    )


# ---------------------------------------------------------------- the table


def _trump_of(t: TableModel, seat: int) -> int | None:
    trumps = t.view.get("trumps")
    if not isinstance(trumps, list) or seat >= len(trumps) or trumps[seat] is None:
        return None
    return parse_suit(str(trumps[seat]))


def seats_text(t: TableModel, now: float | None = None) -> Text:
    """A line per seat: who sits there, whose turn, cards held, trump or score, clock."""
    lines: list[Text] = []
    out = [int(s) for s in t.view.get("out", [])]
    scores = t.view.get("scores")
    teams = t.view.get("teams")
    for s in range(t.players):
        info = t.seats[s] if s < len(t.seats) else {}
        turn = s == t.to_move and t.outcome is None
        line = Text("▶ " if turn else "  ", style="bold yellow")
        line.append(f"{s}  ", style="dim")
        line.append(t.name_of(s), style="bold" if s == t.seat else "")
        tags = []
        if s == t.seat:
            tags.append("you")
        if info.get("bot") and info.get("name"):
            tags.append(f"{info['bot']} bot")
        if info.get("away"):
            tags.append("away: a bot plays")
        elif not info.get("connected", True) and info.get("name"):
            tags.append("offline")
        if tags:
            line.append(f" ({', '.join(tags)})", style="dim")
        count = t.hand_count(s)
        if s in out:
            line.append(" · out")
        elif count is not None and t.started:
            line.append(f" · {count} card{'s' if count != 1 else ''}")
        if t.game == "kozyri":
            line.append(" · trump ")
            line.append_text(suit_text(_trump_of(t, s)))
        elif isinstance(scores, list) and not teams and s < len(scores):
            line.append(f" · {scores[s]} points")
        left = t.clock_left(s, now)
        if left is not None:
            line.append(f" · ⏱ {clock_text(left)}", style="bold red" if left < 10 else "")
        lines.append(line)
    return Text("\n").join(lines)


def board_text(t: TableModel) -> Text:
    """The middle of the table: the pile (Svoi Kozyri) or trick and trumps (Twenty-Five)."""
    if not t.view:
        return Text("Waiting for the table…", style="dim")
    if t.game == "kozyri":
        return _kozyri_board(t)
    return _twentyfive_board(t)


def _kozyri_board(t: TableModel) -> Text:
    v = t.view
    lines: list[Text] = []
    match = int(t.rules.get("match_losses", 1) or 1)
    losses = v.get("losses")
    if match > 1 and isinstance(losses, list):
        tally = " · ".join(f"{t.name_of(s)} {n}" for s, n in enumerate(losses))
        lines.append(
            Text(f"Hand {v.get('hand', 1)} · lost hands (a match is lost at {match}): {tally}")
        )
    pile = [str(c) for c in v.get("pile", [])]
    if not pile:
        lines.append(Text("Pile: empty"))
    else:
        shown = pile[-8:]
        line = Text(f"Pile ({len(pile)}, top last): ")
        if len(pile) > len(shown):
            line.append("… ")
        if len(shown) > 1:
            line.append_text(cards_text(shown[:-1]))
            line.append(" ")
        line.append("[")
        line.append_text(card_text(shown[-1]))
        line.append("]")
        if len(pile) > len(shown):
            line.append("   (p: the whole pile)", style="dim")
        lines.append(line)
    to_move = t.to_move
    if t.outcome is None and to_move is not None:
        who = "You" if to_move == t.seat else t.name_of(to_move)
        if any(x is None for x in v.get("trumps", [])):
            lines.append(Text(f"{who}: choose a trump suit.", style="bold"))
        elif v.get("owes_second"):
            lines.append(Text(f"{who}: beat — now a second card.", style="bold"))
        elif not pile:
            lines.append(Text(f"{who}: lead any card.", style="bold"))
        else:
            take = kozyri_pickup_count(len(pile), parse_card(pile[-1]), _trump_of(t, to_move))
            count = f"{take} card{'s' if take != 1 else ''}"
            top = card_text(pile[-1])
            if to_move != t.seat:
                line = _join(f"{who} faces ", top, f" (a pick-up would take {count}).")
            elif t.legal == ["take"]:
                line = _join("You cannot beat ", top, f": take picks up {count}.")
            elif "take" in t.legal:
                line = _join("You: beat ", top, f" or take (picks up {count}).")
            else:
                line = _join("You: beat ", top, f" (you cannot take; a pick-up is {count}).")
            line.stylize("bold")
            lines.append(line)
    known = _known_cards(t)
    if known:
        lines.append(known)
    return Text("\n").join(lines)


def _known_cards(t: TableModel) -> Text | None:
    hands = t.view.get("hands") or []
    parts = []
    for s, h in enumerate(hands):
        if s != t.seat and isinstance(h, dict) and h.get("known"):
            cards = sorted((str(c) for c in h["known"]), key=parse_card)
            parts.append(_join(f"{t.name_of(s)}: ", cards_text(cards)))
    if not parts:
        return None
    return _join(Text("Known cards — ", style="dim"), Text(" · ").join(parts))


def _twentyfive_board(t: TableModel) -> Text:
    v = t.view
    lines: list[Text] = []
    scores = list(v.get("scores", []))
    teams = v.get("teams")
    target = t.rules.get("target", 25)
    if teams:
        shown = " · ".join(
            "+".join(t.name_of(int(s)) for s in team) + f" {scores[i] if i < len(scores) else 0}"
            for i, team in enumerate(teams)
        )
    else:
        shown = " · ".join(f"{t.name_of(s)} {p}" for s, p in enumerate(scores))
    lines.append(Text(f"Scores (first to {target}): {shown}"))
    line = _join("Trumps: ", suit_text(v.get("trump")), " · turn-up: ")
    if v.get("turnup"):
        line.append_text(card_text(str(v["turnup"])))
    robbed = v.get("robbed")
    if isinstance(robbed, dict) and robbed.get("seat") is not None:
        line.append(f" (robbed by {t.name_of(int(robbed['seat']))}")
        if robbed.get("discard") and robbed["seat"] == t.seat:
            line.append(", you discarded ")
            line.append_text(card_text(str(robbed["discard"])))
        line.append(")")
    lines.append(line)
    tricks = v.get("tricks") or []
    if tricks:
        last = tricks[-1]
        line = Text(
            f"Last trick ({len(tricks)} this hand), won by {t.name_of(int(last['winner']))}: "
        )
        line.append_text(_played(t, int(last["leader"]), last["cards"]))
        lines.append(line)
    trick = v.get("trick") or []
    if trick:
        lines.append(_join("Trick: ", _played(t, int(v.get("leader", 0)), trick)))
    else:
        lines.append(Text("Trick: (none yet)"))
    voids = v.get("voids") or []
    shown_voids = [
        _join(f"{t.name_of(s)} ", Text("").join(suit_text(x) for x in vs))
        for s, vs in enumerate(voids)
        if vs and s != t.seat
    ]
    if shown_voids:
        lines.append(_join(Text("Void in — ", style="dim"), Text(" · ").join(shown_voids)))
    known = _known_cards(t)
    if known:
        lines.append(known)
    if t.outcome is None and t.to_move is not None:
        who = "You" if t.to_move == t.seat else t.name_of(t.to_move)
        msg = _join(f"{who}: ", "lead a card." if not trick else "play to ", "")
        if trick:
            msg.append_text(card_text(str(trick[0])))
            msg.append(" led.")
        msg.stylize("bold")
        if t.to_move == t.seat and any(a.startswith("rob ") for a in t.legal):
            msg.append(" You may rob the turn-up (rob XX discards XX).")
        lines.append(msg)
    return Text("\n").join(lines)


def _played(t: TableModel, leader: int, cards: Sequence[Any]) -> Text:
    n = max(1, t.players)
    return Text(", ").join(
        _join(f"{t.name_of((leader + i) % n)} ", card_text(str(c))) for i, c in enumerate(cards)
    )


# ---------------------------------------------------------------- the hand


def _card_key(code: str) -> tuple[int, int]:
    c = parse_card(code)
    if c == JOKER:
        return (4, 0)
    return (suit_of(c), -c)


def _my_hand(t: TableModel) -> list[str]:
    hands = t.view.get("hands") or []
    if t.seat is None or t.seat >= len(hands) or not isinstance(hands[t.seat], list):
        return []
    return sorted((str(c) for c in hands[t.seat]), key=_card_key)


def choices(t: TableModel) -> list[str]:
    """The legal actions in the order the hand shows them: cards left to right, then words."""
    legal = set(t.legal)
    cards = [c for c in _my_hand(t) if c in legal]
    return cards + [a for a in t.legal if a not in cards]


def choice_label(action: str) -> Text:
    """An action as shown: ``10♥``, ``take``, ``trump ♠``, ``rob (discard 9♠)``."""
    head, _, rest = action.partition(" ")
    try:
        if not rest:
            return card_text(action) if head != "take" else Text("take")
        if head == "trump":
            return _join("trump ", suit_text(rest))
        if head == "rob":
            return _join("rob (discard ", card_text(rest), ")")
    except InvalidAction:
        pass
    return Text(action)


def hand_line(t: TableModel, cursor: int) -> Text:
    """Your hand grouped by suit: legal cards numbered and bright, the cursor reversed, then
    the word actions (take, trump S, rob XX)."""
    if t.seat is None:
        return Text("You are watching this table.", style="dim")
    options = choices(t)
    index = {a: i for i, a in enumerate(options)}
    hand = _my_hand(t)
    active = t.can_act
    groups: list[Text] = []
    for suit in range(5):
        cards = [c for c in hand if _card_key(c)[0] == suit]
        if not cards:
            continue
        g = Text()
        if suit < 4:
            g.append(SUIT_SYMBOLS[suit] + " ", style="bold red" if suit in RED_SUITS else "bold")
        for c in cards:
            g.append_text(_token(c, index.get(c), cursor, active))
            g.append(" ")
        groups.append(g)
    line = Text("Your hand: ", style="bold")
    line.append_text(Text("  ").join(groups) if groups else Text("(no cards) "))
    words = [a for a in options if a not in hand]
    if words:
        line.append("  ")
        line.append_text(Text(" ").join(_token(a, index[a], cursor, active) for a in words))
    if t.sent:
        line.append("  … sent", style="dim")
    elif t.my_turn:
        line.append("  ← your turn: ←/→ or 1–9 to choose, Enter to play", style="dim")
    return line


def _token(action: str, i: int | None, cursor: int, active: bool) -> Text:
    label = choice_label(action)
    if i is None or not active:
        label.stylize("dim")
        return label
    number = str(i + 1) if i < 9 else ("0" if i == 9 else "")
    tok = Text(f"{number}:" if number else "", style="dim")
    label.stylize("bold")
    if i == cursor:
        label.stylize("reverse")
    tok.append_text(label)
    return tok


# ---------------------------------------------------------------- the log


def feed_text(t: TableModel, item: FeedItem) -> Text:
    """One line of a table's log."""
    d = item.data
    if item.kind == "chat":
        return _join(
            Text(f"<{d.get('name', '?')}> ", style="bold cyan"), Text(str(d.get("text", "")))
        )
    if item.kind == "note":
        return Text(str(d.get("text", "")), style=item.style)
    number = d.get("number")
    kind = d.get("kind")
    seat = d.get("seat")
    who = t.name_of(seat) if isinstance(seat, int) else ""
    head = Text(f"{number:>4} ", style="dim")
    action = d.get("action")
    if kind == "start":
        return _join(head, Text("The game starts.", style="bold"))
    if kind in ("action", "timeout"):
        line = _join(head, f"{who}: ")
        if action:
            line.append_text(choice_label(str(action)) if action != "rob" else Text("robs"))
        else:
            line.append("forfeits")
        if kind == "timeout":
            line.append(" (time ran out)", style="red")
        elif d.get("by_bot") and not (
            isinstance(seat, int) and seat < len(t.seats) and t.seats[seat].get("bot")
        ):
            line.append(" (a bot played)", style="dim")
        return line
    words = {
        "resign": "resigns.",
        "join": "sits down.",
        "leave": "left the table.",
        "takeover": "is away: a bot plays for the seat.",
        "return": "is back.",
    }
    return _join(head, Text(f"{who} {words.get(str(kind), str(kind))}", style="dim"))


# ---------------------------------------------------------------- replays


def position_text(pos: Msg, names: Sequence[str]) -> Text:
    """A stored position (SPEC §4, every hand shown: the game is over) for the replay viewer."""
    game = str(pos.get("game"))
    n = len(pos.get("hands", []))
    names = [names[s] if s < len(names) else f"Seat {s}" for s in range(n)]
    lines: list[Text] = []
    to_move = pos.get("to_move")
    for s in range(n):
        hand = sorted((str(c) for c in pos["hands"][s]), key=_card_key)
        line = Text("▶ " if s == to_move else "  ", style="bold yellow")
        line.append(f"{names[s]}", style="bold")
        if game == "kozyri":
            trumps = pos.get("trumps") or []
            line.append(" (trump ")
            line.append_text(suit_text(trumps[s] if s < len(trumps) else None))
            line.append(")")
        line.append(f" {len(hand)}: ")
        line.append_text(cards_text(hand) if hand else Text("—"))
        lines.append(line)
    if game == "kozyri":
        pile = [str(c) for c in pos.get("pile", [])]
        line = Text(f"Pile ({len(pile)}): ")
        line.append_text(cards_text(pile) if pile else Text("empty"))
        lines.append(line)
    else:
        scores = pos.get("scores", [])
        lines.append(Text(f"Scores: {' · '.join(str(x) for x in scores)}"))
        line = _join("Trumps: ", suit_text(pos.get("trump")), " · turn-up: ")
        if pos.get("turnup"):
            line.append_text(card_text(str(pos["turnup"])))
        lines.append(line)
        trick = pos.get("trick") or []
        leader = int(pos.get("leader", 0) or 0)
        played = Text(", ").join(
            _join(f"{names[(leader + i) % max(1, n)]} ", card_text(str(c)))
            for i, c in enumerate(trick)
        )
        lines.append(_join("Trick: ", played if trick else Text("(none)")))
    return Text("\n").join(lines)
