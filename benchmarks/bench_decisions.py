"""Speed of the games with decisions on their compiled kernels, each as a ratio against the
plain Python Classic loop (`plain_classic.py`) measured in the same run, beside the reference
engine playing the same table and bots.

Run: `.venv/bin/python benchmarks/bench_decisions.py [--seconds S] [--engine-games N]`, or as
part of `benchmarks/bench_kernels.py`. It only prints; nothing here is asserted. Figures are
per CPU second of one process (one thread); the first call of a kernel compiles it (or loads
numba's cache) and is not timed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import Game, play
from horserace.families import make_bot
from horserace.families.presets import get_preset
from horserace.kernels.advanced_game import AdvancedSpec, bot_kinds, run_games

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.bench_kernels import PLAYERS, ROUNDS, rate
from benchmarks.plain_classic import play_classic


def engine_rate(preset: str, options: dict[str, object], bots: list[str], games: int) -> float:
    """The reference engine's games a CPU second on the same table and bots."""
    chosen = get_preset(preset)
    config = chosen.config(options)
    started = time.process_time()
    for seed in range(games):
        game = Game(preset, chosen.rules, config, seed=seed, chance_mode="seeded")
        agents = {
            seat: make_bot(kind, derive_seed(seed, BOT_STREAM, seat), "board")
            for seat, kind in enumerate(bots)
        }
        play(game, agents, SeededChance(seed), tally=lambda events: None)
    return games / (time.process_time() - started)


def bench_advanced(seconds: float, engine_games: int = 20) -> None:
    preset = get_preset("advanced")
    options: dict[str, object] = {"players": PLAYERS, "rounds": ROUNDS}
    spec = AdvancedSpec.from_config(preset.rules.config_to_dict(preset.config(options)))
    assert spec is not None
    rng = random.Random(1)

    def plain(games: int) -> None:
        for _ in range(games):
            play_classic(rng, PLAYERS, ROUNDS)

    baseline = rate(plain, 200, seconds)
    print(
        f"Advanced whole games, {PLAYERS} players x {ROUNDS} rounds, per core (CPU time, one"
        f" thread); plain Python Classic loop {baseline:,.0f} games/s:"
    )
    for kind in ("random", "heuristic", "ev"):
        bots = [kind] * PLAYERS
        mix = bot_kinds(bots)
        assert mix is not None
        run_games(spec, 1, 0, 10, mix, threads=1)  # compile (or load the cache) untimed

        def kernel(games: int, mix: object = mix) -> None:
            run_games(spec, 7, 0, games, mix, threads=1)  # type: ignore[arg-type]

        fast = rate(kernel, 2_000 if kind == "ev" else 20_000, seconds)
        engine = engine_rate("advanced", options, bots, engine_games)
        print(
            f"  {kind} bots at every seat: kernel {fast:,.0f} games/s, {fast / baseline:.2f} x"
            f" the plain loop (1/{baseline / fast:.2f}); reference engine {engine:,.1f} games/s"
            f" (1/{baseline / engine:,.0f} of the plain loop; the kernel {fast / engine:,.0f} x"
            " the engine)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--engine-games", type=int, default=20, help="games on the engine")
    args = parser.parse_args()
    bench_advanced(args.seconds, args.engine_games)


if __name__ == "__main__":
    main()
