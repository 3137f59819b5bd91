"""The server sends why a move is not legal now (docs/protocol.md, ``why_not`` and the
``illegal_action`` error's ``why``): for the seat to move, every card of its hand that is
not legal, with the game's reason read from that seat's view; nothing for anyone else."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from server.hubkit import hello, run_hub, said, to_move
from trumps.games import GAMES, new_game
from trumps.server.hub import Hub
from trumps.server.tables.projection import why_msg
from trumps.server.wire.protocol import Error, Event, TableState
from trumps.store import SqlStore


def test_the_seat_to_move_is_told_why_each_dimmed_card_is_not_legal(tmp_path: Path) -> None:
    async def body(hub: Hub, _store: SqlStore) -> None:
        me, _ = await hello(hub, "Me")
        await said(hub, me, {"type": "play_computer", "game": "kozyri", "level": "random"})
        table_id = ""
        while not table_id:
            msg = await me.outbox.get()
            if isinstance(msg, TableState):
                table_id = msg.table_id
        game = GAMES["kozyri"]
        for _ in range(200):
            mine = await to_move(me, table_id)
            hand = mine.view["hands"][mine.view["seat"]]
            blocked = [c for c in hand if c not in mine.legal]
            if mine.view["trumps"][mine.view["seat"]] is not None and "take" not in mine.legal:
                blocked.append("take")
            # Exactly the blocked actions, each with the game's own reason from this view.
            assert sorted(mine.why_not) == sorted(blocked)
            for action, why in mine.why_not.items():
                expected = game.why_not_in(mine.view, action)
                assert expected is not None and why.code == expected.code
                assert why.rule == expected.rule and tuple(why.cards) == expected.cards
            cards = [c for c in blocked if c != "take"]
            if cards:
                break
            number = mine.number if isinstance(mine, Event) else mine.event
            await said(
                hub,
                me,
                {
                    "type": "action",
                    "table_id": table_id,
                    "action": mine.legal[0],
                    "expected": number,
                },
            )
        else:
            raise AssertionError("no turn with a card that is not legal")
        # Playing it anyway: refused, with the same reason, and nothing changes.
        number = mine.number if isinstance(mine, Event) else mine.event
        action = {"type": "action", "table_id": table_id, "action": cards[0], "expected": number}
        await said(hub, me, action)
        refused = await me.outbox.get()
        assert isinstance(refused, Error) and refused.code == "illegal_action"
        assert refused.why == mine.why_not[cards[0]]
        assert refused.why is not None and refused.why.rule == "K9"
        assert me.outbox.empty()
        # A spectator is told nothing of the kind (it sees no hand to play).
        spectator, _ = await hello(hub, "Spec")
        await said(hub, spectator, {"type": "spectate", "table_id": table_id})
        while not isinstance(snapshot := await spectator.outbox.get(), TableState):
            pass
        assert snapshot.seat is None and snapshot.why_not == {} and snapshot.legal == []

    run_hub(tmp_path / "hub.db", body)


def test_reasons_on_the_wire_name_only_cards_the_seat_sees() -> None:
    """Hidden information never leaks through a reason: over random games of both games,
    every card a wire reason names (``why_msg``) is written in the seat's own view, for every
    card and action the seat could try."""
    candidates = [r + s for r in "23456789TJQKA" for s in "SHDC"] + ["JK", "take"]
    candidates += [f"rob {c}" for c in candidates[:53]] + [f"discard {c}" for c in candidates[:53]]
    for game_id, players, rules in (
        ("kozyri", 3, None),
        ("twentyfive", 4, {"joker": True}),
        ("twentyfive", 5, {"rob": "mandatory"}),
    ):
        for seed in range(4):
            g = new_game(game_id, players=players, rules=rules, seed=seed)
            rng = random.Random(seed)
            for _ in range(120):
                if g.is_over:
                    break
                seat = g.current_player
                assert seat is not None
                view = g.view(seat)
                seen = set(re.findall(r"\b(?:[2-9TJQKA][SHDC]|JK)\b", json.dumps(view)))
                for action in candidates:
                    why = why_msg(g.why_not_in(view, action))
                    if why is not None:
                        assert set(why.cards) <= seen, (action, why, view)
                g.play(rng.choice(g.legal_actions()))
