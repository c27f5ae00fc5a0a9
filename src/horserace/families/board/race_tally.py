"""Races of the dice board alone, planned for the one runner: win chances, race length and the
rolls (and chips) each scratch line costs, with 95% intervals, beside the exact figures.

Race i of a run with seed S draws from stream i of `derive_seed(S, RACE_STREAM)`, so the report
is the same whatever the number of workers. The table kernel is used unless `method="rolls"`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from horserace.components.board import DEFAULT_BOARD, HORSES, Board
from horserace.core.chunks import Plan, Planned, Span, check_run
from horserace.core.errors import ConfigError
from horserace.core.rng import derive_seed
from horserace.core.stats import Proportion, RunningStats, merge_tally
from horserace.families.board.odds.race import race_odds
from horserace.kernels.board_race import LINES, METHODS, RaceStart, race_table, run_races

CHUNK_RACES = 250_000
RACE_STREAM = 5
LINE_VALUES = (1, 2, 3, 4)  # Classic: a roll naming the horse on line k costs k chips
LONGEST = 400  # the length histogram counts longer races in its last bin


@dataclass
class _Tally:
    races: int = 0
    wins: list[int] = field(default_factory=lambda: [0] * len(HORSES))
    length: RunningStats = field(default_factory=RunningStats)
    lines: list[RunningStats] = field(default_factory=lambda: [RunningStats() for _ in "1234"])
    chips: RunningStats = field(default_factory=RunningStats)
    length_counts: Any = field(default_factory=lambda: np.zeros(LONGEST + 1, dtype=np.int64))


def _play(start: RaceStart, base: int, method: str, values: tuple[int, ...], span: Span) -> _Tally:
    outcomes = run_races(start, base, span.start, span.stop, method)
    chips = outcomes.line_rolls @ np.array(values, dtype=np.int64)
    return _Tally(
        races=span.stop - span.start,
        wins=[int(c) for c in np.bincount(outcomes.winner, minlength=13)[2:13]],
        length=RunningStats.of_array(outcomes.rolls),
        lines=[RunningStats.of_array(outcomes.line_rolls[:, k]) for k in range(LINES)],
        chips=RunningStats.of_array(chips),
        length_counts=np.bincount(np.minimum(outcomes.rolls, LONGEST), minlength=LONGEST + 1),
    )


@dataclass(frozen=True)
class RaceReport:
    """What the races showed, with the exact figures beside them."""

    board: Board
    scratched: tuple[int, ...]  # the horse on line 1, 2, ... (in the order given)
    positions: dict[int, int]
    seed: int
    races: int
    method: str
    wins: dict[int, Proportion]
    exact_win: dict[int, float]
    length: RunningStats
    exact_length: float
    lines: tuple[RunningStats, ...]  # rolls naming each line's horse, per race
    exact_lines: tuple[float, ...]
    chips: RunningStats  # chips paid per race at `values` a roll of each line's horse
    length_counts: tuple[int, ...]  # races of each length 0..LONGEST (the last bin: or longer)
    values: tuple[int, ...] = LINE_VALUES  # what a roll of line 1, 2, 3, 4's horse costs
    workers: int = field(default=1, compare=False)
    elapsed_seconds: float = field(default=0.0, compare=False)

    def start_words(self) -> str:
        """Where the races start, in a few words: the scratched lines, the horses advanced."""
        scratched = ", ".join(map(str, self.scratched)) or "none"
        advanced = ", ".join(f"{h}={s}" for h, s in sorted(self.positions.items()) if s)
        return f"scratched: {scratched}" + (f"; advanced: {advanced}" if advanced else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board.to_dict(),
            "scratched": list(self.scratched),
            "positions": {str(h): p for h, p in self.positions.items()},
            "seed": self.seed,
            "races": self.races,
            "engine": f"kernel ({self.method})",
            "workers": self.workers,
            "elapsed_seconds": self.elapsed_seconds,
            "horses": [
                {"horse": h, **p.to_json(), "exact": self.exact_win.get(h, 0.0)}
                for h, p in self.wins.items()
            ],
            "race_length": {**self.length.to_json(), "exact": self.exact_length},
            "lines": [
                {
                    "line": k + 1,
                    "horse": horse,
                    "value": self.values[k],
                    "rolls": {**self.lines[k].to_json(), "exact": self.exact_lines[k]},
                    "chips": {
                        **self.lines[k].scaled(self.values[k]).to_json(),
                        "exact": self.values[k] * self.exact_lines[k],
                    },
                }
                for k, horse in enumerate(self.scratched)
            ],
            "chips_per_race": {**self.chips.to_json(), "exact": self.exact_chips},
        }

    @property
    def exact_chips(self) -> float:
        """Chips paid per race, exactly: each line's expected rolls at its value."""
        return sum(v * e for v, e in zip(self.values, self.exact_lines, strict=False))


def race_start(board: Board, scratched: list[int], positions: dict[int, int]) -> RaceStart:
    """The kernel's start: scratched horses take lines 1, 2, ... in the order given."""
    return RaceStart(
        to_go=tuple(
            0 if h in scratched else board.advances_to_finish(h) - positions.get(h, 0)
            for h in HORSES
        ),
        line=tuple(scratched.index(h) + 1 if h in scratched else 0 for h in HORSES),
    )


def plan_races(
    name: str,
    options: Mapping[str, Any],
    races: int,
    seed: int,
    workers: int,
    *,
    board: Board = DEFAULT_BOARD,
    scratched: Sequence[int] = (),
    positions: Mapping[int, int] | None = None,
    method: str = "table",
    values: Sequence[int] = LINE_VALUES,
) -> Planned[_Tally]:
    """`races` races from the given start (`name` and `options` are those of every simulation;
    races alone have no table options), checked before any is run."""
    check_run(races, seed, workers, "races")
    if method not in METHODS:
        raise ConfigError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if len(values) != LINES or any(v < 0 for v in values):
        raise ConfigError(f"line values must be {LINES} whole numbers >= 0, e.g. 20,15,10,5")
    out = list(scratched)
    advanced = dict(positions or {})
    start = race_start(board, out, advanced)
    used = method if method == "rolls" or race_table(start) is not None else "rolls"
    priced = tuple(values)
    plan = Plan(partial(_play, start, derive_seed(seed, RACE_STREAM), used, priced), merge_tally)
    report = partial(_report, board, out, advanced, seed, used, priced, start)
    return Planned(plan, CHUNK_RACES, report)


def _report(
    board: Board,
    out: list[int],
    advanced: dict[int, int],
    seed: int,
    method: str,
    values: tuple[int, ...],
    start: RaceStart,
    tally: _Tally,
    workers: int,
    started: float,
) -> RaceReport:
    exact = race_odds({h: k for h, k in zip(HORSES, start.to_go, strict=True) if k})
    dice = {h: (6 - abs(h - 7)) / 36 for h in HORSES}
    return RaceReport(
        board=board,
        scratched=tuple(out),
        positions=advanced,
        seed=seed,
        races=tally.races,
        method=method,
        wins={h: Proportion(w, tally.races) for h, w in zip(HORSES, tally.wins, strict=True)},
        exact_win=exact.win,
        length=tally.length,
        exact_length=exact.expected_rolls,
        lines=tuple(tally.lines[: len(out)]),
        exact_lines=tuple(dice[h] * exact.expected_rolls for h in out),  # Wald's identity
        chips=tally.chips,
        length_counts=tuple(int(c) for c in tally.length_counts),
        values=values,
        workers=workers,
        elapsed_seconds=time.perf_counter() - started,
    )
