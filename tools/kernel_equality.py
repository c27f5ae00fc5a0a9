"""Equality at scale: many random tables for each row of the conformance matrix with decisions,
each played by the reference engine and by the compiled kernel with the same seed and bots,
compared chip by chip, standing by standing and pick by pick.

The suite's equality tests play a few hundred tables a kernel; this plays as many as there is
time for, a batch of each row in turn (so a stop leaves every row with about as many), and keeps
what each row has checked in a results file, so a later run goes on from there:

    nice -n 19 .venv/bin/python -m tools.kernel_equality run --batch 50 [--workers 2]
    .venv/bin/python -m tools.kernel_equality status    # or markdown: the docs' table

A table is the row's house rules with the rest drawn at random: players (the row's own for the
rows of one table size), rounds, purses, ante, repeat rule, race start, dealer, scratch values,
payout and Jockey Pot, board, open or hidden hands, Advanced's draft, Perry's offers a seat; and
a bot at each seat drawn from random, heuristic and EV. On the engine's tape (dealt and drawn
ranks, dice, every pick a seat made among several legal actions) the kernel must offer the same
actions in the same order, make the heuristic and EV bots' very picks, and end with the same
chips, pots, race winners and lengths, payments and standings.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from horserace.components.board import HORSES
from horserace.core.chunks import Span
from horserace.core.errors import ConfigError
from horserace.families.board.tally import _kernel_span
from horserace.kernels.advanced_numbers import AdvancedSpec, bot_kinds
from horserace.kernels.classic_numbers import ClassicSpec
from tests.conformance.board_matrix import ROWS, Row
from tests.kernels.advanced_tape import decided_game
from tests.kernels.test_board_game_equality import SHIPPED, table_places

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "kernel_equality.json"
FIRST_SEED = 1_000_000  # table k of a row is seeded FIRST_SEED + k (the suite's are below)
KINDS = ("random", "heuristic", "ev")


def decided_rows() -> list[Row]:
    """The matrix's rows a kernel with decisions plays: all but plain Classic and Northwoods,
    which have no decision to compare (the board-game kernel plays them, checked by its own
    equality tests)."""
    return [row for row in ROWS if row.preset in ("classic", "advanced") and row.name != "classic"]


def random_table(row: Row, seed: int) -> tuple[dict[str, Any], list[str]]:
    """The row's house rules, the rest of the table and its bots drawn from `seed`."""
    pick = random.Random(f"{row.name}:{seed}")
    options = dict(row.options)
    advanced, husted = row.preset == "advanced", bool(options.get("husted"))
    sized = row.name.startswith("classic+husted-")  # a row of one table size keeps it
    players = options["players"] if sized else pick.randint(4 if advanced else 2, 12)
    options |= {
        "players": players,
        "rounds": 1 if "trade_window" in options else pick.randint(1, 2),
        "starting_chips": pick.choice([0, 3, 8, 25, 100]),
        "race_starts": pick.choice(["last-scratcher", "after-last-scratch", "dealer-left"]),
        "rotate_dealer": pick.random() < 0.8,
        "first_dealer": pick.randrange(players),
        "scratch_values": pick.choice([(1, 2, 3, 4), (1, 2, 3, 4), (0, 1, 5, 2)]),
    }
    if "trade_window" in options:
        options["trade_offers"] = pick.randint(1, 4)
    if advanced:
        options |= {
            "ante": pick.choice([1, 1, 2, 3]),
            "draft": pick.random() < 0.85,
            "open_hands": pick.random() < 0.25,
        }
        if pick.random() < 0.2:
            options |= {"jockey_pot": False, "payout": pick.choice(["split", "share"])}
    else:
        options |= {
            "ante": pick.choice([1, 1, 2, 3] if husted else [0, 0, 1, 2]),
            "repeat_scratch": pick.choice(["move", "move", "chain", "reroll"]),
            "reset": pick.choice(["pass-left", "pass-left", "gather"]),
        }
        if not husted:
            options["open_hands"] = pick.random() < 0.7
        roll = pick.random()
        if roll < 0.15 and options["ante"]:
            options |= {"jockey_pot": True, "payout": "split"}
        elif roll < 0.35:
            options["payout"] = "split"
    roll = pick.random()
    if roll < 0.2:
        options["board"] = pick.choice(SHIPPED)
    elif roll < 0.55:  # short lanes: races end sooner, while the choices still matter
        longest = pick.choice([3, 6, 12])
        options["board"] = {
            "name": "random",
            "lanes": {str(h): pick.randint(1, longest) for h in HORSES},
        }
    return options, [pick.choice(KINDS) for _ in range(players)]


def check_table(name: str, seed: int) -> dict[str, Any]:
    """One table of the row played by both: its picks compared and what differed, if anything
    ('' when all was equal; 'refused' when the drawn options make no table)."""
    import horserace.kernels.advanced_game as advanced_game
    import horserace.kernels.classic_game as classic_game

    row = next(row for row in ROWS if row.name == name)
    options, kinds = random_table(row, seed)
    try:
        played = decided_game(row.preset, options, seed, kinds)
    except ConfigError:
        return {"seed": seed, "decisions": 0, "differs": "refused"}
    kernel, spec_of = (
        (advanced_game, AdvancedSpec) if row.preset == "advanced" else (classic_game, ClassicSpec)
    )
    spec = spec_of.from_config(played.config)
    mix = bot_kinds(kinds)
    found = {"seed": seed, "decisions": played.choices, "differs": ""}
    if spec is None or mix is None:
        return found | {"differs": "no kernel plays it"}
    try:
        outcomes, used = kernel.replay_tape(spec, mix, played.tape)
    except ValueError as error:  # a pick or the legal actions offered differ
        return found | {"differs": f"decision: {error}"}
    figures = {
        "tape used": (used, len(played.tape)),
        "chips": (outcomes.chips[0].tolist(), played.chips),
        "pots": (int(outcomes.pot_left[0]), sum(played.pots)),
        "winners": (outcomes.winner[0].tolist(), played.winners),
        "race lengths": (outcomes.rolls[0].tolist(), played.rolls),
        "payments": (outcomes.paid[0].tolist(), played.paid),
        "places": (table_places(played.chips, [0] * spec.players), played.places),
    }
    with mock.patch.object(kernel, "run_games", lambda *args, **kwargs: outcomes):
        tally = _kernel_span(spec, 0, tuple(kinds), Span(0, 1))
    figures["standings"] = (
        list(tally.seat_wins),
        [int(place == 1) for place in played.places],
    )
    wrong = [what for what, (got, want) in figures.items() if got != want]
    return found | {"differs": ", ".join(wrong)}


def _check(job: tuple[str, int]) -> tuple[str, dict[str, Any]]:
    return job[0], check_table(*job)


def load(path: Path) -> dict[str, dict[str, Any]]:
    if not path.exists():
        return {}
    return dict(json.loads(path.read_text(encoding="utf-8"))["rows"])


def save(rows: dict[str, dict[str, Any]], path: Path) -> None:
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps({"rows": rows}, indent=1, sort_keys=True) + "\n", "utf-8")
    partial.replace(path)


def _empty() -> dict[str, Any]:
    return {"tables": 0, "refused": 0, "decisions": 0, "mismatches": 0, "first_mismatch": None}


def _jobs(
    rows: list[Row], held: dict[str, dict[str, Any]], batch: int
) -> Iterator[tuple[str, int]]:
    """A batch of each row in turn, from the seed after the last one it checked."""
    for row in rows:
        done = held.get(row.name, _empty())
        start = FIRST_SEED + done["tables"] + done["refused"]
        for seed in range(start, start + batch):
            yield row.name, seed


def run(path: Path, batch: int, workers: int, only: str | None) -> None:
    rows = [row for row in decided_rows() if not only or only in row.name]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        while True:
            held = load(path)
            started = time.perf_counter()
            for name, found in pool.imap(_check, _jobs(rows, held, batch), chunksize=2):
                row = held.setdefault(name, _empty())
                if found["differs"] == "refused":
                    row["refused"] += 1
                    continue
                row["tables"] += 1
                row["decisions"] += found["decisions"]
                if found["differs"]:
                    row["mismatches"] += 1
                    row["first_mismatch"] = row["first_mismatch"] or found
                    print(f"{name} seed {found['seed']}: {found['differs']}", flush=True)
                save(held, path)  # each table as it is checked: a stop loses none
            took = time.perf_counter() - started
            print(
                f"{time.strftime('%H:%M:%S')} a batch of {batch} a row in {took:.0f} s", flush=True
            )
            status(path)


def markdown(path: Path) -> None:
    """The figures as the docs' table: a row's tables, decisions compared and mismatches."""
    held = load(path)
    print("| matrix row | tables | decisions compared | mismatches |")
    print("|---|---|---|---|")
    for row in decided_rows():
        done = held.get(row.name, _empty())
        first = done["first_mismatch"]
        wrong = f"{done['mismatches']:,}" + (
            "" if first is None else f" (first: seed {first['seed']})"
        )
        print(f"| {row.name} | {done['tables']:,} | {done['decisions']:,} | {wrong} |")
    tables = sum(done["tables"] for done in held.values())
    decisions = sum(done["decisions"] for done in held.values())
    wrong_all = sum(done["mismatches"] for done in held.values())
    print(f"| all {len(decided_rows())} rows | {tables:,} | {decisions:,} | {wrong_all:,} |")


def status(path: Path) -> None:
    held = load(path)
    print(f"{'row':40} {'tables':>7} {'decisions':>10} {'mismatches':>10}  first mismatch")
    for row in decided_rows():
        done = held.get(row.name, _empty())
        first = done["first_mismatch"]
        shown = "" if first is None else f"seed {first['seed']}: {first['differs']}"
        counts = f"{done['tables']:7,} {done['decisions']:10,} {done['mismatches']:10,}"
        print(f"{row.name:40} {counts}  {shown}")
    tables = sum(done["tables"] for done in held.values())
    decisions = sum(done["decisions"] for done in held.values())
    wrong = sum(done["mismatches"] for done in held.values())
    print(f"{'all':40} {tables:7,} {decisions:10,} {wrong:10,}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=("run", "status", "markdown"))
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--batch", type=int, default=50, help="tables of a row in turn")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", help="only the rows whose name holds this")
    args = parser.parse_args()
    if args.what == "run":
        run(args.results, args.batch, args.workers, args.only)
    elif args.what == "markdown":
        markdown(args.results)
    else:
        status(args.results)


if __name__ == "__main__":
    main()
