"""The dice board game at the terminal: its own `play` options, the header, the screen, the
keyboard and typed-in dice, and the final standings."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from horserace.components.board import load_board
from horserace.core.chance import ChanceSource
from horserace.core.errors import ConfigError
from horserace.core.rules import Result, Rules
from horserace.core.words import counted
from horserace.engine import Agent
from horserace.families.board.choices import BoardAsker
from horserace.families.board.design_command import design_board
from horserace.families.board.odds_command import odds_board
from horserace.families.board.render import money_text, standings_table
from horserace.families.board.rules.house import house_options, with_house_rules
from horserace.families.board.screen import DEFAULT_SPEED, BoardScreen, CompanionChance
from horserace.terminal.keyboard import KeyboardAgent
from horserace.terminal.options import Opt, declared, renamed
from horserace.terminal.screen import TableScreen
from horserace.terminal.table import TableSetup, TableTerminal

# The dice board game's own options (what `play` offers beside every table's).
board_options = declared(
    Opt("--rounds N", int | None, None, "Rounds to play."),
    Opt("--chips N", int | None, None, "Starting chips (cents in northwoods)."),
    Opt("--board FILE", Path | None, None, "A board file (TOML) with other lane lengths."),
    Opt(
        "--repeat-scratch move|reroll|chain",
        str | None,
        None,
        "A scratched horse rolled again: moves lines, is rerolled, or costs the roller.",
    ),
    Opt("--ante N", int | None, None, "Advanced: the ante A (penalties count in A)."),
    Opt(
        "--house RULES",
        str | None,
        None,
        "House rules, comma-separated: robertson, perry, schellenberg, husted.",
    ),
    Opt(
        "--trade-window WHEN",
        str | None,
        None,
        "Perry's trading: before-scratch, after-each-scratch or after-scratch.",
    ),
    Opt("--fixed-dealer", bool, False, "Keep the same dealer every round."),
    Opt("--hidden-hands", bool, False, "Each player sees only their own cards."),
    Opt("--open-hands", bool, False, "Every hand lies face up."),
)


def check_board_options(given: Mapping[str, Any], house: Mapping[str, Any]) -> None:
    """What the board's options need of each other, said in the options' own names (`play` and
    `simulate` share them); `house` is what the --house rules switch on."""
    if given["chips"] is not None and given["chips"] < 1:
        raise ConfigError(f"--chips must be at least 1, not {given['chips']}")
    if given["trade_window"] is not None and "trade_window" not in house:
        raise ConfigError("--trade-window is when Perry's trading happens: add --house perry")


def board_table_options(players: int | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """The table options that `play` and `simulate` alike make of the board's options: what the
    --house rules bring, under the options given, and the board file read."""
    options = house_options(given["house"])  # the house rules' defaults, under the user's
    check_board_options(given, options)
    options.update(renamed({**given, "players": players}, BOARD_NAMES))
    if given["board"] is not None:
        options["board"] = load_board(given["board"])
    return options


# table option -> the command-line option that sets it
BOARD_NAMES = {
    "players": "players",
    "rounds": "rounds",
    "starting_chips": "chips",
    "repeat_scratch": "repeat_scratch",
    "ante": "ante",
    "trade_window": "trade_window",
}


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

    def config(
        self,
        preset: str,
        defaults: Mapping[str, Any],
        rules: Rules[Any, Any],
        options: Mapping[str, Any],
    ) -> Any:
        return rules.make_config(with_house_rules(defaults, dict(options)))

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
