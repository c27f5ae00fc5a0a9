"""The one way every simulation runs: fixed chunks of consecutive indices, played in this
process or on a worker pool, merged in index order, with progress as chunks finish.

Chunks never depend on the number of workers, and they are merged in index order, so a run's
figures are the same bit for bit whether one process or eight played it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from horserace.core.aside import WAKE_SECONDS, aside
from horserace.core.chunks import (
    Plan,
    Planned,
    Progress,
    Span,
    check_run,
    check_threads,
    spans,
    threads_for_kernels,
)
from horserace.core.errors import ConfigError
from horserace.families import family_of_preset
from horserace.families.simulation import Simulation

T = TypeVar("T")

__all__ = [
    "Plan",
    "Progress",
    "Span",
    "aside",
    "check_run",
    "partial_on_interrupt",
    "run",
    "run_planned",
    "simulate_games",
    "simulation_of",
    "spans",
]


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


def worker_ignores_ctrl_c() -> None:
    """Ctrl-C is the main process's to handle: a worker finishes its chunk quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def waited(future: Future[T]) -> T:
    """A chunk's tally, waited for in short timed waits (as in `aside`): Ctrl-C reaches the
    main thread even when the signal lands on one of the pool's threads."""
    while True:
        with contextlib.suppress(TimeoutError):
            return future.result(WAKE_SECONDS)


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Ctrl-C pressed within it takes effect as it ends. Starting a pool forks its workers, and
    a KeyboardInterrupt raised inside the fork's own handlers (logging's) is printed and then
    ignored, so the press would be lost and the run would go on to the end."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: pressed.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed and callable(previous):
        previous(signal.SIGINT, None)
    elif pressed and previous == signal.SIG_DFL:
        raise KeyboardInterrupt


MANAGER_SECONDS = 2.0  # the most an ended pool's manager thread is waited for


def stop_at_once(pool: ProcessPoolExecutor) -> None:
    """End a pool without waiting for the chunks under way in its workers (a kernel's first
    compile there takes a quarter of a minute): the queued ones are dropped, the workers ended.
    The pool's manager thread, which ends as soon as its workers are gone, is waited for: left
    to end while the program exits, it could close its wake-up pipe while the exit hook of
    concurrent.futures writes to it, a traceback after the command's last line."""
    workers = list((pool._processes or {}).values())  # no public way to end them
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    if manager is not None:
        manager.join(MANAGER_SECONDS)


def run(
    plan: Plan[T],
    total: int,
    chunk: int,
    *,
    workers: int = 1,
    threads: int = 1,
    progress: Progress | None = None,
) -> T:
    """Play `total` indices in chunks of `chunk`; `progress(done)` after each chunk. With one
    worker, `threads` lets a kernel split each chunk over that many threads of this process."""
    check_threads(threads, workers)
    parts = spans(total, chunk)
    result: T | None = None
    try:
        if workers == 1 or len(parts) == 1:
            for part in parts:
                with threads_for_kernels(threads):
                    tally = aside(plan.play, part)
                result = tally if result is None else plan.merge(result, tally)
                if progress is not None:
                    progress(part.stop)
        else:
            pool = ProcessPoolExecutor(
                max_workers=min(workers, len(parts)), initializer=worker_ignores_ctrl_c
            )
            with pool:
                try:
                    with ctrl_c_held():  # the workers start at the first submits
                        futures = [pool.submit(plan.play, part) for part in parts]
                    for part, future in zip(parts, futures, strict=True):
                        tally = waited(future)
                        result = tally if result is None else plan.merge(result, tally)
                        if progress is not None:
                            progress(part.stop)
                except BaseException:  # Ctrl-C or a failing chunk: do not play the queued ones
                    stop_at_once(pool)
                    raise
    except KeyboardInterrupt:
        if result is None or not _KEEP_PARTIAL.get():
            raise
    if result is None:
        raise ConfigError(f"nothing to run: {total} items")
    return result


def run_planned(
    planned: Planned[T],
    games: int,
    *,
    workers: int = 1,
    threads: int = 1,
    progress: Progress | None = None,
) -> Any:
    """A family's planned simulation of `games` games, run and turned into its report."""
    if threads > 1 and not planned.threaded:
        raise ConfigError(
            "--threads splits only the dice board's compiled whole games (Classic or Northwoods"
            " between bots without decisions), not this run: use --workers"
        )
    started = time.perf_counter()
    total = run(
        planned.plan, games, planned.chunk, workers=workers, threads=threads, progress=progress
    )
    report = planned.report(total, workers, started)
    return dataclasses.replace(report, threads=threads) if threads > 1 else report


def simulate_games(
    preset: str,
    options: Mapping[str, Any],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    threads: int = 1,
    progress: Progress | None = None,
    **settings: Any,
) -> Any:
    """Play `games` seeded games of any preset between bots and return its family's report.
    `settings` are the family's own (bot kinds, engine, ...); bad options raise ConfigError
    before any game is played. Game i is the same whatever the number of `workers` or
    `threads` (which only the kernels that split a chunk use: the dice board's whole games)."""
    return run_simulation(
        simulation_of(preset), preset, options, games, seed, workers, progress, threads, **settings
    )


def run_simulation(
    simulation: Simulation,
    name: str,
    options: Mapping[str, Any],
    count: int,
    seed: int,
    workers: int = 1,
    progress: Progress | None = None,
    threads: int = 1,
    **settings: Any,
) -> Any:
    """Any family's simulation `name` (a preset, or one of its other simulations) of `count`
    games or races, planned, run and turned into its report."""
    planned = simulation.plan(name, options, count, seed, workers, **settings)
    return run_planned(planned, count, workers=workers, threads=threads, progress=progress)


def simulation_of(preset: str) -> Simulation:
    """The simulation of the family that registers `preset` (a ConfigError if it has none)."""
    found = family_of_preset(preset).simulation()
    if found is None:
        raise ConfigError(f"{preset!r} has no simulation")
    return found
