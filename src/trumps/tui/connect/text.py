"""What the online terminal client shows: pure functions from client state to rich Text.

Everything shown about a game comes from the view the server sent this seat (or the public
view, for a spectator), so the screen cannot show a card the player may not know.  The
seats, the middle of the table and a replay's positions are drawn by the one terminal
board renderer, ``trumps.tui.board``.  Names are shown as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from trumps.cards import RED_SUITS, SUIT_SYMBOLS
from trumps.games import GAMES
from trumps.tui.board import (
    Board,
    board_lines,
    centre_lines,
    replay_view,
    rules_label,
    seat_line,
    turn_line,
)
from trumps.tui.cardtext import action_label, card_key, join, legal_in_hand_order, sorted_cards
from trumps.tui.connect.model import GUEST, FeedItem, Msg, TableModel

__all__ = [
    "action_prompt",
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


def clock_text(seconds: float | None) -> str:
    if seconds is None:
        return ""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def rules_text(game: str, rules: Any) -> str:
    """A table's rules in a few words (``trumps.tui.board.rules_label``)."""
    return rules_label(game, rules)


def _game_title(game: str) -> str:
    cls = GAMES.get(game)
    return cls.title if cls is not None else game


# ---------------------------------------------------------------- the lobby


def lobby_row(summary: Msg) -> tuple[str, ...]:
    """One public table as cells: id, game, rules, seats, open seats, state, clock, rated
    or casual."""
    seats = []
    for s in summary.get("seats", []):
        if s.get("name") or (s.get("taken") and not s.get("bot")):  # no name: "Guest"
            gone = " (left)" if s.get("left") else " (away)"
            seats.append(str(s.get("name") or GUEST) + ("" if s.get("connected") else gone))
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
        "rated" if summary.get("rated") else "casual",
    )


# ---------------------------------------------------------------- the table


def table_board(t: TableModel, pile_more: str = "") -> Board:
    """The board of ``t`` as this client's seat (or a spectator) sees it."""
    names = [t.name_of(s) for s in range(t.players)]
    over = t.outcome is not None or (t.view is not None and t.view["outcome"] is not None)
    return Board(
        t.view,
        names,
        t.seat,
        t.legal,
        pile_max=8,
        pile_more=pile_more,
        to_move=t.to_move,
        over=over,
    )


def seats_text(t: TableModel, now: float | None = None) -> Text:
    """A line per seat: who sits there, whose turn, cards held, trump, known cards, clock."""
    b = table_board(t)
    lines: list[Text] = []
    for s in range(t.players):
        info = t.seats[s] if s < len(t.seats) else {}
        tags = []
        if s == t.seat:
            tags.append("you")
        name = str(info.get("name") or "")
        if info.get("bot") and name and not name.startswith(f"{info['bot']} bot"):
            tags.append(f"{info['bot']} bot")  # a bot with a name of its own
        if info.get("left"):  # given up on purpose: the bot plays the seat for good
            tags.append("left (a bot plays)")
        elif info.get("away"):  # not back within the grace period: the bot plays for now
            tags.append("away: a bot plays")
        elif not info.get("connected", True) and (info.get("name") or info.get("taken")):
            tags.append("offline")
        left = t.clock_left(s, now)
        clock = None
        if left is not None:
            clock = Text(f"⏱ {clock_text(left)}", style="bold red" if left < 10 else "")
        if t.view and t.started:
            lines.append(seat_line(b, s, tags, prefix=f"{s}  ", clock=clock))
        else:  # before the deal: who sits where
            line = Text(f"  {s}  ", style="dim")
            line.append(t.name_of(s), style="bold" if s == t.seat else "")
            if tags:
                line.append(f" ({', '.join(tags)})", style="dim")
            lines.append(line)
    return Text("\n").join(lines)


def watchers_text(t: TableModel) -> str:
    """Who watches the table, as the server names them: "2 watching: Marta, Jin", the
    first names of a crowd and "(+4 more)"; empty when nobody does."""
    count = int(t.spectators.get("count") or 0)
    names = [str(x) if x else GUEST for x in t.spectators.get("names") or []]
    if not count:
        return ""
    more = count - len(names)
    return f"{count} watching: {', '.join(names)}" + (f" (+{more} more)" if more > 0 else "")


def board_text(t: TableModel) -> Text:
    """The middle of the table and whose turn it is (``trumps.tui.board``)."""
    if not t.view:
        return Text("Waiting for the table…", style="dim")
    b = table_board(t, pile_more="p: the whole pile")
    lines = centre_lines(b)
    turn = turn_line(b)
    if turn is not None:
        lines.append(turn)
    return Text("\n").join(lines)


# ---------------------------------------------------------------- the hand


def _my_hand(t: TableModel) -> list[str]:
    if t.view is None or t.seat is None or t.seat >= len(t.view["hands"]):
        return []
    hand = t.view["hands"][t.seat]
    return [] if isinstance(hand, dict) else sorted_cards(hand, t.view)


def choices(t: TableModel) -> list[str]:
    """The legal actions in the order the hand shows them: cards left to right, then words."""
    return legal_in_hand_order(t.legal, t.view)


def action_prompt(t: TableModel) -> str:
    """The action box's placeholder: examples of what may be typed now, taken from the
    legal actions (so Svoi Kozyri offers ``take`` only when picking up is legal)."""
    if not t.can_act or not t.legal:
        return "action: a card like TH (a)"
    shown: list[str] = []
    kinds: set[str] = set()
    for action in t.legal:
        kind = action.split(" ", 1)[0] if " " in action or action == "take" else "card"
        if kind not in kinds:
            kinds.add(kind)
            shown.append(action)
    return f"action: {', '.join(shown)} … (a)"


def choice_label(action: str, t: TableModel | None = None) -> Text:
    """An action as shown: ``10♥``, ``take``, ``trump ♠``, ``rob (discard 9♠)``, ``discard
    9♠`` (the joker discard, in ``t``'s current position)."""
    return action_label(action, t.view if t is not None else None)


def hand_line(t: TableModel, cursor: int) -> Text:
    """Your hand grouped by suit: legal cards numbered and bright, the cursor reversed, then
    the word actions (take, trump S, rob XX, discard XX)."""
    if t.seat is None:
        return Text("You are watching this table.", style="dim")
    options = choices(t)
    index = {a: i for i, a in enumerate(options)}
    hand = _my_hand(t)
    active = t.can_act
    groups: list[Text] = []
    for suit in range(5):
        cards = [c for c in hand if card_key(c)[0] == suit]
        if not cards:
            continue
        g = Text()
        if suit < 4:
            g.append(SUIT_SYMBOLS[suit] + " ", style="bold red" if suit in RED_SUITS else "bold")
        for c in cards:
            g.append_text(_token(t, c, index.get(c), cursor, active))
            g.append(" ")
        groups.append(g)
    line = Text("Your hand: ", style="bold")
    line.append_text(Text("  ").join(groups) if groups else Text("(no cards) "))
    words = [a for a in options if a not in hand]
    if words:
        line.append("  ")
        line.append_text(Text(" ").join(_token(t, a, index[a], cursor, active) for a in words))
    if t.sent:
        line.append("  … sent", style="dim")
    elif t.my_turn:
        line.append("  ← your turn: ←/→ or 1–9 to choose, Enter to play", style="dim")
    return line


def _token(t: TableModel, action: str, i: int | None, cursor: int, active: bool) -> Text:
    label = choice_label(action, t)
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
    if item.kind == "chat":  # a spectator's line says so, as on the page
        watching = " (watching)" if d.get("seat") is None else ""
        return join(
            Text(f"<{d.get('name') or GUEST}>{watching} ", style="bold cyan"),
            Text(str(d.get("text", ""))),
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
        return join(head, Text("The game starts.", style="bold"))
    if kind in ("action", "timeout"):
        line = join(head, f"{who}: ")
        took = d.get("took")
        if action == "take" and isinstance(took, int):
            line.append(f"picks up {took} card{'' if took == 1 else 's'}")
        elif action:
            line.append_text(choice_label(str(action)))
        else:
            line.append("forfeits")
        if kind == "timeout":  # the server's default move, or a forfeit (docs/protocol.md)
            line.append(
                " (time ran out; played for them)" if action else " (time ran out)", style="red"
            )
        elif d.get("by_bot") and not (
            isinstance(seat, int) and seat < len(t.seats) and t.seats[seat].get("bot")
        ):
            line.append(" (a bot played)", style="dim")
        return _closed_lines(t, line, d)
    if kind == "takeback":
        line = join(head, f"{who} takes back a move")
        if action:
            line.append(": ")
            line.append_text(choice_label(str(action)))
        return line
    words = {
        "resign": "resigns.",
        "takeback_ask": "asks to take back their last move.",
        "takeback_no": "refuses the take-back.",
        "join": "sits down.",
        "leave": "left the table.",
        "disconnect": "lost the connection.",
        "takeover": "is away: a bot plays until they come back.",
        "return": "reconnected.",
    }
    if kind == "takeover" and d.get("left"):  # right after the seat's player left
        return join(head, Text(f"{who} left; a bot plays the seat.", style="dim"))
    return join(head, Text(f"{who} {words.get(str(kind), str(kind))}", style="dim"))


def _closed_lines(t: TableModel, line: Text, d: Msg) -> Text:
    """After an action's line: who won the trick it finished, the hand it ended and the next
    one dealt (the event's ``closed``, as the game tells: docs/protocol.md#event)."""
    closed = d.get("closed") or {}
    trick, hand = closed.get("trick"), closed.get("hand")
    if isinstance(trick, dict) and isinstance(trick.get("winner"), int):
        line.append(f"\n     {t.name_of(trick['winner'])} wins the trick.", style="bold")
    if isinstance(hand, dict):
        line.append(f"\n     Hand {hand.get('hand')} is over.", style="bold")
        if d.get("next_hand"):
            line.append(f" Hand {d['next_hand']} is dealt.", style="bold")
    return line


# ---------------------------------------------------------------- replays


def position_text(pos: Msg, names: Sequence[str]) -> Text:
    """A stored position (every hand shown: the game is over) for the replay viewer."""
    b = Board.of(replay_view(pos), list(names), pile_max=None)
    return Text("\n").join(board_lines(b, hand=False))
