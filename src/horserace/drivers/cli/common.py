"""What the commands share: seat names, the checks of a table's options, progress bars and the
figures of a run stopped by Ctrl-C (one-line errors are terminal/errors.py's)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from horserace.core.errors import ConfigError
from horserace.terminal.errors import INTERRUPTED, fail

if TYPE_CHECKING:
    from horserace.drivers.simulate.runner import Stopped

T = TypeVar("T")


def seat_names(players: int, given: str | None = None) -> list[str]:
    """'P1'..'Pn', or the comma-separated names the user gave (one per seat)."""
    if not given:
        return [f"P{seat + 1}" for seat in range(players)]
    names = [name.strip() for name in given.split(",")]
    if len(names) != players or not all(names):
        fail(f"--names needs {players} non-empty comma-separated names, got {len(names)}")
    return names


THEMES = ("auto", "light", "dark")


def check_screen(speed: float | None, theme: str) -> None:
    """The options of a game shown at the terminal (`play`, `replay`): its pace and colours."""
    if speed is not None and speed < 0:
        raise ConfigError(f"--speed must be 0 or more seconds, not {speed:g}")
    if theme not in THEMES:
        raise ConfigError(f"--theme must be auto, light or dark, not {theme!r}")


def check_play_options(
    seats: int,
    human: list[int] | None,
    seed: int | None,
    speed: float,
    theme: str,
    record: Path | None,
) -> None:
    """The options every family's `play` shares: keyboard seats, seed, pace, colours, record."""
    check_screen(speed, theme)
    for seat in human or []:
        if not 1 <= seat <= seats:
            raise ConfigError(f"--human {seat}: seats are numbered 1 to {seats}")
    if seed is not None and seed < 0:
        raise ConfigError(f"--seed must be 0 or more, not {seed}")
    if record is not None and not record.parent.is_dir():
        raise ConfigError(f"--record {record}: no such directory {record.parent}")
    if record is not None and record.is_dir():
        raise ConfigError(f"--record {record} is a directory: name a file in it")


@contextmanager
def figures_so_far() -> Iterator[list[Stopped]]:
    """Around a simulation: Ctrl-C (or a chunk that keeps killing its worker) ends it with the
    figures of the chunks already done, and the list it gives says why (the command prints them,
    then `end_if_stopped`); Ctrl-C before any is done is one line."""
    from horserace.drivers.simulate.runner import partial_on_interrupt

    try:
        with partial_on_interrupt() as stops:
            yield stops
    except KeyboardInterrupt:
        Console(stderr=True, highlight=False).print("interrupted before any figures were in")
        raise typer.Exit(INTERRUPTED) from None


def end_if_stopped(stops: list[Stopped]) -> None:
    """After the figures of a run that ended early (`simulate.runner.partial_on_interrupt` keeps
    the chunks finished): one line on stderr saying whose figures they are, and the interrupted
    exit code after Ctrl-C; after an error, `error: ...` saying why it stopped, exit code 2."""
    if not stops:
        return
    stop = stops[0]
    figures = stop.figures()
    if stop.error is not None:
        fail(f"{stop.error}: {figures}")
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"interrupted: {figures}", markup=False
    )
    raise typer.Exit(INTERRUPTED)


def with_progress(label: str, total: int, show: bool, work: Callable[..., T]) -> T:
    """Run `work(progress=..., stage_progress=...)` behind progress bars on stderr, drawn only on
    a terminal: one for the `total` items, then one for each stage that follows them."""
    console = Console(stderr=True)
    if not (show and console.is_terminal):
        return work(progress=None, stage_progress=None)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)

        def stage(what: str, count: int) -> Callable[[int], None]:
            bar.update(task, completed=total)
            step = bar.add_task(what, total=count or None)  # 0: a bar that pulses
            return lambda done: bar.update(step, completed=done)

        return work(progress=lambda done: bar.update(task, completed=done), stage_progress=stage)
