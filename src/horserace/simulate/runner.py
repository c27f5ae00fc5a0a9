"""The one way every simulation runs: fixed chunks of consecutive indices, played in this
process or on a worker pool, merged in index order, with progress as chunks finish.

Chunks never depend on the number of workers, and they are merged in index order, so a run's
figures are the same bit for bit whether one process or eight played it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Generic, TypeVar

from horserace.core.errors import ConfigError

T = TypeVar("T")

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Span:
    """Indices start..stop-1 of a run."""

    start: int
    stop: int


def spans(total: int, size: int) -> list[Span]:
    return [Span(start, min(start + size, total)) for start in range(0, total, size)]


@dataclass(frozen=True)
class Plan(Generic[T]):
    """What a run is: a picklable `play(span) -> tally` and how tallies fold together."""

    play: Callable[[Span], T]
    merge: Callable[[T, T], T]  # merge(earlier, later) -> both, in index order


def check_run(count: int, seed: int, workers: int, what: str = "games") -> None:
    """The numbers every run is given, checked before anything is played."""
    for name, value, low in ((what, count, 1), ("seed", seed, 0), ("workers", workers, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{name} must be a whole number, not {value!r}")
        if value < low:
            raise ConfigError(f"{name} must be at least {low}, not {value}")


def run(
    plan: Plan[T],
    total: int,
    chunk: int,
    *,
    workers: int = 1,
    progress: Progress | None = None,
) -> T:
    """Play `total` indices in chunks of `chunk`; `progress(done)` after each chunk."""
    parts = spans(total, chunk)
    result: T | None = None
    if workers == 1 or len(parts) == 1:
        for part in parts:
            tally = plan.play(part)
            result = tally if result is None else plan.merge(result, tally)
            if progress is not None:
                progress(part.stop)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(parts))) as pool:
            try:
                for part, tally in zip(parts, pool.map(plan.play, parts), strict=True):
                    result = tally if result is None else plan.merge(result, tally)
                    if progress is not None:
                        progress(part.stop)
            except BaseException:  # Ctrl-C or a failing chunk: do not play the queued ones
                pool.shutdown(cancel_futures=True)
                raise
    if result is None:
        raise ConfigError(f"nothing to run: {total} items")
    return result
