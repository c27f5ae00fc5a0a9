"""Speed of the Derby odds kernel, of a server's live Derby odds and of the reference engine.

Run: `.venv/bin/python benchmarks/bench_derby.py [--samples N] [--repeat R] [--live N]`. It
only prints; timings depend on the machine, so nothing here is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, GAME_STREAM, derive_seed
from horserace.engine import Game, Step, play
from horserace.families.derby.bots import make_derby_bot
from horserace.families.derby.live_odds import LIVE, odds_key, precise_odds, quick_odds
from horserace.families.derby.rules.model import DerbyPhase, DerbyView
from horserace.families.derby.rules.race import (
    RaceState,
    roll_accelerator,
    roll_d20,
    roll_mud,
    start_race,
    with_positions,
)
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


def turn_starts(count: int) -> list[RaceState]:
    """Races of 8 on the default track, taken at the start of every 8th turn (seeded)."""
    found: list[RaceState] = []
    pick = random.Random(SEED)
    while len(found) < count:
        race = start_race(tuple(range(1, 9)))
        while not race.over and len(found) < count:
            if race.waiting_for == "mud":
                race = roll_mud(race, DEFAULT_TRACK, pick.random() < 0.5)[0]
            elif race.waiting_for == "accel":
                race = roll_accelerator(race, DEFAULT_TRACK, pick.choice((1, 2, 3)))[0]
            else:
                race = roll_d20(race, DEFAULT_TRACK, pick.randint(1, 20))[0]
                if not race.dice and race.waiting_for == "d20" and race.turn % 8 == 1:
                    found.append(race)
    return found


def before(moment: float) -> bool:
    return time.perf_counter() < moment


def tick_until(going: Callable[[], bool]) -> float:
    """Sleep a millisecond at a time while `going()`; the longest gap between two ticks."""
    longest, last = 0.0, time.perf_counter()
    while going():
        time.sleep(0.001)
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    return longest


def bench_live(positions: int) -> None:
    """A server's live odds: the quick estimate answered at once, the precise one (every chance
    within a tenth of a point, 95%) on the odds thread, and the longest the main thread (a
    server's event loop) waited meanwhile, ticking every millisecond; then the same ticking
    for as long with no odds thread (the baseline: what the busy machine itself costs)."""
    preset = get_preset("derby")
    rules = preset.rules
    table = rules.view(rules.initial_state(preset.config({"players": 8})), None)
    table = replace(table, phase=DerbyPhase.RACE)
    precise_odds(odds_key(replace(table, race=mid_race(8))))  # compile or load outside timing
    for race in turn_starts(positions):
        view = replace(table, race=race)
        key = odds_key(view)
        started = time.perf_counter()
        quick_odds(key)
        quick_ms = 1000 * (time.perf_counter() - started)
        done: dict[str, float] = {}

        def work(key: DerbyView = key, done: dict[str, float] = done) -> None:
            started = time.thread_time()
            odds = precise_odds(key)
            done["cpu"], done["races"] = time.thread_time() - started, odds.samples if odds else 0

        thread = threading.Thread(target=work)
        started = time.perf_counter()
        thread.start()
        longest = tick_until(thread.is_alive)
        wall = time.perf_counter() - started
        alone = tick_until(partial(before, time.perf_counter() + wall))
        print(
            f"live odds, 8 horses, turn {race.turn:2d}: quick {quick_ms:5.1f} ms; precise"
            f" {done['races']:>9,} races, {done['cpu']:5.2f} s CPU ({wall:5.2f} s wall),"
            f" main thread held at most {1000 * longest:5.1f} ms (alone {1000 * alone:5.1f} ms)"
        )
    LIVE.settle()


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
    parser.add_argument("--live", type=int, default=6, help="positions for the live odds")
    args = parser.parse_args()
    bench_kernel(args.samples, args.repeat)
    bench_live(args.live)
    bench_engine(args.games)


if __name__ == "__main__":
    main()
