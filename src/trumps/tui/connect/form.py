"""The form that starts something: create a table, play the computer, or a quick match.

Its Rated box is for accounts (a guest sees why it is off).  A rated game always has a
clock and running out of time loses it (the server's rule, docs/ratings.md), so ticking the
box sets the timeout to a forfeit; a rated game against the computer needs bots with a
fixed rating in the game's family, which the form asks the server
(``GET /api/leaderboard/{family}``'s ``bots``) and says when the chosen level has none."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select

from trumps.errors import InvalidRules
from trumps.games import GAMES
from trumps.games.options import rules_from_text
from trumps.server.wire.wiretypes import MAX_SEATS
from trumps.tui.connect.common import BOT_LEVELS
from trumps.tui.connect.model import Msg
from trumps.tui.connect.net import Client, HttpError
from trumps.tui.connect.ratingtext import family_title, table_family

__all__ = ["GUEST_CASUAL", "RATED_CLOCK_NOTE", "GameForm"]

SEAT_KINDS = ("human", *BOT_LEVELS)
GUEST_CASUAL = "Rated games are for accounts: sign in with s in the lobby."
RATED_CLOCK_NOTE = "A rated game always has a clock; running out of time loses it."


class GameForm(ModalScreen["Msg | None"]):
    """The request to start something: ``create`` a table, play the ``computer``, or a
    ``quick`` match.  Dismisses with the protocol message to send (or None)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    TITLES: ClassVar[dict[str, str]] = {
        "create": "Create a table",
        "computer": "Play the computer",
        "quick": "Quick match: the next person asking for the same game and rules",
    }

    RATED: ClassVar[dict[str, str]] = {
        "create": "Rated (your rating moves with the result)",
        "computer": "Rated (against the bots' fixed ratings)",
        "quick": "Rated (untick for a casual game)",
    }

    def __init__(
        self,
        mode: str,
        game: str = "kozyri",
        *,
        account: bool = False,
        client: Client | None = None,
    ) -> None:
        super().__init__()
        self.mode, self.game, self.account = mode, game, account
        self.client = client  # asked which bots have a rating (play the computer)
        self.rated_bots: dict[str, dict[str, int]] = {}  # family: {level: rating}

    def compose(self) -> ComposeResult:
        cls = GAMES[self.game]
        with VerticalScroll(classes="dialog form"):
            yield Label(self.TITLES[self.mode], classes="heading")
            with Horizontal(classes="row"):
                yield Label("Game", classes="field")
                yield Select(
                    [(c.title, gid) for gid, c in GAMES.items()],
                    value=self.game,
                    allow_blank=False,
                    id="game",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Rules", classes="field")
                yield Select(
                    self._presets(self.game),
                    value=cls.DEFAULT_PRESET,
                    allow_blank=False,
                    id="preset",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Options", classes="field")
                yield Input(
                    id="options",
                    placeholder="over the preset, e.g. target=45, joker=true (trumps rules)",
                    compact=True,
                )
            if self.mode == "computer":
                with Horizontal(classes="row"):
                    yield Label("Players", classes="field")
                    yield Input(
                        str(cls.default_players), id="players", type="integer", compact=True
                    )
                with Horizontal(classes="row"):
                    yield Label("Computer", classes="field")
                    yield Select(
                        [(level, level) for level in BOT_LEVELS],
                        value="medium",
                        allow_blank=False,
                        id="level",
                        compact=True,
                    )
            if self.mode == "create":
                with Horizontal(classes="row"):
                    yield Label("Seats", classes="field")
                    yield Input(
                        self._default_seats(self.game),
                        id="seats",
                        placeholder="human, human, hard …",
                        compact=True,
                    )
                with Horizontal(classes="row"):
                    yield Label("Clock", classes="field")
                    yield Input(id="clock", placeholder="base+increment, e.g. 180+2", compact=True)
                with Horizontal(classes="row"):
                    yield Label("On timeout", classes="field")
                    yield Select(
                        [("a default move", "move"), ("forfeit", "forfeit")],
                        value="move",
                        allow_blank=False,
                        id="on_timeout",
                        compact=True,
                    )
                with Horizontal(classes="row"):
                    yield Label("", classes="field")
                    yield Checkbox("Private (invite only)", id="private", compact=True)
            with Horizontal(classes="row"):
                yield Label("", classes="field")
                yield Checkbox(
                    self.RATED[self.mode],
                    # Quick match is rated for accounts unless they ask for a casual game.
                    value=self.account and self.mode == "quick",
                    disabled=not self.account,
                    id="rated",
                    compact=True,
                )
            yield Label(
                "" if self.account else GUEST_CASUAL, id="rated-why", classes="hint", markup=False
            )
            yield Label("", id="problem", classes="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Start", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    @staticmethod
    def _presets(game: str) -> list[tuple[str, str]]:
        cls = GAMES[game]
        return [(f"{name} — {p.doc}"[:60], name) for name, p in cls.PRESETS.items()]

    @staticmethod
    def _default_seats(game: str) -> str:
        return ", ".join(["human"] * 2 + ["medium"] * (GAMES[game].default_players - 2))

    def on_mount(self) -> None:
        self._rated_changed()

    # -- rated ---------------------------------------------------------------------------
    @on(Checkbox.Changed, "#rated")
    def _rated_changed(self) -> None:
        """A rated table has a clock and loses on time: the timeout is a forfeit."""
        if not self.account:
            return
        rated = self.query_one("#rated", Checkbox).value
        for box in self.query("#on_timeout").results(Select):
            if rated:
                box.value = "forfeit"
            box.disabled = rated
        if self.mode == "computer":
            self._check_bots()
        else:
            self.query_one("#rated-why", Label).update(RATED_CLOCK_NOTE if rated else "")

    @on(Select.Changed, "#level")
    @on(Select.Changed, "#preset")
    @on(Input.Changed, "#players")
    def _opponents_changed(self) -> None:
        if self.account and self.mode == "computer":
            self._check_bots()

    def _family(self) -> str | None:
        """The rating family of the game asked for, or None while the form is not valid."""
        try:
            rules = self._rules()
        except ValueError:
            return None
        text = self.query_one("#players", Input).value.strip()
        players = int(text) if text.isdigit() else GAMES[self.game].default_players
        return table_family(self.game, players, rules)

    def _check_bots(self) -> None:
        """Whether the chosen bot has a rating in the game's family on this server: if
        not, the Rated box is off, and says why."""
        family, level = self._family(), str(self.query_one("#level", Select).value)
        if family is None or self.client is None:
            return
        known = self.rated_bots.get(family)
        if known is None:
            self._fetch_bots(family)
            return
        box, why = self.query_one("#rated", Checkbox), self.query_one("#rated-why", Label)
        if level in known:
            box.disabled = False
            rated = f"The {level} bot's rating here: {known[level]}. {RATED_CLOCK_NOTE}"
            why.update(rated if box.value else "")
        else:
            box.value, box.disabled = False, True
            why.update(
                f"The {level} bot has no rating for {family_title(family)} on this server: "
                "games against it are casual."
            )

    @work(exclusive=True, group="rated-bots", exit_on_error=False)
    async def _fetch_bots(self, family: str) -> None:
        assert self.client is not None
        try:
            board = await self.client.get_json(f"/api/leaderboard/{family}?limit=0")
        except HttpError:
            return  # the server says why if it must refuse
        bots = board.get("bots") if isinstance(board, dict) else None
        self.rated_bots[family] = {
            str(b.get("level")): int(b.get("rating") or 0) for b in bots or []
        }
        self._check_bots()

    # -- the game ------------------------------------------------------------------------
    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        game = str(event.value)
        if game == self.game or game not in GAMES:
            return
        self.game = game
        cls = GAMES[game]
        preset = self.query_one("#preset", Select)
        preset.set_options(self._presets(game))
        preset.value = cls.DEFAULT_PRESET
        for widget in self.query("#players").results(Input):
            widget.value = str(cls.default_players)
        for widget in self.query("#seats").results(Input):
            widget.value = self._default_seats(game)
        self.query_one("#options", Input).value = ""  # another game's options

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted)
    def _ok(self) -> None:
        try:
            msg = self.request()
        except ValueError as e:
            self.query_one("#problem", Label).update(str(e))
            return
        self.dismiss(msg)

    def _rules(self) -> str | dict[str, object]:
        """The preset chosen with the options written over it; raises ValueError."""
        cls = GAMES[self.game]
        preset: str | dict[str, object] = str(self.query_one("#preset", Select).value)
        written = self.query_one("#options", Input).value.strip()
        if written:  # the game checks the options (the server checks them again)
            try:
                preset = rules_from_text(
                    self.game, cls.OPTIONS, cls.PRESETS, cls.DEFAULT_PRESET, f"{preset},{written}"
                )
            except InvalidRules as e:
                raise ValueError(str(e)) from None
        return preset

    def request(self) -> Msg:
        """The message this form asks for; raises ValueError with a reason."""
        cls = GAMES[self.game]
        preset = self._rules()
        rated = self.account and self.query_one("#rated", Checkbox).value
        if self.mode == "quick":
            return {"type": "quick_match", "game": self.game, "rules": preset, "rated": rated}
        if self.mode == "computer":
            text = self.query_one("#players", Input).value.strip()
            players = int(text) if text.isdigit() else 0
            top = min(cls.max_players, MAX_SEATS)
            if not cls.min_players <= players <= top:
                raise ValueError(f"{cls.title} is for {cls.min_players}–{top} players")
            level = str(self.query_one("#level", Select).value)
            return {
                "type": "play_computer",
                "game": self.game,
                "players": players,
                "level": level,
                "rules": preset,
                "rated": rated,
            }
        seats = [s.strip().lower() for s in self.query_one("#seats", Input).value.split(",")]
        seats = [s for s in seats if s]
        bad = [s for s in seats if s not in SEAT_KINDS]
        if bad:
            raise ValueError(f"a seat is one of {', '.join(SEAT_KINDS)}, not {bad[0]!r}")
        top = min(cls.max_players, MAX_SEATS)
        if not cls.min_players <= len(seats) <= top:
            raise ValueError(f"{cls.title} is for {cls.min_players}–{top} seats")
        if "human" not in seats:
            raise ValueError("keep at least one seat human (yours)")
        msg: Msg = {
            "type": "create_table",
            "game": self.game,
            "rules": preset,
            "seats": seats,
            "private": self.query_one("#private", Checkbox).value,
            "on_timeout": str(self.query_one("#on_timeout", Select).value),
            "rated": rated,
        }
        clock = self.query_one("#clock", Input).value.strip()
        if clock:
            base, _, inc = clock.partition("+")
            try:
                tc = {"base": float(base), "increment": float(inc or 0)}
            except ValueError:
                raise ValueError("the clock is base seconds + increment, e.g. 180+2") from None
            if not (0 < tc["base"] <= 86400 and 0 <= tc["increment"] <= 86400):
                raise ValueError("the clock is base seconds + increment, e.g. 180+2")
            msg["time_control"] = tc
        return msg
