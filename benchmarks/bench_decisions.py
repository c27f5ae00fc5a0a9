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
from typing import Any

from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import Game, play
from horserace.families import make_bot
from horserace.families.board.rules.house import house_options
from horserace.families.presets import get_preset
from horserace.kernels.advanced_game import AdvancedSpec, bot_kinds, run_games
from horserace.kernels.classic_game import ClassicSpec
from horserace.kernels.classic_game import run_games as run_classic

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


def bench_table(
    title: str, preset_name: str, options: dict[str, object], spec: Any, run: Any,
    mixes: list[list[str]], seconds: float, engine_games: int,
) -> None:  # fmt: skip
    """Kernel and engine games a CPU second per bot mix on one table, against the plain loop."""
    rng = random.Random(1)

    def plain(games: int) -> None:
        for _ in range(games):
            play_classic(rng, PLAYERS, ROUNDS)

    baseline = rate(plain, 200, seconds)
    print(
        f"{title} whole games, {PLAYERS} players x {ROUNDS} rounds, per core (CPU time, one"
        f" thread); plain Python Classic loop {baseline:,.0f} games/s:"
    )
    for bots in mixes:
        mix = bot_kinds(bots)
        assert mix is not None
        run(spec, 1, 0, 10, mix, threads=1)  # compile (or load the cache) untimed

        def kernel(games: int, mix: object = mix) -> None:
            run(spec, 7, 0, games, mix, threads=1)

        fast = rate(kernel, 2_000 if "ev" in bots else 20_000, seconds)
        engine = engine_rate(preset_name, options, bots, engine_games)
        kinds = "+".join(sorted(set(bots), key=bots.index))
        print(
            f"  {kinds} bots ({','.join(bots)}): kernel {fast:,.0f} games/s, {fast / baseline:.2f}"
            f" x the plain loop (1/{baseline / fast:.2f}); reference engine {engine:,.1f} games/s"
            f" (1/{baseline / engine:,.0f} of the plain loop; the kernel {fast / engine:,.0f} x"
            " the engine)"
        )


def _spec(preset_name: str, options: dict[str, object], kind: Any) -> Any:
    preset = get_preset(preset_name)
    spec = kind.from_config(preset.rules.config_to_dict(preset.config(options)))
    assert spec is not None
    return spec


def bench_advanced(seconds: float, engine_games: int = 20) -> None:
    options: dict[str, object] = {"players": PLAYERS, "rounds": ROUNDS}
    spec = _spec("advanced", options, AdvancedSpec)
    mixes = [[kind] * PLAYERS for kind in ("random", "heuristic", "ev")]
    bench_table("Advanced", "advanced", options, spec, run_games, mixes, seconds, engine_games)


def bench_husted(seconds: float, engine_games: int = 10) -> None:
    options: dict[str, object] = {"players": PLAYERS, "rounds": ROUNDS, **house_options("husted")}
    spec = _spec("classic", options, ClassicSpec)
    mixes = [["ev", "heuristic"] * (PLAYERS // 2), ["heuristic"] * PLAYERS, ["ev"] * PLAYERS]
    title = "Classic with Husted's rule"
    bench_table(title, "classic", options, spec, run_classic, mixes, seconds, engine_games)


def bench_schellenberg(seconds: float, engine_games: int = 10) -> None:
    options: dict[str, object] = {
        "players": PLAYERS,
        "rounds": ROUNDS,
        **house_options("schellenberg"),
    }
    spec = _spec("classic", options, ClassicSpec)
    mixes = [["ev", "random"] * (PLAYERS // 2), ["ev", "heuristic"] * (PLAYERS // 2)]
    mixes += [["random"] * PLAYERS, ["ev"] * PLAYERS]
    title = "Classic with Schellenberg's market"
    bench_table(title, "classic", options, spec, run_classic, mixes, seconds, engine_games)


def bench_robertson(seconds: float, engine_games: int = 10) -> None:
    """Robertson's four dice, paired by the roller, on the Classic and Advanced kernels."""
    mixes = [["ev", "heuristic"] * (PLAYERS // 2), ["heuristic"] * PLAYERS, ["ev"] * PLAYERS]
    for preset, title, run in (
        ("classic", "Classic with Robertson's rule", run_classic),
        ("advanced", "Advanced with Robertson's rule", run_games),
    ):
        options = {"players": PLAYERS, "rounds": ROUNDS, **house_options("robertson")}
        spec = _spec(preset, options, ClassicSpec if preset == "classic" else AdvancedSpec)
        bench_table(title, preset, options, spec, run, mixes, seconds, engine_games)


def bench_perry(seconds: float, engine_games: int = 2) -> None:
    """Perry's window after each scratch (the most windows a round), Classic then Advanced: the
    engine's EV bot weighs hundreds of legal offers a turn, so it plays a few games only."""
    engine_games = min(engine_games, 2)
    perry = {"players": PLAYERS, "rounds": ROUNDS, **house_options("perry")}
    perry["trade_window"] = "after-each-scratch"
    mixes = [["ev", "random"] * (PLAYERS // 2), ["ev", "heuristic"] * (PLAYERS // 2)]
    mixes += [["random"] * PLAYERS, ["ev"] * PLAYERS]
    spec = _spec("classic", perry, ClassicSpec)
    title = "Classic with Perry's trading after each scratch"
    bench_table(title, "classic", perry, spec, run_classic, mixes, seconds, engine_games)
    spec = _spec("advanced", perry, AdvancedSpec)
    title = "Advanced with Perry's trading after each scratch"
    bench_table(title, "advanced", perry, spec, run_games, mixes, seconds, engine_games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--engine-games", type=int, default=20, help="games on the engine")
    args = parser.parse_args()
    bench_advanced(args.seconds, args.engine_games)
    bench_husted(args.seconds, args.engine_games)
    bench_schellenberg(args.seconds, args.engine_games)
    bench_robertson(args.seconds, args.engine_games)
    bench_perry(args.seconds, args.engine_games)


if __name__ == "__main__":
    main()
