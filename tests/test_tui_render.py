"""The terminal screen is a pure function of the human's view: what it shows and hides."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from trumps import Game, from_json, new_game
from trumps.cards import card_pretty, parse_card
from trumps.errors import InvalidAction
from trumps.games.viewtypes import View, hidden_hand, kozyri_view, own_cards, twentyfive_view
from trumps.tui.board import rules_label
from trumps.tui.cardtext import action_label, typed_action
from trumps.tui.play import Session
from trumps.tui.render import hand_text, render, render_plain, seat_names


def red_at(text: Text, index: int) -> bool:
    return any(s.start <= index < s.end and "red" in str(s.style) for s in text.spans)


def test_seat_names() -> None:
    assert seat_names(2, 0) == ["You", "Bot 1"]
    assert seat_names(4, 2) == ["Bot 1", "Bot 2", "You", "Bot 3"]


def test_kozyri_screen() -> None:
    game = from_json(
        {
            "game": "kozyri",
            "trumps": ["C", "D"],
            "hands": [["8S", "QS", "6C", "AH"], ["9H", "TD"]],
            "pile": ["7S", "9C", "JS"],
            "to_move": 0,
        }
    )
    legal = game.legal_actions()
    text = render(game.view(0), legal, ["You", "Bot 1"])
    plain = text.plain
    lines = plain.splitlines()
    assert "Svoi Kozyri · rules: standard · hand 1" in lines[0]
    assert "▶ You · 4 cards · trump ♣" in plain
    # 2 players: the other hand is deducible (K19)
    assert "  Bot 1 · 2 cards · trump ♦ · known 9♥ 10♦" in plain
    assert "Pile (3 cards, top last): 7♠ 9♣ [J♠]" in plain
    assert "Your turn: beat J♠. A pick-up now takes 3 cards." in plain  # K12: not my trump
    assert "Your hand (4): ♠ Q 8   ♥ A   ♣ 6 (trumps)" in plain
    assert legal == ["6C", "QS"]
    assert lines[-1] == "Legal: Q♠ 6♣"  # written like the hand, in its order
    assert red_at(text, plain.index("♥ A")) and red_at(text, plain.index("10♦"))
    assert not red_at(text, plain.index("♠ Q"))
    assert render_plain(game.view(0), legal, ["You", "Bot 1"]) == plain


def test_kozyri_own_trump_pickup_count_and_second_card() -> None:
    game = from_json(
        {
            "game": "kozyri",
            "trumps": ["C", "D"],
            "hands": [["6H", "8H"], ["9S", "7C"]],
            "pile": ["6S", "7S", "8S", "9D", "TH", "JS", "QC"],
            "to_move": 0,
        }
    )
    plain = render_plain(game.view(0), game.legal_actions(), ["You", "Bot 1"])
    # K12: my own trump, not the ace
    assert "Your turn: you cannot beat Q♣: take. A pick-up now takes 5 cards." in plain
    assert "Pile (7 cards, top last): … 7♠ 8♠ 9♦ 10♥ J♠ [Q♣]" in plain
    assert plain.endswith("Legal: take")


def test_kozyri_three_players_show_no_hidden_card() -> None:
    game = new_game("kozyri", players=3, seed=5, trumps=["S", "H", "D"])
    for _ in range(7):
        game.play(game.legal_actions()[0])
    seat = game.current_player
    assert seat is not None
    view = game.view(seat)
    plain = render_plain(view, game.legal_actions(), seat_names(3, seat))
    full = game.to_json()
    public = set(kozyri_view(view)["pile"])
    for s in range(3):
        if s != seat:
            public |= set(hidden_hand(view, s)["known"])
            hidden = [c for c in full["hands"][s] if c not in public]
            assert hidden
            for c in hidden:
                assert card_pretty(parse_card(c)) not in plain, c
    for s, suit in enumerate("♠♥♦"):
        assert f" · trump {suit}" in plain.splitlines()[1 + s]


def test_kozyri_trump_choice_screen() -> None:
    game = new_game("kozyri", players=2, seed=1)
    seat = game.current_player
    assert seat is not None
    plain = render_plain(game.view(seat), game.legal_actions(), seat_names(2, seat))
    assert "Your turn: choose your trump suit." in plain
    assert plain.splitlines()[-1].startswith("Legal: trump ")


def test_twentyfive_screen() -> None:
    game = from_json(
        {
            "game": "twentyfive",
            "turnup": "9D",
            "dealer": 2,
            "hands": [["3C", "4C", "6C"], ["2C", "JD", "AH", "9S"], ["QH", "8H", "7H", "6H"]],
            "tricks": [{"leader": 0, "cards": ["KS", "QS", "JS"], "winner": 0}],
            "trick": ["KC"],
            "leader": 0,
            "to_move": 1,
            "scores": [5, 0, 0],
        }
    )
    names = seat_names(3, 1)
    legal = game.legal_actions()
    text = render(game.view(1), legal, names)
    plain = text.plain
    assert "Twenty-Five · rules: classic · hand 1" in plain
    assert "Scores (first to 25): Bot 1 5 · You 0 · Bot 2 0" in plain
    assert "Trumps: ♦ · turn-up 9♦" in plain
    assert "Last trick (1 played this hand), won by Bot 1: Bot 1 K♠, You Q♠, Bot 2 J♠" in plain
    assert "▶ You · 4 cards" in plain and "  Bot 1 · 3 cards" in plain
    assert "Trick: Bot 1 K♣" in plain
    assert "Your turn: play to K♣ led." in plain
    assert "Your hand (4): ♠ 9   ♥ A   ♦ J (trumps)   ♣ 2" in plain
    assert plain.splitlines()[-1] == "Legal: A♥ J♦ 2♣"
    for hidden in ("3♣", "4♣", "6♣", "Q♥", "8♥", "7♥", "6♥"):
        assert hidden not in plain
    assert red_at(text, plain.index("9♦"))


def test_twentyfive_fresh_deal_shows_no_hidden_card() -> None:
    for seed in range(5):
        game = new_game("twentyfive", players=5, seed=seed)
        seat = seed % 5
        view = game.view(seat)
        plain = render_plain(view, [], seat_names(5, seat))
        full = game.to_json()
        for s in range(5):
            if s == seat:
                continue
            for c in full["hands"][s]:
                if c != full["turnup"]:
                    assert card_pretty(parse_card(c)) not in plain
        for c in full.get("stock", []):
            if c != full["turnup"]:
                assert card_pretty(parse_card(c)) not in plain


def test_twentyfive_teams_and_presets() -> None:
    game = new_game("twentyfive", players=4, rules={"preset": "forty-five", "teams": 2}, seed=2)
    view = game.view(0)
    assert rules_label("twentyfive", view["rules"]).startswith("custom: ")
    assert "teams=2" in rules_label("twentyfive", view["rules"])
    plain = render_plain(view, game.legal_actions(), seat_names(4, 0))
    assert "Scores (first to 45): Team You+Bot 2 0 · Team Bot 1+Bot 3 0" in plain
    assert rules_label("twentyfive", new_game("twentyfive", rules="forty-five").rules) == (
        "forty-five"
    )
    assert rules_label("kozyri", new_game("kozyri", rules="pagat").rules) == "pagat"
    assert rules_label("kozyri", "pagat") == "pagat"


def test_hand_text_and_plain_console_output() -> None:
    text = hand_text(["TH", "2S", "AS", "KD"], marked_suit=0)
    assert text.plain == "♠ A 2 (trumps)   ♥ 10   ♦ K"
    out = io.StringIO()
    Console(file=out, highlight=False, soft_wrap=True).print(text)  # not a terminal
    assert out.getvalue() == "♠ A 2 (trumps)   ♥ 10   ♦ K\n"
    assert "\x1b" not in out.getvalue()
    colour = io.StringIO()
    Console(file=colour, force_terminal=True, color_system="standard").print(text)
    assert "\x1b[" in colour.getvalue()


def _public_view(game: Game) -> View:
    """What a spectator may see of ``game`` (``Game.view(None)``)."""
    return game.view(None)


def test_twentyfive_joker_turned_up_renders_for_every_seat_and_spectators() -> None:
    """F17a: the dealer took the turned-up joker and owes a discard; no trump suit yet."""
    game = new_game("twentyfive", players=4, rules={"joker": True}, seed=58)
    dealer = game.current_player
    assert dealer is not None
    assert (
        twentyfive_view(game.view(dealer))["turnup"] == "JK"
        and twentyfive_view(game.view(dealer))["trump"] is None
    )
    legal = game.legal_actions()
    dealer_cards = [c for c in game.to_json()["hands"][dealer] if c != "JK"]
    for seat in range(4):
        plain = render_plain(game.view(seat), legal if seat == dealer else [], seat_names(4, seat))
        if seat != dealer:
            for c in dealer_cards:
                assert card_pretty(parse_card(c)) not in plain, c
        assert "Trumps: – · turn-up Joker" in plain
        if seat == dealer:
            assert "Your turn: discard a card face down — you took the turned-up joker." in plain
        else:
            assert "to move: discard a card face down (took the turned-up joker)." in plain
        assert "rob" not in plain.replace(plain.splitlines()[-1], "")
    public = _public_view(game)
    plain = render_plain(public, [], seat_names(4, 0))
    assert "Trumps: – · turn-up Joker" in plain and "known Joker" in plain
    assert "Your hand" not in plain
    for c in dealer_cards:
        assert card_pretty(parse_card(c)) not in plain, c


def _session_output(game: Game, human: int, lines: list[str]) -> str:
    """Play ``lines`` at ``trumps play``'s prompt (then end of input); everything printed."""
    out = io.StringIO()
    console = Console(file=out, highlight=False, soft_wrap=True)
    feed = iter(lines)
    session = Session(game, human, "random", console, lambda _prompt: next(feed, None))
    session.run()
    return out.getvalue()


def test_joker_discard_is_typed_and_told_as_a_discard() -> None:
    """F17a: the dealer who took the turned-up joker types ``discard XX``; the screen, the
    help and the narration call it a discard, never a rob of the turn-up."""
    game = new_game("twentyfive", players=4, rules={"joker": True}, seed=58)
    dealer = game.current_player
    assert dealer is not None
    printed = _session_output(game, dealer, ["help", "discard 9C", "discard jk", "discard qc"])
    assert "discard XX  discard XX face down when you took the turned-up joker" in printed
    assert "You do not hold 9♣." in printed and "You cannot discard Joker." in printed
    assert "You discard Q♣ face down (you took the turned-up joker)." in printed
    before = printed.split("You discard Q♣")[0]
    assert "Your turn: discard a card face down — you took the turned-up joker." in before
    assert "rob the turn-up" not in before and "robs the turn-up" not in before
    assert len(game.history) >= 1 and "QC" in game.history[0]
    assert twentyfive_view(game.view(dealer))["trump"] is not None


def test_a_bot_dealer_discarding_is_told_without_the_card() -> None:
    game = new_game("twentyfive", players=4, rules={"joker": True}, seed=58)
    dealer = game.current_player
    assert dealer is not None
    human = (dealer + 1) % 4
    mine = own_cards(game.view(human))[0]
    printed = _session_output(game, human, [f"discard {mine}"])
    names = seat_names(4, human)
    assert f"{names[dealer]} discards a card face down (took the turned-up joker)." in printed
    discarded = game.history[0].split()[1]
    assert f"{card_pretty(parse_card(discarded))} face down" not in printed
    assert "There is no discard to make now." in printed


def test_action_labels_and_typed_actions_know_the_discard() -> None:
    game = new_game("twentyfive", players=4, rules={"joker": True}, seed=58)
    dealer = game.current_player
    assert dealer is not None
    view = game.view(dealer)
    legal = game.legal_actions()
    owed = legal[0].split()[1]
    assert typed_action(f"Discard {owed.lower()}") == legal[0] == f"discard {owed}"
    assert action_label(legal[0], view).plain.startswith("discard ")
    assert action_label(f"rob {owed}", view).plain.startswith("discard ")  # an old record
    assert action_label("discard QC").plain == "discard Q♣"
    assert action_label("discard").plain == "discards a card face down"
    assert action_label("rob 9S").plain == "rob (discard 9♠)"  # a rob of a real turn-up
    assert action_label("rob").plain == "robs the turn-up"
    assert action_label("trump h").plain == "trump ♥"
    with pytest.raises(InvalidAction, match="discard then a card"):
        typed_action("discard")


def test_the_last_trick_of_a_hand_is_told_with_the_seat_that_won_it() -> None:
    """``trumps play`` names who took every trick, the hand's last one too (the view after
    it already shows the next deal: the game's ``closed()`` says), by seat even in teams."""
    game = new_game("twentyfive", players=4, rules={"teams": 2, "rob": "off"}, seed=9)
    out = io.StringIO()
    session = Session(game, 0, "random", Console(file=out, width=200), lambda _p: None)
    while game.view(0)["hand"] == 1 and (seat := game.current_player) is not None:
        session.apply(seat, game.legal_actions()[0])
    printed = out.getvalue()
    closed = game.closed()
    assert closed is not None and "hand" in closed
    told = [line for line in printed.splitlines() if "the trick." in line]
    assert len(told) == 5 and not any("Team" in line for line in told), told
    assert told[-1].startswith(session.names[closed["trick"]["winner"]])
    assert "Hand 1 is over" in printed or game.is_over
