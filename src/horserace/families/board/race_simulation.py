"""`horserace simulate race`: many races of the dice board alone (no cards, no money) on the
compiled race kernel: win chances, race length and the rolls each scratch line costs, with 95%
intervals, beside the exact odds. The board's part; the command and the runner are generic."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.core.options import whole_text
from horserace.core.words import counted
from horserace.families.simulation import Setup, Simulation
from horserace.terminal.options import Opt, declared

if TYPE_CHECKING:
    from rich.console import Console

    from horserace.core.chunks import Planned
    from horserace.core.stats import RunningStats
    from horserace.families.board.race_tally import RaceReport


race_options = declared(
    Opt(
        "--board FILE",
        Path | None,
        None,
        "Board file (TOML).",
        shown="the printed board",
    ),
    Opt("--scratched HORSES", str, "", "Scratched horses on lines 1.., e.g. 3,5,7,9."),
    Opt("--positions HORSE=SLOTS,...", str, "", "Slots advanced, e.g. 2=1,12=2."),
    Opt("--method", str, "table", "table (exact shortcut) or rolls (roll by roll)."),
    Opt(
        "--line-values V1,V2,V3,V4",
        str,
        "1,2,3,4",
        "What a roll of the horse on scratch line 1-4 costs (Northwoods: 20,15,10,5).",
    ),
    Opt(
        "--plot FILE.png",
        Path | None,
        None,
        "Draw win chances, rolls per line, lengths.",
        shown="no drawing",
    ),
)


class RacesAlone(Simulation):
    """Races from one start, as `horserace odds` takes it (board, scratched lines, positions)."""

    counts = "races"
    games_default = 1_000_000

    def help(self, preset: str, summary: str) -> str:
        return (
            "Races alone (no cards, no money): win chances, race length and the rolls each"
            " scratch line costs, with 95% intervals, beside the exact odds."
        )

    def options(self) -> tuple[Callable[..., None], ...]:
        return (race_options,)

    def setup(self, preset: str, given: Mapping[str, Any], *, quiet: bool) -> Setup:
        from horserace.components.board import DEFAULT_BOARD, load_board
        from horserace.families.board.odds_command import parse_positions, parse_scratched

        board = DEFAULT_BOARD if given["board"] is None else load_board(given["board"])
        scratched = parse_scratched(given["scratched"])
        positions = parse_positions(given["positions"], board, scratched)
        values = [whole_text(v, "a line value") for v in given["line_values"].split(",")]
        settings = {
            "board": board,
            "scratched": scratched,
            "positions": positions,
            "method": given["method"],
            "values": values,
        }
        return Setup({}, settings, {"plot": given["plot"]})

    def planner(self) -> Callable[..., Planned[Any]]:
        from horserace.families.board.race_tally import plan_races

        return plan_races

    def show(self, console: Console, report: Any, setup: Setup, *, seed_given: bool) -> None:
        _print(console, report)

    def draw(self, report: Any, setup: Setup, path: Path) -> None:
        from horserace.families.board.plots import plot_races

        plot_races(report, path)


RACES_ALONE = RacesAlone()


def _mean(stats: RunningStats, exact: float) -> list[str]:
    interval = stats.ci95()
    shown = f"{interval[0]:.3f} – {interval[1]:.3f}" if interval else "-"
    return [f"{stats.mean:.3f}", shown, f"{exact:.3f}"]


def _print(console: Console, report: RaceReport) -> None:
    from rich.table import Table

    console.print(
        f"{report.races:,} races on the {report.board.name} board, {report.start_words()};"
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
        values = ", ".join(map(str, report.values[: len(report.scratched)]))
        figures.add_row(f"chips paid ({values} a roll)", *_mean(report.chips, report.exact_chips))
    console.print(figures)
    rate = report.races / report.elapsed_seconds if report.elapsed_seconds else 0.0
    console.print(
        f"{report.elapsed_seconds:.2f} s, {rate:,.0f} races/s, {counted(report.workers, 'worker')},"
        f" kernel ({report.method})",
        style="dim",
    )
