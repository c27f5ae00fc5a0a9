"""Speed of the reference engine on the dice board game, against a plain loop of the same rules.

Run: `.venv/bin/python benchmarks/bench_engine.py [--games N] [--quick]`. It only prints;
nothing here is asserted. Machines are shared and noisy, so every Classic figure is also given
as a ratio against the plain Python loop of the same rules (`plain_classic.py`) measured in the
same run: half of its games before the engine's and half after, so a load that comes and goes
weighs on both sides. Times are this process's CPU time, not wall time, so other programs
sharing the cores disturb the figures less. Only the public interface is used (presets, `Game`,
`play`, bots, `simulate_games`), so the benchmark measures whatever engine stands behind it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from horserace.core.chance import SeededChance
from horserace.drivers.bots import make_bot
from horserace.drivers.simulate.runner import simulate_games
from horserace.engine import Game, play
from horserace.families.presets import get_preset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.null_rules import actors_of_games, play_shadow
from benchmarks.plain_classic import play_classic

CLASSIC: dict[str, Any] = {"players": 6, "rounds": 8}
ADVANCED: dict[str, Any] = {"players": 6}
SEED = 20_240_601
ENGINE_TARGET = 0.25  # the engine should reach a quarter of the plain loop's games per second
SIMULATE_TARGET = 1.0  # and `simulate_games` at least the engine's own figure


@dataclass(frozen=True)
class Timing:
    games: int
    steps: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds


def time_plain(games: int, first_seed: int) -> Timing:
    """Games of the plain loop; its "steps" are dice rolls (scratch and race)."""
    rolls = 0
    started = time.process_time()
    for index in range(games):
        played = play_classic(random.Random(first_seed + index), CLASSIC["players"])
        rolls += sum(played.race_rolls)
    seconds = time.process_time() - started
    return Timing(games, rolls + 4 * CLASSIC["rounds"] * games, seconds)


def time_engine(preset_name: str, options: dict[str, Any], bot: str, games: int) -> Timing:
    """Whole games through the play loop, every seat a `bot`, recorded as any table records."""
    preset = get_preset(preset_name)
    config = preset.config(options)
    players = preset.rules.players(config)
    steps = 0
    started = time.process_time()
    for index in range(games):
        seed = SEED + index
        game = Game(preset_name, preset.rules, config, seed=seed, chance_mode="seeded")
        bots = {seat: make_bot(bot, seed * 64 + seat, "board") for seat in range(players)}
        play(game, bots, SeededChance(seed))
        steps += len(game.steps)
    return Timing(games, steps, time.process_time() - started)


def time_shadow(games: int) -> Timing:
    """The floor: the same games' turns through `play` over rules that do nothing (the actor
    sequences are taken from engine games before the clock starts)."""
    sequences = actors_of_games(CLASSIC, [SEED + index for index in range(games)])
    steps = 0
    started = time.process_time()
    for index, actors in enumerate(sequences):
        steps += play_shadow(actors, SEED + index)
    return Timing(games, steps, time.process_time() - started)


def time_simulate(games: int, engine: str) -> Timing:
    """`simulate_games` on one worker: "reference" plays the rules engine (with the tally's
    observer on every step), "auto" the compiled kernel when there is one (compiled once
    before timing)."""
    if engine != "reference":
        simulate_games("classic", CLASSIC, 1, SEED, workers=1, engine=engine)
    started = time.process_time()
    report = simulate_games("classic", CLASSIC, games, SEED, workers=1, engine=engine)
    return Timing(report.games, max(report.steps, 1), time.process_time() - started)


def show(label: str, timing: Timing, note: str = "") -> None:
    line = (
        f"{label:<30} {timing.games_per_second:8.1f} games/s {timing.steps_per_second:10,.0f}"
        f" steps/s {timing.steps / timing.games:6.0f} steps/game  {note}"
    )
    print(line.rstrip())


def ratio(value: float, against: float, target: float) -> str:
    """`value / against`, as a fraction too when small, and whether it reaches `target`."""
    share = value / against
    fraction = f" (1/{1 / share:.0f})" if share < 0.5 else ""
    verdict = "meets" if share >= target else "below"
    return f"{share:.3g}{fraction}: {verdict} the target of {target:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine measurement")
    parser.add_argument("--quick", action="store_true", help="a short run (20 games) to try it")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    games = 20 if args.quick else args.games
    plain_half = 10 * games  # the plain loop is fast: more games make its time measurable

    print(f"Classic: {CLASSIC['players']} players, {CLASSIC['rounds']} rounds, random bots")
    before = time_plain(plain_half, SEED)
    engine = time_engine("classic", CLASSIC, "random", games)
    floor = time_shadow(games)
    simulated = time_simulate(games, "reference")
    compiled = time_simulate(50 * games, "auto")
    after = time_plain(plain_half, SEED + plain_half)
    plain = Timing(2 * plain_half, before.steps + after.steps, before.seconds + after.seconds)
    show("plain loop (baseline)", plain, "(steps = dice rolls)")
    show("reference engine, play loop", engine)
    show("play loop, do-nothing rules", floor, "(the same turns; the floor)")
    show("simulate_games, reference", simulated)
    show("simulate_games, default", compiled, "(the compiled kernel; no steps)")
    engine_share = ratio(engine.games_per_second, plain.games_per_second, ENGINE_TARGET)
    simulate_share = ratio(simulated.games_per_second, engine.games_per_second, SIMULATE_TARGET)
    default_share = ratio(compiled.games_per_second, engine.games_per_second, SIMULATE_TARGET)
    print(f"games/s, engine / plain loop:              {engine_share}")
    print(f"games/s, simulate (reference) / engine:    {simulate_share}")
    print(f"games/s, simulate (default) / engine:      {default_share}")
    floor_share = floor.games_per_second / plain.games_per_second
    print(f"games/s, do-nothing rules / plain loop:    {floor_share:.3g} (the ceiling)")
    print(f"time, engine / do-nothing rules:           {engine.seconds / floor.seconds:.1f}")

    print(f"Advanced: {ADVANCED['players']} players, EV bots")
    advanced = time_engine("advanced", ADVANCED, "ev", max(1, games // 4))
    show("reference engine, play loop", advanced)


if __name__ == "__main__":
    main()
