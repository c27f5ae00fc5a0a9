"""`horserace sweep`: a grid of presets and options, one simulation per point, one table."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from horserace.core.errors import ConfigError
from horserace.core.rng import fresh_seed
from horserace.drivers.simulate.sweep import Outcome, Point, Sweep, expand, parse_grid, rows
from horserace.terminal.errors import INTERRUPTED, fail, user_errors
from horserace.terminal.pictures import check_picture_path


def register(app: typer.Typer) -> None:
    @app.command("sweep")
    def sweep(
        preset: str | None = typer.Argument(
            None,
            help="A preset with a simulation: classic, advanced, northwoods, basic, scarne,"
            " calcutta, derby (or try several with --grid preset=classic,northwoods).",
            show_default=False,
        ),
        grid: list[str] = typer.Option(
            [],
            "--grid",
            "-g",
            metavar="AXIS=V1,V2",
            help="Values to try on one axis (repeat for more), named as simulate's options:"
            " preset=classic,northwoods; players=2,4,6; rounds=4,8; chips=50,100;"
            " repeat_scratch=move,reroll; ante=1,2; trade_window=...; board=a.toml,b.toml;"
            " house=none,perry+robertson; bots=random,ev+random;"
            " engine=auto,kernel,reference. The card races and the Derby take the options of"
            " their simulate instead (betting=book,tote; money=8,12; paired=0 ...).",
            show_default="none: one point, the preset's own table",
        ),
        games: int = typer.Option(1000, "--games", "-n", help="Games at each point."),
        seed: int | None = typer.Option(
            None,
            "--seed",
            help="One seed for every point.",
            show_default="a fresh one, printed",
        ),
        workers: int = typer.Option(1, "--workers", "-w", help="Local processes."),
        scheduler: str | None = typer.Option(
            None,
            "--scheduler",
            metavar="ADDRESS",
            help="A Dask scheduler, e.g. tcp://host:8786.",
            show_default="none: local processes",
        ),
        retries: int = typer.Option(2, "--retries", help="Tries again for a failed point."),
        wait_workers: float = typer.Option(
            60.0,
            "--wait-workers",
            metavar="SECONDS",
            help="With --scheduler: how long to wait for a worker to join it.",
        ),
        out: list[Path] = typer.Option(
            [],
            "--out",
            metavar="FILE.csv|FILE.json",
            help="Write the table as CSV or JSON, as the name ends (repeat for both).",
            show_default="no file",
        ),
        plot: Path | None = typer.Option(
            None, "--plot", metavar="FILE.png", help="Draw it.", show_default="no drawing"
        ),
        as_json: bool = typer.Option(
            False, "--json", help="Print the table as JSON.", show_default="off"
        ),
    ) -> None:
        """Simulate every point of a grid of table options and gather one table (CSV and JSON),
        on local processes or a Dask cluster. A failed point is retried, then reported. Ctrl-C
        ends the sweep with the table of the points finished so far (exit code 130)."""
        with user_errors():
            if games < 1 or workers < 1 or retries < 0 or wait_workers < 0:
                raise ConfigError(
                    "--games and --workers must be at least 1, --retries and --wait-workers"
                    " 0 or more"
                )
            _check_files(out, plot)
            if scheduler is not None:
                from horserace.drivers.simulate.sweep_dask import check_address

                check_address(scheduler)
            table_seed = fresh_seed() if seed is None else seed
            points = expand(preset, parse_grid(grid), games, table_seed)
            run = Sweep(retries=retries, notice=_notice)
            outcomes = _run(run, points, workers, scheduler, wait_workers, show=not as_json)
            interrupted = run.interrupted
            if interrupted and not outcomes:
                Console(stderr=True, highlight=False).print("interrupted before any point was done")
                raise typer.Exit(INTERRUPTED)
            table = list(rows(outcomes))
            for path in out:
                _write(table, path)
            if plot is not None:
                from horserace.drivers.cli.plots import plot_sweep

                plot_sweep(outcomes, plot)
        if as_json:
            found = {"preset": preset, "seed": table_seed, "points": table}
            typer.echo(json.dumps({**found, "interrupted": True} if interrupted else found))
        else:
            _print_all(Console(highlight=False), outcomes, table, table_seed)
        if interrupted:
            Console(stderr=True, highlight=False, soft_wrap=True).print(
                f"interrupted: the table holds the {len(outcomes)} of {len(points)} points"
                " finished before Ctrl-C",
                markup=False,
            )
            raise typer.Exit(INTERRUPTED)
        failed = [o for o in outcomes if o.error]
        if failed:
            names = "; ".join(f"{o.point.name}: {o.error}" for o in failed)
            fail(f"{len(failed)} point(s) failed after {retries + 1} tries: {names}")


def _check_files(out: list[Path], plot: Path | None) -> None:
    """Before running: each --out a .csv or .json file in a folder that exists, --plot a
    picture, and no two of them the same file (the last written would replace the other)."""
    seen: dict[Path, str] = {}
    for option, path in [*(("--out", p) for p in out), *([("--plot", plot)] if plot else [])]:
        same = path.resolve()
        if same in seen:
            raise ConfigError(f"{seen[same]} and {option} both name {path}: give two files")
        seen[same] = option
    for path in out:
        if path.suffix.lower() not in (".csv", ".json"):
            raise ConfigError(f"--out {path}: name a .csv or a .json file (repeat --out for both)")
        if not path.parent.is_dir():
            raise ConfigError(f"--out {path}: no such directory {path.parent}")
    if plot is not None:
        check_picture_path(plot)


def _notice(text: str) -> None:
    Console(stderr=True, highlight=False, soft_wrap=True).print(text, markup=False)


def _run(
    runner: Sweep,
    points: list[Point],
    workers: int,
    scheduler: str | None,
    wait_workers: float,
    *,
    show: bool,
) -> list[Outcome]:
    """The outcomes of the points finished (`runner.interrupted` if Ctrl-C ended it early)."""
    console = Console(stderr=True)
    columns = (TextColumn("sweeping"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    drawn = show and console.is_terminal
    with Progress(*columns, console=console, transient=True, disable=not drawn) as bar:
        task = bar.add_task("points", total=len(points))
        runner.progress = lambda done, _: bar.update(task, completed=done)
        if scheduler is not None:
            return runner.run_dask(points, scheduler, wait_workers=wait_workers)
        return runner.run_local(points, workers)


def _write(table: list[dict[str, object]], path: Path) -> None:
    """The table as CSV or JSON, as the file's name ends (checked before the run)."""
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps(table, indent=1), encoding="utf-8")
        return
    columns: list[str] = []
    for row in table:
        columns += [key for key in row if key not in columns]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(table)


# The figures that matter of each family besides the dice board: (heading, column, format).
FIGURES = {
    "cards": (
        ("cards\nper race", "race_cards", "{:.2f}"),
        ("bet return\nper chip", "book_bettor_return_per_chip", "{:+.3f}"),  # at the book
        ("bank\nper race", "bank_per_race", "{:.2f}"),  # what the bank (takeout...) kept
    ),
    "derby": (
        ("turns\nper race", "turns_per_race", "{:.1f}"),
        ("wagered\nper race", "wagered_per_race", "{:.2f}"),
        ("bank\nper game", "bank_gain_per_game", "{:.1f}"),
    ),
}
FAVOURITE = ("derby",)  # the families whose table names the horse that won most often


def _print_all(
    console: Console, outcomes: list[Outcome], table: list[dict[str, object]], seed: int
) -> None:
    """The dice board's points as always; each other family's in a table of its own."""
    kinds = list(dict.fromkeys(outcome.point.family for outcome in outcomes))
    for kind in kinds:
        mine = [i for i, outcome in enumerate(outcomes) if outcome.point.family == kind]
        title = f"Sweep, seed {seed}" + (
            f": {FAMILY_TITLE.get(kind, kind)}" if len(kinds) > 1 else ""
        )
        if kind == "board":
            _print(console, [outcomes[i] for i in mine], seed, title)
        else:
            _print_family(
                console, kind, [outcomes[i] for i in mine], [table[i] for i in mine], title
            )


FAMILY_TITLE = {"board": "the dice board", "cards": "the card races", "derby": "the Derby"}


def _point_cell(outcome: Outcome) -> str:
    labels = outcome.point.labels
    point = "\n".join(
        f"{k}={Path(v).name if k in ('board', 'book', 'track') else v}" for k, v in labels
    )
    return point or outcome.point.name


def _print_family(
    console: Console, kind: str, outcomes: list[Outcome], table: list[dict[str, object]], title: str
) -> None:
    """A card race's or the Derby's points: their figures that matter, and the favourite (the
    horse, or the count of course cards, that won most often)."""
    several = any(len(outcome.point.labels) > 1 for outcome in outcomes)
    shown = Table(title=title, title_justify="left", show_lines=several)
    shown.add_column("point", overflow="fold", min_width=10)
    shown.add_column("engine", justify="right", overflow="fold", min_width=6)  # or the error
    figures = FIGURES.get(kind, ())
    for name in ("games", *(heading for heading, _, _ in figures)):
        shown.add_column(name, justify="right", no_wrap=True)
    if kind in FAVOURITE:
        shown.add_column("favourite", justify="right")
    for outcome, row in zip(outcomes, table, strict=True):
        if outcome.report is None:
            blank = [""] * (len(figures) + 1 + (kind in FAVOURITE))
            shown.add_row(_point_cell(outcome), f"failed: {outcome.error}", *blank)
            continue
        races, games = row.get("races"), row.get("games")
        if isinstance(row.get("unclaimed"), float) and isinstance(races, int) and races:
            assert isinstance(games, int)
            row = {**row, "bank_per_race": row["unclaimed"] * games / races}  # type: ignore[operator]
        cells = ["-" if row.get(key) is None else form.format(row[key]) for _, key, form in figures]
        shown.add_row(
            _point_cell(outcome),
            str(row.get("engine_used")),
            f"{games:,}",
            *cells,
            *([_favourite(row)] if kind in FAVOURITE else []),
        )
    console.print(shown)


def _favourite(row: dict[str, object]) -> str:
    """The horse that won the most of the races it ran (its win_H column), with its rate."""
    rates = {
        key.removeprefix("win_"): value
        for key, value in row.items()
        if isinstance(value, float) and key.startswith("win_") and key[4:].isdigit()
    }
    if not rates:
        return "-"
    best = max(rates, key=lambda horse: rates[horse])
    return f"{best} ({100 * rates[best]:.1f}%)"


def _print(console: Console, outcomes: list[Outcome], seed: int, title: str = "") -> None:
    """One row a point: its axes a line each (a board by its file's name; the CSV and JSON
    keep the path), folded rather than cut when the terminal is narrow; the figures whole."""
    several = any(len(outcome.point.labels) > 1 for outcome in outcomes)
    table = Table(title=title or f"Sweep, seed {seed}", title_justify="left", show_lines=several)
    table.add_column("point", overflow="fold", min_width=10)
    table.add_column("engine", justify="right", overflow="fold", min_width=9)  # or the error
    for name in ("games", "length", "paid/round", "pot left"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("favourite", justify="right")
    for outcome in outcomes:
        labels = outcome.point.labels
        point = "\n".join(f"{k}={Path(v).name if k == 'board' else v}" for k, v in labels)
        point = point or outcome.point.name
        report = outcome.report
        if report is None:
            table.add_row(point, f"failed: {outcome.error}", *[""] * 5)
            continue
        best = max(report.horse_wins.items(), key=lambda item: item[1].rate)
        table.add_row(
            point,
            report.engine,
            f"{report.games:,}",
            f"{report.race_length.mean:.2f}",
            f"{report.paid_per_round.mean:.2f}",
            f"{report.pot_left.mean:.2f}",
            f"{best[0]} ({100 * best[1].rate:.1f}%)",
        )
    console.print(table)
