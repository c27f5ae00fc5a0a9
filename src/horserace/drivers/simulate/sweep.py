"""Sweeps: one simulation per point of a grid of table options, run on a local process pool or
on a Dask cluster, gathered into one table.

A grid is a preset plus, per option, the values to try (`players=2,4,6`, `rounds=4,8`,
`board=a.toml,b.toml`, `house=none,robertson`, `bots=random,ev`), or presets to try as one
more axis (`preset=classic,northwoods`); the points are every combination. Each point is
checked before anything runs (an unknown option or a bad value is a ConfigError naming the
point). Every point plays from the same seed, so the difference between two points is the
rules', not the luck of two seeds. A point whose task fails is tried again up to `retries`
times; one that still fails stays in the table with its error, never dropped. Ctrl-C ends a
sweep with the points finished before it (`Sweep.interrupted`); the points under way are
dropped, not reported with part of their games.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from horserace.components.board import load_board
from horserace.core.aside import WAKE_SECONDS
from horserace.core.errors import ConfigError, HorseraceError
from horserace.drivers.simulate.runner import (
    ctrl_c_held,
    simulate_games,
    stop_at_once,
    worker_ignores_ctrl_c,
)
from horserace.families.board.rules.config import BoardConfig
from horserace.families.board.rules.house import house_options
from horserace.families.board.tally import SimulationReport
from horserace.families.presets import get_preset


@dataclass(frozen=True)
class Point:
    """One grid point: its label values (as the user wrote them) and the run they stand for."""

    index: int
    labels: tuple[tuple[str, str], ...]
    preset: str
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    engine: str
    games: int
    seed: int
    work: int = 1  # an estimate of its cost (games x players x rounds), to start the longest first

    @property
    def name(self) -> str:
        return " ".join(f"{key}={value}" for key, value in self.labels) or self.preset


@dataclass(frozen=True)
class Outcome:
    """A point's report, or the error it still raised after its retries."""

    point: Point
    report: SimulationReport | None
    error: str | None
    attempts: int


Task = Callable[[Point], SimulationReport]


def play_point(point: Point) -> SimulationReport:
    """The default task: the point's simulation in the worker (one process per point)."""
    report: SimulationReport = simulate_games(
        point.preset, point.options, point.games, point.seed, bots=point.bots, engine=point.engine
    )
    return report


def parse_grid(items: Sequence[str]) -> dict[str, list[str]]:
    """["players=2,4", "rounds=8"] -> {"players": ["2", "4"], "rounds": ["8"]}."""
    grid: dict[str, list[str]] = {}
    for item in items:
        key, equals, values = item.partition("=")
        key = key.strip().replace("-", "_")
        choices = [value.strip() for value in values.split(",")]
        if not equals or not key or "" in choices:
            raise ConfigError(f"grid item {item!r} should look like OPTION=VALUE,VALUE,...")
        if key in grid:
            raise ConfigError(f"grid option {key!r} is given twice")
        grid[key] = choices
    return grid


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _options(labels: Sequence[tuple[str, str]]) -> tuple[dict[str, Any], tuple[str, ...], str]:
    options: dict[str, Any] = {}
    bots: tuple[str, ...] = ("random",)
    engine = "auto"
    for key, text in labels:
        if key == "board":
            options["board"] = load_board(Path(text))
        elif key == "house":  # house=none,robertson,perry+robertson
            options.update(house_options("" if text == "none" else text.replace("+", ",")))
        elif key == "bots":
            bots = tuple(text.split("+"))  # bots=ev+random: one kind per seat, rotated
        elif key == "engine":
            engine = text
        else:
            options[key] = _value(text)
    return options, bots, engine


def expand(
    preset: str | None, grid: Mapping[str, Sequence[str]], games: int, seed: int
) -> list[Point]:
    """Every combination of the grid, each checked against its preset's rules: `preset`, or
    the grid's own `preset` axis (preset=classic,northwoods), one or the other."""
    if (preset is None) == ("preset" not in grid):
        raise ConfigError(
            "name the preset once: as the argument (horserace sweep classic ...) or as a grid"
            " axis (--grid preset=classic,northwoods), not both"
            if preset is not None
            else "name a preset: horserace sweep classic ..., or --grid preset=classic,northwoods"
        )
    keys = list(grid)
    points: list[Point] = []
    for index, values in enumerate(itertools.product(*(grid[k] for k in keys))):
        labels = tuple(zip(keys, values, strict=True))
        name = " ".join(f"{k}={v}" for k, v in labels)
        point_preset = dict(labels).get("preset", preset or "")
        options, bots, engine = _options([(k, v) for k, v in labels if k != "preset"])
        try:
            config = get_preset(point_preset).config(options)
        except HorseraceError as error:
            raise ConfigError(f"grid point {name}: {error}") from None
        if not isinstance(config, BoardConfig):
            raise ConfigError(
                f"sweeps run the dice board presets; {point_preset!r} is another game"
            )
        work = games * config.players * config.rounds
        points.append(Point(index, labels, point_preset, options, bots, engine, games, seed, work))
    return points


@dataclass
class Sweep:
    """Runs points on an executor, retrying failures; `progress(done, total)` as they end.
    After Ctrl-C, `interrupted` is set and the outcomes are those of the points finished."""

    task: Task = play_point
    retries: int = 2
    progress: Callable[[int, int], None] | None = None
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    interrupted: bool = False

    def _finish(self, outcome: Outcome, total: int) -> None:
        self.outcomes[outcome.point.index] = outcome
        if self.progress is not None:
            self.progress(len(self.outcomes), total)

    def run_local(self, points: Sequence[Point], workers: int) -> list[Outcome]:
        """One process per point at a time on a local pool (in this process with workers=1)."""
        try:
            if workers == 1:
                for point in points:
                    self._finish(self._in_process(point), len(points))
            else:
                self._on_pool(points, workers)
        except KeyboardInterrupt:
            self.interrupted = True
        return self._ordered()

    def _on_pool(self, points: Sequence[Point], workers: int) -> None:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=worker_ignores_ctrl_c)
        with pool:
            try:
                with ctrl_c_held():  # the workers start at the first submits
                    running: dict[Future[SimulationReport], tuple[Point, int]] = {
                        pool.submit(self.task, p): (p, 1) for p in longest_first(points)
                    }
                while running:  # short timed waits: Ctrl-C reaches the main thread at once
                    done, _ = wait(running, WAKE_SECONDS, return_when=FIRST_COMPLETED)
                    for future in done:
                        point, attempt = running.pop(future)
                        failure = future.exception()
                        if failure is None:
                            outcome = Outcome(point, future.result(), None, attempt)
                            self._finish(outcome, len(points))
                        elif attempt <= self.retries:
                            running[pool.submit(self.task, point)] = (point, attempt + 1)
                        else:
                            outcome = Outcome(point, None, _text(failure), attempt)
                            self._finish(outcome, len(points))
            except KeyboardInterrupt:  # the points under way are dropped, not waited for
                stop_at_once(pool)
                raise

    def _in_process(self, point: Point) -> Outcome:
        for attempt in range(1, self.retries + 2):
            try:
                return Outcome(point, self.task(point), None, attempt)
            except Exception as error:  # a failed point is reported, not raised
                last = _text(error)
        return Outcome(point, None, last, self.retries + 1)

    def run_dask(
        self, points: Sequence[Point], scheduler: str, timeout: float = 10
    ) -> list[Outcome]:
        """Each point a task on the Dask cluster at `scheduler`, retried there on failure."""
        from distributed import Client, as_completed

        try:
            client = Client(  # type: ignore[no-untyped-call]
                scheduler, timeout=f"{timeout}s", set_as_default=False
            )
        except (OSError, TimeoutError, ValueError) as error:
            raise ConfigError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        with client:
            run = time.time_ns()  # task keys unique to this run: nothing comes from a cache
            futures = {
                client.submit(self.task, p, retries=self.retries, key=f"point-{run}-{p.index}"): p
                for p in longest_first(points)
            }
            try:
                for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
                    point = futures[future]
                    if future.status == "finished":
                        self._finish(Outcome(point, future.result(), None, 1), len(points))
                    else:
                        failure = future.exception()
                        outcome = Outcome(point, None, _text(failure), self.retries + 1)
                        self._finish(outcome, len(points))
            except KeyboardInterrupt:
                self.interrupted = True
                client.cancel(list(futures))  # type: ignore[no-untyped-call]
        return self._ordered()

    def _ordered(self) -> list[Outcome]:
        return [self.outcomes[index] for index in sorted(self.outcomes)]


def longest_first(points: Sequence[Point]) -> list[Point]:
    """The order to start points in: the costliest first, so that no long point is left to run
    alone at the end while the other workers wait (the table is in grid order whatever this)."""
    return sorted(points, key=lambda point: -point.work)


def _text(error: BaseException | None) -> str:
    return f"{type(error).__name__}: {error}" if error is not None else "unknown error"


def rows(outcomes: Sequence[Outcome]) -> Iterator[dict[str, Any]]:
    """One flat row per point: its grid values, then every figure (blank where it failed)."""
    for outcome in outcomes:
        row: dict[str, Any] = dict(outcome.point.labels)
        row["attempts"] = outcome.attempts
        row["error"] = outcome.error or ""
        report = outcome.report
        if report is not None:
            row["engine"] = report.engine
            row["games"] = report.games
            row["races"] = report.races
            row["race_length"] = report.race_length.mean
            row["paid_per_round"] = report.paid_per_round.mean
            row["pot_left"] = report.pot_left.mean
            for horse, wins in report.horse_wins.items():
                row[f"win_{horse}"] = wins.rate
            for seat, chips in enumerate(report.seat_chips):
                row[f"chips_P{seat + 1}"] = chips.mean
            for kind, stats in report.bot_results.items():
                row[f"result_{kind}"] = stats.mean
            row["seconds"] = report.elapsed_seconds
        yield row
