"""One game at the terminal, for every family: the seats' agents, the play loop on the full
screen or line by line until the end or Ctrl-C, the final standings and the record file (the
console and the record of a stopped game are terminal/session.py's)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from horserace.core.chance import ChanceSource
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.core.rules import Result
from horserace.core.shown_odds import ShownOdds
from horserace.core.words import counted
from horserace.drivers.bots import make_bot
from horserace.engine import Agent, Game
from horserace.terminal.errors import USAGE_ERROR
from horserace.terminal.plain import InputEnded
from horserace.terminal.screen import TableScreen
from horserace.terminal.session import (
    end_interrupted,
    in_lines,
    keep_the_game,
    open_record,
    write_record,
)
from horserace.terminal.table import TableSetup

RECORD_FAILED = 1


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
    odds: Callable[[Any], ShownOdds | None] | None = None,
) -> int:
    """Play `game` to its end (or to Ctrl-C, or q on the full screen), then the standings (on
    the terminal too, after the full screen closes) and the record; the exit code."""
    console = screen.console
    kept = open_record(game, record)
    try:
        if screen.animated:
            finished = on_full_screen(game, agents, chance, screen, finish, theme, odds)
        else:
            finished = in_lines(game, agents, chance, screen)
    except InputEnded:  # a mistake of the input's, not an interruption: said as an error
        keep_the_game(game, record, console, "error: the answers piped in ran out")
        return USAGE_ERROR
    except Exception:  # a fault of the program's, not the players': their game is kept all the same
        keep_the_game(game, record, console, "stopped by an error")
        raise
    if not finished:
        return end_interrupted(game, record, console)
    journal, game.journal = game.journal, None
    if journal is not None:
        journal.close()
    finish(game.rules.result(game.state))
    if record is None:  # no record asked for: the one kept while playing goes
        kept.unlink(missing_ok=True)
        return 0
    if (journal is None or journal.error is not None) and not write_record(game, record):
        return RECORD_FAILED
    console.print(
        f"record of {counted(len(game.steps), 'step')} written to {record}",
        soft_wrap=True,
        markup=False,
    )
    return 0


def on_full_screen(
    game: Game,
    agents: Mapping[int, Agent],
    chance: ChanceSource,
    screen: TableScreen,
    finish: Callable[[Result], None],
    theme: str,
    odds: Callable[[Any], ShownOdds | None] | None,
) -> bool:
    """The game on the Textual screen (imported only now: `--help` stays fast); False when the
    person left before the end."""
    from horserace.families.texts import rules_markdown
    from horserace.terminal.tui.app import TableHelp
    from horserace.terminal.tui.run import play_on_screen, table_app

    def odds_now() -> ShownOdds | None:
        return None if odds is None else odds(game.rules.view(game.state, None))

    help = TableHelp(rules=rules_markdown(game.preset), odds=odds_now)
    app = table_app(game, agents, chance, screen, finish, help, theme)
    return play_on_screen(app, screen)
