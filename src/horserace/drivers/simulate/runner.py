"""The one way every simulation runs: fixed chunks of consecutive indices, played in this
process or on a worker pool, merged in index order, with progress as chunks finish.

Chunks never depend on the number of workers, and they are merged in index order, so a run's
figures are the same bit for bit whether one process or eight played it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from horserace.core.aside import WAKE_SECONDS, aside
from horserace.core.chunks import (
    Plan,
    Planned,
    Progress,
    Span,
    Stage,
    StageProgress,
    check_run,
    check_threads,
    spans,
    threads_for_kernels,
)
from horserace.core.errors import ConfigError, HorseraceError
from horserace.families import family_of_preset
from horserace.families.simulation import Simulation

T = TypeVar("T")

__all__ = [
    "Plan",
    "Progress",
    "Span",
    "Stopped",
    "WorkerLost",
    "aside",
    "check_run",
    "partial_on_interrupt",
    "run",
    "run_planned",
    "simulate_games",
    "simulation_of",
    "spans",
]


@dataclass(frozen=True)
class Stopped:
    """Where and why a run kept by `partial_on_interrupt` ended before its last chunk: its
    figures are those of the first `done` of `asked` `what` (after `whole`, the run a stage
    follows, all in). `error` says what ended it (a chunk that kept killing its worker); None:
    Ctrl-C."""

    what: str
    done: int
    asked: int
    error: str | None = None
    whole: str = ""  # "200 games": what came in whole before the stage that stopped

    def figures(self) -> str:
        """Whose figures a report of the run holds, in words."""
        part = f"the first {self.done} of {self.asked}" if self.done else f"none of {self.asked}"
        whole = f"all {self.whole} and " if self.whole else ""
        return f"the figures are those of {whole}{part} {self.what}"


_KEEP_PARTIAL: ContextVar[list[Stopped] | None] = ContextVar("keep_partial", default=None)


@contextmanager
def partial_on_interrupt() -> Iterator[list[Stopped]]:
    """Within it, Ctrl-C (or a chunk that keeps killing its worker) ends a run with the chunks
    already merged (a prefix of the indices, so still the same figures whatever the workers)
    instead of nothing: the caller sees fewer items than it asked for, and the list it is given
    says why. Ctrl-C before the first chunk is done still raises KeyboardInterrupt."""
    stops: list[Stopped] = []
    token = _KEEP_PARTIAL.set(stops)
    try:
        yield stops
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


class WorkerLost(HorseraceError):
    """A chunk killed the worker playing it (or workers died before finishing any chunk) too
    many times: the run cannot go on."""


REPORT_STAGE = "the report"  # shown, with no count, while a report is made
REPLAYS = 3  # deaths of a worker on one chunk (or in a row, finishing nothing) that end a run
STARTED, FINISHED = 1, 2  # a chunk's state on the run's board, written by the worker playing it
_WORKER: dict[str, Any] = {}  # in a worker: the board of the run it plays chunks of


def worker_starts(board: Any) -> None:
    """A worker of a run's pool: Ctrl-C is the main process's; the board is where the worker
    says which chunk it plays (a shared array, one entry a chunk)."""
    worker_ignores_ctrl_c()
    _WORKER["board"] = board


def played_on_board(play: Callable[[Span], T], index: int, part: Span) -> T:
    """Chunk `index` played in a worker, marked started then finished on the board: a worker
    that dies leaves its chunk marked started, which tells the main process whom to blame."""
    board = _WORKER["board"]
    board[index] = STARTED
    tally = play(part)
    board[index] = FINISHED
    return tally


@dataclass
class _Merged(Generic[T]):
    """The tallies merged so far, in index order, with the progress told after each."""

    plan: Plan[T]
    progress: Progress | None
    result: T | None = None
    done: int = 0

    def add(self, part: Span, tally: T) -> None:
        self.result = tally if self.result is None else self.plan.merge(self.result, tally)
        self.done = part.stop
        if self.progress is not None:
            self.progress(part.stop)


def _died(pool: ProcessPoolExecutor, workers: list[Any]) -> str:
    """How the pool's workers died, as far as their exit codes tell (a worker killed by a signal
    has its negative number; those the pool ended itself after the first death, SIGTERM)."""
    stop_at_once(pool)
    codes = [w.exitcode for w in workers if w.exitcode not in (None, 0, -signal.SIGTERM)]
    code = codes[0] if codes else -signal.SIGTERM
    return f"killed by {signal.Signals(-code).name}" if code < 0 else f"with exit code {code}"


@dataclass
class _Pools(Generic[T]):
    """A run's chunks played on worker pools, merged in index order. A worker that dies (killed,
    out of memory) breaks its pool: a new one replays the chunks not merged yet, which are the
    same whatever plays them, so the figures are those of an undisturbed run. The chunks the
    broken pool was playing are suspects, replayed one at a time before the others, so that a
    death is theirs; a chunk that kills its worker REPLAYS times ends the run (WorkerLost)."""

    plan: Plan[T]
    parts: list[Span]
    workers: int
    merged: _Merged[T]
    what: str
    at: int = 0  # the next chunk to merge
    tallies: dict[int, T] = field(default_factory=dict)  # chunks played before their turn
    suspects: list[int] = field(default_factory=list)
    deaths: dict[int, int] = field(default_factory=dict)
    fruitless: int = 0  # pools broken in a row without a chunk played

    def run(self) -> None:
        while self.at < len(self.parts):
            board = multiprocessing.RawArray("b", len(self.parts))
            pool = ProcessPoolExecutor(
                max_workers=min(self.workers, len(self.parts) - self.at),
                initializer=worker_starts,
                initargs=(board,),
            )
            futures: dict[int, Future[T]] = {}
            how = self._play(pool, futures)
            if how is None:
                return
            self._blame(board, futures, how)

    def _play(self, pool: ProcessPoolExecutor, futures: dict[int, Future[T]]) -> str | None:
        """Play the chunks left on `pool`; None once all are merged, or how its workers died."""

        def submit(index: int) -> Future[T]:
            part = self.parts[index]
            futures[index] = pool.submit(played_on_board, self.plan.play, index, part)
            return futures[index]

        processes: list[Any] = []
        with pool:
            try:
                with ctrl_c_held():  # the workers start at the first submit
                    submit(self.suspects[0] if self.suspects else self.at)
                processes = list((pool._processes or {}).values())  # to read how they end
                while self.suspects:
                    self.tallies[self.suspects[0]] = waited(futures[self.suspects[0]])
                    self.suspects.pop(0)
                    self.fruitless = 0
                    self._merge_ready()
                    if self.suspects:
                        submit(self.suspects[0])
                for index in range(self.at, len(self.parts)):
                    if index not in self.tallies and index not in futures:
                        submit(index)
                while self.at < len(self.parts):
                    at = self.at
                    tally = self.tallies.pop(at) if at in self.tallies else waited(futures[at])
                    self.merged.add(self.parts[at], tally)
                    self.at, self.fruitless = at + 1, 0
            except BrokenProcessPool:
                return _died(pool, processes)
            except BaseException:  # Ctrl-C or a failing chunk: do not play the queued ones
                stop_at_once(pool)
                raise
        return None

    def _merge_ready(self) -> None:
        """Merge the chunks played ahead whose turn has come."""
        while self.at in self.tallies:
            self.merged.add(self.parts[self.at], self.tallies.pop(self.at))
            self.at += 1

    def _blame(self, board: Any, futures: dict[int, Future[T]], how: str) -> None:
        """After a broken pool: keep what it finished; the chunks it was playing are suspects."""
        for index, future in futures.items():
            done = future.done() and not future.cancelled()
            if index >= self.at and done and future.exception() is None:
                self.tallies[index] = future.result()
                self.fruitless = 0
        self._merge_ready()
        self.suspects = [
            index
            for index in range(self.at, len(self.parts))
            if board[index] == STARTED and index not in self.tallies
        ]
        for index in self.suspects:
            self.deaths[index] = deaths = self.deaths.get(index, 0) + 1
            if deaths >= REPLAYS:
                span = self.parts[index]
                raise WorkerLost(
                    f"a worker died {deaths} times playing {self.what} {span.start + 1}"
                    f"-{span.stop}, the last time {how}"
                )
        self.fruitless += 1
        if self.fruitless >= REPLAYS:
            raise WorkerLost(
                f"workers died {self.fruitless} times in a row before finishing a chunk,"
                f" the last time {how}"
            )


def run(
    plan: Plan[T],
    total: int,
    chunk: int,
    *,
    workers: int = 1,
    threads: int = 1,
    progress: Progress | None = None,
    what: str = "items",
) -> T:
    """Play `total` indices (`what` they are, for the messages) in chunks of `chunk`;
    `progress(done)` after each chunk. With one worker, `threads` lets a kernel split each
    chunk over that many threads of this process."""
    check_threads(threads, workers)
    parts = spans(total, chunk)
    merged = _Merged(plan, progress)
    try:
        if workers == 1 or len(parts) == 1:
            for part in parts:
                with threads_for_kernels(threads):
                    tally = aside(plan.play, part)
                merged.add(part, tally)
        else:
            _Pools(plan, parts, workers, merged, what).run()
    except (KeyboardInterrupt, WorkerLost) as stop:
        stops = _KEEP_PARTIAL.get()
        if merged.result is None or stops is None:
            raise
        error = str(stop) if isinstance(stop, WorkerLost) else None
        stops.append(Stopped(what, merged.done, total, error))
    if merged.result is None:
        raise ConfigError(f"nothing to run: {total} items")
    return merged.result


def run_planned(
    planned: Planned[T],
    games: int,
    *,
    workers: int = 1,
    threads: int = 1,
    progress: Progress | None = None,
    what: str = "games",
    stage_progress: StageProgress | None = None,
) -> Any:
    """A family's planned simulation of `games` games (or `what` it counts), then its stages
    once every game is in, run and turned into its report."""
    if threads > 1 and not planned.threaded:
        raise ConfigError(
            "--threads splits only the dice board's compiled whole games (Classic or Northwoods"
            " between bots without decisions), not this run: use --workers"
        )
    started = time.perf_counter()
    stops = _KEEP_PARTIAL.get()
    before = len(stops) if stops is not None else 0
    total = run(
        planned.plan,
        games,
        planned.chunk,
        workers=workers,
        threads=threads,
        progress=progress,
        what=what,
    )
    for stage in planned.stages:
        if stops is not None and len(stops) > before:  # the run before it stopped
            break
        total = run_stage(stage, total, workers, stage_progress, f"{games} {what}")
    if stage_progress is not None:  # a report may take long (a card table's exact odds)
        stage_progress(REPORT_STAGE, 0)
    report = planned.report(total, workers, started)
    return dataclasses.replace(report, threads=threads) if threads > 1 else report


def run_stage(
    stage: Stage[T], tally: T, workers: int, progress: StageProgress | None, whole: str
) -> T:
    """A stage run on the same workers with progress of its own, folded into `tally`. Stopped
    by Ctrl-C (or a chunk that kills its worker) under `partial_on_interrupt`, its figures are
    those of the chunks merged (if any), and the stop says that `whole` came in before it."""
    stops = _KEEP_PARTIAL.get()
    before = len(stops) if stops is not None else 0
    told = None if progress is None else progress(stage.what, stage.total)
    try:
        done = run(
            stage.plan, stage.total, stage.chunk, workers=workers, progress=told, what=stage.what
        )
    except (KeyboardInterrupt, WorkerLost) as stop:
        if stops is None:
            raise
        error = str(stop) if isinstance(stop, WorkerLost) else None
        stops.append(Stopped(stage.what, 0, stage.total, error, whole))
        return tally
    if stops is not None and len(stops) > before:
        stops[-1] = dataclasses.replace(stops[-1], whole=whole)
    return stage.fold(tally, done)


def simulate_games(
    preset: str,
    options: Mapping[str, Any],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    threads: int = 1,
    progress: Progress | None = None,
    stage_progress: StageProgress | None = None,
    **settings: Any,
) -> Any:
    """Play `games` seeded games of any preset between bots and return its family's report.
    `settings` are the family's own (bot kinds, engine, ...); bad options raise ConfigError
    before any game is played. Game i is the same whatever the number of `workers` or
    `threads` (which only the kernels that split a chunk use: the dice board's whole games)."""
    return run_simulation(
        simulation_of(preset),
        preset,
        options,
        games,
        seed,
        workers,
        progress,
        threads,
        stage_progress,
        **settings,
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
    stage_progress: StageProgress | None = None,
    **settings: Any,
) -> Any:
    """Any family's simulation `name` (a preset, or one of its other simulations) of `count`
    games or races, planned, run and turned into its report; `stage_progress(what, total)`
    gives the progress of each stage that follows them."""
    planned = simulation.plan(name, options, count, seed, workers, **settings)
    return run_planned(
        planned,
        count,
        workers=workers,
        threads=threads,
        progress=progress,
        what=simulation.counts,
        stage_progress=stage_progress,
    )


def simulation_of(preset: str) -> Simulation:
    """The simulation of the family that registers `preset` (a ConfigError if it has none)."""
    found = family_of_preset(preset).simulation()
    if found is None:
        raise ConfigError(f"{preset!r} has no simulation")
    return found
