"""The dice board game's command-line options that `play` and `simulate` share: one table of
the options that set the game (`GAME_OPTIONS`), and the table options both make of them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from horserace.components.board import load_board
from horserace.core.errors import ConfigError
from horserace.families.board.rules.house import house_options
from horserace.terminal.options import Opt, renamed

GAME_OPTIONS = (
    Opt("--rounds N", int | None, None, "Rounds in a game."),
    Opt("--chips N", int | None, None, "Starting chips per seat (cents in northwoods)."),
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
