"""One game at the terminal, for every family: the console, the seats' agents, the play loop
until the end or Ctrl-C, the final standings and the record file."""

from __future__ import annotations

import shutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import FrameType
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from horserace.bots import make_bot
from horserace.core.chance import ChanceSource
from horserace.core.files import state_directory
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.core.rules import Result
from horserace.core.words import counted
from horserace.engine import Agent, Game
from horserace.terminal.books import play_to_the_end
from horserace.terminal.errors import INTERRUPTED
from horserace.terminal.screen import TableScreen
from horserace.terminal.table import TableSetup

RECORD_FAILED = 1


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


def seat_agents(
    family_name: str, setup: TableSetup, keyboard: Callable[[int], Agent]
) -> dict[int, Agent]:
    """A person at the keyboard for each of the setup's humans, else the seat's bot, each bot
    with its own stream of the table seed."""
    return {
        seat: keyboard(seat)
        if seat in setup.humans
        else make_bot(kind, derive_seed(setup.seed, BOT_STREAM, seat), family_name)
        for seat, kind in enumerate(setup.bots)
    }


def run_table(
    game: Game,
    agents: Mapping[int, Agent],
    chance: ChanceSource,
    screen: TableScreen,
    record: Path | None,
    finish: Callable[[Result], None],
    *,
    theme: str = "auto",
    odds: Callable[[Any], Mapping[str, float] | None] | None = None,
) -> int:
    """Play `game` to its end (or to Ctrl-C, or q on the full screen), then the standings (on
    the terminal too, after the full screen closes) and the record; the exit code."""
    console = screen.console
    try:
        if screen.animated:
            finished = on_full_screen(game, agents, chance, screen, finish, theme, odds)
        else:
            finished = in_lines(game, agents, chance, screen)
    except Exception:  # a fault of the program's, not the players': their game is kept all the same
        keep_the_game(game, record, console, "stopped by an error")
        raise
    if not finished:
        return end_interrupted(game, record, console)
    finish(game.rules.result(game.state))
    if record is None:
        return 0
    if not write_record(game, record):
        return RECORD_FAILED
    console.print(
        f"record of {counted(len(game.steps), 'step')} written to {record}",
        soft_wrap=True,
        markup=False,
    )
    return 0


def in_lines(
    game: Game, agents: Mapping[int, Agent], chance: ChanceSource, screen: TableScreen
) -> bool:
    """The game printed line by line; False when Ctrl-C (or a closed terminal, or a kill)
    stopped it."""
    try:
        with stops_as_interrupts():
            screen.start(game)
            play_to_the_end(game, agents, chance, screen)
            return True
    except (KeyboardInterrupt, typer.Abort):
        return False


def end_interrupted(game: Game, record: Path | None, console: Console | None = None) -> int:
    """A game stopped before its end (Ctrl-C, input closed, the person quit): save the record
    (to `record`, else to a file of its own, so nothing played is lost) and say in one line how
    to go on. Returns the exit code of an interrupted command."""
    keep_the_game(game, record, console or Console(highlight=False), "interrupted")
    return INTERRUPTED


def keep_the_game(game: Game, record: Path | None, console: Console, why: str) -> None:
    """Save an unfinished game's record and say in one line where, and how to resume it."""
    steps = len(game.steps)
    path = record if record is not None or not steps else default_record_path(game.preset)
    with sigint_ignored():  # a second Ctrl-C must not cut the record in half
        saved = path is not None and write_record(game, path)
    line = f"{why} after {counted(steps, 'step')}"
    if saved:
        resume = f"{command_name()} play {game.preset} --resume {path}"
        line += f"; record saved to {path}; resume with: {resume}"
    console.print()  # off the line of a prompt that was answered with Ctrl-C
    console.print(Text(line, style="bold red"), soft_wrap=True)


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


def on_full_screen(
    game: Game,
    agents: Mapping[int, Agent],
    chance: ChanceSource,
    screen: TableScreen,
    finish: Callable[[Result], None],
    theme: str,
    odds: Callable[[Any], Mapping[str, float] | None] | None,
) -> bool:
    """The game on the Textual screen (imported only now: `--help` stays fast); False when the
    person left before the end."""
    from horserace.families.texts import rules_markdown
    from horserace.terminal.tui.app import TableHelp
    from horserace.terminal.tui.run import play_on_screen, table_app

    def odds_now() -> Mapping[str, float] | None:
        return None if odds is None else odds(game.rules.view(game.state, None))

    help = TableHelp(rules=rules_markdown(game.preset), odds=odds_now)
    app = table_app(game, agents, chance, screen, finish, help, theme)
    return play_on_screen(app, screen)
