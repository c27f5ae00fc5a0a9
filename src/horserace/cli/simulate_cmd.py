"""`horserace simulate`: many seeded board games between bots, summarised beside the theory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from horserace.cli.common import end_if_stopped, fail, figures_so_far, seat_names, user_errors
from horserace.components.board import load_board
from horserace.core.rng import fresh_seed
from horserace.core.words import counted
from horserace.families.board.rules.house import house_options
from horserace.families.board.terminal import check_board_options
from horserace.families.presets import get_preset
from horserace.simulate.board_sim import SimulationReport, exact_horse_odds, simulate_games
from horserace.simulate.stats import RunningStats

BOARD_PRESETS = ("classic", "advanced", "northwoods")


def register(simulate_app: typer.Typer) -> None:
    """`horserace simulate classic|advanced|northwoods`: one command, read by the name it is
    called with."""

    def simulate_board(
        ctx: typer.Context,
        games: int = typer.Option(..., "--games", "-n", help="How many games to play."),
        players: int | None = typer.Option(None, "--players", help="Seats (2-12)."),
        rounds: int | None = typer.Option(None, "--rounds", help="Rounds per game."),
        chips: int | None = typer.Option(None, "--chips", help="Starting chips per seat."),
        seed: int | None = typer.Option(None, "--seed", help="Table seed (drawn if omitted)."),
        board: Path | None = typer.Option(None, "--board", help="A board file (TOML)."),
        repeat_scratch: str | None = typer.Option(
            None, "--repeat-scratch", help="A repeated scratch roll: move, reroll or chain."
        ),
        ante: int | None = typer.Option(None, "--ante", help="Advanced: the ante A."),
        house: str | None = typer.Option(
            None, "--house", help="House rules: robertson, perry, schellenberg, husted."
        ),
        trade_window: str | None = typer.Option(
            None, "--trade-window", help="Perry: before-scratch, after-each-scratch, after-scratch."
        ),
        bots: str = typer.Option(
            "random",
            "--bots",
            help="Bot kind per seat: random, heuristic, ev (e.g. ev,random); rotated each game.",
        ),
        workers: int = typer.Option(1, "--workers", "-w", help="Processes to play games in."),
        engine: str = typer.Option(
            "auto",
            "--engine",
            help="auto: the compiled kernel when no seat has a decision to make, else the rules"
            " engine; kernel; reference: always the rules engine.",
        ),
        plot: Path | None = typer.Option(
            None, "--plot", metavar="FILE.png", help="Draw win rates, money per seat, lengths."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead."),
    ) -> None:
        """Play many games between bots and report the figures with 95% confidence intervals.

        Horse win rates beside exact odds, race length, pot per round, each bot kind's result.
        """
        preset = str(ctx.info_name)
        with user_errors():
            options: dict[str, Any] = house_options(house)  # defaults under the user's options
            check_board_options({"chips": chips, "trade_window": trade_window}, options)
            for name, value in (
                ("players", players),
                ("rounds", rounds),
                ("starting_chips", chips),
                ("repeat_scratch", repeat_scratch),
                ("ante", ante),
            ):
                if value is not None:
                    options[name] = value
            if trade_window is not None:
                options["trade_window"] = trade_window
            if board is not None:
                options["board"] = load_board(board)
            if games < 1:
                fail(f"--games must be at least 1, not {games}")
            if workers < 1:
                fail(f"--workers must be at least 1, not {workers}")
            table_seed = fresh_seed() if seed is None else seed
            exact = exact_horse_odds(preset, options)
            kinds = tuple(bots.split(","))
            with figures_so_far():
                report = _run(
                    preset, options, games, table_seed, workers, kinds, engine, show=not as_json
                )
            if plot is not None:
                from horserace.cli.plots import plot_simulation

                plot_simulation(report, exact, plot)
        if as_json:
            data = report.to_json()
            for entry in data["horses"]:
                entry["exact"] = exact[entry["horse"]]
            typer.echo(json.dumps(data))
        else:
            _print_report(Console(highlight=False), report, exact, seed_given=seed is not None)
        end_if_stopped(report.games, games, "games")

    for name in BOARD_PRESETS:
        simulate_app.command(name, help=get_preset(name).summary)(simulate_board)


def _run(
    preset: str,
    options: dict[str, Any],
    games: int,
    seed: int,
    workers: int,
    bots: tuple[str, ...],
    engine: str,
    *,
    show: bool,
) -> SimulationReport:
    """Simulate behind a progress bar on stderr, shown only on a terminal."""
    console = Console(stderr=True)
    if not (show and console.is_terminal):
        return simulate_games(
            preset, options, games, seed, workers=workers, bots=bots, engine=engine
        )
    columns = (
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("games", total=games)
        return simulate_games(
            preset,
            options,
            games,
            seed,
            workers=workers,
            progress=lambda done: bar.update(task, completed=done),
            bots=bots,
            engine=engine,
        )


def _percent(value: float) -> str:
    return f"{100 * value:.2f}%"


def _interval(low: float, high: float, digits: int) -> str:
    return f"{low:.{digits}f} – {high:.{digits}f}"


def _mean_row(label: str, stats: RunningStats) -> list[str]:
    interval = stats.ci95()
    return [
        label,
        f"{stats.mean:.2f}" if stats.count else "-",
        f"{stats.std:.2f}" if stats.count > 1 else "-",
        _interval(*interval, digits=2) if interval else "-",
        str(stats.count),
    ]


def _print_report(
    console: Console, report: SimulationReport, exact: dict[int, float], *, seed_given: bool
) -> None:
    config = report.config
    seed_note = "" if seed_given else " (drawn; pass --seed to repeat this run)"
    console.print(
        f"{report.preset}: {counted(report.games, 'game')} ({counted(report.races, 'race')}),"
        f" {report.players} players × {config.get('rounds')} rounds,"
        f" {config.get('starting_chips')} chips each",
        markup=False,
    )
    console.print(
        f"board {config.get('board', {}).get('name')},"
        f" repeated scratch: {config.get('repeat_scratch')}; seed {report.seed}{seed_note}",
        markup=False,
    )

    horses = Table(title="Race winners: simulated vs exact", title_justify="left")
    for name in ("horse", "wins", "win %", "95% CI (Wilson)", "exact %"):
        horses.add_column(name, justify="right")
    for horse, wins in report.horse_wins.items():
        low, high = wins.wilson95()
        horses.add_row(
            str(horse),
            str(wins.successes),
            _percent(wins.rate),
            f"{_percent(low)} – {_percent(high)}",
            _percent(exact[horse]),
        )
    console.print(horses)

    figures = Table(title="Per race and per round", title_justify="left")
    figures.add_column("figure")
    for name in ("mean", "std dev", "95% CI", "n"):
        figures.add_column(name, justify="right")
    figures.add_row(*_mean_row("race length (rolls)", report.race_length))
    figures.add_row(*_mean_row("chips paid into the pot per round", report.paid_per_round))
    figures.add_row(*_mean_row("chips left in the pot at the end", report.pot_left))
    console.print(figures)

    cents = report.config.get("money") == "cents"
    went_out = any(out.successes for out in report.seat_out)
    title = "Final money per seat (cents)" if cents else "Final chips per seat"
    if went_out:
        title += "; wins and outs by the table's ranking (players still in first)"
    seats = Table(title=title, title_justify="left")
    seats.add_column("seat")
    for name in ("mean", "std dev", "95% CI", "games", "wins"):
        seats.add_column(name, justify="right")
    if went_out:
        seats.add_column("went out", justify="right")
    for seat, (name, stats) in enumerate(
        zip(seat_names(report.players), report.seat_chips, strict=True)
    ):
        row = [*_mean_row(name, stats), f"{report.seat_wins[seat].rate:.1%}"]
        if went_out:
            row.append(f"{report.seat_out[seat].rate:.1%}")
        seats.add_row(*row)
    console.print(seats)

    results = Table(
        title=f"Chips won per game by bot kind (seats: {','.join(report.bots)}, rotated)",
        title_justify="left",
    )
    results.add_column("bot")
    for name in ("mean", "std dev", "95% CI", "seat-games"):
        results.add_column(name, justify="right")
    for kind, stats in report.bot_results.items():
        results.add_row(*_mean_row(kind, stats))
    console.print(results)
    console.print(
        f"{report.elapsed_seconds:.2f} s, {report.games_per_second:.1f} games/s,"
        f" {counted(report.workers, 'worker')}, {report.engine} engine",
        style="dim",
    )
