"""Speed of the compiled kernels, each as a ratio against a plain Python loop of the same rules
measured in the same run (machines are shared and noisy: only the ratios travel).

Run: `.venv/bin/python benchmarks/bench_kernels.py [--seconds S]`. It only prints; nothing here
is asserted. The first call of each kernel compiles it (or loads numba's cache) and is not timed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from horserace.kernels.board_game import BoardGameSpec, run_games
from horserace.rules.registry import get_preset

PLAYERS, ROUNDS = 6, 8
LANES = (2, 5, 7, 10, 13, 14, 13, 10, 7, 5, 2)


def plain_classic_game(rng: random.Random, players: int, rounds: int) -> list[int]:
    """Classic (move rule, shares of the pot, hands passed left) as a plain Python loop."""
    decks = 1 if players <= 4 else 2
    finish = {horse: LANES[horse - 2] + 1 for horse in range(2, 13)}
    chips = [100] * players
    hands = [[0] * 13 for _ in range(players)]
    deck = [rank for rank in range(2, 13) for _ in range(4 * decks)]
    pot, dealer = 0, 0
    for round_number in range(rounds):
        rng.shuffle(deck)
        to_deal = len(deck) // players * players
        for index in range(to_deal):
            hands[(dealer + 1 + index) % players][deck[index]] += 1
        deck = deck[to_deal:]
        lines: dict[int, int] = {}
        given_up = [[0] * 13 for _ in range(players)]
        roller = (dealer + 1) % players
        for line in range(1, 5):
            horse = rng.randint(1, 6) + rng.randint(1, 6)
            if horse in lines:
                for seat in range(players):
                    owed = min(chips[seat], line * given_up[seat][horse])
                    chips[seat] -= owed
                    pot += owed
            else:
                for seat in range(players):
                    held = hands[seat][horse]
                    hands[seat][horse] = 0
                    given_up[seat][horse] += held
                    deck += [horse] * held
                    owed = min(chips[seat], line * held)
                    chips[seat] -= owed
                    pot += owed
            lines[horse] = line
            roller = (roller + 1) % players
        position = dict.fromkeys(finish, 0)
        while True:
            horse = rng.randint(1, 6) + rng.randint(1, 6)
            if horse in lines:
                owed = min(chips[roller], lines[horse])
                chips[roller] -= owed
                pot += owed
            else:
                position[horse] += 1
            roller = (roller + 1) % players
            if horse not in lines and position[horse] == finish[horse]:
                break
        share = pot // (4 * decks)
        for seat in range(players):
            chips[seat] += hands[seat][horse] * share
            pot -= hands[seat][horse] * share
        hands = hands[-1:] + hands[:-1]
        dealer = (dealer + 1) % players
        del round_number
    return chips


def rate(work: Callable[[int], None], size: int, seconds: float) -> float:
    """Items per second: `work(size)` repeated for about `seconds`, best of the repeats."""
    best = float("inf")
    deadline = time.perf_counter() + seconds
    while True:
        started = time.perf_counter()
        work(size)
        best = min(best, time.perf_counter() - started)
        if time.perf_counter() > deadline:
            return size / best


def bench_classic(seconds: float) -> None:
    preset = get_preset("classic")
    config = preset.config({"players": PLAYERS, "rounds": ROUNDS})
    spec = BoardGameSpec.from_config(preset.rules.config_to_dict(config))
    assert spec is not None
    run_games(spec, 1, 0, 10)  # compile (or load the cache) outside the timing
    rng = random.Random(1)

    def plain(games: int) -> None:
        for _ in range(games):
            plain_classic_game(rng, PLAYERS, ROUNDS)

    def kernel(games: int) -> None:
        run_games(spec, 7, 0, games)

    baseline = rate(plain, 200, seconds)
    fast = rate(kernel, 100_000, seconds)
    print(
        f"Classic whole games, {PLAYERS} players x {ROUNDS} rounds, one process:"
        f" plain Python loop {baseline:,.0f} games/s, kernel {fast:,.0f} games/s,"
        f" ratio {fast / baseline:,.0f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    bench_classic(args.seconds)


if __name__ == "__main__":
    main()
