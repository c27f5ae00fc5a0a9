"""Speed of the compiled kernels, each as a ratio against a plain Python loop of the same rules
measured in the same run (machines are shared and noisy: only the ratios travel).

Run: `.venv/bin/python benchmarks/bench_kernels.py [--seconds S]`. It only prints; nothing here
is asserted. The first call of each kernel compiles it (or loads numba's cache) and is not timed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from horserace.components.board import DEFAULT_BOARD
from horserace.families.board.race_tally import race_start
from horserace.families.derby.rules.race import start_race
from horserace.families.derby.rules.track import DEFAULT_TRACK
from horserace.families.presets import get_preset
from horserace.kernels.board_game import BoardGameSpec, run_games
from horserace.kernels.board_race import run_races
from horserace.kernels.card_race import card_spec
from horserace.kernels.card_race import run_games as run_card_games
from horserace.kernels.derby_fast import run_races as run_derby_races
from horserace.kernels.derby_race import race_start as derby_start

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.plain_classic import play_classic
from benchmarks.plain_races import plain_card_race, plain_derby_race

PLAYERS, ROUNDS = 6, 8


def rate(
    work: Callable[[int], None],
    size: int,
    seconds: float,
    clock: Callable[[], float] = time.process_time,
) -> float:
    """Items per CPU second (process time, so other programs on the machine count less; or
    per second of `clock`): `work(size)` repeated for about `seconds`, best of the repeats."""
    best = float("inf")
    deadline = clock() + seconds
    while True:
        started = clock()
        work(size)
        best = min(best, clock() - started)
        if clock() > deadline:
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
            play_classic(rng, PLAYERS, ROUNDS)

    def kernel(games: int, threads: int = 1) -> None:
        run_games(spec, 7, 0, games, threads=threads)

    cores = len(os.sched_getaffinity(0))
    run_games(spec, 1, 0, 10, threads=cores)
    print(f"Classic whole games, {PLAYERS} players x {ROUNDS} rounds (load average {_load()}):")
    baseline = rate(plain, 200, seconds)
    fast = rate(kernel, 100_000, seconds)
    print(
        f"  per core (CPU time, one thread): plain Python loop {baseline:,.0f} games/s,"
        f" kernel {fast:,.0f} games/s, ratio {fast / baseline:,.0f}x"
    )
    wall = time.perf_counter  # what a run in one process gives when it may use every core
    baseline = rate(plain, 200, seconds, wall)  # the plain loop has no second core to use
    alone = rate(kernel, 100_000, seconds, wall)
    fast = rate(partial(kernel, threads=cores), 200_000, seconds, wall)
    started, cpu = wall(), time.process_time()
    kernel(200_000, threads=cores)
    used = (time.process_time() - cpu) / (wall() - started)  # how much the machine gave
    print(
        f"  one process (wall time): plain Python loop {baseline:,.0f} games/s, kernel on one"
        f" thread {alone:,.0f} games/s ({alone / baseline:,.0f}x), on {cores} threads"
        f" {fast:,.0f} games/s, ratio {fast / baseline:,.0f}x (load average {_load()};"
        f" a last run on {cores} threads got {used:.2f} cores)"
    )


def _load() -> str:
    return ", ".join(f"{load:.1f}" for load in os.getloadavg())


def plain_race(rng: random.Random, to_go: list[int]) -> tuple[int, int]:
    """One race alone as a plain Python loop: (winner, rolls)."""
    left = list(to_go)
    rolls = 0
    while True:
        horse = rng.randint(1, 6) + rng.randint(1, 6)
        rolls += 1
        left[horse] -= 1
        if left[horse] == 0:
            return horse, rolls


def bench_races(seconds: float) -> None:
    """Races alone from the gate, four horses scratched: plain loop, roll-by-roll kernel, and
    the table kernel (the exact shortcut)."""
    start = race_start(DEFAULT_BOARD, [3, 5, 7, 9], {})
    never = 1 << 40
    to_go = [never, never, *(k if k else never for k in start.to_go)]
    rng = random.Random(1)

    def plain(races: int) -> None:
        for _ in range(races):
            plain_race(rng, to_go)

    figures = {"plain Python loop": rate(plain, 2000, seconds)}
    for method in ("rolls", "table"):
        run_races(start, 1, 0, 10, method)

        def kernel(races: int, method: str = method) -> None:
            run_races(start, 3, 0, races, method)

        figures[f"kernel ({method})"] = rate(kernel, 2_000_000, seconds)
    base = figures["plain Python loop"]
    print("Board races alone (winner, rolls, rolls per scratch line), one process:")
    for name, value in figures.items():
        print(f"  {name:18} {value:14,.0f} races/s   {value / base:8,.0f}x the plain loop")
    print(f"  table / rolls: {figures['kernel (table)'] / figures['kernel (rolls)']:.1f}x")


def bench_cards(seconds: float) -> None:
    """Card races: whole games of 10 races, 6 blind bettors, on the kernel, against a plain loop
    of the race alone (course, redeal, race; no bets)."""
    print("Card races (kernel: whole games, 10 races a game, 6 seats betting blind), one process:")
    rng = random.Random(1)

    def plain(races: int) -> None:
        for _ in range(races):
            plain_card_race(rng)

    base = rate(plain, 2000, seconds)
    print(f"  {'plain Python loop':28} {base:12,.0f} races/s")
    for style, extra in (("book", {}), ("tote", {}), ("party", {}), ("book", {"stumbling": True})):
        config = get_preset("basic").config({"players": 6, "races": 10, "betting": style, **extra})
        spec = card_spec(config)
        assert spec is not None
        run_card_games(spec, 1, 0, 10)

        def kernel(races: int, spec: object = spec) -> None:
            run_card_games(spec, 3, 0, races // 10)  # type: ignore[arg-type]

        fast = rate(kernel, 500_000, seconds)
        label = f"kernel, {style}" + (", stumbling" if extra else "")
        print(f"  {label:28} {fast:12,.0f} races/s   {fast / base:6,.0f}x the plain loop")


def bench_derby(seconds: float) -> None:
    """Derby races from the start line on the default track: the plain loop, the reference
    kernel (`race`, which also reads the engine's tapes) and the fast loop (the same races)."""
    track = DEFAULT_TRACK
    zone = [track.zone_moves(s) for s in range(track.finish + 1)]
    print("Derby races on the default track (podium, turns), one process:")
    for field in (8, 20):
        runners = list(range(1, field + 1))
        rng = random.Random(1)

        def plain(races: int, runners: list[int] = runners, rng: random.Random = rng) -> None:
            for _ in range(races):
                plain_derby_race(
                    rng, runners, track.finish, zone, set(track.mud), set(track.accelerators)
                )

        start = derby_start(start_race(tuple(runners)))
        figures = {"plain Python loop": rate(plain, 300, seconds)}
        for method in ("reference", "fast"):
            run_derby_races(start, track, 1, 0, 10, method=method)

            def kernel(races: int, start: object = start, method: str = method) -> None:
                run_derby_races(start, track, 3, 0, races, method=method)  # type: ignore[arg-type]

            figures[f"kernel ({method})"] = rate(kernel, 300_000, seconds)
        base = figures["plain Python loop"]
        print(f"  {field} horses:")
        for name, value in figures.items():
            print(f"    {name:18} {value:11,.0f} races/s   {value / base:6,.0f}x the plain loop")
        ratio = figures["kernel (fast)"] / figures["kernel (reference)"]
        print(f"    fast / reference: {ratio:.2f}x")
        derby_parts(start, figures["kernel (fast)"], seconds)


def derby_parts(start: object, fast: float, seconds: float) -> None:
    """Where a race's time goes on the fast loop: the same races on the track with its mud,
    its accelerators or both paved over (the turns alone, then each kind of dice)."""
    from dataclasses import replace

    track = DEFAULT_TRACK
    none = frozenset[int]()
    tracks = {
        "as it is": track,
        "paved (no mud, no accelerators)": replace(track, mud=none, accelerators=none),
        "mud only": replace(track, accelerators=none),
        "accelerators only": replace(track, mud=none),
    }
    for label, paved in tracks.items():
        turns = run_derby_races(start, paved, 3, 0, 20_000).turns.mean()  # type: ignore[arg-type]

        def kernel(races: int, paved: object = paved) -> None:
            run_derby_races(start, paved, 3, 0, races)  # type: ignore[arg-type]

        speed = fast if paved is track else rate(kernel, 300_000, seconds)
        print(
            f"      {label:32} {speed:11,.0f} races/s, {1e9 / speed:5,.0f} ns a race,"
            f" {turns:5.1f} turns, {1e9 / speed / turns:5.1f} ns a turn"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument(
        "--only",
        choices=(
            "classic",
            "races",
            "cards",
            "derby",
            "advanced",
            "husted",
            "schellenberg",
            "robertson",
            "perry",
        ),
        help="one benchmark only",
    )
    args = parser.parse_args()
    from benchmarks.bench_decisions import (  # (reads this module)
        bench_advanced,
        bench_husted,
        bench_perry,
        bench_robertson,
        bench_schellenberg,
    )

    benches = {"classic": bench_classic, "races": bench_races, "cards": bench_cards}
    benches["derby"] = bench_derby
    benches["advanced"] = bench_advanced
    benches["husted"] = bench_husted
    benches["schellenberg"] = bench_schellenberg
    benches["robertson"] = bench_robertson
    benches["perry"] = bench_perry
    for name, bench in benches.items():
        if args.only in (None, name):
            bench(args.seconds)


if __name__ == "__main__":
    main()
