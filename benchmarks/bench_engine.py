"""Speed of the reference engine on Classic (6 players, 8 rounds): games/s, steps/s, µs per apply.

Run: `.venv/bin/python benchmarks/bench_engine.py [--games N] [--workers W]`. It only prints;
timings depend on the machine, so nothing here is asserted.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from horserace.bots import make_bot
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, GAME_STREAM, derive_seed
from horserace.engine import Game, Step, play
from horserace.rules.registry import get_preset
from horserace.simulate.board_sim import simulate_games

OPTIONS: dict[str, Any] = {"players": 6, "rounds": 8}
SEED = 20_240_601


def bench_simulation(games: int, workers: int) -> None:
    """Whole games through `simulate_games` (engine, bots, observer and tallies)."""
    report = simulate_games("classic", OPTIONS, games, SEED, workers=workers)
    seconds = report.elapsed_seconds
    print(
        f"{workers} worker(s): {games} games in {seconds:.2f} s:"
        f" {games / seconds:8.1f} games/s, {report.steps / seconds:10.0f} steps/s,"
        f" {1000 * seconds / games:6.2f} ms/game, {report.steps / games:.0f} steps/game"
    )


def recorded_transitions(games: int) -> list[tuple[Any, Action]]:
    """(state, action) before every step of some seeded games, to time `rules.apply` alone."""
    preset = get_preset("classic")
    config = preset.config(OPTIONS)
    pairs: list[tuple[Any, Action]] = []

    def keep(step: Step) -> None:
        pairs.append((step.before, step.action))

    for index in range(games):
        seed = derive_seed(SEED, GAME_STREAM, index)
        game = Game("classic", preset.rules, config, seed=seed, chance_mode="seeded")
        bots = {s: make_bot("random", derive_seed(seed, BOT_STREAM, s)) for s in range(6)}
        play(game, bots, SeededChance(seed), observe=keep)
    return pairs


def bench_apply(games: int) -> None:
    rules = get_preset("classic").rules
    pairs = recorded_transitions(games)
    started = time.perf_counter()
    for state, action in pairs:
        rules.apply(state, action)
    seconds = time.perf_counter() - started
    print(f"rules.apply: {1e6 * seconds / len(pairs):.2f} µs per call over {len(pairs)} calls")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--workers", type=int, default=2, help="processes for the parallel run")
    args = parser.parse_args()
    print(f"Classic, {OPTIONS['players']} players, {OPTIONS['rounds']} rounds, seed {SEED}")
    bench_simulation(args.games, 1)
    bench_simulation(args.games, args.workers)
    bench_apply(max(1, args.games // 10))


if __name__ == "__main__":
    main()
