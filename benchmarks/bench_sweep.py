"""A sweep of 100 grid points on one and on two local workers, in the same run.

Run: `.venv/bin/python benchmarks/bench_sweep.py [--games N] [--repeats R]`. It only prints.
The target is wall time: two workers should take at most 0.6 of one worker's time. Wall time
depends on how much of the second core is free, so the run alternates one and two workers
(1, 2, 2, 1, ... to spread a passing load over both) and also prints the CPU time the workers
used (and how much of a core that was while the run lasted) and the machine's load average,
which say how far a slow figure came from other work.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from horserace.drivers.simulate.runner import simulate_games
from horserace.drivers.simulate.sweep import Point, Sweep, expand, parse_grid

GRID = ["players=2,3,4,5,6,7,8,9,10,11", "rounds=1,2,3,4,5,6,7,8,9,10"]


def one_run(points: list[Point], workers: int) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process and its finished workers) of one sweep."""
    cpu_before, started = os.times(), time.perf_counter()
    Sweep().run_local(points, workers)
    wall, cpu_after = time.perf_counter() - started, os.times()
    cpu = sum(cpu_after[:4]) - sum(cpu_before[:4])  # user + system, self + children
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="kernel games a point")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each worker count")
    args = parser.parse_args()
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    points = expand("classic", parse_grid(GRID), args.games, 1)
    simulate_games("classic", {"players": 3}, 10, 1)  # compile (or load) the kernel first
    runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    load = [os.getloadavg()[0]]
    for repeat in range(args.repeats):
        for workers in (1, 2) if repeat % 2 == 0 else (2, 1):
            runs[workers].append(one_run(points, workers))
            load.append(os.getloadavg()[0])
    wall = {w: statistics.mean(run[0] for run in runs[w]) for w in runs}
    cpu = {w: statistics.mean(run[1] for run in runs[w]) for w in runs}
    print(f"Sweep of {len(points)} points x {args.games:,} kernel games, {args.repeats} runs each")
    for workers in (1, 2):
        share = cpu[workers] / wall[workers]
        print(
            f"  {workers} worker(s): {wall[workers]:6.2f} s wall, {cpu[workers]:6.2f} s CPU"
            f" ({share:.2f} of a core while it ran)"
        )
    print(f"  wall, two workers / one: {wall[2] / wall[1]:.2f} (target at most 0.6)")
    print(f"  CPU, two workers / one:  {cpu[2] / cpu[1]:.2f} (the work the split adds)")
    print(
        f"  CPU per worker, two / one: {cpu[2] / 2 / cpu[1]:.2f} (the wall ratio if each"
        " worker had a core to itself and the points split evenly)"
    )
    print(f"  load average (1 min) during the run: {min(load):.1f}-{max(load):.1f} on 2 cores")


if __name__ == "__main__":
    main()
