"""`merge_tally` folds a later chunk's tally into an earlier one field by field, as if one
tally had counted both chunks' games."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from horserace.core.chunks import GameTally
from horserace.core.stats import RunningStats, merge_tally


@dataclass
class _Counts(GameTally):
    wins: list[int] = field(default_factory=lambda: [0, 0])
    lengths: RunningStats = field(default_factory=RunningStats)
    by_kind: dict[str, RunningStats] = field(default_factory=dict)
    by_count: dict[int, int] = field(default_factory=dict)
    places: list[list[int]] = field(default_factory=lambda: [[0, 0], [0, 0]])
    histogram: np.ndarray = field(default_factory=lambda: np.zeros(3, dtype=np.int64))


def _chunk(values: list[float], kind: str, count: int) -> _Counts:
    tally = _Counts(players=4, games=len(values), races=2 * len(values), steps=10)
    tally.wins = [len(values), 1]
    tally.lengths = RunningStats.of(values)
    tally.by_kind = {kind: RunningStats.of(values)}
    tally.by_count = {count: 1}
    tally.places = [[1, 0], [0, len(values)]]
    tally.histogram = np.array([1, 0, len(values)], dtype=np.int64)
    return tally


def test_every_field_folds_and_the_table_size_stays() -> None:
    merged = merge_tally(_chunk([1.0, 2.0], "ev", 3), _chunk([3.0, 4.0, 5.0], "random", 3))
    assert (merged.players, merged.games, merged.races, merged.steps) == (4, 5, 10, 20)
    assert merged.wins == [5, 2]
    whole = RunningStats.of([1.0, 2.0, 3.0, 4.0, 5.0])
    assert merged.lengths.count == 5 and abs(merged.lengths.mean - whole.mean) < 1e-12
    assert list(merged.by_kind) == ["ev", "random"]
    assert merged.by_kind["random"].count == 3
    assert merged.by_count == {3: 2}
    assert merged.places == [[2, 0], [0, 5]]
    assert merged.histogram.tolist() == [2, 0, 5]
