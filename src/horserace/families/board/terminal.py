"""The dice board game at the terminal: its own `play` options, the header, the screen, the
keyboard and typed-in dice, and the final standings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from horserace.core.chance import ChanceSource
from horserace.core.errors import ConfigError
from horserace.core.rules import Result
from horserace.core.words import counted
from horserace.engine import Agent
from horserace.families.board.choices import BoardAsker
from horserace.families.board.design_command import design_board
from horserace.families.board.odds_command import odds_board
from horserace.families.board.options import GAME_OPTIONS, board_table_options
from horserace.families.board.render import money_text, standings_table
from horserace.families.board.screen import DEFAULT_SPEED, BoardScreen, CompanionChance
from horserace.terminal.keyboard import KeyboardAgent
from horserace.terminal.options import Opt, declared
from horserace.terminal.screen import TableScreen
from horserace.terminal.table import TableSetup, TableTerminal

# The dice board game's own options (what `play` offers beside every table's).
board_options = declared(
    *GAME_OPTIONS,
    Opt("--fixed-dealer", bool, False, "Keep the same dealer every round."),
    Opt("--hidden-hands", bool, False, "Each player sees only their own cards."),
    Opt("--open-hands", bool, False, "Every hand lies face up."),
)


class BoardTerminal(TableTerminal):
    default_bots = "random"
    speed = DEFAULT_SPEED
    companion = True
    screen_type = BoardScreen
    options = staticmethod(board_options)
    odds_command = staticmethod(odds_board)
    design_command = staticmethod(design_board)

    def table_options(
        self, preset: str, players: int | None, given: Mapping[str, Any]
    ) -> dict[str, Any]:
        options = board_table_options(players, given)
        if given["fixed_dealer"]:
            options["rotate_dealer"] = False
        if given["hidden_hands"] and given["open_hands"]:
            raise ConfigError("choose --hidden-hands or --open-hands, not both")
        if given["hidden_hands"] or given["open_hands"]:
            options["open_hands"] = given["open_hands"]
        return options

    def hides_hands(self, config: Any) -> bool:
        return not config.open_hands

    def header(self, setup: TableSetup) -> str:
        config = setup.config
        money = "cents" if config.money == "cents" else "chips"
        return (
            f"{setup.preset}: {config.players} players, {counted(config.rounds, 'round')},"
            f" {config.starting_chips} {money} each, board {config.board.name}"
        )

    def keyboard(self, seat: int, screen: TableScreen) -> Agent:
        return KeyboardAgent(seat, screen, BoardAsker(screen))

    def companion_chance(self, screen: TableScreen) -> ChanceSource:
        return CompanionChance(screen)

    def finish(self, screen: TableScreen, result: Result) -> None:
        assert isinstance(screen, BoardScreen)
        unit = screen.unit
        screen.show(standings_table(result, screen.names, unit))
        money = "money" if unit == "cents" else "chips"
        screen.say(f"{money} left in the pot: {money_text(unit, result.unclaimed)}")


TABLE_TERMINAL = BoardTerminal()
