"""`horserace simulate race`: many races of the dice board alone, on the compiled race kernel."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

from horserace.components.board import DEFAULT_BOARD, load_board
from horserace.core.rng import fresh_seed
from horserace.core.stats import RunningStats
from horserace.core.words import counted
from horserace.drivers.cli.common import end_if_stopped, figures_so_far, with_progress
from horserace.families.board.odds_command import parse_positions, parse_scratched
from horserace.terminal.errors import user_errors

if TYPE_CHECKING:
    from horserace.drivers.simulate.race_sim import RaceReport


def register(simulate_app: typer.Typer) -> None:
    @simulate_app.command("race")
    def simulate_race(
        races: int = typer.Option(1_000_000, "--races", "-n", help="How many races to run."),
        board_file: Path | None = typer.Option(
            None, "--board", metavar="FILE", help="Board file (TOML); the printed board if none."
        ),
        scratched: str = typer.Option(
            "", "--scratched", metavar="HORSES", help="Scratched horses on lines 1.., e.g. 3,5,7,9."
        ),
        positions: str = typer.Option(
            "", "--positions", metavar="HORSE=SLOTS,...", help="Slots advanced, e.g. 2=1,12=2."
        ),
        seed: int | None = typer.Option(None, "--seed", help="Seed (drawn if omitted)."),
        workers: int = typer.Option(1, "--workers", "-w", help="Processes to run races in."),
        method: str = typer.Option(
            "table", "--method", help="table (exact shortcut) or rolls (roll by roll)."
        ),
        plot: Path | None = typer.Option(None, "--plot", metavar="FILE.png", help="Draw it."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead."),
    ) -> None:
        """Races alone (no cards, no money): win chances, race length and the rolls each scratch
        line costs, with 95% intervals, beside the exact odds."""
        from horserace.drivers.simulate.race_sim import simulate_races  # loads the compiled kernels

        with user_errors():
            board = DEFAULT_BOARD if board_file is None else load_board(board_file)
            out = parse_scratched(scratched)
            advanced = parse_positions(positions, board, out)
            table_seed = fresh_seed() if seed is None else seed

            def work(progress: Callable[[int], None] | None) -> RaceReport:
                return simulate_races(
                    races,
                    table_seed,
                    board=board,
                    scratched=out,
                    positions=advanced,
                    workers=workers,
                    method=method,
                    progress=progress,
                )

            with figures_so_far():
                report = with_progress("racing", races, not as_json, work)
            if plot is not None:
                from horserace.drivers.cli.plots import plot_races

                plot_races(report, plot)
        if as_json:
            typer.echo(json.dumps(report.to_json()))
        else:
            _print(Console(highlight=False), report)
        end_if_stopped(report.races, races, "races")


def _mean(stats: RunningStats, exact: float) -> list[str]:
    interval = stats.ci95()
    shown = f"{interval[0]:.3f} – {interval[1]:.3f}" if interval else "-"
    return [f"{stats.mean:.3f}", shown, f"{exact:.3f}"]


def _print(console: Console, report: RaceReport) -> None:
    scratched = ", ".join(map(str, report.scratched)) or "none"
    console.print(
        f"{report.races:,} races on the {report.board.name} board, scratched: {scratched};"
        f" seed {report.seed}",
        markup=False,
    )
    wins = Table(title="Winners: simulated vs exact", title_justify="left")
    for name in ("horse", "win %", "95% CI (Wilson)", "exact %"):
        wins.add_column(name, justify="right")
    for horse, proportion in report.wins.items():
        if horse in report.scratched:
            continue
        low, high = proportion.wilson95()
        wins.add_row(
            str(horse),
            f"{100 * proportion.rate:.3f}%",
            f"{100 * low:.3f}% – {100 * high:.3f}%",
            f"{100 * report.exact_win.get(horse, 0.0):.3f}%",
        )
    console.print(wins)
    figures = Table(title="Per race", title_justify="left")
    for name in ("figure", "mean", "95% CI", "exact"):
        figures.add_column(name, justify="right" if name != "figure" else "left")
    figures.add_row("rolls", *_mean(report.length, report.exact_length))
    for line, (horse, stats) in enumerate(zip(report.scratched, report.lines, strict=True), 1):
        exact = report.exact_lines[line - 1]
        figures.add_row(f"rolls of horse {horse} (line {line})", *_mean(stats, exact))
    if report.scratched:
        exact_chips = sum((k + 1) * e for k, e in enumerate(report.exact_lines))
        figures.add_row("chips paid (1-4 a line)", *_mean(report.chips, exact_chips))
    console.print(figures)
    rate = report.races / report.elapsed_seconds if report.elapsed_seconds else 0.0
    console.print(
        f"{report.elapsed_seconds:.2f} s, {rate:,.0f} races/s, {counted(report.workers, 'worker')},"
        f" kernel ({report.method})",
        style="dim",
    )
