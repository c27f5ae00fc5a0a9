"""`horserace odds` (and `horserace odds board`): each running horse's chance to win from a
given position on the board."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from horserace.components.board import DEFAULT_BOARD, HORSES, Board, load_board
from horserace.core.errors import ConfigError
from horserace.core.options import whole_text
from horserace.terminal.errors import user_errors

if TYPE_CHECKING:  # the odds import numpy: only a command that runs pays for it
    from horserace.families.board.odds.race import ExactRaceOdds, RaceOdds

MAX_SCRATCHED = 4


def odds_board(
    ctx: typer.Context,
    board_file: Annotated[
        Path | None,
        typer.Option(
            "--board",
            help="Board file (TOML) with the lane lengths.",
            metavar="FILE",
            show_default="the printed board",
        ),
    ] = None,
    scratched: Annotated[
        str,
        typer.Option(
            "--scratched",
            metavar="HORSES",
            help="Scratched horses, e.g. 3,5,7,9 (at most 4).",
            show_default="none",
        ),
    ] = "",
    positions: Annotated[
        str,
        typer.Option(
            "--positions",
            metavar="HORSE=SLOTS,...",
            help="Slots advanced from the gate, e.g. 2=1,12=2 (others at 0).",
            show_default="every horse at the gate",
        ),
    ] = "",
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="Exact arithmetic (fractions, which --json prints; the table rounds them).",
            show_default="off",
        ),
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE.png",
            help="Draw the chances and positions.",
            show_default="no drawing",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object.", show_default="off")
    ] = False,
) -> None:
    """Win chances of the running horses and the expected number of rolls left."""
    if ctx.invoked_subcommand is not None:
        return
    from horserace.families.board.odds.race import exact_race_odds, race_odds

    with user_errors():
        board = DEFAULT_BOARD if board_file is None else load_board(board_file)
        out = parse_scratched(scratched)
        advanced = parse_positions(positions, board, out)
        remaining = {
            h: board.advances_to_finish(h) - advanced.get(h, 0) for h in HORSES if h not in out
        }
        result: RaceOdds | ExactRaceOdds = (
            exact_race_odds(remaining) if exact else race_odds(remaining)
        )
        if plot is not None:
            from horserace.families.board.pictures import plot_odds

            win = {h: float(p) for h, p in result.win.items()}
            plot_odds(board, advanced, win, float(result.expected_rolls), plot)
    if as_json:
        typer.echo(json.dumps(_json_object(result)))
        return
    Console().print(_table(board, advanced, out, result))


def parse_scratched(text: str) -> list[int]:
    """ "3,5,7,9" -> [3, 5, 7, 9]; at most four, each a horse, none twice."""
    horses: list[int] = []
    for item in _items(text, "--scratched"):
        horse = _horse(item)
        if horse in horses:
            raise ConfigError(f"horse {horse} is scratched twice")
        horses.append(horse)
    if len(horses) > MAX_SCRATCHED:
        raise ConfigError(f"at most {MAX_SCRATCHED} horses can be scratched, not {len(horses)}")
    return horses


def parse_positions(text: str, board: Board, scratched: list[int]) -> dict[int, int]:
    """ "2=1,12=2" -> {2: 1, 12: 2}: slots advanced from the gate, short of the finish."""
    advanced: dict[int, int] = {}
    for item in _items(text, "--positions"):
        horse_text, equals, slot_text = item.partition("=")
        if not equals:
            raise ConfigError(f"position {item!r} should look like HORSE=SLOTS, e.g. 7=3")
        horse = _horse(horse_text)
        if horse in scratched:
            raise ConfigError(f"horse {horse} is scratched, so it has no position")
        if horse in advanced:
            raise ConfigError(f"horse {horse} has two positions")
        slot = whole_text(slot_text, f"position of horse {horse}")
        lane = board.slots_of(horse)
        if not 0 <= slot <= lane:
            raise ConfigError(
                f"horse {horse} can stand 0 to {lane} slots from the gate, not {slot}"
                f" ({lane + 1} would be the finish)"
            )
        advanced[horse] = slot
    return advanced


def _items(text: str, option: str) -> list[str]:
    if not text.strip():
        return []
    items = [item.strip() for item in text.split(",")]
    if "" in items:
        raise ConfigError(f"{option} {text!r} has an empty item; separate items with commas")
    return items


def _horse(text: str) -> int:
    horse = whole_text(text, "a horse")
    if horse not in HORSES:
        raise ConfigError(f"horses are {HORSES[0]} to {HORSES[-1]}, not {horse}")
    return horse


def _json_value(value: float | Fraction) -> float | str:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    return value


def _json_object(result: RaceOdds | ExactRaceOdds) -> dict[str, object]:
    return {
        "win": {str(h): _json_value(p) for h, p in result.win.items()},
        "expected_rolls": _json_value(result.expected_rolls),
    }


def _percent(p: float) -> str:
    return f"{100 * p:.2f}%" if p >= 0.0001 else f"{100 * p:.2g}%"


def _one_in(p: float) -> str:
    x = 1 / p
    return f"1 in {x:.1f}" if x < 100 else f"1 in {x:,.0f}"


def _table(
    board: Board, advanced: dict[int, int], scratched: list[int], result: RaceOdds | ExactRaceOdds
) -> Table:
    caption = f"scratched: {', '.join(map(str, sorted(scratched)))}" if scratched else None
    table = Table(title=f"Win odds, {board.name} board", caption=caption, show_footer=True)
    table.add_column("Horse", justify="right", footer="expected rolls")
    table.add_column("Position", justify="right")
    table.add_column("Win", justify="right")
    table.add_column("Odds", justify="right", footer=f"{float(result.expected_rolls):.2f}")
    for horse, p in result.win.items():
        chance = float(p)
        position = f"{advanced.get(horse, 0)}/{board.slots_of(horse)}"
        table.add_row(str(horse), position, _percent(chance), _one_in(chance))
    return table
