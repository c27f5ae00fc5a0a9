"""One game at the terminal, for every family: the console, the seats' agents, the play loop
until the end or Ctrl-C, the final standings and the record file."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import typer
from rich.console import Console
from rich.text import Text

from horserace.bots import make_bot
from horserace.core.chance import ChanceSource
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.core.rules import Result
from horserace.engine import Agent, Game, play
from horserace.terminal.screen import TableScreen
from horserace.terminal.table import TableSetup

INTERRUPTED = 130
RECORD_FAILED = 1


def table_console(width: int) -> tuple[Console, bool]:
    """The console to play on, and whether it is plain (a pipe: no colour, a fixed width)."""
    probe = Console(highlight=False)
    if probe.is_terminal:
        return probe, False
    plain = Console(
        color_system=None, force_terminal=False, width=width, highlight=False, emoji=False
    )
    return plain, True


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
) -> int:
    """Play `game` to its end (or to Ctrl-C), then the standings and the record; the exit code."""
    console = screen.console
    try:
        screen.start(game)
        play(game, agents, chance, observe=screen.observe)
    except (KeyboardInterrupt, typer.Abort):
        screen.close()
        console.print(Text(f"interrupted after {len(game.steps)} steps", style="bold red"))
        write_record(game, record, console)
        return INTERRUPTED
    screen.close()
    finish(game.rules.result(game.state))
    return 0 if write_record(game, record, console) else RECORD_FAILED


def write_record(game: Game, path: Path | None, console: Console) -> bool:
    """Write the record if asked; False (and a line on stderr) when the file cannot be written."""
    if path is None:
        return True
    try:
        game.record().write(path)
    except OSError as error:
        Console(stderr=True, highlight=False).print(
            f"error: cannot write the record to {path}: {error.strerror}", markup=False
        )
        return False
    console.print(
        f"record of {len(game.steps)} steps written to {path}", soft_wrap=True, markup=False
    )
    return True
