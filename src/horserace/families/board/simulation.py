"""`horserace simulate classic|advanced|northwoods`: many seeded board games between bots,
summarised beside the theory (the family's part; the command itself is generic)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.core.words import counted
from horserace.families.board.options import GAME_OPTIONS
from horserace.families.board.race_simulation import RACES_ALONE
from horserace.families.simulation import Setup, Simulation
from horserace.terminal.options import Opt, declared

if TYPE_CHECKING:
    from rich.console import Console

    from horserace.core.chunks import Planned
    from horserace.core.stats import RunningStats
    from horserace.families.board.tally import SimulationReport


# The board's own options of `simulate` (what it offers beside every run's).
simulate_options = declared(
    Opt("--players N", int | None, None, "Seats (2-12)."),
    *GAME_OPTIONS,
    Opt(
        "--bots",
        str,
        "random",
        "Bot kind per seat: random, heuristic, ev (e.g. ev,random); rotated each game.",
    ),
    Opt(
        "--engine",
        str,
        "auto",
        "auto: a compiled kernel where one plays the table and its bots (Classic and"
        " Northwoods; Advanced with Robertson's rule, Perry's trading, both or none; Classic"
        " with any of Husted's, Robertson's, Schellenberg's and Perry's; with any bots), else"
        " the rules engine;"
        " kernel; reference: always the rules engine.",
    ),
    Opt(
        "--plot FILE.png",
        Path | None,
        None,
        "Draw win rates, money per seat, lengths.",
        shown="no drawing",
    ),
)


class BoardSimulation(Simulation):
    def offers_threads(self, preset: str) -> bool:
        """The compiled whole games play Classic, Northwoods and Advanced."""
        return preset in ("classic", "northwoods", "advanced")

    def options(self) -> tuple[Callable[..., None], ...]:
        return (simulate_options,)

    def setup(self, preset: str, given: Mapping[str, Any], *, quiet: bool) -> Setup:
        from horserace.families.board.options import board_table_options
        from horserace.families.board.tally import exact_horse_odds
        from horserace.families.presets import get_preset

        options = board_table_options(given["players"], given)
        settings = {"bots": tuple(given["bots"].split(",")), "engine": given["engine"]}
        money = get_preset(preset).config(options).money
        extra = {"exact": exact_horse_odds(preset, options), "plot": given["plot"], "money": money}
        return Setup(options, settings, extra)

    def planner(self) -> Callable[..., Planned[Any]]:
        from horserace.families.board.tally import plan_games

        return plan_games

    def to_json(self, report: Any, setup: Setup) -> dict[str, Any]:
        data: dict[str, Any] = report.to_json()
        for entry in data["horses"]:
            entry["exact"] = setup.extra["exact"][entry["horse"]]
        return data

    def show(self, console: Console, report: Any, setup: Setup, *, seed_given: bool) -> None:
        _print_report(console, report, setup.extra["exact"], seed_given=seed_given)

    def draw(self, report: Any, setup: Setup, path: Path) -> None:
        from horserace.families.board.plots import plot_simulation

        plot_simulation(report, setup.extra["exact"], setup.extra["money"], path)


SIMULATION = BoardSimulation()
OTHER_SIMULATIONS = {"race": RACES_ALONE}  # `horserace simulate race`


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

    from rich.table import Table

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
        zip([f"P{s + 1}" for s in range(report.players)], report.seat_chips, strict=True)
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
        f" {counted(report.workers, 'worker')}, {report.engine} engine"
        + (f" on {report.threads} threads" if report.threads > 1 else ""),
        style="dim",
    )
