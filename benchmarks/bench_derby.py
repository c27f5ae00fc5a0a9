"""Speed of the Derby odds kernel and of the Derby reference engine.

Run: `.venv/bin/python benchmarks/bench_derby.py [--samples N] [--repeat R]`. It only prints;
timings depend on the machine, so nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, GAME_STREAM, derive_seed
from horserace.engine import Game, Step, play
from horserace.families.derby.bots import make_derby_bot
from horserace.families.derby.rules.race import RaceState, start_race, with_positions
from horserace.families.derby.rules.track import DEFAULT_TRACK
from horserace.families.derby.sampled_odds import race_odds, simulate_races
from horserace.families.presets import get_preset

SEED = 20_240_601


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def mid_race(horses: int) -> RaceState:
    """A race some way in: horses spread over the three zones, one stuck in the mud."""
    race = start_race(tuple(range(1, horses + 1)))
    spread = {h: (h * 7) % 27 for h in race.runners}
    spread[1] = 5
    return with_positions(race, spread, frozenset({1}))


def bench_kernel(samples: int, repeat: int) -> None:
    for horses in (8, 20):
        start = start_race(tuple(range(1, horses + 1)))
        middle = mid_race(horses)
        for label, race in (("from the start line", start), ("mid-race", middle)):

            def run(race: RaceState = race) -> object:
                return simulate_races(race, DEFAULT_TRACK, samples, 1)

            ms = median_ms(run, repeat)
            print(
                f"kernel, {horses:2d} horses, {label:20s}: {samples} races in {ms:7.1f} ms"
                f" ({samples / ms * 1000:9.0f} races/s)"
            )
    exact = median_ms(lambda: race_odds(start_race(tuple(range(1, 9))), DEFAULT_TRACK), 50)
    print(f"race_odds at the start line (exact, by symmetry): {exact * 1000:.0f} µs")
    live = median_ms(lambda: race_odds(mid_race(8), DEFAULT_TRACK, samples=samples), repeat)
    print(f"race_odds mid-race, 8 horses, {samples} samples (live odds per step): {live:.1f} ms")


def bench_engine(games: int) -> None:
    preset = get_preset("derby")
    config = preset.config({"players": 8})
    steps = 0
    turns = 0

    def count(step: Step) -> None:
        nonlocal steps, turns
        steps += 1
        turns += sum(getattr(e, "turns", 0) for e in step.events if e.kind == "race-finished")

    started = time.perf_counter()
    for index in range(games):
        seed = derive_seed(SEED, GAME_STREAM, index)
        game = Game("derby", preset.rules, config, seed=seed, chance_mode="seeded")
        bots = {s: make_derby_bot("random", derive_seed(seed, BOT_STREAM, s)) for s in range(8)}
        play(game, bots, SeededChance(seed), observe=count)
    seconds = time.perf_counter() - started
    print(
        f"engine, 8 players x 3 races: {1000 * seconds / games:.1f} ms/game,"
        f" {steps / games:.0f} steps/game, {steps / seconds:,.0f} steps/s,"
        f" {turns / (3 * games):.1f} turns/race"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    bench_kernel(args.samples, args.repeat)
    bench_engine(args.games)


if __name__ == "__main__":
    main()
