"""`horserace simulate derby`: bots play many Derby games; the figures with 95% intervals (the
family's part; the command itself is generic)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.core.words import counted
from horserace.families.simulation import Setup, Simulation
from horserace.terminal.options import Opt, declared

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from horserace.core.chunks import Planned
    from horserace.families.derby.tally import DerbyReport


# The Derby's own options of `simulate` (what it offers beside every run's).
simulate_options = declared(
    Opt("--players", int, 8, "Seats (2-20)."),
    Opt("--races", int, 3, "Races per game."),
    Opt("--money", int, 8, "Starting dollars."),
    Opt("--scratches", int, 0, "Scratches per race (0-2)."),
    Opt("--all-horses", bool, False, "All 20 horses run; unowned ones for the house."),
    Opt("--track FILE|NAME", str | None, None, "Track file or name."),
    Opt("--bots", str, "ev,random", "Bot kinds by seat, cycling, e.g. ev,random."),
    Opt(
        "--engine",
        str,
        "auto",
        "auto or reference: the rules engine plays the games (the bots choose horses and"
        " wagers, which no kernel does); kernel is refused. The paired races always run on"
        " the race kernel.",
    ),
    Opt("--paired", int, 20_000, "Paired races for the mud/accelerator effect (0 = none)."),
    Opt(
        "--plot FILE.png",
        Path | None,
        None,
        "Draw win rates beside the exact odds, money per seat, race lengths.",
        shown="no drawing",
    ),
)


class DerbySimulation(Simulation):
    games_default = 200

    def help(self, preset: str, summary: str) -> str:
        return (
            "Bots play many games; Win/Place/Show by horse, turns per race, money by seat, and"
            " how often mud and accelerators change the winner (the same races re-run on a"
            " paved track)."
        )

    def options(self) -> tuple[Callable[..., None], ...]:
        return (simulate_options,)

    def setup(self, preset: str, given: Mapping[str, Any], *, quiet: bool) -> Setup:
        from horserace.families import bot_kinds_of
        from horserace.families.derby.terminal import table_options

        table = {name: given[name] for name in ("races", "money", "scratches")}
        table.update(all_horses=given["all_horses"], track=given["track"])
        options = table_options(given["players"], table)
        settings = {
            "bots": bot_kinds_of(given["bots"], "derby"),
            "paired": given["paired"],
            "engine": given["engine"],
        }
        return Setup(options, settings, {"plot": given["plot"]})

    def planner(self) -> Callable[..., Planned[Any]]:
        from horserace.families.derby.tally import plan_derby

        return plan_derby

    def show(self, console: Console, report: Any, setup: Setup, *, seed_given: bool) -> None:
        if not seed_given:
            console.print(f"seed {report.seed} (drawn; pass --seed to repeat this run)")
        for table in report_tables(report):
            console.print(table)

    def draw(self, report: Any, setup: Setup, path: Path) -> None:
        from horserace.families.derby.plots import plot_simulation

        plot_simulation(report, path)


SIMULATION = DerbySimulation()


def _share(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def report_tables(report: DerbyReport) -> list[RenderableType]:
    """The figures of `simulate derby`, each with its 95% interval."""
    from rich.table import Table
    from rich.text import Text

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
