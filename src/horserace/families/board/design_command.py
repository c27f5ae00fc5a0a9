"""`horserace design board`: search lane lengths for a fair (or short) board and write it."""

from __future__ import annotations

import json
import os
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.table import Table

from horserace.components.board import DEFAULT_BOARD, HORSES, MAX_SLOTS, Board, load_board
from horserace.core.errors import ConfigError
from horserace.terminal.errors import user_errors
from horserace.terminal.pictures import check_picture_path

if TYPE_CHECKING:  # the designer imports numpy: only a command that runs pays for it
    from horserace.families.board.odds.designer import BoardFigures, Evaluator

OBJECTIVE_HELP = (
    "equal: every horse the same chance to win a round (scratch phase included)."
    " equal-per-scratch: every running horse the same chance within each set of scratched"
    " horses, averaged over the sets. short: equal, among boards whose expected race lasts"
    " at most --max-rolls rolls. Each scores the root mean square distance of the chances"
    " from an equal share (lower is better); longer lanes balance more finely, so equal"
    " finds long races."
)


def board_toml(board: Board) -> str:
    """The board file format `--board` reads."""
    lanes = "\n".join(f'"{h}" = {n}' for h, n in zip(HORSES, board.slots, strict=True))
    return f'name = "{board.name}"\n\n[lanes]  # slots per lane, horses 2..12\n{lanes}\n'


def _figures_json(evaluator: Evaluator, figures: BoardFigures) -> dict[str, Any]:
    return {
        "lanes": {str(h): n for h, n in zip(HORSES, figures.slots, strict=True)},
        "win": {str(h): p for h, p in figures.win.items()},
        "expected_rolls": figures.expected_rolls,
        "largest_gap": figures.gap,
        "score": evaluator.measure(figures),
        "within_bound": evaluator.within_bound(figures),
        "spread": figures.spread,
        "spread_per_scratch": figures.spread_per_scratch,
    }


def _check_out(out: Path) -> None:
    """A ConfigError for a board file that cannot be written, before the search runs."""
    if not out.parent.is_dir():
        raise ConfigError(f"--out {out}: no such directory {out.parent}")
    if out.is_dir():
        raise ConfigError(f"--out {out}: a directory, not a file")
    if not os.access(out if out.exists() else out.parent, os.W_OK):
        raise ConfigError(f"--out {out}: not writable")


def design_board(
    objective: str = typer.Option("equal", "--objective", help=OBJECTIVE_HELP),
    max_rolls: float | None = typer.Option(
        None,
        "--max-rolls",
        help="The bound for short: the longest expected race, in rolls (the printed board's"
        " lasts 52.5). An error if no board within the lane bounds is that short.",
        show_default="none; --objective short needs one",
    ),
    start: Path | None = typer.Option(
        None,
        "--start",
        metavar="FILE",
        help="Board file to start from; lanes outside --shortest..--longest are brought inside.",
        show_default="the printed board",
    ),
    repeat_scratch: str = typer.Option(
        "move",
        "--repeat-scratch",
        help="A scratch roll naming a scratched horse: move (used up, as Classic) or"
        " reroll/chain (rolled again, as Advanced); it decides the scratched sets.",
    ),
    shortest: int = typer.Option(1, "--shortest", help="Fewest slots a lane may have."),
    longest: int = typer.Option(
        30, "--longest", help=f"Most slots a lane may have (at most {MAX_SLOTS})."
    ),
    name: str = typer.Option("designed", "--name", help="The new board's name."),
    out: Path | None = typer.Option(
        None,
        "--out",
        metavar="FILE.toml",
        help="Write the board file here (for --board).",
        show_default="no file",
    ),
    plot: Path | None = typer.Option(
        None,
        "--plot",
        metavar="FILE.png",
        help="Draw both boards' lanes and chances.",
        show_default="no drawing",
    ),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print the board, the objective and every figure as JSON.",
        show_default="off",
    ),
) -> None:
    """Search integer lane lengths for the objective and print each horse's exact chance to
    win a round, the expected race length, the largest gap and the objective's score, beside
    the printed board's. The result is locally optimal: no single lane one slot longer or
    shorter scores better."""
    from horserace.families.board.odds.designer import (
        OBJECTIVES,
        Evaluator,
        design,
        is_local_optimum,
    )

    with user_errors():
        if repeat_scratch not in ("move", "reroll", "chain"):
            raise ConfigError(
                f"--repeat-scratch must be move, reroll or chain, not {repeat_scratch!r}"
            )
        if out is not None:
            _check_out(out)
        if plot is not None:
            check_picture_path(plot)
        if not name.strip() or '"' in name or "\\" in name:
            raise ConfigError("--name must be a non-empty name without quotes or backslashes")
        begin = DEFAULT_BOARD if start is None else load_board(start)
        evaluator = Evaluator(objective, repeat_scratch != "move", max_rolls)
        console = Console(stderr=True)
        status = console.status("designing...", spinner="dots")

        def progress(best: BoardFigures) -> None:
            status.update(f"designing: {len(evaluator.seen)} boards scored")

        with status if not as_json and console.is_terminal else nullcontext():
            found = design(evaluator, begin.slots, low=shortest, high=longest, progress=progress)
        printed = evaluator.figures(DEFAULT_BOARD.slots)
        local = is_local_optimum(evaluator, found.slots, shortest, longest)
        board = Board(name=name.strip(), slots=found.slots)
        if out is not None:
            try:
                out.write_text(board_toml(board), encoding="utf-8")
            except OSError as problem:
                raise ConfigError(f"--out {out}: {problem.strerror or problem}") from None
        if plot is not None:
            from horserace.families.board.pictures import plot_boards

            plot_boards({"printed": printed, board.name: found}, plot, max_rolls)
    if as_json:
        data = {
            "objective": objective,
            "objective_means": OBJECTIVES[objective],
            "max_rolls": max_rolls,
            "repeat_scratch": repeat_scratch,
            "lane_bounds": [shortest, longest],
            "board": board.to_dict(),
            "designed": _figures_json(evaluator, found),
            "printed": _figures_json(evaluator, printed),
            "locally_optimal": local,
            "boards_scored": len(evaluator.seen),
        }
        typer.echo(json.dumps(data))
        return
    _print(Console(highlight=False), evaluator, found, printed, local, out)


def _print(
    console: Console,
    evaluator: Evaluator,
    found: BoardFigures,
    printed: BoardFigures,
    local: bool,
    out: Path | None,
) -> None:
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
    rows = (
        ("expected race length", "{:.2f}", lambda f: f.expected_rolls),
        ("largest gap (points)", "{:.2f}", lambda f: 100 * f.gap),
        ("score (points)", "{:.3f}", lambda f: 100 * evaluator.measure(f)),
    )
    for label, form, value in rows:
        table.add_row(label, "", form.format(value(printed)), "", form.format(value(found)))
    console.print(table)
    from horserace.families.board.odds.designer import OBJECTIVES

    objective = evaluator.objective
    meaning = OBJECTIVES[objective]
    if evaluator.max_rolls is not None:
        meaning = meaning.replace("--max-rolls", f"{evaluator.max_rolls:g}")
    over = "" if evaluator.within_bound(printed) else " (its race is over the bound)"
    lines = [
        f"objective: {objective} ({meaning})",
        "score (lower is better): root mean square distance from an equal share"
        + (",\n  within each scratched set" if objective == "equal-per-scratch" else ""),
        f"  printed {100 * evaluator.measure(printed):.3f} points{over},"
        f" designed {100 * evaluator.measure(found):.3f} points",
    ]
    lines.append(
        "locally optimal: no single lane one slot longer or shorter scores better"
        if local
        else "not locally optimal: a single lane one slot longer or shorter scores better"
    )
    for line in lines:
        console.print(line, markup=False)
    if out is not None:
        console.print(f"board written to {out}", markup=False)
