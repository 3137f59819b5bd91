"""The one terminal board renderer: ``trumps play``, the live client and its replay draw
the same board from the same view, and the joker discard never reads as a rob."""

from __future__ import annotations

from trumps import Game, from_json, new_game
from trumps.cards import card_pretty, parse_card
from trumps.games.viewtypes import View, twentyfive_view
from trumps.tui.board import Board, centre_lines, turn_line
from trumps.tui.connect.model import TableModel
from trumps.tui.connect.text import board_text, choices, hand_line, position_text, seats_text
from trumps.tui.render import render_plain


def joker_game() -> Game:
    """Twenty-Five with the joker turned up (F17a): the dealer owes a discard."""
    game = new_game("twentyfive", players=4, rules={"joker": True}, seed=58)
    assert (
        twentyfive_view(game.view(0))["turnup"] == "JK"
        and twentyfive_view(game.view(0))["trump"] is None
    )
    return game


def public_view(game: Game) -> View:
    """What a spectator may see (``Game.view(None)``)."""
    return game.view(None)


def table(game: Game, seat: int | None, names: list[str]) -> TableModel:
    view = game.view(seat) if seat is not None else public_view(game)
    to_move = game.current_player
    return TableModel(
        "t-1",
        game=game.game_id,
        rules=dict(game.rules),
        seats=[{"name": n, "connected": True} for n in names],
        seat=seat,
        view=view,
        legal=game.legal_actions() if seat == to_move else [],
        to_move=to_move,
    )


NAMES = ["Olena", "Taras", "Iryna", "Bohdan"]


def test_live_client_joker_discard_for_the_dealer_others_and_spectators() -> None:
    game = joker_game()
    dealer = game.current_player
    assert dealer is not None
    secret = [c for c in game.to_json()["hands"][dealer] if c != "JK"]
    for seat in [*range(4), None]:
        t = table(game, seat, NAMES)
        shown = "\n".join([seats_text(t).plain, board_text(t).plain, hand_line(t, 0).plain])
        assert "Trumps: – · turn-up Joker" in shown
        assert "rob" not in shown
        if seat == dealer:
            assert "Your turn: discard a card face down — you took the turned-up joker." in shown
            assert all(a.startswith(("rob ", "discard ")) for a in choices(t))
            assert f"1:discard {card_pretty(parse_card(choices(t)[0].split()[1]))}" in shown
        else:
            assert f"{NAMES[dealer]} to move: discard a card face down" in shown
            for c in secret:
                assert card_pretty(parse_card(c)) not in shown, (seat, c)


def test_replay_position_of_the_joker_discard() -> None:
    game = joker_game()
    shown = position_text(game.to_json(), NAMES).plain
    assert "Trumps: – · turn-up Joker" in shown and "rob" not in shown
    for s in range(4):  # a finished game's replay shows every hand
        for c in game.to_json()["hands"][s]:
            assert card_pretty(parse_card(c)) in shown


def test_a_replay_shows_the_discards_nobody_saw_at_the_table() -> None:
    """A replay hides nothing (the game is over): the dealer's face-down joker discard (F17a)
    and a robber's discard (F10) are drawn, worded for a reader who was not at the table."""
    game = joker_game()
    dealer = game.current_player
    assert dealer is not None
    discard = next(a for a in game.legal_actions() if a.startswith("discard "))
    game.play(discard)
    card = card_pretty(parse_card(discard.split()[1]))
    shown = position_text(game.to_json(), NAMES).plain
    assert f"(the dealer took the joker and discarded {card})" in shown, shown
    assert "you took" not in shown
    robbed = new_game("twentyfive", players=2, seed=3)
    while not any(a.startswith("rob ") for a in robbed.legal_actions()):
        robbed = new_game("twentyfive", players=2, seed=robbed.seed + 1)
    rob = next(a for a in robbed.legal_actions() if a.startswith("rob "))
    robber = robbed.current_player
    assert robber is not None
    robbed.play(rob)
    shown = position_text(robbed.to_json(), NAMES).plain
    put_down = card_pretty(parse_card(rob.split()[1]))
    assert f"(robbed by {NAMES[robber]}, who discarded {put_down})" in shown, shown


def test_play_and_the_live_client_draw_the_same_board() -> None:
    """One renderer: the middle of the table and the turn line read alike in both."""
    positions = [
        joker_game(),
        from_json(
            {
                "game": "kozyri",
                "trumps": ["C", "D"],
                "hands": [["8S", "QS", "6C", "AH"], ["9H", "TD"]],
                "pile": ["7S", "9C", "JS"],
                "to_move": 0,
            }
        ),
        new_game("twentyfive", players=3, seed=2),
    ]
    for game in positions:
        seat = game.current_player
        assert seat is not None
        names = NAMES[: game.players]
        play = render_plain(game.view(seat), game.legal_actions(), names)
        live = board_text(table(game, seat, names)).plain
        for line in live.splitlines():
            assert line in play.splitlines(), line


def test_the_pick_up_count_comes_from_the_view() -> None:
    """K12 is the game's: a view's ``take_count`` is what the board says."""
    view = from_json(
        {
            "game": "kozyri",
            "trumps": ["C", "D"],
            "hands": [["6H", "8H"], ["9S", "7C"]],
            "pile": ["6S", "7S", "8S", "9D", "TH", "JS", "QC"],
            "to_move": 0,
        }
    ).view(0)
    assert view["game"] == "kozyri"
    view["take_count"] = 4  # the game's K12 count, as the view carries it
    b = Board.of(view, ["You", "Bot"], 0, ["take"])
    turn = turn_line(b)
    assert turn is not None and turn.plain.endswith("A pick-up now takes 4 cards.")
    b = Board.of(view, ["You", "Bot"], 0, ["take"], pile_max=3, pile_more="p: all")
    assert centre_lines(b)[0].plain == "Pile (7 cards, top last): … 10♥ J♠ [Q♣]   (p: all)"
