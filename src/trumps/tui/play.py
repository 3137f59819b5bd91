"""Play against the computer in the terminal: a plain line-based loop.

The human sits at one seat, bots at the others.  At the human's turn the screen of
``trumps.tui.render`` is printed (it ends with the ``Legal:`` line) and a line is read
after a ``> `` prompt.  Colour comes from ``rich``, which leaves it out when the output
is not a terminal or ``NO_COLOR`` is set.  End of input quits cleanly.
"""

from __future__ import annotations

import random
import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from trumps.ai import BOTS, Bot, Limits, make_bot
from trumps.cards import TAKE, action_str, parse_action
from trumps.errors import InvalidAction
from trumps.games import Game, new_game
from trumps.games.viewtypes import (
    KozyriView,
    TwentyFiveView,
    View,
    kozyri_view,
    twentyfive_view,
)
from trumps.records import dumps, record_of
from trumps.tui.board import hand_size, take_count
from trumps.tui.cardtext import card_text, is_discard, legal_words, suit_text, typed_action
from trumps.tui.render import legal_line, render, seat_names
from trumps.tui.rulestext import rules_text
from trumps.tui.whytext import hint_text, why_not_text

#: Reads one line after printing a prompt; None at end of input.
ReadLine = Callable[[str], "str | None"]

BOT_LIMITS = Limits()  # each level's default budget
HINT_LEVELS = ("expert", "hard", "medium", "easy")

HELP_COMMON = """Commands:
  a card      play it: TH, th, 10h or 10♥ (rank then suit; T or 10 is the ten)
  undo        take back your last decision (and the computer's moves since)
  hint        what the strongest computer player would play here, and why
  help        this text
  rules       the rules in brief (the page's "How to play")
  quit        leave the game (end of input, Ctrl-D, works too)"""

HELP_KOZYRI = """  take        pick up from the pile (K11, K12)
  trump S     choose your trump suit at the start (S H D C or ♠ ♥ ♦ ♣)

Svoi Kozyri in brief: everyone has their own trump suit.  Facing the pile's top card
you beat it — with a higher card of its suit, or with any card of YOUR trump suit if
the top card is not of it — and then add a second card of your choice, which the next
player must beat.  If you cannot beat, you pick up: 3 cards, or 5 if the top card is
of your trump suit, or the whole pile if it is your trump ace.  Shed all your cards;
the last player holding cards loses."""

HELP_TWENTYFIVE = """  rob XX      take the turn-up into your hand, discarding XX (if you hold the trump ace)
  discard XX  discard XX face down when you took the turned-up joker as the dealer

Twenty-Five in brief: five cards each, the turn-up's suit is trumps.  The 5 of trumps
is the best card, then the J of trumps, then the A♥ (always a trump).  Follow a plain
suit led with that suit or trump; the three top trumps may be withheld (reneged) when a
lower trump is led.  Each trick scores 5; the first to the target wins at once."""


@dataclass
class PlayOptions:
    """What ``trumps play`` was asked for."""

    game_id: str
    players: int | None = None
    rules: str | dict[str, object] | None = None  # a preset name, or options (``preset`` too)
    seed: int | None = None
    opponent: str = "medium"
    seat: int = 0
    save: Path | None = None


def _input_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def make_console() -> Console:
    """A console that never wraps lines and adds no automatic highlighting."""
    return Console(highlight=False, soft_wrap=True)


def run(
    options: PlayOptions,
    console: Console | None = None,
    read_line: ReadLine | None = None,
) -> int:
    """Play games until the user stops; the process exit code: 0, 130 after Ctrl-C
    (the game so far is saved first, with ``options.save``), 1 if the record cannot be
    written.  The first game is saved to ``options.save``, each one played again to a new
    file beside it (``next_save_path``)."""
    console = console or make_console()
    read = read_line or _input_line
    seed = options.seed
    save = options.save
    played = 0
    while True:
        if seed is None:
            seed = secrets.randbelow(2**31)
        game = new_game(options.game_id, players=options.players, rules=options.rules, seed=seed)
        played += 1
        if options.save is not None and played > 1:
            save = next_save_path(options.save)  # never over the game just saved
        session = Session(game, options.seat, options.opponent, console, read)
        try:
            finished = session.run()
        except KeyboardInterrupt:
            # Ctrl-C keeps the game: the record so far, then one line.
            if not _save(save, game, session.names, "\n"):
                return 1
            where = f" Saved the game record to {save}." if save else ""
            console.print(Text(f"\nInterrupted.{where}"))
            return 130
        if save is not None:
            if not _save(save, game, session.names):
                return 1
            console.print(Text(f"Saved the game record to {save}"))
        if not finished:
            return 0
        answer = read("Play again? [y/N] ")
        if answer is None or answer.strip().lower() not in ("y", "yes"):
            return 0
        seed += 1


def next_save_path(path: Path) -> Path:
    """The file the next game of a session is saved to: ``game-2.json``, ``game-3.json`` …
    beside ``path``, the first that does not exist yet."""
    n = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


def _save(path: Path | None, game: Game, names: Sequence[str], before: str = "") -> bool:
    """Write the record of ``game`` to ``path`` (if given); False after a one-line error
    (on stderr, after ``before``) if it cannot be written."""
    if path is None:
        return True
    try:
        path.write_text(dumps(record_of(game, names)), encoding="utf-8")
    except OSError as e:
        why = e.strerror or str(e)
        print(f"{before}Error: cannot write the game record to {path}: {why}", file=sys.stderr)
        return False
    return True


class Session:
    """One game at the terminal: the human at ``human``, a bot of ``level`` elsewhere."""

    def __init__(
        self,
        game: Game,
        human: int,
        level: str,
        console: Console,
        read: ReadLine,
    ) -> None:
        if not 0 <= human < game.players:
            raise ValueError(f"seat {human} is not one of 0–{game.players - 1}")
        self.game = game
        self.human = human
        self.console = console
        self.read = read
        self.names = seat_names(game.players, human)
        self.bots: dict[int, Bot] = {
            s: make_bot(level, game.game_id) for s in range(game.players) if s != human
        }
        self.rng = random.Random(f"trumps-tui/{game.game_id}/{game.seed}")
        self.marks: list[int] = []  # len(history) before each of the human's decisions
        # Twenty-Five: the scores each hand began with, by hand number (for its result).
        start = game.view(human)
        scores = start["scores"] if start["game"] == "twentyfive" else []
        self.hand_scores = {start["hand"]: list(scores)}

    # -- the loop ---------------------------------------------------------------------
    def run(self) -> bool:
        """Play to the end; False if the user quit first."""
        g = self.game
        self.say(
            Text(
                f"New game of {g.title}, seed {g.seed}. You sit at seat {self.human}. "
                "Type help for the commands.",
                style="bold",
            )
        )
        while True:
            outcome = g.outcome
            if outcome is not None:
                self.say(self.result_text())
                return True
            seat = g.current_player
            assert seat is not None
            if seat != self.human:
                bot = self.bots[seat]
                view = g.view(seat)
                decision = bot.decide(view, g.legal_actions(), BOT_LIMITS, self.rng)
                self.apply(seat, decision.action)
                continue
            if not self.human_turn():
                return False

    def human_turn(self) -> bool:
        """Show the screen and read until the human acts; False to quit."""
        g = self.game
        self.say(Text(""))
        self.say(render(g.view(self.human), g.legal_actions(), self.names))
        while True:
            line = self.read("> ")
            if line is None:
                self.say(Text("\nBye."))
                return False
            cmd = line.strip()
            word = cmd.lower()
            if not cmd:
                continue
            if word in ("quit", "exit", "q"):
                self.say(Text("Bye."))
                return False
            if word in ("help", "?", "h"):
                extra = HELP_KOZYRI if g.game_id == "kozyri" else HELP_TWENTYFIVE
                self.say(Text(HELP_COMMON + "\n" + extra))
                self.say(legal_line(g.legal_actions(), g.view(self.human)))
                continue
            if word == "rules":
                self.say(Text(rules_text(g.game_id, g.title)))
                self.say(legal_line(g.legal_actions()))
                continue
            if word == "undo":
                if self.undo():
                    return True
                continue
            if word == "hint":
                self.say(self.hint())
                continue
            error = self.check(cmd)
            if error:
                self.say(Text(error, style="yellow"))
                continue
            self.marks.append(len(g.history))
            self.apply(self.human, self.action_of(cmd))
            return True

    def action_of(self, cmd: str) -> str:
        """The canonical action for what the human typed; raises ``InvalidAction``."""
        return typed_action(cmd)

    def check(self, cmd: str) -> str | None:
        """None if ``cmd`` is a legal action now, else a one-line message."""
        g = self.game
        try:
            action = self.action_of(cmd)
        except InvalidAction as e:
            return f"{e}. Type help for the commands."
        if action in g.legal_actions():
            return None
        view = g.view(self.human)
        why = why_not_text(view, action)  # the game's reason, worded
        return (
            f"{why or f'{cmd!r} is not legal now.'} Legal: {legal_words(g.legal_actions(), view)}"
        )

    def hint(self) -> Text:
        """The strongest bot's choice for the human's seat, from the human's view only."""
        g = self.game
        level = next(lv for lv in HINT_LEVELS if lv in BOTS)
        bot = make_bot(level, g.game_id)
        rng = random.Random(f"hint/{g.seed}/{len(g.history)}")
        decision = bot.decide(g.view(self.human), g.legal_actions(), Limits(), rng)
        why = None if decision.explain is None else decision.explain.to_json()
        return Text(hint_text(decision.action, why, g.view(self.human)))

    def undo(self) -> bool:
        """Take back the human's last decision and the bots' moves after it."""
        g = self.game
        if not self.marks:
            self.say(Text("Nothing to undo.", style="yellow"))
            return False
        mark = self.marks.pop()
        undone = len(g.history) - mark
        while len(g.history) > mark:
            g.undo()
        others = undone - 1
        extra = f" and {others} computer move{'s' if others != 1 else ''}" if others else ""
        self.say(Text(f"Took back your last move{extra}."))
        return True

    # -- moves and their narration ------------------------------------------------------
    def apply(self, seat: int, action: str) -> None:
        g = self.game
        before = g.view(self.human)
        g.play(action)
        after = g.view(self.human)
        for line in self.narrate(seat, action, before, after):
            self.say(line)

    def narrate(self, seat: int, action: str, before: View, after: View) -> list[Text]:
        """What everyone at the table saw happen (only public facts)."""
        code = parse_action(action)
        if before["game"] == "kozyri":
            return self._narrate_kozyri(seat, code, before, kozyri_view(after))
        return self._narrate_twentyfive(seat, code, before, twentyfive_view(after))

    def _narrate_kozyri(
        self, seat: int, code: int, before: KozyriView, after: KozyriView
    ) -> list[Text]:
        who = self.names[seat]
        you = seat == self.human
        out: list[Text] = []

        def verb(v: str, vs: str) -> str:
            return v if you else vs

        if action_str(code).startswith("trump "):
            suit = action_str(code).split()[1]
            out.append(
                Text(f"{who} {verb('choose', 'chooses')} ")
                .append_text(suit_text(suit))
                .append(" as trumps.")
            )
        elif code == TAKE:
            n = take_count(before)
            if n is None:  # a view without the count: what the hand grew by
                n = hand_size(after, seat) - hand_size(before, seat)
            out.append(Text(f"{who} {verb('take', 'takes')} {n} card{'s' if n != 1 else ''}."))
        else:
            if not before["pile"]:
                what = f"{verb('lead', 'leads')} "
            elif before.get("owes_second"):
                what = f"{verb('add', 'adds')} "
            else:
                out.append(
                    Text(f"{who} {verb('beat', 'beats')} ")
                    .append_text(card_text(before["pile"][-1]))
                    .append(" with ")
                    .append_text(card_text(code))
                    .append(".")
                )
                what = ""
            if what:
                out.append(Text(f"{who} {what}").append_text(card_text(code)).append("."))
        if after.get("hand") == before.get("hand") and after.get("outcome") is None:
            if hand_size(after, seat) == 0 and hand_size(before, seat) > 0:
                out.append(Text(f"{who} {verb('are', 'is')} out of cards."))
        elif after.get("hand") != before.get("hand"):
            out.append(self._kozyri_hand_over(before, after))
        return out

    def _kozyri_hand_over(self, before: KozyriView, after: KozyriView) -> Text:
        """``Hand 1 is over: Bot 1 lost it (lost hands: You 0 · Bot 1 1). New deal.``"""
        old, new = before.get("losses") or [], after.get("losses") or []
        lost = [s for s in range(min(len(old), len(new))) if new[s] > old[s]]
        who = _join([self.names[s] for s in lost])
        verdict = f"{who} lost it" if lost else "nobody lost it"
        tally = " · ".join(f"{self.names[s]} {n}" for s, n in enumerate(new))
        shown = f" (lost hands: {tally})" if tally else ""
        return Text(
            f"Hand {before.get('hand', 1)} is over: {verdict}{shown}. New deal.", style="bold"
        )

    def _narrate_twentyfive(
        self, seat: int, code: int, before: TwentyFiveView, after: TwentyFiveView
    ) -> list[Text]:
        who = self.names[seat]
        you = seat == self.human
        out: list[Text] = []
        action = action_str(code)
        if is_discard(action, before):
            if you:
                t = Text("You discard ").append_text(card_text(action.split()[1]))
                out.append(t.append(" face down (you took the turned-up joker)."))
            else:
                out.append(Text(f"{who} discards a card face down (took the turned-up joker)."))
            return out
        if action.startswith("rob "):
            t = Text(f"{who} {'rob' if you else 'robs'} the turn-up")
            if before["turnup"] is not None:  # F9: a rob takes the card turned up
                t.append(" ").append_text(card_text(before["turnup"]))
            if you:
                t.append(", discarding ").append_text(card_text(action.split()[1]))
            out.append(t.append("."))
            return out
        verb = ("lead" if you else "leads") if not before["trick"] else ("play" if you else "plays")
        out.append(Text(f"{who} {verb} ").append_text(card_text(code)).append("."))
        winner = _trick_winner(self.game.closed(), self.names)
        if winner:
            out.append(
                Text(f"{winner} {'win' if winner == 'You' else 'wins'} the trick.", style="bold")
            )
        if after.get("hand") != before.get("hand") and after.get("outcome") is None:
            out.append(self._twentyfive_hand_over(before, after))
        return out

    def _twentyfive_hand_over(self, before: TwentyFiveView, after: TwentyFiveView) -> Text:
        """``Hand 1 is over: You +15, Bot 1 +10 (scores: You 15 · Bot 1 10). New deal.``
        (teams by their players), the points from the view's scores."""
        scores = [int(x) for x in after.get("scores") or []]
        start = self.hand_scores.get(int(before.get("hand", 1)), [])
        if len(start) != len(scores):
            start = [0] * len(scores)
        teams = after.get("teams")
        sides = (
            ["Team " + "+".join(self.names[int(s)] for s in team) for team in teams]
            if teams
            else list(self.names)
        )
        gains = ", ".join(f"{sides[i]} +{scores[i] - start[i]}" for i in range(len(scores)))
        tally = " · ".join(f"{sides[i]} {scores[i]}" for i in range(len(scores)))
        self.hand_scores[int(after.get("hand", 1))] = scores
        return Text(
            f"Hand {before.get('hand', 1)} is over: {gains} (scores: {tally}). New deal.",
            style="bold",
        )

    def result_text(self) -> Text:
        """The end of the game in words."""
        g = self.game
        o = g.outcome
        assert o is not None
        names = self.names
        if o.draw:
            return Text(f"Game over: a draw — {_REASONS.get(o.reason, o.reason)}.", style="bold")
        won = self.human in o.winners
        head = "You win!" if won else "You lose."
        winners = _join([names[s] for s in o.winners])
        losers = _join([names[s] for s in o.losers])
        if g.game_id == "kozyri" and o.reason == "out_of_cards":
            why = f"{losers} {'are' if losers == 'You' else 'is'} left holding cards"
        elif o.reason == "target":
            target = g.rules.get("target", 25)
            why = f"{winners} reached {target} points"
        elif o.reason in ("resigned", "timeout"):
            why = f"{losers} {'resigned' if o.reason == 'resigned' else 'ran out of time'}"
        else:
            why = _REASONS.get(o.reason, o.reason)
        return Text(
            f"Game over: {head} {why[0].upper()}{why[1:]}. Winners: {winners}; losers: {losers}.",
            style="bold",
        )

    def say(self, text: Text) -> None:
        self.console.print(text)


_REASONS = {
    "draw_rule": "the last card left could beat the pile (K16 draw rule)",
    "repetition": "the same position came up again and again (K17)",
    "max_plies": "the move limit was reached (K17)",
    "out_of_cards": "a player was left holding cards",
    "target": "the target was reached",
}


def _join(items: Sequence[str]) -> str:
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _trick_winner(closed: dict[str, Any] | None, names: Sequence[str]) -> str:
    """Who took the trick that the last card completed, as the game says (``game.closed()``,
    also for a hand's last trick, after which the view shows the next deal); '' if none."""
    trick = (closed or {}).get("trick")
    return names[int(trick["winner"])] if trick else ""


__all__ = ["PlayOptions", "Session", "make_console", "next_save_path", "run"]
