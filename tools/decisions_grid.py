"""What a decision is worth, row by row: the bots' grid of docs/analysis.md (each house rule, bot
pairing and player count) played on the compiled kernels and kept in docs/analysis/decisions.json.

A row costs minutes of CPU, the whole grid hours, so the grid accumulates: `run` plays the rows
the results file lacks, most wanted first, one at a time (each in a process of its own, so its
CPU seconds are its own and a stop loses at most the row being played), and writes each
finished row into the file at once. Stop it at any time and start it again later:

    nice -n 19 .venv/bin/python -m tools.decisions_grid run [--results PATH] [--only TEXT]
    .venv/bin/python -m tools.decisions_grid status

`tools/analysis_doc.py` writes the page's tables and pictures from that file alone; a row not
played yet is shown as such.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "analysis" / "decisions.json"
SEED = 2026
GAMES = 100_000  # games a row: every edge's 95% interval within about +-0.5 chip
BOTS = ("ev,random", "heuristic,random", "ev,heuristic")
PLAYERS = (6, 4, 9)  # the page's main table is at 6 players
# the house rules of each preset the grid plays ("" none), as `--house` names them
RULES = (
    ("advanced", ""),
    ("advanced", "robertson"),
    ("advanced", "perry"),
    ("classic", "husted"),
    ("classic", "robertson"),
    ("classic", "perry"),
    ("classic", "schellenberg"),
)


@dataclass(frozen=True)
class Row:
    """One row of the grid: a preset with its house rule and other options, the players, and
    the two bot kinds (alternating round the table)."""

    preset: str
    rule: str  # a house rule by name, "" for none
    players: int
    bots: str
    extra: tuple[tuple[str, Any], ...] = ()  # other options (e.g. Advanced's repeat scratch)

    @property
    def key(self) -> str:
        extra = "".join(f" --{name.replace('_', '-')} {value}" for name, value in self.extra)
        house = f" --house {self.rule}" if self.rule else ""
        return f"{self.preset}{house}{extra} --players {self.players} --bots {self.bots}"

    def options(self) -> dict[str, Any]:
        from horserace.families.board.rules.house import house_options

        return {"players": self.players, **house_options(self.rule), **dict(self.extra)}


def grid() -> list[Row]:
    """Every row, in the order they are played: what the page lacks most first (Robertson's
    and Perry's rows at 6 players, until now a few hundred engine games), then the other player
    counts, cheap pairings before the EV bot's; then Husted's rows at 6 players, held from the
    kernel Classic's has since taken in; then the rows without a choice to make, which measure
    luck alone."""
    rows: list[Row] = []

    def add(preset: str, rule: str, players: int, bots: str, **extra: Any) -> None:
        row = Row(preset, rule, players, bots, tuple(extra.items()))
        if row not in rows:
            rows.append(row)

    for rule in ("robertson", "perry"):
        for preset in ("advanced", "classic"):
            for bots in ("heuristic,random", "ev,random", "ev,heuristic"):
                add(preset, rule, 6, bots)
    for players in PLAYERS:
        for bots in ("heuristic,random", "ev,random", "ev,heuristic"):
            for preset, rule in RULES:
                if (rule, players) != ("husted", 6):
                    add(preset, rule, players, bots)
    for bots in BOTS:  # held since before Husted's kernel became a flag of Classic's
        add("classic", "husted", 6, bots)
    add("advanced", "", 6, "ev,random", repeat_scratch="move")
    add("classic", "", 6, "ev,random")
    add("northwoods", "", 4, "ev,random")
    return rows


def load(path: Path = RESULTS) -> dict[str, dict[str, Any]]:
    """The rows the results file holds, by key."""
    if not path.exists():
        return {}
    return {row["key"]: row for row in json.loads(path.read_text(encoding="utf-8"))["rows"]}


def save(rows: dict[str, dict[str, Any]], path: Path = RESULTS) -> None:
    """Write the results file whole (through a temporary file, so a stop never leaves half)."""
    order = {row.key: index for index, row in enumerate(grid())}
    ordered = sorted(rows.values(), key=lambda row: order.get(row["key"], len(order)))
    lines = ",\n".join("  " + json.dumps(row, sort_keys=True) for row in ordered)
    text = f'{{"rows": [\n{lines}\n]}}\n'
    partial = path.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


def current_kernel(row: Row) -> str | None:
    """The name of the compiled kernel that plays the row today (None: only the engine)."""
    from horserace.families.board.rules.config import BoardConfig
    from horserace.families.board.tally import kernel_spec
    from horserace.families.presets import get_preset

    config = get_preset(row.preset).config(row.options())
    assert isinstance(config, BoardConfig)
    spec = kernel_spec(config, tuple(row.bots.split(",")))
    return None if spec is None else str(spec.name)


def missing(results: dict[str, dict[str, Any]]) -> list[Row]:
    """The grid's rows the results lack, or hold played on another kernel than today's or
    with fewer games, in the grid's order."""
    wanted = []
    for row in grid():
        held = results.get(row.key)
        if held is None or held["games"] < GAMES or held["kernel"] != current_kernel(row):
            wanted.append(row)
    return wanted


def commit() -> str:
    """The commit the code was checked out at (with '+changes' when the tree differs)."""
    head = subprocess.run(
        ["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "src"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return head + ("+changes" if dirty else "")


def play(row: Row, games: int, workers: int) -> dict[str, Any]:
    """Play one row on its kernel and return its result (without the CPU seconds, which the
    process that started this one measures)."""
    from horserace.drivers.simulate.runner import simulate_games

    kernel = current_kernel(row)
    if kernel is None:
        raise SystemExit(f"{row.key}: no compiled kernel plays this row")
    started = time.perf_counter()
    report = simulate_games(
        row.preset,
        row.options(),
        games,
        SEED,
        workers=workers,
        bots=tuple(row.bots.split(",")),
        engine="kernel",
    )
    first, second = row.bots.split(",")
    edge = report.bot_edge
    low, high = edge.ci95() or (edge.mean, edge.mean)
    return {
        "key": row.key,
        "preset": row.preset,
        "rule": row.rule,
        "extra": dict(row.extra),
        "players": row.players,
        "bots": row.bots,
        "games": report.games,
        "seed": SEED,
        "kernel": report.kernel,
        "gains": {first: report.bot_results[first].mean, second: report.bot_results[second].mean},
        "edge": edge.mean,
        "low": low,
        "high": high,
        "wall_seconds": round(time.perf_counter() - started, 1),
        "workers": workers,
        "commit": commit(),
        "played": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(path: Path, only: str | None, games: int, workers: int) -> None:
    """Play the missing rows one at a time, each in its own process, writing each one done."""
    for row in missing(load(path)):
        if only and only not in row.key:
            continue
        print(f"{time.strftime('%H:%M:%S')} playing {row.key}", flush=True)
        before = _children_cpu()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tools.decisions_grid",
                "row",
                row.key,
                "--games",
                str(games),
                "--workers",
                str(workers),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            print(done.stderr[-2000:], file=sys.stderr, flush=True)
            raise SystemExit(f"{row.key}: failed")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["cpu_seconds"] = round(_children_cpu() - before, 1)
        results = load(path)  # as it is now: another run may have added rows
        results[row.key] = result
        save(results, path)
        print(
            f"{time.strftime('%H:%M:%S')} {row.key}: edge {result['edge']:+.2f}"
            f" [{result['low']:+.2f}, {result['high']:+.2f}], {result['cpu_seconds']} CPU s",
            flush=True,
        )


def status(path: Path) -> None:
    results = load(path)
    wanted = {row.key for row in missing(results)}
    for row in grid():
        held = results.get(row.key)
        shown = "not yet played"
        if held is not None:
            shown = f"{held['edge']:+.2f} [{held['low']:+.2f}, {held['high']:+.2f}]"
            shown += f" {held['games']:,} games, {held['kernel']} kernel"
            shown += " (to play again)" if row.key in wanted else ""
        print(f"{row.key:62} {shown}")
    print(f"{len(grid()) - len(wanted)} of {len(grid())} rows done")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=("run", "status", "row"))
    parser.add_argument("key", nargs="?", help="row: the key of the row to play")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--only", help="run: only the rows whose key holds this")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args()
    if args.what == "row":
        row = next((row for row in grid() if row.key == args.key), None)
        if row is None:
            raise SystemExit(f"no row {args.key!r} in the grid")
        print(json.dumps(play(row, args.games, args.workers)), flush=True)
    elif args.what == "run":
        run(args.results, args.only, args.games, args.workers)
    else:
        status(args.results)


if __name__ == "__main__":
    main()
