"""A game played on the full screen: the engine's play loop on a thread of its own, the final
standings held until Enter, and whether the game was played to its end."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.console import Group
from rich.text import Text

from horserace.core.chance import ChanceSource
from horserace.core.rules import Result
from horserace.engine import Agent, Game
from horserace.terminal.books import play_to_the_end
from horserace.terminal.screen import Display, TableScreen, to_plain
from horserace.terminal.tui.app import FINISHED, TableApp, TableHelp


def table_app(
    game: Game,
    agents: Mapping[int, Agent],
    chance: ChanceSource,
    screen: TableScreen,
    finish: Callable[[Result], None],
    help: TableHelp,
    theme: str = "auto",
) -> TableApp:
    """The app that plays `game` on a thread of its own (run it, or drive it in a test)."""

    def work(display: Display) -> str:
        screen.display = display
        screen.start(game)
        play_to_the_end(game, agents, chance, screen)
        hold_standings(display, screen, lambda: finish(game.rules.result(game.state)))
        return FINISHED

    return TableApp(screen.title, work, help, theme, books=game.chance_mode == "typed")


def hold_standings(display: Display, screen: TableScreen, finish: Callable[[], None]) -> None:
    """The final standings `finish` shows, written to the log and held on the screen until
    Enter (the screen collects them instead of printing them)."""
    screen.collected = []
    finish()
    standings, screen.collected = screen.collected, None
    written = to_plain(Group(*standings), width=72).rstrip("\n").splitlines()
    display.log([Text(line) for line in written])
    display.hold("The game is over", Group(*standings), until_enter=True, seconds=0)


def play_on_screen(app: TableApp, screen: TableScreen) -> bool:
    """Run `app` on the terminal: True when the game was played to its end, False when the
    person left it. Afterwards the screen prints on the terminal again."""
    try:
        outcome = app.run()
    finally:
        screen.display = None
        screen.animated = False
    if app.error is not None:
        raise app.error
    return outcome == FINISHED
