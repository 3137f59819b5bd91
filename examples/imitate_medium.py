"""A worked example for researchers (docs/research.md): teach a small policy to play like
the ``medium`` bot, in a few CPU minutes, then seat it in ``trumps arena``.

1. Play games with ``medium`` in every seat, and keep, at each decision, the observation of
   the seat to move (``trumps.envs.observation.encode`` of its view: nothing hidden), the
   legal action ids and the id ``medium`` chose.
2. Fit a linear softmax policy over the legal ids (numpy, Adam) to those choices.
3. Save the weights; ``examples/linear_bot.py`` plays them as a ``trumps.ai.Bot``:

       python examples/imitate_medium.py --game twentyfive --players 4 --games 3000
       trumps arena --game twentyfive --players 4 --games 400 --seed 1 \\
           --bots examples/linear_bot.py:LinearBot,medium --reference random

Needs the ``envs`` extra (numpy): ``pip install -e '.[envs]'``.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

import trumps
from trumps.ai import Limits, make_bot
from trumps.envs.observation import encode, size

HERE = Path(__file__).resolve().parent


def collect(game_id: str, players: int, games: int, seed: int) -> tuple[np.ndarray, ...]:
    """(observations, legal masks, chosen ids) of ``medium`` playing ``games`` games."""
    bot, rng = make_bot("medium", game_id), random.Random(seed)
    xs: list[list[float]] = []
    masks: list[list[int]] = []
    ys: list[int] = []
    for g in range(games):
        game = trumps.new_game(game_id, players=players, seed=seed * 1_000_003 + g)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions()
            action = bot.decide(view, legal, Limits(), rng).action
            if len(legal) > 1:  # a forced move teaches nothing
                xs.append(encode(view))
                masks.append(game.action_mask())
                ys.append(game.string_to_action(action))
            game.play(action)
    return (
        np.asarray(xs, dtype=np.float32),
        np.asarray(masks, dtype=bool),
        np.asarray(ys, dtype=np.int64),
    )


def policy_logits(w: np.ndarray, b: np.ndarray, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    logits = x @ w + b
    return np.where(mask, logits, -1e9)


def train(
    x: np.ndarray, mask: np.ndarray, y: np.ndarray, epochs: int, seed: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """A linear softmax policy fitted by Adam on minibatches; the weights, the bias and the
    share of held-out decisions where it picks ``medium``'s move."""
    gen = np.random.default_rng(seed)
    order = gen.permutation(len(y))
    cut = max(1, len(y) // 10)
    test, fit = order[:cut], order[cut:]
    n_in, n_out = x.shape[1], mask.shape[1]
    w = np.zeros((n_in, n_out), dtype=np.float32)
    b = np.zeros(n_out, dtype=np.float32)
    state = [np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)]
    lr, beta1, beta2, step = 0.01, 0.9, 0.999, 0
    for _ in range(epochs):
        gen.shuffle(fit)
        for start in range(0, len(fit), 256):
            rows = fit[start : start + 256]
            logits = policy_logits(w, b, x[rows], mask[rows])
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(rows)), y[rows]] -= 1.0  # d(cross-entropy)/d(logits)
            p /= len(rows)
            grads = (x[rows].T @ p, p.sum(axis=0))
            step += 1
            for k, (param, grad) in enumerate(zip((w, b), grads, strict=True)):
                m, v = state[2 * k], state[2 * k + 1]
                m *= beta1
                m += (1 - beta1) * grad
                v *= beta2
                v += (1 - beta2) * grad * grad
                param -= lr * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + 1e-8)
    agree = float((policy_logits(w, b, x[test], mask[test]).argmax(axis=1) == y[test]).mean())
    return w, b, agree


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(trumps.GAMES), default="twentyfive")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3000, help="games of medium to imitate")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--out", type=Path, default=HERE / "linear_policy.npz", help="where the weights go"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    x, mask, y = collect(args.game, args.players, args.games, args.seed)
    print(f"{len(y):,} decisions of medium in {args.games} games "
          f"({time.perf_counter() - start:.0f} s); {size(args.game)} inputs each")  # fmt: skip
    w, b, agree = train(x, mask, y, args.epochs, args.seed)
    np.savez(args.out, game=args.game, w=w, b=b)
    print(f"held-out decisions where the policy picks medium's move: {agree:.1%}")
    print(f"weights written to {args.out} ({time.perf_counter() - start:.0f} s in all)")


if __name__ == "__main__":
    main()
