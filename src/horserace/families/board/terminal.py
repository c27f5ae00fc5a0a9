"""The dice board game at the terminal: its own `play` options, the header, the screen, the
keyboard and typed-in dice, and the final standings."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

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
from horserace.terminal.screen import TableScreen
from horserace.terminal.table import TableSetup, TableTerminal


def board_options(
    rounds: Annotated[
        int | None, typer.Option("--rounds", metavar="N", help="Rounds to play.")
    ] = None,
    chips: Annotated[
        int | None,
        typer.Option("--chips", metavar="N", help="Starting chips (cents in northwoods)."),
    ] = None,
    board: Annotated[
        Path | None,
        typer.Option(
            "--board", metavar="FILE", help="A board file (TOML) with other lane lengths."
        ),
    ] = None,
    repeat_scratch: Annotated[
        str | None,
        typer.Option(
            "--repeat-scratch",
            metavar="move|reroll|chain",
            help="A scratched horse rolled again: moves lines, is rerolled, or costs the roller.",
        ),
    ] = None,
    ante: Annotated[
        int | None,
        typer.Option("--ante", metavar="N", help="Advanced: the ante A (penalties count in A)."),
    ] = None,
    house: Annotated[
        str | None,
        typer.Option(
            "--house",
            metavar="RULES",
            help="House rules, comma-separated: robertson, perry, schellenberg, husted.",
        ),
    ] = None,
    trade_window: Annotated[
        str | None,
        typer.Option(
            "--trade-window",
            metavar="WHEN",
            help="Perry's trading: before-scratch, after-each-scratch or after-scratch.",
        ),
    ] = None,
    fixed_dealer: Annotated[
        bool, typer.Option("--fixed-dealer", help="Keep the same dealer every round.")
    ] = False,
    hidden_hands: Annotated[
        bool, typer.Option("--hidden-hands", help="Each player sees only their own cards.")
    ] = False,
    open_hands: Annotated[
        bool, typer.Option("--open-hands", help="Every hand lies face up.")
    ] = False,
) -> None:
    """The dice board game's own options (the signature is what `play` offers)."""


def check_board_options(given: Mapping[str, Any], house: Mapping[str, Any]) -> None:
    """What the board's options need of each other, said in the options' own names (`play` and
    `simulate` share them); `house` is what the --house rules switch on."""
    if given["chips"] is not None and given["chips"] < 1:
        raise ConfigError(f"--chips must be at least 1, not {given['chips']}")
    if given["trade_window"] is not None and "trade_window" not in house:
        raise ConfigError("--trade-window is when Perry's trading happens: add --house perry")


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
        options = house_options(given["house"])  # the house rules' defaults, under the user's
        check_board_options(given, options)
        named = {
            "players": players,
            "rounds": given["rounds"],
            "starting_chips": given["chips"],
            "repeat_scratch": given["repeat_scratch"],
            "ante": given["ante"],
            "trade_window": given["trade_window"],
        }
        options.update({key: value for key, value in named.items() if value is not None})
        if given["fixed_dealer"]:
            options["rotate_dealer"] = False
        if given["hidden_hands"] and given["open_hands"]:
            raise ConfigError("choose --hidden-hands or --open-hands, not both")
        if given["hidden_hands"] or given["open_hands"]:
            options["open_hands"] = given["open_hands"]
        if given["board"] is not None:
            options["board"] = load_board(given["board"])
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
