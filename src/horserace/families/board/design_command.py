"""`horserace design board`: search lane lengths for a fair (or short) board and write it."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.table import Table

from horserace.components.board import DEFAULT_BOARD, HORSES, MAX_SLOTS, Board, load_board
from horserace.core.errors import ConfigError
from horserace.terminal.errors import user_errors

if TYPE_CHECKING:  # the designer imports numpy: only a command that runs pays for it
    from horserace.families.board.odds.designer import BoardFigures


def board_toml(board: Board) -> str:
    """The board file format `--board` reads."""
    lanes = "\n".join(f'"{h}" = {n}' for h, n in zip(HORSES, board.slots, strict=True))
    return f'name = "{board.name}"\n\n[lanes]  # slots per lane, horses 2..12\n{lanes}\n'


def _figures_json(figures: BoardFigures) -> dict[str, Any]:
    return {
        "lanes": {str(h): n for h, n in zip(HORSES, figures.slots, strict=True)},
        "win": {str(h): p for h, p in figures.win.items()},
        "expected_rolls": figures.expected_rolls,
        "largest_gap": figures.gap,
        "spread": figures.spread,
        "spread_per_scratch": figures.spread_per_scratch,
    }


def design_board(
    objective: str = typer.Option(
        "equal",
        "--objective",
        help="equal: the same chance to win a round; equal-per-scratch: the same within"
        " each scratched set, averaged; short: equal, with --max-rolls as a bound.",
    ),
    max_rolls: float | None = typer.Option(
        None, "--max-rolls", help="short: the longest expected race, in rolls."
    ),
    start: Path | None = typer.Option(
        None, "--start", metavar="FILE", help="Board to start from (the printed one if none)."
    ),
    repeat_scratch: str = typer.Option(
        "move", "--repeat-scratch", help="move, reroll or chain (as the table plays)."
    ),
    shortest: int = typer.Option(1, "--shortest", help="Fewest slots a lane may have."),
    longest: int = typer.Option(30, "--longest", help=f"Most slots (at most {MAX_SLOTS})."),
    name: str = typer.Option("designed", "--name", help="The new board's name."),
    out: Path | None = typer.Option(
        None, "--out", metavar="FILE.toml", help="Write the board file here."
    ),
    plot: Path | None = typer.Option(None, "--plot", metavar="FILE.png", help="Draw both."),
    as_json: bool = typer.Option(False, "--json", help="Print the board and figures."),
) -> None:
    """Search integer lane lengths for the objective; print each horse's exact chance to
    win a round, the expected race length and the largest gap, beside the printed board's.
    The result is locally optimal: no single lane one slot longer or shorter scores better."""
    from horserace.families.board.odds.designer import Evaluator, design

    with user_errors():
        if repeat_scratch not in ("move", "reroll", "chain"):
            raise ConfigError(
                f"--repeat-scratch must be move, reroll or chain, not {repeat_scratch!r}"
            )
        if out is not None and not out.parent.is_dir():
            raise ConfigError(f"--out {out}: no such directory {out.parent}")
        if not name.strip() or '"' in name or "\\" in name:
            raise ConfigError("--name must be a non-empty name without quotes or backslashes")
        begin = DEFAULT_BOARD if start is None else load_board(start)
        evaluator = Evaluator(objective, repeat_scratch != "move", max_rolls)
        console = Console(stderr=True)
        drawn = not as_json and console.is_terminal
        with console.status("designing...", spinner="dots") if drawn else nullcontext():
            found = design(evaluator, begin.slots, low=shortest, high=longest)
        printed = evaluator.figures(DEFAULT_BOARD.slots)
        board = Board(name=name.strip(), slots=found.slots)
        if out is not None:
            out.write_text(board_toml(board), encoding="utf-8")
        if plot is not None:
            from horserace.families.board.pictures import plot_boards

            plot_boards({"printed": printed, name: found}, plot)
    if as_json:
        data = {
            "objective": objective,
            "max_rolls": max_rolls,
            "repeat_scratch": repeat_scratch,
            "board": board.to_dict(),
            "designed": _figures_json(found),
            "printed": _figures_json(printed),
            "boards_scored": len(evaluator.seen),
        }
        typer.echo(json.dumps(data))
        return
    _print(Console(highlight=False), found, printed, out)


def _print(console: Console, found: BoardFigures, printed: BoardFigures, out: Path | None) -> None:
    table = Table(title="Chance to win a round (scratch phase included)", title_justify="left")
    for column in ("horse", "printed slots", "printed", "designed slots", "designed"):
        table.add_column(column, justify="right")
    for index, horse in enumerate(HORSES):
        table.add_row(
            str(horse),
            str(printed.slots[index]),
            f"{100 * printed.win[horse]:.2f}%",
            str(found.slots[index]),
            f"{100 * found.win[horse]:.2f}%",
        )
    table.add_row(
        "expected race length",
        "",
        f"{printed.expected_rolls:.2f}",
        "",
        f"{found.expected_rolls:.2f}",
    )
    table.add_row("largest gap", "", f"{100 * printed.gap:.2f}%", "", f"{100 * found.gap:.2f}%")
    console.print(table)
    if out is not None:
        console.print(f"board written to {out}", markup=False)
