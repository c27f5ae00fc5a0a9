"""A game's session at the terminal, for every family: the console it plays on, the game line
by line, and the record of a game that stops before its end (Ctrl-C, a closed terminal, a
kill), saved so that nothing played is lost."""

from __future__ import annotations

import shutil
import signal
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import FrameType

import typer
from rich.console import Console
from rich.text import Text

from horserace.core.chance import ChanceSource
from horserace.core.files import state_directory
from horserace.core.record import Journal
from horserace.core.words import counted
from horserace.engine import Agent, Game
from horserace.terminal.books import play_to_the_end
from horserace.terminal.errors import INTERRUPTED
from horserace.terminal.plain import InputEnded
from horserace.terminal.screen import TableScreen


def table_console(width: int, plain: bool = False) -> tuple[Console, bool]:
    """The console to play on, and whether it is plain (`--plain`, or a pipe: line by line, no
    colour, a fixed width)."""
    probe = Console(highlight=False)
    if probe.is_terminal and not plain:
        return probe, False
    lines = Console(
        color_system=None, force_terminal=False, width=width, highlight=False, emoji=False
    )
    return lines, True


def in_lines(
    game: Game, agents: Mapping[int, Agent], chance: ChanceSource, screen: TableScreen
) -> bool:
    """The game printed line by line; False when Ctrl-C (or a closed terminal, or a kill)
    stopped it. Answers piped in that run out raise InputEnded."""
    try:
        with stops_as_interrupts():
            screen.start(game)
            play_to_the_end(game, agents, chance, screen)
            return True
    except InputEnded:
        raise
    except (KeyboardInterrupt, typer.Abort):
        return False


def open_record(game: Game, record: Path | None) -> Path:
    """Keep the game's record on disk as it is played (`Journal`): in `record`, else in a file
    of its own in the state directory, so that however the game stops nothing played is lost.
    Returns the file."""
    path = record if record is not None else default_record_path(game.preset)
    game.journal = Journal(path, game.record())
    return path


def end_interrupted(game: Game, record: Path | None, console: Console | None = None) -> int:
    """A game stopped before its end (Ctrl-C, input closed, the person quit): save the record
    (to `record`, else to a file of its own, so nothing played is lost) and say in one line how
    to go on. Returns the exit code of an interrupted command."""
    keep_the_game(game, record, console or Console(highlight=False), "interrupted")
    return INTERRUPTED


def keep_the_game(game: Game, record: Path | None, console: Console, why: str) -> None:
    """An unfinished game's record kept (written now unless its journal holds every step) and
    one line saying where, and how to resume it; nothing kept of a game with no step played."""
    steps = len(game.steps)
    journal, game.journal = game.journal, None
    if journal is not None:
        journal.close()
    own = journal.path if journal is not None and record is None else None  # a file of its own
    path = record if record is not None or not steps else own or default_record_path(game.preset)
    if path is None and own is not None:
        own.unlink(missing_ok=True)  # nothing played: nothing to keep
    kept = journal is not None and journal.error is None and journal.path == path
    with sigint_ignored():  # a second Ctrl-C must not cut the record in half
        saved = path is not None and (kept or write_record(game, path))
    line = f"{why} after {counted(steps, 'step')}"
    if saved:
        resume = f"{command_name()} play {game.preset} --resume {path}"
        line += f"; record saved to {path}; resume with: {resume}"
    try:
        console.print()  # off the line of a prompt that was answered with Ctrl-C
        console.print(Text(line, style="bold red"), soft_wrap=True)
    except OSError:  # the terminal is gone (closed): the record is kept all the same
        pass


def command_name() -> str:
    """How to call this program again: `horserace` when that name on PATH is this program,
    else its full path (as from `python3 tasks.py play`, which runs it from .venv)."""
    program = Path(sys.argv[0])
    if program.name != "horserace":
        return "horserace"
    found = shutil.which("horserace")
    if found is not None and Path(found).resolve() == program.resolve():
        return "horserace"
    return str(program.resolve())


def default_record_path(preset: str) -> Path:
    """Where an interrupted game's record goes when no --record was given: the user's state
    directory (XDG_STATE_HOME, else ~/.local/state), one file per game, named by preset and time."""
    folder = state_directory()
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{preset}-{stamp}.jsonl"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{preset}-{stamp}-{number}.jsonl"
    return path


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def stops_as_interrupts() -> Iterator[None]:
    """A closed terminal (SIGHUP) or a plain `kill` (SIGTERM) stops a game as Ctrl-C does, so
    its record is saved too (only the main thread handles signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stops = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {stop: signal.signal(stop, _stop) for stop in stops}
    try:
        yield
    finally:
        for stop, handler in previous.items():
            signal.signal(stop, handler)


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """Hold Ctrl-C off while something must finish (only the main thread handles signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def write_record(game: Game, path: Path) -> bool:
    """Write the record; False (and a line on stderr) when the file cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        game.record().write(path)
    except OSError as error:
        Console(stderr=True, highlight=False).print(
            f"error: cannot write the record to {path}: {error.strerror};"
            " choose another file with --record",
            markup=False,
            soft_wrap=True,
        )
        return False
    return True
