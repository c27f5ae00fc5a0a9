"""`horserace simulate derby`: bots play many Derby games; the figures with 95% intervals."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from horserace.bots import bot_kinds_of
from horserace.cli.common import end_if_stopped, figures_so_far, user_errors, with_progress
from horserace.core.rng import fresh_seed
from horserace.core.words import counted
from horserace.families.derby.terminal import table_options
from horserace.simulate.derby_sim import DerbyReport, simulate_derby


def register_simulate(simulate_app: typer.Typer) -> None:
    """`horserace simulate derby`."""
    simulate_app.command("derby")(simulate_derby_command)


def simulate_derby_command(
    games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.")] = 200,
    players: Annotated[int, typer.Option("--players", help="Seats (2-20).")] = 8,
    races: Annotated[int, typer.Option("--races", help="Races per game.")] = 3,
    money: Annotated[int, typer.Option("--money", help="Starting dollars.")] = 8,
    scratches: Annotated[int, typer.Option("--scratches", help="Scratches per race (0-2).")] = 0,
    all_horses: Annotated[
        bool, typer.Option("--all-horses", help="All 20 horses run; unowned ones for the house.")
    ] = False,
    track: Annotated[
        str | None, typer.Option("--track", metavar="FILE|NAME", help="Track file or name.")
    ] = None,
    bots: Annotated[
        str, typer.Option("--bots", help="Bot kinds by seat, cycling, e.g. ev,random.")
    ] = "ev,random",
    paired: Annotated[
        int,
        typer.Option("--paired", help="Paired races for the mud/accelerator effect (0 = none)."),
    ] = 20_000,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (drawn if omitted).")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes to use.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Bots play many games; Win/Place/Show by horse, turns per race, money by seat, and how
    often mud and accelerators change the winner (the same races re-run on a paved track)."""
    with user_errors():
        given = {"races": races, "money": money, "scratches": scratches}
        options = table_options(players, {**given, "all_horses": all_horses, "track": track})
        kinds = bot_kinds_of(bots, "derby")
        table_seed = fresh_seed() if seed is None else seed
        with figures_so_far():
            report = _simulate(options, games, table_seed, kinds, workers, paired, not as_json)
    if as_json:
        typer.echo(json.dumps(report.to_json()))
    else:
        console = Console(highlight=False)
        if seed is None:
            console.print(f"seed {table_seed} (drawn; pass --seed to repeat this run)")
        for table in report_tables(report):
            console.print(table)
    end_if_stopped(report.games, games, "games")


def _simulate(
    options: dict[str, Any],
    games: int,
    seed: int,
    bots: tuple[str, ...],
    workers: int,
    paired: int,
    show: bool,
) -> DerbyReport:
    """Simulate behind a progress bar on stderr, shown only on a terminal."""

    def work(progress: Callable[[int], None] | None) -> DerbyReport:
        return simulate_derby(
            options, games, seed, bots=bots, workers=workers, paired=paired, progress=progress
        )

    return with_progress("simulating", games, show, work)


def _share(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def report_tables(report: DerbyReport) -> list[RenderableType]:
    """The figures of `simulate derby`, each with its 95% interval."""
    config = report.config
    title = Text(
        f"derby: {counted(report.games, 'game')} ({counted(report.races, 'race')}),"
        f" {report.players} players,"
        f" ${config.get('starting_money')} each\n"
        f"track {config.get('track', {}).get('name')}, bots {','.join(report.bots)},"
        f" seed {report.seed}",
        style="bold",
    )
    horses = Table(title="Win / Place / Show by horse (of races run)", title_justify="left")
    for name in ("horse", "runs", "win", "95% CI", "place", "show", "in the money"):
        horses.add_column(name, justify="right")
    for index, runs in enumerate(report.horse_runs):
        if not runs:
            continue
        win, place, show = report.horse_places[index]
        low, high = win.wilson95()
        money = (win.successes + place.successes + show.successes) / runs
        horses.add_row(
            str(index + 1),
            str(runs),
            _share(win.rate),
            f"{_share(low)}-{_share(high)}",
            _share(place.rate),
            _share(show.rate),
            _share(money),
        )
    figures = Table(title="Per race and per game", title_justify="left")
    for name in ("figure", "mean", "95% CI", "n"):
        figures.add_column(name, justify="right" if name != "figure" else "left")
    for label, stats in (
        ("turns per race", report.turns),
        ("dollars wagered per race", report.wagered),
        ("bank's gain per game", report.bank_gain),
        *(
            (f"P{seat + 1} ({report.bots[seat % len(report.bots)]}) final $", s)
            for seat, s in enumerate(report.seat_money)
        ),
    ):
        interval = stats.ci95()
        figures.add_row(
            label,
            f"{stats.mean:.2f}",
            f"{interval[0]:.2f}-{interval[1]:.2f}" if interval else "-",
            str(stats.count),
        )
    parts: list[RenderableType] = [title, horses, figures]
    paired = report.paired
    if paired is not None:
        table = Table(
            title=(
                f"Mud and accelerators: {paired.races} races of {paired.field} horses re-run"
                " on the same d20s with the specials paved over"
            ),
            title_justify="left",
        )
        for name in ("paved", "winner changes", "95% CI", "podium changes", "mean turns"):
            table.add_column(name, justify="right" if name != "paved" else "left")
        table.add_row("nothing", "-", "-", "-", f"{paired.mean_turns['track']:.1f}")
        for name, changed in paired.winner_changed.items():
            low, high = changed.wilson95()
            table.add_row(
                name,
                _share(changed.rate),
                f"{_share(low)}-{_share(high)}",
                _share(paired.podium_changed[name].rate),
                f"{paired.mean_turns[name]:.1f}",
            )
        parts.append(table)
    parts.append(
        Text(f"{report.elapsed_seconds:.1f} s, {counted(report.workers, 'worker')}", style="dim")
    )
    return parts
