"""`horserace simulate basic|scarne|calcutta`: bots play many card-race games; the figures with
95% intervals beside the exact odds."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from horserace.bots import bot_kinds_of
from horserace.cli.common import end_if_stopped, figures_so_far, user_errors, with_options
from horserace.core.rng import fresh_seed
from horserace.core.words import counted
from horserace.families import family
from horserace.families.cards.terminal import (
    DEFAULT_BOTS,
    cards_options,
    say_why_the_tote,
    table_options,
)
from horserace.simulate.cards_kernel import KERNEL_BOT
from horserace.simulate.cards_sim import CardsReport, simulate_cards
from horserace.simulate.stats import RunningStats


def register_simulate(simulate_app: typer.Typer) -> None:
    """`horserace simulate basic|scarne|calcutta`."""
    for spec in family("cards").presets:
        command = _simulate_command(spec.name)
        command.__doc__ = spec.summary
        simulate_app.command(spec.name, help=spec.summary)(command)


def simulate_options(
    games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.")],
    players: Annotated[
        int | None, typer.Option("--players", metavar="N", help="Seats (3-12).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", metavar="N", help="Table seed.")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="KINDS",
            help="Bot kinds by seat, e.g. value,favourite,random; default: blind (every"
            " seat backs a random horse; the compiled kernel plays it), value,favourite,"
            "random at a Calcutta.",
        ),
    ] = None,
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            help="auto: the compiled kernel when every seat bets blind (book, tote, party),"
            " else the rules engine; kernel; reference: always the rules engine.",
        ),
    ] = "auto",
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The options of `simulate` besides the table's (the signature is what it offers)."""


def _simulate_command(preset: str) -> Callable[..., None]:
    def simulate(run: dict[str, Any], given: dict[str, Any]) -> None:
        with user_errors():
            options = table_options(preset, run["players"], given)
            if not run["as_json"]:
                say_why_the_tote(preset, given)
            table_seed = fresh_seed() if run["seed"] is None else run["seed"]
            chosen = run["bots"] if run["bots"] is not None else KERNEL_BOT
            if run["bots"] is None and "calcutta" in (preset, options.get("betting")):
                chosen = DEFAULT_BOTS
            kinds = bot_kinds_of(chosen, "cards")
            with figures_so_far():
                report = simulate_cards(
                    preset,
                    options,
                    run["games"],
                    table_seed,
                    bots=kinds,
                    workers=run["workers"],
                    engine=run["engine"],
                )
        if run["as_json"]:
            typer.echo(json.dumps(report.to_json()))
        else:
            print_simulation(Console(highlight=False), report, seed_given=run["seed"] is not None)
        end_if_stopped(report.games, run["games"], "games")

    return with_options(simulate, simulate_options, cards_options)


def print_simulation(console: Console, report: CardsReport, *, seed_given: bool) -> None:
    config = report.config
    note = "" if seed_given else " (drawn; pass --seed to repeat this run)"
    console.print(
        f"{report.preset}: {counted(report.games, 'game')}, {counted(report.races, 'race')};"
        f" {config['players']} players, betting {config['betting']}; seed {report.seed}{note}",
        markup=False,
        soft_wrap=True,
    )
    console.print(f"bots: {', '.join(report.bots)}; {report.engine} engine", markup=False)
    wins = Table(
        title="Winners by the horse's course cards: simulated vs exact", title_justify="left"
    )
    for name in ("course cards", "starts", "wins", "win %", "95% CI (Wilson)", "exact %"):
        wins.add_column(name, justify="right")
    for count, tally in report.wins_by_count.items():
        low, high = tally.wilson95()
        exact = report.exact_by_count.get(count)
        wins.add_row(
            str(count),
            str(tally.trials),
            str(tally.successes),
            f"{100 * tally.rate:.2f}%",
            f"{100 * low:.2f}% – {100 * high:.2f}%",
            "-" if exact is None else f"{100 * exact:.2f}%",
        )
    console.print(wins)
    figures = Table(title="Per race and per game", title_justify="left")
    for name in ("figure", "mean", "std dev", "95% CI", "n"):
        figures.add_column(name, justify="right" if name != "figure" else "left")
    rows = [("cards turned per race", report.race_cards)]
    if report.bet_return.count:
        rows += [
            ("book: bettor's return per chip", report.bet_return),
            ("book: exact edge of the bets made", report.bet_edge),
        ]
    if report.pool.count:
        rows.append(("pool per race", report.pool))
    rows.append(("chips not held by a player, at the end", report.unclaimed))
    for label, stats in rows:
        figures.add_row(label, *_mean_cells(stats))
    console.print(figures)
    if report.takeout:
        console.print(f"takeout kept by the bank: {report.takeout} chips", markup=False)
    seats = Table(title="Final chips per seat", title_justify="left")
    for name in ("seat", "bot", "mean", "std dev", "95% CI", "games"):
        seats.add_column(name, justify="right" if name not in ("seat", "bot") else "left")
    for seat, stats in enumerate(report.seat_chips):
        seats.add_row(f"P{seat + 1}", report.bots[seat], *_mean_cells(stats))
    console.print(seats)
    console.print(
        f"{report.elapsed_seconds:.2f} s, {counted(report.workers, 'worker')}",
        style="dim",
        markup=False,
    )


def _mean_cells(stats: RunningStats) -> list[str]:
    interval = stats.ci95()
    return [
        f"{stats.mean:.3f}" if stats.count else "-",
        f"{stats.std:.3f}" if stats.count > 1 else "-",
        f"{interval[0]:.3f} – {interval[1]:.3f}" if interval else "-",
        str(stats.count),
    ]
