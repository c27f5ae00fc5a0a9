"""Sweeps: one simulation per point of a grid of table options, run on a local process pool or
on a Dask cluster, gathered into one table.

A grid is a preset plus, per axis, the values to try (`players=2,4,6`, `rounds=4,8`,
`chips=50,100`, `board=a.toml,b.toml`, `house=none,robertson`, `bots=random,ev`), or presets
to try as one more axis (`preset=classic,northwoods`); the points are every combination. The
axes are named as `simulate` names its options, and each family takes its own: the dice board
those above, the card races (basic, scarne, calcutta) and the Derby the options of their
`simulate` (sweep_family.py); presets of several families share a grid only over the axes
every one of them takes. Every point is checked before anything runs (an unknown axis, an
axis a preset does not take, a value given twice, a bad value or a bad combination is a
ConfigError naming the axis or the point). Every point plays from the same seed, so the difference
between two points is the rules', not the luck of two seeds. A point whose task fails, or
whose worker process dies, is tried again up to `retries` times; one that still fails stays
in the table with its error, never dropped. Ctrl-C ends a sweep with the points finished
before it (`Sweep.interrupted`); the points under way are dropped, not reported with part of
their games.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from horserace.components.board import load_board
from horserace.core.chunks import ENGINES, RunReport
from horserace.core.errors import ConfigError, HorseraceError
from horserace.drivers.simulate.runner import simulate_games, simulation_of
from horserace.drivers.simulate.sweep_dask import on_dask
from horserace.drivers.simulate.sweep_family import axes_of, check_values, flat_row, setup_point
from horserace.drivers.simulate.sweep_pool import error_text, on_pool
from horserace.families import families, family, family_of_preset
from horserace.families.board.options import BOARD_NAMES
from horserace.families.board.rules.config import BoardConfig
from horserace.families.board.rules.house import house_options
from horserace.families.board.tally import SimulationReport, plan_games
from horserace.families.presets import get_preset

# The axes a user types, named as `simulate` names its options (--chips, --repeat-scratch...).
AXES = ("preset", *BOARD_NAMES.values(), "board", "house", "bots", "engine")
TABLE_OPTION = {axis: option for option, axis in BOARD_NAMES.items()}  # chips -> starting_chips
# values kept as text in the table (the card races' and the Derby's too)
TEXT_AXES = ("preset", "board", "house", "bots", "engine", "betting", "book", "track")


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
    family: str = "board"
    settings: Mapping[str, Any] = field(default_factory=dict)  # another family's: bots, engine...

    @property
    def name(self) -> str:
        return " ".join(f"{key}={value}" for key, value in self.labels) or self.preset


@dataclass(frozen=True)
class Outcome:
    """A point's report, or the error it still raised after its retries."""

    point: Point
    report: Any  # the family's report (the board's SimulationReport...), None if it failed
    error: str | None
    attempts: int


Task = Callable[[Point], RunReport]


def play_point(point: Point) -> RunReport:
    """The default task: the point's simulation in the worker (one process per point), its
    family's report."""
    settings = (
        point.settings if point.family != "board" else {"bots": point.bots, "engine": point.engine}
    )
    report: RunReport = simulate_games(
        point.preset, point.options, point.games, point.seed, **settings
    )
    return report


def parse_grid(items: Sequence[str]) -> dict[str, list[str]]:
    """["players=2,4", "rounds=8"] -> {"players": ["2", "4"], "rounds": ["8"]}; a value given
    twice in one axis is refused (it would run the same point twice)."""
    grid: dict[str, list[str]] = {}
    for item in items:
        key, equals, values = item.partition("=")
        key = key.strip().replace("-", "_")
        choices = [value.strip() for value in values.split(",")]
        if not equals or not key or "" in choices:
            raise ConfigError(f"grid item {item!r} should look like AXIS=VALUE,VALUE,...")
        if key in grid:
            raise ConfigError(f"grid axis {key!r} is given twice")
        seen: dict[Any, str] = {}
        for choice in choices:
            typed = typed_value(key, choice)
            if typed in seen:
                raise ConfigError(
                    f"grid axis {key} gives {choice!r} twice"
                    + _as(seen[typed], choice)
                    + ": each value once"
                )
            seen[typed] = choice
        grid[key] = choices
    return grid


def _as(first: str, second: str) -> str:
    return "" if first == second else f" (as {first!r})"


def typed_value(key: str, text: str) -> Any:
    """A grid value as the table keeps it: a whole number or true/false as such, the rest (and
    every value of a preset, board, house, bots or engine axis) as written."""
    if key in TEXT_AXES:
        return text
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _options(labels: Sequence[tuple[str, str]]) -> tuple[dict[str, Any], tuple[str, ...], str]:
    """A point's table options, bots and engine. The house rules' defaults come first, under
    the point's other values (as `simulate --house` does), whatever the order of the axes."""
    options: dict[str, Any] = {}
    bots: tuple[str, ...] = ("random",)
    engine = "auto"
    for key, text in labels:
        if key == "house":  # house=none,robertson,perry+robertson
            options.update(house_options("" if text == "none" else text.replace("+", ",")))
    for key, text in labels:
        if key == "board":
            options["board"] = load_board(Path(text))
        elif key == "bots":
            bots = tuple(text.split("+"))  # bots=ev+random: one kind per seat, rotated
        elif key == "engine":
            engine = text
        elif key not in ("house", "preset"):
            options[TABLE_OPTION.get(key, key)] = typed_value(key, text)
    return options, bots, engine


def sweep_presets() -> tuple[str, ...]:
    """Every preset whose family has a simulation: the dice board's, the card races', derby."""
    return tuple(
        spec.name for fam in families() if fam.simulation() is not None for spec in fam.presets
    )


def _check_preset(name: str, where: str) -> None:
    if name not in sweep_presets():
        known = ", ".join(sweep_presets())
        raise ConfigError(f"{where}unknown preset {name!r}; the sweep's presets: {known}")


def _family_name(preset: str) -> str:
    return family_of_preset(preset).name


def _takes(preset: str, key: str) -> bool:
    if _family_name(preset) == "board":
        return key in AXES or key in {spec.name for spec in fields(BoardConfig)}
    return key in axes_of(preset)


def check_axes(grid: Mapping[str, Sequence[str]], presets: Sequence[str] = ("classic",)) -> None:
    """What can be checked of each axis alone: its name (a user's, or the name of a table
    option the board's rules know), that every preset of the grid takes it, and the values of
    the preset axis (and, in a grid of the dice board alone, of its house, bots and engine)."""
    board_only = all(_family_name(preset) == "board" for preset in presets)
    setting: dict[str, str] = {}
    for key, values in grid.items():
        if board_only and not _takes(presets[0], key):
            raise ConfigError(f"unknown grid axis {key!r}; the axes: {', '.join(AXES)}")
        for preset in presets:
            if not _takes(preset, key):
                raise ConfigError(_not_taken(key, preset, presets))
        option = TABLE_OPTION.get(key, key) if board_only else key
        if option in setting:
            raise ConfigError(
                f"grid axes {setting[option]} and {key} set the same option: give one"
            )
        setting[option] = key
        for value in values:
            if key == "preset" or board_only:
                _check_value(key, value, f"grid axis {key}: ")
        for preset in presets:
            if key != "preset" and _family_name(preset) != "board":
                check_values(preset, key, values)


def _not_taken(key: str, preset: str, presets: Sequence[str]) -> str:
    """`grid axis rounds: the basic preset does not take it (classic does); basic takes: ...`"""
    others = [p for p in dict.fromkeys(presets) if p != preset and _takes(p, key)]
    does = f" ({', '.join(others)} {'does' if len(others) == 1 else 'do'})" if others else ""
    takes = AXES if _family_name(preset) == "board" else axes_of(preset)
    return (
        f"grid axis {key}: the {preset} preset does not take it{does}; {preset} takes:"
        f" {', '.join(takes)}"
    )


def _check_value(key: str, value: str, where: str) -> None:
    if key == "preset":
        _check_preset(value, where)
    elif key == "engine" and value not in ENGINES:
        raise ConfigError(f"{where}unknown engine {value!r}; accepted: {', '.join(ENGINES)}")
    elif key == "bots":
        kinds = family("board").bot_kinds
        for kind in value.split("+"):
            if kind not in kinds:
                raise ConfigError(
                    f"{where}unknown bot kind {kind!r} in {value!r}; accepted: {', '.join(kinds)}"
                    " (one per seat joined by +, e.g. ev+random)"
                )
    elif key == "house" and value != "none":
        try:
            house_options(value.replace("+", ","))
        except HorseraceError as error:
            raise ConfigError(f"{where}{error} (or none; several joined by +)") from None


def expand(
    preset: str | None, grid: Mapping[str, Sequence[str]], games: int, seed: int
) -> list[Point]:
    """Every combination of the grid, each checked against its preset's rules as `simulate`
    would check it: `preset`, or the grid's own `preset` axis (preset=classic,northwoods), one
    or the other."""
    if (preset is None) == ("preset" not in grid):
        raise ConfigError(
            "name the preset once: as the argument (horserace sweep classic ...) or as a grid"
            " axis (--grid preset=classic,northwoods), not both"
            if preset is not None
            else "name a preset: horserace sweep classic ..., or --grid preset=classic,northwoods"
        )
    if preset is not None:
        _check_preset(preset, "")
    for name in grid.get("preset", []):
        _check_preset(name, "grid axis preset: ")
    check_axes(grid, [preset] if preset is not None else list(grid["preset"]))
    mixed = len({_family_name(name) for name in grid.get("preset", [])}) > 1
    keys = list(grid)
    points: list[Point] = []
    for index, values in enumerate(itertools.product(*(grid[k] for k in keys))):
        labels = tuple(zip(keys, values, strict=True))
        point_preset = dict(labels).get("preset", preset or "")
        name = " ".join(f"{k}={v}" for k, v in labels) or point_preset
        if _family_name(point_preset) != "board":
            points.append(_family_point(index, labels, point_preset, name, games, seed))
            continue
        if mixed:  # the board's values, checked where they apply: at its points
            for key, text in labels:
                _check_value(key, text, f"grid point {name}: ")
        options, bots, engine = _options(labels)  # a bad board file names itself
        try:
            config = get_preset(point_preset).config(options)
            plan_games(point_preset, options, games, seed, 1, bots=bots, engine=engine)
        except HorseraceError as error:
            raise ConfigError(f"grid point {name}: {error}") from None
        assert isinstance(config, BoardConfig)  # the board's presets only (_family_name)
        work = games * config.players * config.rounds
        points.append(Point(index, labels, point_preset, options, bots, engine, games, seed, work))
    return points


def _family_point(
    index: int, labels: tuple[tuple[str, str], ...], preset: str, name: str, games: int, seed: int
) -> Point:
    """A card race's or the Derby's point, set up and planned as `simulate` would."""
    try:
        options, settings = setup_point(preset, labels)
        config = get_preset(preset).config(options)
        simulation_of(preset).plan(preset, options, games, seed, 1, **settings)
    except HorseraceError as error:
        raise ConfigError(f"grid point {name}: {error}") from None
    work = games * getattr(config, "players", 1) * getattr(config, "races", 1)
    fam = _family_name(preset)
    bots = tuple(settings.get("bots", ()))
    engine = str(settings.get("engine", "auto"))
    return Point(index, labels, preset, options, bots, engine, games, seed, work, fam, settings)


@dataclass
class Sweep:
    """Runs points on an executor, retrying failures; `progress(done, total)` as they end,
    `notice(text)` for what the sweep is waiting for. After Ctrl-C, `interrupted` is set and
    the outcomes are those of the points finished."""

    task: Task = play_point
    retries: int = 2
    progress: Callable[[int, int], None] | None = None
    notice: Callable[[str], None] | None = None
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    interrupted: bool = False

    def _finish(self, outcome: Outcome, total: int) -> None:
        self.outcomes[outcome.point.index] = outcome
        if self.progress is not None:
            self.progress(len(self.outcomes), total)

    def _finisher(self, total: int) -> Callable[[Point, Any, str | None, int], None]:
        """What the pool or the cluster calls as each point ends."""

        def finish(point: Point, report: Any, error: str | None, attempts: int) -> None:
            self._finish(Outcome(point, report, error, attempts), total)

        return finish

    def run_local(self, points: Sequence[Point], workers: int) -> list[Outcome]:
        """One process per point at a time on a local pool (in this process with workers=1)."""
        try:
            if workers == 1:
                for point in points:
                    self._finish(self._in_process(point), len(points))
            else:
                finish = self._finisher(len(points))
                on_pool(self.task, longest_first(points), workers, self.retries, finish)
        except KeyboardInterrupt:
            self.interrupted = True
        return self.ordered()

    def _in_process(self, point: Point) -> Outcome:
        for attempt in range(1, self.retries + 2):
            try:
                return Outcome(point, self.task(point), None, attempt)
            except Exception as error:  # a failed point is reported, not raised
                last = error_text(error)
        return Outcome(point, None, last, self.retries + 1)

    def run_dask(
        self,
        points: Sequence[Point],
        scheduler: str,
        timeout: float = 10,
        wait_workers: float = 60,
    ) -> list[Outcome]:
        """Each point a task on the Dask cluster at `scheduler`, retried there on failure. A
        bad address, a scheduler not reached in `timeout` seconds or no worker joining it in
        `wait_workers` seconds is a ConfigError before any point is sent."""
        finish = self._finisher(len(points))
        try:
            self.interrupted = on_dask(
                self.task,
                longest_first(points),
                self.retries,
                finish,
                self.notice,
                scheduler,
                timeout,
                wait_workers,
            )
        except KeyboardInterrupt:  # before the points were sent (once sent, on_dask sees it)
            self.interrupted = True
        return self.ordered()

    def ordered(self) -> list[Outcome]:
        return [self.outcomes[index] for index in sorted(self.outcomes)]


def longest_first(points: Sequence[Point]) -> list[Point]:
    """The order to start points in: the costliest first, so that no long point is left to run
    alone at the end while the other workers wait (the table is in grid order whatever this)."""
    return sorted(points, key=lambda point: -point.work)


def _mean(row: dict[str, Any], name: str, stats: Any) -> None:
    """A mean and its 95% interval (blank with fewer than two values), as the reports show."""
    interval = stats.ci95()
    row[name] = stats.mean
    row[f"{name}_low"], row[f"{name}_high"] = interval if interval else (None, None)


def rows(outcomes: Sequence[Outcome]) -> Iterator[dict[str, Any]]:
    """One flat row per point: its grid values (typed: players=2 is the number 2), then every
    figure with its 95% interval (blank where it failed). `engine_used` is the engine that
    played the point (`kernel_used` names the compiled kernel); an `engine` axis keeps the
    value asked for."""
    for outcome in outcomes:
        row: dict[str, Any] = {k: typed_value(k, v) for k, v in outcome.point.labels}
        row["attempts"] = outcome.attempts
        row["error"] = outcome.error or ""
        report = outcome.report
        if report is not None and not isinstance(report, SimulationReport):
            row.update((key, value) for key, value in flat_row(report) if key not in row)
        elif report is not None:
            row["engine_used"] = report.engine
            row["games"] = report.games
            row["races"] = report.races
            _mean(row, "race_length", report.race_length)
            _mean(row, "paid_per_round", report.paid_per_round)
            _mean(row, "pot_left", report.pot_left)
            for horse, wins in report.horse_wins.items():
                row[f"win_{horse}"] = wins.rate
                row[f"win_{horse}_low"], row[f"win_{horse}_high"] = wins.wilson95()
            for seat, chips in enumerate(report.seat_chips):
                _mean(row, f"chips_P{seat + 1}", chips)
            for kind, stats in report.bot_results.items():
                _mean(row, f"result_{kind}", stats)
            row["kernel_used"] = report.kernel or ""
            row["seconds"] = report.elapsed_seconds
        yield row
