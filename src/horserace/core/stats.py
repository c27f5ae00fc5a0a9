"""Small statistics for Monte Carlo reports: running means with a 95% interval, and proportions.

Both accumulators merge, so chunks of games run in other processes combine into one figure.
Pure Python (no SciPy): the normal quantile 1.96 is all the intervals need.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from horserace.core.errors import ConfigError

__all__ = ["Z95", "Proportion", "RunningStats", "merge_tally", "wilson95"]

Z95 = 1.96  # the 97.5% quantile of the standard normal, as the usual tables round it


def wilson95(successes: int, trials: int) -> tuple[float, float]:
    """Wilson score 95% interval of successes/trials; (0, 1) when there are no trials."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    scale = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / scale
    half = Z95 / scale * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact, not a rounding's 1e-19
    return (low, 1.0 if successes == trials else min(1.0, centre + half))


@dataclass
class RunningStats:
    """Welford's running mean and variance: one pass, stable, mergeable (Chan et al.)."""

    count: int = 0
    mean: float = 0.0
    m2: float = 0.0  # sum of squared deviations from the mean

    @classmethod
    def of(cls, values: Iterable[float]) -> RunningStats:
        stats = cls()
        for value in values:
            stats.add(value)
        return stats

    @classmethod
    def of_array(cls, values: Any) -> RunningStats:
        """The same figures from a NumPy array in one vectorised pass (for kernel output)."""
        import numpy as np

        array = np.asarray(values, dtype=np.float64).ravel()
        if array.size == 0:
            return cls()
        mean = float(array.mean())
        return cls(int(array.size), mean, float(((array - mean) ** 2).sum()))

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (value - self.mean)

    def merge(self, other: RunningStats) -> None:
        """Fold `other` in, as if its values had been added here (up to float rounding)."""
        if other.count == 0:
            return
        if self.count == 0:
            self.count, self.mean, self.m2 = other.count, other.mean, other.m2
            return
        count = self.count + other.count
        delta = other.mean - self.mean
        self.mean += delta * other.count / count
        self.m2 += other.m2 + delta * delta * self.count * other.count / count
        self.count = count

    @property
    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator); 0 with fewer than two values."""
        return self.m2 / (self.count - 1) if self.count > 1 else 0.0

    @property
    def std(self) -> float:
        return math.sqrt(self.variance)

    @property
    def standard_error(self) -> float:
        return self.std / math.sqrt(self.count) if self.count > 1 else math.inf

    def ci95(self) -> tuple[float, float] | None:
        """mean ± 1.96 s/√n (normal approximation); None with fewer than two values."""
        if self.count < 2:
            return None
        half = Z95 * self.standard_error
        return (self.mean - half, self.mean + half)

    def scaled(self, factor: float) -> RunningStats:
        """The figures of every value times `factor` (a count of rolls priced in chips)."""
        return RunningStats(self.count, self.mean * factor, self.m2 * factor * factor)

    def to_json(self) -> dict[str, Any]:
        interval = self.ci95()
        return {
            "count": self.count,
            "mean": self.mean if self.count else None,
            "std": self.std if self.count > 1 else None,
            "ci95": list(interval) if interval is not None else None,
        }


@dataclass(frozen=True)
class Proportion:
    """`successes` out of `trials`, with the Wilson score interval (sound near 0 and 1)."""

    successes: int
    trials: int

    def __post_init__(self) -> None:
        if not 0 <= self.successes <= self.trials:
            raise ConfigError(f"a proportion needs 0 <= successes <= trials, not {self}")

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    def wilson95(self) -> tuple[float, float]:
        """Wilson score 95% interval; (0, 1) when there are no trials."""
        return wilson95(self.successes, self.trials)

    def to_json(self) -> dict[str, Any]:
        return {
            "successes": self.successes,
            "trials": self.trials,
            "rate": self.rate,
            "ci95": list(self.wilson95()),
        }


TallyT = TypeVar("TallyT")


def merge_tally(earlier: TallyT, later: TallyT) -> TallyT:
    """Fold a later chunk's tally (a dataclass of counts, `RunningStats`, and lists and dicts
    of them) into an earlier one, field by field, in index order; `players` and any other
    field in `SAME` are the table's, not counts, and stay."""
    kept: tuple[str, ...] = getattr(earlier, "SAME", ("players",))
    for field in dataclasses.fields(earlier):  # type: ignore[arg-type]
        if field.name not in kept:
            mine, theirs = getattr(earlier, field.name), getattr(later, field.name)
            setattr(earlier, field.name, _merged(mine, theirs))
    return earlier


def _merged(mine: Any, theirs: Any) -> Any:
    if isinstance(mine, RunningStats):
        mine.merge(theirs)
        return mine
    if isinstance(mine, list):
        return [_merged(a, b) for a, b in zip(mine, theirs, strict=True)]
    if isinstance(mine, dict):
        both = dict(mine)
        for key, value in theirs.items():
            both[key] = _merged(both[key], value) if key in both else value
        return both
    return mine + theirs  # counts, and NumPy arrays of counts


def counts_by_value(counts: Mapping[int, int]) -> tuple[int, ...]:
    """{value: how many} as a row of counts for the values 0, 1, ... up to the largest (what a
    histogram draws; a tally keeps the dict, which merges whatever values its chunks met)."""
    return tuple(counts.get(value, 0) for value in range(max(counts, default=-1) + 1))
