"""A sweep on a local process pool that survives a worker's death.

A worker that dies (killed, out of memory, `os._exit` in a task) breaks the whole pool: every
point not finished gets BrokenProcessPool. The sweep keeps the outcomes finished, starts a new
pool and sends the other points to it again. The point whose worker died counts an attempt
(one that keeps killing its worker ends failed, with "worker process died" in the table after
its retries); the points the pool ended with it, and those still queued, count none. Each
worker says which point it starts on a queue of its own, so the sweep knows which point was in
the worker that died.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from multiprocessing.queues import SimpleQueue
from typing import Any, Protocol, TypeAlias, TypeVar

from horserace.core.aside import WAKE_SECONDS
from horserace.drivers.simulate.runner import ctrl_c_held, stop_at_once, worker_ignores_ctrl_c


class Indexed(Protocol):
    """A grid point, as the pool knows it: by its index."""

    @property
    def index(self) -> int: ...


P = TypeVar("P", bound=Indexed)
# (point, report or None, error or None, attempts): a point's outcome, to the sweep
Finish: TypeAlias = Callable[[P, Any, str | None, int], None]

# (point index, worker pid) as a worker starts a point, (None, worker pid) as it is done
Started: TypeAlias = "SimpleQueue[tuple[int | None, int]]"

_started: Started | None = None  # in a worker: where it says what it starts


def _worker_start(started: Started) -> None:
    """Each worker: Ctrl-C left to the main process, and the queue to say what it plays on."""
    worker_ignores_ctrl_c()
    global _started
    _started = started


def _tracked(task: Callable[[P], Any], point: P) -> Any:
    """The task, between the worker's word that it starts this point and that it is done with
    it (a SimpleQueue writes at once, so the first is out even if the task ends the process)."""
    if _started is None:
        return task(point)
    _started.put((point.index, os.getpid()))
    try:
        return task(point)
    finally:
        _started.put((None, os.getpid()))


def error_text(error: BaseException | None) -> str:
    return f"{type(error).__name__}: {error}" if error is not None else "unknown error"


def on_pool(
    task: Callable[[P], Any], points: Sequence[P], workers: int, retries: int, finish: Finish[P]
) -> None:
    """Every point to an outcome on pools of `workers` processes (started in the order given),
    a new pool after each one a dying worker broke."""
    rank = {point.index: place for place, point in enumerate(points)}
    tries = {point.index: 0 for point in points}
    todo = list(points)
    while todo:
        left = _one_pool(task, todo, workers, retries, finish, tries)
        todo = sorted(left, key=lambda point: rank[point.index])


def _one_pool(
    task: Callable[[P], Any],
    todo: list[P],
    workers: int,
    retries: int,
    finish: Finish[P],
    tries: dict[int, int],
) -> list[P]:
    """Run `todo` on one pool; the points to send to a new one if a worker's death broke it."""
    started: Started = multiprocessing.SimpleQueue()
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start, initargs=(started,))
    at: dict[int, int | None] = {}  # worker pid -> the point it is playing
    broken: list[P] = []  # the points the broken pool ended or never started
    again: list[P] = []  # the points that failed and are to be tried again
    with pool:
        try:
            with ctrl_c_held():  # the workers start at the first submits
                running: dict[Future[Any], P] = {pool.submit(_tracked, task, p): p for p in todo}
            processes = pool._processes or {}  # no public way to know how a worker ended
            while running:  # short timed waits: Ctrl-C reaches the main thread at once
                done, _ = wait(running, WAKE_SECONDS, return_when=FIRST_COMPLETED)
                _read(started, at)
                for future in done:
                    point = running.pop(future)
                    failure = future.exception()
                    if isinstance(failure, BrokenProcessPool):
                        broken.append(point)
                        continue
                    tries[point.index] += 1
                    if failure is None:
                        finish(point, future.result(), None, tries[point.index])
                    elif tries[point.index] <= retries:
                        again.append(point)
                    else:
                        finish(point, None, error_text(failure), tries[point.index])
                if not broken:  # a broken pool takes no more: they go to the next one
                    running.update({pool.submit(_tracked, task, p): p for p in again})
                    again.clear()
        except KeyboardInterrupt:  # the points under way are dropped, not waited for
            stop_at_once(pool)
            raise
    if not broken:
        return []
    _read(started, at)
    playing = {index: processes.get(pid) for pid, index in at.items() if index is not None}
    ended: set[int] = set()
    for point in _to_blame(broken, playing):
        tries[point.index] += 1
        if tries[point.index] > retries:
            cause = f"worker process died ({_how(playing[point.index])})"
            finish(point, None, cause, tries[point.index])
            ended.add(point.index)
    return [p for p in broken + again if p.index not in ended]


def _read(started: Started, at: dict[int, int | None]) -> None:
    """What the workers said they started since the last look (read often: a full pipe would
    hold up a worker)."""
    while not started.empty():
        index, pid = started.get()
        at[pid] = index


def _to_blame(broken: list[P], playing: Mapping[int, BaseProcess | None]) -> list[P]:
    """The points whose worker died of itself; when none can be told apart from those the pool
    ended (it sends them SIGTERM), every point that was running, so a sweep always moves on."""
    running = [point for point in broken if point.index in playing]
    died = [p for p in running if _died_of_itself(playing[p.index])]
    return died or running


def _died_of_itself(process: BaseProcess | None) -> bool:
    return process is not None and process.exitcode not in (None, -signal.SIGTERM)


def _how(process: BaseProcess | None) -> str:
    code = None if process is None else process.exitcode
    if code is None:
        return "ended with the pool"
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"
