"""The one way every simulation runs: fixed chunks of consecutive indices, played in this
process or on a worker pool, merged in index order, with progress as chunks finish.

Chunks never depend on the number of workers, and they are merged in index order, so a run's
figures are the same bit for bit whether one process or eight played it.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
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


_KEEP_PARTIAL: ContextVar[bool] = ContextVar("keep_partial", default=False)


@contextmanager
def partial_on_interrupt() -> Iterator[None]:
    """Within it, Ctrl-C ends a run with the chunks already merged (a prefix of the indices, so
    still the same figures whatever the workers) instead of nothing: the caller sees fewer items
    than it asked for. Ctrl-C before the first chunk is done still raises KeyboardInterrupt."""
    token = _KEEP_PARTIAL.set(True)
    try:
        yield
    finally:
        _KEEP_PARTIAL.reset(token)


def _worker_ignores_ctrl_c() -> None:
    """Ctrl-C is the main process's to handle: a worker finishes its chunk quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    try:
        if workers == 1 or len(parts) == 1:
            for part in parts:
                tally = plan.play(part)
                result = tally if result is None else plan.merge(result, tally)
                if progress is not None:
                    progress(part.stop)
        else:
            pool = ProcessPoolExecutor(
                max_workers=min(workers, len(parts)), initializer=_worker_ignores_ctrl_c
            )
            with pool:
                try:
                    for part, tally in zip(parts, pool.map(plan.play, parts), strict=True):
                        result = tally if result is None else plan.merge(result, tally)
                        if progress is not None:
                            progress(part.stop)
                except BaseException:  # Ctrl-C or a failing chunk: do not play the queued ones
                    pool.shutdown(cancel_futures=True)
                    raise
    except KeyboardInterrupt:
        if result is None or not _KEEP_PARTIAL.get():
            raise
    if result is None:
        raise ConfigError(f"nothing to run: {total} items")
    return result
