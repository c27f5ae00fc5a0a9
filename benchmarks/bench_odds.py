"""Time the race-odds functions on the default board, so regressions in speed show up as numbers.

Run: .venv/bin/python benchmarks/bench_odds.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from horserace.components.board import DEFAULT_BOARD, HORSES
from horserace.families.board.odds.race import (
    exact_race_odds,
    exact_scratch_phase_odds,
    race_odds,
    scratch_phase_odds,
)

GATE = {h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES}


def mid_race_states(count: int, seed: int = 2024) -> list[dict[int, int]]:
    """Random positions with 0..4 horses scratched, each running horse somewhere in its lane."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        out = set(rng.sample(HORSES, rng.randint(0, 4)))
        states.append({h: rng.randint(1, GATE[h]) for h in HORSES if h not in out})
    return states


def median_seconds(calls: list[Callable[[], object]]) -> float:
    """Median wall time of single calls (each call timed on its own)."""
    times = []
    for call in calls:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    floats = mid_race_states(3000)
    exacts = mid_race_states(200, seed=99)
    rows = [
        (
            "race_odds, mid-race state",
            median_seconds([partial(race_odds, s) for s in floats]) * 1e6,
            "µs",
            len(floats),
        ),
        (
            "race_odds, full field at the gate",
            median_seconds([lambda: race_odds(GATE)] * 1000) * 1e6,
            "µs",
            1000,
        ),
        (
            "exact_race_odds, mid-race state",
            median_seconds([partial(exact_race_odds, s) for s in exacts]) * 1e3,
            "ms",
            len(exacts),
        ),
        (
            "exact_race_odds, full field at the gate",
            median_seconds([lambda: exact_race_odds(GATE)] * 50) * 1e3,
            "ms",
            50,
        ),
        (
            "scratch_phase_odds, 4 rolls before the race",
            median_seconds([lambda: scratch_phase_odds(GATE, (), 4)] * 7) * 1e3,
            "ms",
            7,
        ),
        (
            "  same with reroll_repeats",
            median_seconds([lambda: scratch_phase_odds(GATE, (), 4, reroll_repeats=True)] * 7)
            * 1e3,
            "ms",
            7,
        ),
        (
            "exact_scratch_phase_odds, 4 rolls before",
            median_seconds([lambda: exact_scratch_phase_odds(GATE, (), 4)] * 3) * 1e3,
            "ms",
            3,
        ),
    ]
    print(f"{'what (default board)':<46} {'median':>10}  {'runs':>5}")
    for name, value, unit, runs in rows:
        print(f"{name:<46} {value:>7.1f} {unit:<2}  {runs:>5}")


if __name__ == "__main__":
    main()
