"""What a simulation is made of, below every driver: a run is fixed chunks of consecutive game
indices (`Span`s), each played into a tally, and the tallies fold together in index order
(`Plan`). A family describes its own simulation with these; `drivers/simulate/runner.py`
runs them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from horserace.core.errors import ConfigError

T = TypeVar("T")

Progress = Callable[[int], None]
# (what, total): a stage's own progress; a total of 0 is work of unknown length (the report)
StageProgress = Callable[[str, int], Progress]


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


@dataclass(frozen=True)
class Stage(Generic[T]):
    """A run that follows the games once they are all in, for the same report (the Derby's
    paired races on its race kernel): indices of its own, in chunks of `chunk`, played and
    merged like the games, with progress of its own; `fold(tally, stage_tally)` puts its merged
    tally into the games' one."""

    what: str  # what its indices count ("paired races"): its progress bar and messages
    plan: Plan[Any]
    total: int
    chunk: int
    fold: Callable[[T, Any], T]


@dataclass(frozen=True)
class Planned(Generic[T]):
    """A family's simulation, ready to run: its plan, the games per chunk (fixed, so figures do
    not depend on the workers), the stages that follow the games, and how the merged tally
    becomes its report."""

    plan: Plan[T]
    chunk: int
    report: Callable[[T, int, float], Any]  # (tally, workers, perf_counter at the start)
    threaded: bool = False  # its chunks can be split over threads (`threads_for_kernels`)
    stages: tuple[Stage[T], ...] = ()


def check_run(count: int, seed: int, workers: int, what: str = "games") -> None:
    """The numbers every run is given, checked before anything is played."""
    for name, value, low in ((what, count, 1), ("seed", seed, 0), ("workers", workers, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{name} must be a whole number, not {value!r}")
        if value < low:
            raise ConfigError(f"{name} must be at least {low}, not {value}")


ENGINES = ("auto", "kernel", "reference")  # what plays a run's games, in every family's simulate


def check_engine(engine: str) -> None:
    """`engine` is one of ENGINES (a family may refuse one of them for its own reason)."""
    if engine not in ENGINES:
        raise ConfigError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")


def check_threads(threads: int, workers: int) -> None:
    """Threads share one process; workers are processes: a run uses one or the other, so it
    never asks for more threads than the cores (a worker keeps to one thread)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ConfigError(f"--threads must be a whole number of at least 1, not {threads!r}")
    if threads > 1 and workers > 1:
        raise ConfigError("--threads splits a run in one process: use --threads or --workers")


_KERNEL_THREADS: ContextVar[int] = ContextVar("kernel_threads", default=1)


def kernel_threads() -> int:
    """The threads a compiled kernel may use for a chunk (1 unless the run asked for more)."""
    return _KERNEL_THREADS.get()


@contextmanager
def threads_for_kernels(threads: int) -> Iterator[None]:
    """Within it, the kernels that can split a chunk over threads use `threads` of them (a run
    in one process; worker processes keep one thread each, so the cores are not oversubscribed)."""
    token = _KERNEL_THREADS.set(threads)
    try:
        yield
    finally:
        _KERNEL_THREADS.reset(token)


@dataclass
class GameTally:
    """What every family's tally counts of some consecutive games (`core.stats.merge_tally`
    folds them); a family's tally adds its own figures."""

    players: int
    games: int = 0
    races: int = 0
    steps: int = 0


@dataclass(frozen=True, kw_only=True)
class RunReport:
    """What every family's simulation report says of its run; equality ignores the timing and
    the worker and thread counts (the figures are the same whatever they are)."""

    preset: str
    seed: int
    config: dict[str, Any]  # the family's plain-data form of the table options
    bots: tuple[str, ...]
    games: int
    races: int
    steps: int
    engine: str = "reference"  # what played the games: "kernel" or "reference"
    workers: int = field(default=1, compare=False)
    threads: int = field(default=1, compare=False)  # a kernel's threads in each worker
    elapsed_seconds: float = field(default=0.0, compare=False)

    def run_json(self, **middle: Any) -> dict[str, Any]:
        """The run's keys, with the family's own `middle` ones after the config."""
        return {
            "preset": self.preset,
            "seed": self.seed,
            "engine": self.engine,
            "config": self.config,
            **middle,
            "games": self.games,
            "races": self.races,
            "steps": self.steps,
            "workers": self.workers,
            "threads": self.threads,
            "elapsed_seconds": self.elapsed_seconds,
        }
