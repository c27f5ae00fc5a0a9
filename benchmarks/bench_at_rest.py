"""What sealing each step's action and events (at_rest.py) costs the server, against storing
them clear, measured in the same run on the same steps: those of a seeded Advanced game
played by bots, as a table stores them.

Run: `.venv/bin/python benchmarks/bench_at_rest.py [--rounds N] [--single N]`. It only prints.
- Write path, one step a transaction (a person's move; synchronous=FULL, as served): wall time
  per step, sealed / clear.
- Write path, the group writer's batches (64 steps a transaction): the same ratio.
- The CPU a step's row costs to make (JSON, and sealing), which the writer's thread spends.
- Loading a long table (one game of `--rounds` rounds): reading the steps back sealed /
  clear, and the replay through the engine that restoring a table does anyway
  (which is what dropping the stored events would leave: the deal text in the action column
  would still need sealing, so the events are sealed rather than dropped).
Machines are shared and noisy: the clear and sealed runs alternate, and the ratios are the
figures to read.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from horserace.core.chance import SeededChance
from horserace.core.record import GameRecord, RecordedStep
from horserace.drivers.bots import make_bot
from horserace.drivers.server.signing import ServerKey
from horserace.drivers.server.sql_storage import SQLiteStorage
from horserace.drivers.server.storage import PLAYING, StoredStep, TableRow
from horserace.engine import Game, play, replay
from horserace.families.presets import get_preset

SEED = 20_240_601
PLAYERS = 6
BATCH = 64


def game_steps(rounds: int) -> tuple[list[StoredStep], GameRecord]:
    """The steps of a seeded Advanced game of `rounds` rounds played by bots, and its record
    as a table restores it."""
    preset = get_preset("advanced")
    config = preset.config({"players": PLAYERS, "rounds": rounds})
    game = Game("advanced", preset.rules, config, seed=SEED, chance_mode="seeded")
    bots = {seat: make_bot("random", SEED * 64 + seat, "board") for seat in range(PLAYERS)}
    play(game, bots, SeededChance(SEED))
    steps = [
        StoredStep(at, at + 1, played.actor, played.action, played.events)
        for at, played in enumerate(game.steps)
    ]
    recorded = tuple(RecordedStep(s.actor, s.action, s.events) for s in steps)
    record = GameRecord("advanced", preset.rules.config_to_dict(config), SEED, "seeded", recorded)
    return steps, record


def storage(folder: Path, name: str, sealed: bool) -> SQLiteStorage:
    seal = ServerKey.generate().seed_seal() if sealed else None
    store = SQLiteStorage(folder / f"{name}.db", seal)
    store.create_table(TableRow("t", "advanced", {"players": PLAYERS}, SEED, "seeded", {}, "h", 1))
    return store


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def write(folder: Path, name: str, sealed: bool, steps: list[StoredStep], batch: int) -> float:
    store = storage(folder, name, sealed)
    chunks = [steps[i : i + batch] for i in range(0, len(steps), batch)]

    def each() -> None:
        for chunk in chunks:
            store.append_steps([("t", step, PLAYING) for step in chunk])

    seconds = timed(each)
    store.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=56, help="of the long table's game")
    parser.add_argument("--single", type=int, default=300, help="steps written one by one")
    args = parser.parse_args()
    steps, record = game_steps(args.rounds)
    print(f"{len(steps)} steps: an Advanced game of {args.rounds} rounds ({PLAYERS} seats)")
    with tempfile.TemporaryDirectory() as place:
        folder = Path(place)
        for label, batch, sample in (
            ("one step a transaction", 1, steps[: args.single]),
            (f"{BATCH} steps a transaction", BATCH, steps),
        ):
            clear = sealed = 0.0
            for turn in range(4):  # alternating, so a load that comes and goes hits both
                clear += write(folder, f"c{batch}-{turn}", False, sample, batch)
                sealed += write(folder, f"s{batch}-{turn}", True, sample, batch)
            per = 1e6 / (4 * len(sample))
            print(
                f"write, {label}: clear {clear * per:.0f} us/step, sealed {sealed * per:.0f}"
                f" us/step, sealed/clear {sealed / clear:.3f}"
            )
        rows = {sealed: storage(folder, f"rows{sealed}", sealed) for sealed in (False, True)}
        cpu = {
            sealed: min(
                timed(lambda s=store: [s._action_row("t", step) for step in steps])  # type: ignore[misc]
                for _ in range(3)
            )
            for sealed, store in rows.items()
        }
        print(
            f"a row's CPU: clear {cpu[False] * 1e6 / len(steps):.1f} us/step, sealed"
            f" {cpu[True] * 1e6 / len(steps):.1f} us/step"
            f" (+{(cpu[True] - cpu[False]) * 1e6 / len(steps):.1f})"
        )
        loads = {}
        for sealed, store in rows.items():
            store.append_steps([("t", step, PLAYING) for step in steps])
            loads[sealed] = min(timed(lambda s=store: s.load_steps("t")) for _ in range(3))  # type: ignore[misc]
        started = time.perf_counter()
        report = replay(record, get_preset)
        replayed = time.perf_counter() - started
        assert report.ok, report.problems
        print(
            f"load {len(steps)} steps: clear {loads[False] * 1e3:.0f} ms, sealed"
            f" {loads[True] * 1e3:.0f} ms (sealed/clear {loads[True] / loads[False]:.2f});"
            f" the replay restoring does anyway ~{replayed * 1e3:.0f} ms:"
            f" opening adds {(loads[True] - loads[False]) / replayed:.1%} of it"
        )
        restored = (loads[True] + replayed) / (loads[False] + replayed)
        print(f"restoring the table (load + replay): sealed/clear {restored:.2f}")


if __name__ == "__main__":
    main()
