"""The ``medium`` heuristic bots: legal, deterministic, principled and stronger than ``easy``."""

from __future__ import annotations

import random

import pytest

import trumps
from trumps import Game, new_game
from trumps.ai.base import Bot, Decision, Limits
from trumps.ai.heuristics_kozyri import KozyriMediumBot
from trumps.ai.heuristics_twentyfive import TwentyFiveMediumBot
from trumps.ai.levels import MediumBot
from trumps.ai.simple import EasyBot, RandomBot
from trumps.games.viewtypes import View, twentyfive_view

LIMITS = Limits()


class _Checking(Bot):
    """Wraps a bot; checks it gets a view without the seed and answers a legal action."""

    name = "Checking"
    level = "checking"

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.game_id)
        self.inner = inner

    def decide(self, view: View, legal: list[str], limits: Limits, rng: random.Random) -> Decision:
        assert "seed" not in view
        d = self.inner.decide(view, legal, limits, rng)
        assert d.action in legal, (d.action, legal, view)
        assert d.reasoning
        if d.values is not None:
            assert set(d.values) <= set(legal)
            assert all(0.0 <= v <= 1.0 for v in d.values.values())
        return d


def play_out(game: Game, bots: list[Bot], rng: random.Random) -> Game:
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.play(bots[seat].decide(game.view(seat), game.legal_actions(), LIMITS, rng).action)
    return game


def _decide(game: Game) -> Decision:
    seat = game.current_player
    assert seat is not None
    bot = MediumBot(game.game_id)
    return bot.decide(game.view(seat), game.legal_actions(), LIMITS, random.Random(0))


# -- every rule set, every size: legal actions only ------------------------------------

KOZYRI_SETUPS: list[tuple[int, str | dict[str, object] | None]] = [
    (2, None),
    (3, None),
    (4, None),
    (2, {"voluntary_pickup": True}),
    (4, "pagat"),
    (3, {"sixes_to_owner": False}),
]
TWENTYFIVE_SETUPS: list[tuple[int, str | dict[str, object] | None]] = [
    (2, None),
    (3, None),
    (4, None),
    (5, None),
    (10, None),
    (4, {"teams": 2}),
    (6, {"teams": 2}),
    (6, {"teams": 3}),
    (9, {"teams": 3}),
    (4, {"rob": "mandatory"}),
    (4, {"rob": "off"}),
    (4, {"joker": True}),
    (5, {"joker": True, "rob": "mandatory", "teams": "none"}),
    (4, "as-written"),
    (4, {"renege_cards": "five_only", "renege_limit": "always"}),
    (4, {"renege_cards": "none", "five_trick_bonus": "plus10", "play_out_hand": True}),
    (3, "forty-five"),
]


@pytest.mark.parametrize(("players", "rules"), KOZYRI_SETUPS)
def test_kozyri_medium_plays_legal_actions(
    players: int, rules: str | dict[str, object] | None
) -> None:
    for seed in range(6):
        bots: list[Bot] = [
            _Checking(KozyriMediumBot() if (s + seed) % 2 == 0 else EasyBot("kozyri"))
            for s in range(players)
        ]
        game = new_game("kozyri", players=players, rules=rules, seed=seed)
        assert play_out(game, bots, random.Random(seed)).outcome is not None


@pytest.mark.parametrize(("players", "rules"), TWENTYFIVE_SETUPS)
def test_twentyfive_medium_plays_legal_actions(
    players: int, rules: str | dict[str, object] | None
) -> None:
    for seed in range(8):
        bots: list[Bot] = [
            _Checking(TwentyFiveMediumBot() if (s + seed) % 3 else RandomBot("twentyfive"))
            for s in range(players)
        ]
        game = new_game("twentyfive", players=players, rules=rules, seed=seed)
        assert play_out(game, bots, random.Random(seed)).outcome is not None


def test_joker_discard_before_trumps_are_known() -> None:
    """F17a: the dealer discards with no trump suit yet; 25 joker games cover it."""
    seen = 0
    for seed in range(60):
        game = new_game("twentyfive", players=4, rules={"joker": True}, seed=seed)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions()
            if twentyfive_view(view)["trump"] is None:
                seen += 1
                kept = {"5", "J"}
                action = _decide(game).action
                assert action in legal
                assert action.startswith("discard ")  # F17a: its own word, not a rob

                def rank(a: str) -> str:
                    return a.split()[1][0]

                assert rank(action) not in kept or all(rank(a) in kept for a in legal)
            game.play(TwentyFiveMediumBot().decide(view, legal, LIMITS, random.Random(seed)).action)
    assert seen > 0


def test_medium_dispatch_and_identity() -> None:
    for game_id, cls in (("kozyri", KozyriMediumBot), ("twentyfive", TwentyFiveMediumBot)):
        bot = MediumBot(game_id)
        assert bot.level == cls.level == "medium" and bot.name == "Medium"
        assert bot.game_id == game_id
    with pytest.raises(ValueError, match="poker"):
        MediumBot("poker")


@pytest.mark.parametrize(("game_id", "players"), [("kozyri", 2), ("kozyri", 3), ("twentyfive", 5)])
def test_deterministic_for_a_seed(game_id: str, players: int) -> None:
    def history(seed: int) -> list[str]:
        bots = [MediumBot(game_id) for _ in range(players)]
        game = new_game(game_id, players=players, seed=seed)
        return play_out(game, list(bots), random.Random(seed)).history

    assert history(5) == history(5)
    assert history(5) != history(6)


# -- Svoi Kozyri: composed positions ---------------------------------------------------


def _kozyri(hands: list[list[str]], pile: list[str], **extra: object) -> Game:
    return trumps.from_json(
        {"game": "kozyri", "trumps": ["S", "H"], "hands": hands, "pile": pile, "to_move": 0} | extra
    )


def test_kozyri_second_card_of_the_next_players_trump() -> None:
    # K10/K9: hearts are the opponent's trump; only KH/AH beat the QH and they hold
    # neither, so they must take five (K12).  7D and 8C they beat cheaply.
    game = _kozyri(
        [["7D", "QH", "8C", "KS"], ["9D", "TC", "6H", "JH"]], ["6C", "8S"], owes_second=True
    )
    assert _decide(game).action == "QH"


def test_kozyri_beats_with_the_cheapest_card() -> None:
    # K9: the 7D beats the 6D; the 9D would waste height and the 6S (own trump) a trump.
    # (The QH, of the opponent's trump and above their TH, is the second card either way.)
    game = _kozyri([["7D", "9D", "6S", "QH"], ["8C", "TH", "AC", "KS"]], ["6D"])
    assert _decide(game).action == "7D"


def test_kozyri_beats_with_same_suit_before_own_trump() -> None:
    # The 9D beats the 8D as well as the 6S (own trump) does and costs less (K9).
    game = _kozyri([["9D", "6S", "7C", "8C"], ["TD", "TH", "AC", "KS"]], ["8D"])
    assert _decide(game).action == "9D"


def test_kozyri_leads_a_card_the_next_player_cannot_beat() -> None:
    # K7: the opponent (trump H) holds only spades: a club or a high spade is unbeatable,
    # and the low club costs us nothing.
    game = _kozyri([["6C", "KH", "9S"], ["7S", "8S"]], [])
    assert _decide(game).action == "6C"


def test_kozyri_goes_out_minding_the_draw_rule() -> None:
    # K14: beat the 8D and play the other card second: out.  K16: the opponent's single
    # KS would beat a 6S left on top (a draw), not a 9D.  So beat with the dearer 6S.
    game = _kozyri([["9D", "6S"], ["KS"]], ["8D"])
    assert _decide(game).action == "6S"
    # Going out by beating with the last card (K14): the next player faces it (K16).
    game = _kozyri([["TD"], ["KS", "QS"]], ["8D"])
    assert _decide(game).action == "TD"


def test_kozyri_voluntary_pickup_only_when_beating_is_ruinous() -> None:
    # K11 with voluntary_pickup.  Only the trump ace beats the 8D, and any second card
    # lets the opponent beat it with the JC and go out with the TD (K14): pick up one.
    rules = {"voluntary_pickup": True}
    game = _kozyri([["AS", "6C", "7C"], ["TD", "JC"]], ["8D"], rules=rules)
    assert "take" in game.legal_actions()
    assert _decide(game).action == "take"
    # With a cheap beater (the 9D) and a safe second card, beat as usual.
    game = _kozyri([["AS", "9D", "7C", "QH"], ["TD", "JC"]], ["8D"], rules=rules)
    assert _decide(game).action == "9D"


def _kozyri3(hands: list[list[str]], pile: list[str], **extra: object) -> Game:
    return trumps.from_json(
        {"game": "kozyri", "trumps": ["S", "H", "D"], "hands": hands, "pile": pile}
        | {"to_move": 0}
        | extra
    )


def test_kozyri_sheds_low_with_three_players_in() -> None:
    # K15/K16: with three in, the second card is the lowest plain card, not the QH of
    # the next player's trump (hearts) nor the AH they cannot beat (the duel's choices).
    others = [["9D", "TC", "6H", "JH", "7S"], ["AC", "8D", "9H", "QS", "TD"]]
    for high in ("QH", "AH"):
        game = _kozyri3([["7C", high, "8C", "KS"], *others], ["6C", "8S"], owes_second=True)
        decision = _decide(game)
        assert decision.action == "7C"
        assert decision.explain is not None and decision.explain.code == "shed_low"


def test_kozyri_three_players_keeps_a_near_out_player_in() -> None:
    # K14: the next player (trump hearts) holds two cards: beat and second card would
    # put them out.  Any heart beats every card of ours; besides, eight clubs beat the
    # 6C but five diamonds the 7D (the 8D and QD are ours).  So the 7D: a low card they
    # are less likely to beat, not the lowest 6C nor the QD the duel's scores choose.
    others = [["KH", "TH"], ["JH", "JS", "8H", "TC", "QC", "6S", "TD", "KD"]]
    game = _kozyri3([["6C", "QD", "7D", "8D"], *others], ["6D", "7S"], owes_second=True)
    assert _decide(game).action == "7D"


# -- Twenty-Five: composed positions ---------------------------------------------------


def _twentyfive(**position: object) -> Game:
    return trumps.from_json({"game": "twentyfive"} | position)


def test_twentyfive_rob_discards_the_weakest_card() -> None:
    # F9: spades trumps, the AS robs the 7S.  In plain diamonds the ace is the lowest
    # card (F7): it goes, never a trump.
    game = _twentyfive(
        turnup="7S",
        hands=[["AS", "AD", "9C", "KH", "QD"], ["2H", "3H", "4H", "6H", "8H"]],
        to_move=0,
    )
    assert any(a.startswith("rob ") for a in game.legal_actions())
    assert _decide(game).action == "rob AD"


def test_twentyfive_does_not_overtake_partner() -> None:
    # Teams 0+2 and 1+3.  Seat 1 led the KD, seat 2 followed; seat 3's partner's king
    # wins so far (seat 0 still plays after): it follows low rather than trumping with the
    # 5, which, kept, wins the last trick for certain.
    game = _twentyfive(
        turnup="2C",
        rules={"teams": 2},
        hands=[["3S", "4S"], ["7H"], ["4H"], ["5C", "8D"]],
        tricks=[],
        trick=["KD", "3D"],
        leader=1,
        to_move=3,
        scores=[0, 0],
        teams=[[0, 2], [1, 3]],
    )
    assert _decide(game).action == "8D"


def test_twentyfive_teams_of_three_do_not_trump_a_partners_trick() -> None:
    # Teams of three (F1): {0, 2, 4} and {1, 3, 5}; hearts are trumps.  Seat 1's K♣
    # holds the clubs trick and seat 5, last to play and out of clubs, may play any card.
    # Trumping with the 5♥ takes nothing more; kept, it wins the last trick and the game
    # (15 + 5 + 5).  So the 4♦, and the reason says the trick is the team's.
    game = _twentyfive(
        turnup="2H",
        rules={"teams": 3},
        hands=[["QD"], ["9S"], ["JD"], ["8S"], ["TD"], ["4D", "5H"]],
        trick=["2C", "KC", "3C", "4C", "6C"],
        leader=0,
        dealer=5,
        to_move=5,
        scores=[10, 15],
        teams=[[0, 2, 4], [1, 3, 5]],
    )
    decision = _decide(game)
    assert decision.action == "4D"
    assert decision.explain is not None and decision.explain.code == "trick_ours"
    # The same cards with seat 1 on the other team: now the trick is lost unless trumped.
    game = _twentyfive(
        turnup="2H",
        hands=[["QD"], ["9S"], ["JD"], ["8S"], ["TD"], ["4D", "5H"]],
        trick=["2C", "KC", "3C", "4C", "6C"],
        leader=0,
        dealer=5,
        to_move=5,
        scores=[0, 10, 0, 0, 0, 20],
    )
    assert _decide(game).action == "5H"


def _race(scores: list[int]) -> Game:
    # Clubs trumps; seat 0 led the KH, seat 1 trumped with the 2C, seat 2 followed; seat 3
    # holds the master 5C and a low plain card, last to play.
    return _twentyfive(
        turnup="7C",
        hands=[["3S", "4S"], ["5S", "6S"], ["7S", "8S"], ["5C", "9D", "TD"]],
        tricks=[{"leader": 0, "cards": ["QS", "JS", "TS", "9S"], "winner": 0}],
        trick=["KH", "2C", "QH"],
        leader=0,
        to_move=3,
        scores=scores,
    )


def test_twentyfive_takes_the_game_winning_trick() -> None:
    # F16: with 20 points this trick wins the game: take it with the 5.
    assert _decide(_race([5, 0, 0, 20])).action == "5C"


def test_twentyfive_keeps_the_five_when_the_trick_is_not_urgent() -> None:
    # Far from the target, the master 5 takes a trick whenever it is played: keep it
    # for later and throw the lowest diamond.
    assert _decide(_race([5, 0, 0, 0])).action == "9D"


def test_twentyfive_fights_when_an_opponent_is_one_trick_away() -> None:
    # F16: seat 1 (winning this trick with the 2C) would reach 25: stop it.
    assert _decide(_race([5, 20, 0, 0])).action == "5C"


def test_twentyfive_last_to_play_wins_cheaply() -> None:
    # Last to play: the QD wins over the 9D; neither the KD nor a trump is needed.
    game = _twentyfive(
        turnup="7C",
        hands=[["3S", "4S"], ["5S", "6S"], ["7S", "8S"], ["QD", "KD", "JC"]],
        tricks=[{"leader": 0, "cards": ["QS", "JS", "TS", "9S"], "winner": 0}],
        trick=["9D", "8D", "2D"],
        leader=0,
        to_move=3,
        scores=[5, 0, 0, 0],
    )
    assert _decide(game).action == "QD"


def test_twentyfive_does_not_waste_a_trump_on_a_lost_trick() -> None:
    # The 5C already won this trick; the JC cannot beat it: with no heart (F13) discard
    # the lowest plain card, keeping the JC (now the master trump) and the king.
    game = _twentyfive(
        turnup="7C",
        hands=[["3S", "4S"], ["5S", "6S"], ["7S", "8S"], ["JC", "KD", "4D"]],
        tricks=[{"leader": 0, "cards": ["QS", "JS", "TS", "9S"], "winner": 0}],
        trick=["6H", "5C", "2H"],
        leader=0,
        to_move=3,
        scores=[5, 0, 0, 0],
    )
    assert _decide(game).action == "4D"


def test_twentyfive_leads_its_best_plain_card_rather_than_ducking() -> None:
    # F11 lead, clubs trumps, no trump in hand: the KD may well be trumped by one of three
    # opponents, but a low card led wins nothing at all.  Measured at 2 to 6 seats against
    # fields of random, easy and medium (benchmarks/strength.py): leading the plain card
    # most likely to hold beats ducking with a low one in every field.
    game = _twentyfive(
        turnup="7C",
        hands=[
            ["KD", "3S", "8H", "6D", "2S"],
            ["5C", "JC", "AH", "4S", "9D"],
            ["QC", "TS", "7H", "4D", "8S"],
            ["KC", "9H", "TD", "6S", "3H"],
        ],
        to_move=0,
        leader=0,
    )
    decision = _decide(game)
    assert decision.action == "KD"
    assert decision.explain is not None and decision.explain.code == "lead_plain"


# -- strength ---------------------------------------------------------------------------


def kozyri_duel(opponent: str, deals: int) -> float:
    """Medium's share of decided 2-player games, each deal played with seats swapped."""
    wins = losses = 0
    for seed in range(deals):
        suits = random.Random(seed).sample("SHDC", 2)
        for me in (0, 1):
            bots: list[Bot] = [
                KozyriMediumBot() if s == me else make_simple(opponent, "kozyri") for s in (0, 1)
            ]
            game = new_game("kozyri", seed=seed, trumps=suits)
            outcome = play_out(game, bots, random.Random(2 * seed + me)).outcome
            assert outcome is not None
            wins += me in outcome.winners
            losses += me in outcome.losers
    return wins / (wins + losses)


def twentyfive_share(opponent: str, games: int, players: int = 4) -> float:
    """How often one medium seat (rotating) wins against ``players - 1`` other bots."""
    wins = 0
    for seed in range(games):
        me = seed % players
        bots: list[Bot] = [
            TwentyFiveMediumBot() if s == me else make_simple(opponent, "twentyfive")
            for s in range(players)
        ]
        game = play_out(
            new_game("twentyfive", players=players, seed=seed), bots, random.Random(seed)
        )
        assert game.outcome is not None
        wins += me in game.outcome.winners
    return wins / games


def make_simple(level: str, game_id: str) -> Bot:
    return EasyBot(game_id) if level == "easy" else RandomBot(game_id)


def test_medium_beats_easy_at_two_player_kozyri() -> None:
    # Measured ≈ 0.69 over 1,000 deals × 2 seats; 0.60 is the bar.
    assert kozyri_duel("easy", 60) >= 0.60


def test_medium_beats_random_at_two_player_kozyri() -> None:
    # Measured ≈ 0.99; the issue asks for at least 0.90.
    assert kozyri_duel("random", 30) >= 0.90


def test_medium_beats_easy_at_four_player_twentyfive() -> None:
    # One medium seat against three easy ones.  Measured ≈ 0.32 (1.27× the fair 0.25)
    # over 4,000 games; 1.12× over these 1,000 games is > 2 standard errors below that.
    assert twentyfive_share("easy", 1000) >= 1.12 * 0.25
