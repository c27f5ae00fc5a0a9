"""Pictures of the analysis commands, drawn headless (matplotlib's Agg backend) into PNG files.

matplotlib is imported inside each function, so only a command asked for a plot pays for it.
Every plot of win chances shows the simulated rate with its 95% interval and the exact odds
beside it, so a reader sees at a glance whether the two agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.core.errors import ConfigError
from horserace.terminal.pictures import save

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from horserace.core.stats import RunningStats
    from horserace.drivers.simulate.sweep import Outcome

FAILED = "#c0392b"
SPREAD = 0.8  # the share of a point's slot its horses spread over, side by side


# What each family calls its race length (a column of the sweep's table, and its unit), its
# seats' final money (columns PREFIX1, PREFIX2...) and the starting stake in its config.
RACE_LENGTH = {
    "board": ("race_length", "rolls"),
    "cards": ("race_cards", "cards turned"),
    "derby": ("turns_per_race", "turns"),
}
SEAT_MONEY = {"board": "chips_P", "cards": "seats_P", "derby": "seats_P"}
STAKE = {"board": "starting_chips", "cards": "starting_chips", "derby": "starting_money"}
FAMILY_NAME = {"board": "dice board", "cards": "card race", "derby": "Derby"}
FAMILY_COLOUR = {"board": "#9bc48f", "cards": "#8fb3c4", "derby": "#c4a48f"}


def plot_sweep(outcomes: Sequence[Outcome], path: Path) -> None:
    """Per grid point: race length and chips paid per round with intervals, and each horse's
    win rate with its interval. A point that failed keeps its place, marked "failed". A sweep
    with card races or the Derby draws what every family has: the race length and each
    seat's final money (plot_families)."""
    reports = [o.report for o in outcomes if o.report is not None]
    if not reports:
        raise ConfigError("no point of the sweep finished, so there is nothing to draw")
    if any(outcome.point.family != "board" for outcome in outcomes):
        plot_families(outcomes, path)
        return
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    labels = [o.point.name for o in outcomes]
    failed = [i for i, o in enumerate(outcomes) if o.report is None]
    figure = pyplot.figure(figsize=(max(10.0, 0.9 * len(labels) + 1.5), 9.0))
    grid = figure.add_gridspec(2, 2, height_ratios=(1.0, 1.4))
    length, paid = figure.add_subplot(grid[0, 0]), figure.add_subplot(grid[0, 1])
    wins = figure.add_subplot(grid[1, :])  # the whole width: eleven horses a point
    _means(length, [o.report.race_length if o.report else None for o in outcomes], "rolls per race")
    length.set_title("race length")
    paid_stats = [o.report.paid_per_round if o.report else None for o in outcomes]
    _means(paid, paid_stats, "chips per round")
    paid.set_title("paid into the pot per round")
    _wins(wins, outcomes)
    for axes in (length, paid, wins):
        _name_points(axes, labels, failed)
    save(figure, path)


def _means(axes: Axes, stats: Sequence[RunningStats | None], unit: str) -> None:
    """Bars of the means with their 95% intervals; nothing where a point failed."""
    places = [i for i, s in enumerate(stats) if s is not None]
    found = [s for s in stats if s is not None]
    halves = [(s.ci95() or (s.mean, s.mean))[1] - s.mean for s in found]
    axes.bar(places, [s.mean for s in found], yerr=halves, capsize=3, color="#9bc48f")
    axes.set_ylabel(unit)
    axes.set_xlim(-0.6, len(stats) - 0.4)


def _wins(axes: Axes, outcomes: Sequence[Outcome]) -> None:
    """Each horse's win rate at each point with its Wilson 95% interval. The horses of a point
    stand side by side in its slot (2 at the left, 12 at the right), so the mirror-image horses
    (2 and 12, 3 and 11, ...), whose rates are alike, never hide each other; a pair shares a
    colour, the longer half drawn hollow."""
    import matplotlib

    first = next(o.report for o in outcomes if o.report is not None)
    horses = list(first.horse_wins)
    palette = matplotlib.colormaps["tab10"]
    step = SPREAD / len(horses)
    for number, horse in enumerate(horses):
        places, rates, below, above = [], [], [], []
        for place, outcome in enumerate(outcomes):
            if outcome.report is None:
                continue
            wins = outcome.report.horse_wins[horse]
            low, high = wins.wilson95()
            places.append(place + (number - (len(horses) - 1) / 2) * step)
            rates.append(100 * wins.rate)
            below.append(100 * (wins.rate - low))
            above.append(100 * (high - wins.rate))
        colour = palette(abs(horse - 7))
        hollow = horse > 7
        axes.errorbar(
            places,
            rates,
            yerr=[below, above],
            fmt="o" if not hollow else "s",
            markersize=3.5,
            markerfacecolor="white" if hollow else colour,
            color=colour,
            elinewidth=0.8,
            capsize=1.5,
            linewidth=0,
            label=str(horse),
        )
    axes.set_ylabel("wins (%), 95% interval")
    axes.set_title("win rate per horse (each point: horse 2 … 12, left to right)")
    axes.set_xlim(-0.6, len(outcomes) - 0.4)
    axes.grid(axis="y", color="#dddddd", linewidth=0.6)
    for edge in range(1, len(outcomes)):  # the points' slots ruled apart
        axes.axvline(edge - 0.5, color="#cccccc", linewidth=0.6)
    axes.legend(
        fontsize="x-small", ncol=2, title="horse", loc="center left", bbox_to_anchor=(1, 0.5)
    )


def _name_points(axes: Axes, labels: Sequence[str], places: Sequence[int]) -> None:
    """Each point's name under its slot; the failed points' `places` in red, with an x and
    "failed" at the bottom of their slots."""
    axes.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize="small")
    for tick in places:
        axes.get_xticklabels()[tick].set_color(FAILED)
    if not places:
        return
    bottom = axes.get_ylim()[0]
    axes.plot(places, [bottom] * len(places), "x", color=FAILED, markersize=10, clip_on=False)
    for place in places:
        axes.annotate(
            "failed",
            (place, bottom),
            xytext=(0, 8),
            textcoords="offset points",
            ha="center",
            color=FAILED,
            fontsize="small",
        )


def plot_families(outcomes: Sequence[Outcome], path: Path) -> None:
    """Per grid point, whatever its family: the race length (rolls, cards turned or turns, the
    bar coloured by family) and each seat's final money as a share of its starting stake, the
    seats of a point side by side, with 95% intervals; 1 is breaking even."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.patches import Patch

    from horserace.drivers.simulate.sweep import rows

    table = list(rows(outcomes))
    labels = [o.point.name for o in outcomes]
    failed = [i for i, o in enumerate(outcomes) if o.report is None]
    kinds = list(dict.fromkeys(o.point.family for o in outcomes))
    figure = pyplot.figure(figsize=(max(10.0, 0.9 * len(labels) + 2.5), 9.0))
    length, money = figure.subplots(2, 1, gridspec_kw={"height_ratios": (1.0, 1.3)})
    for place, (outcome, row) in enumerate(zip(outcomes, table, strict=True)):
        if outcome.report is None:
            continue
        key = RACE_LENGTH[outcome.point.family][0]
        low, high = row.get(f"{key}_low"), row.get(f"{key}_high")
        spread = None if low is None else [[row[key] - low], [high - row[key]]]
        colour = FAMILY_COLOUR.get(outcome.point.family, "#bbbbbb")
        length.bar(place, row[key], yerr=spread, capsize=3, color=colour)
    length.set_ylabel("per race")
    length.set_title("race length")
    units = [
        Patch(color=FAMILY_COLOUR[k], label=f"{FAMILY_NAME[k]}: {RACE_LENGTH[k][1]}") for k in kinds
    ]
    length.legend(handles=units, fontsize="small", loc="center left", bbox_to_anchor=(1, 0.5))
    _seat_money(money, outcomes, table)
    for axes in (length, money):
        axes.set_xlim(-0.6, len(labels) - 0.4)
        _name_points(axes, labels, failed)
    length.tick_params(labelbottom=False)  # the points are named once, under the lower chart
    save(figure, path)


def _seat_money(axes: Axes, outcomes: Sequence[Outcome], table: Sequence[dict[str, Any]]) -> None:
    """Each seat's mean final money over its starting stake, with its interval, P1 at the left
    of its point's slot; a dashed line at 1, where a seat breaks even."""
    for place, (outcome, row) in enumerate(zip(outcomes, table, strict=True)):
        if outcome.report is None:
            continue
        family = outcome.point.family
        stake = outcome.report.config.get(STAKE[family]) or 1
        prefix = SEAT_MONEY[family]
        seats = [key for key in row if key.startswith(prefix) and key[len(prefix) :].isdigit()]
        step = SPREAD / max(len(seats), 1)
        for number, key in enumerate(seats):
            at = place + (number - (len(seats) - 1) / 2) * step
            low, high = row.get(f"{key}_low"), row.get(f"{key}_high")
            spread = (
                None if low is None else [[(row[key] - low) / stake], [(high - row[key]) / stake]]
            )
            axes.errorbar(
                at,
                row[key] / stake,
                yerr=spread,
                fmt="o",
                markersize=3.5,
                color=FAMILY_COLOUR.get(family, "#888888"),
                markeredgecolor="#444444",
                markeredgewidth=0.5,
                elinewidth=0.8,
                capsize=1.5,
            )
    axes.axhline(1.0, color="#888888", linestyle="--", linewidth=0.8)
    axes.set_ylabel("final money / starting stake (1: even)")
    axes.set_title("each seat's final money, P1 … Pn left to right (95% interval)")
    axes.grid(axis="y", color="#dddddd", linewidth=0.6)
    for edge in range(1, len(outcomes)):
        axes.axvline(edge - 0.5, color="#cccccc", linewidth=0.6)
