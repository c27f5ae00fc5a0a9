"""Pictures of a board simulation: win rates beside the exact odds, money per seat, race
lengths; the drawing helpers are shared with the races-alone and sweep plots.

matplotlib is imported inside each function, so only a command asked for a plot pays for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from horserace.terminal.pictures import figure as new_figure
from horserace.terminal.pictures import save

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from horserace.core.stats import Proportion, RunningStats
    from horserace.families.board.tally import SimulationReport


def draw_wins(axes: Axes, wins: Mapping[int, Proportion], exact: Mapping[int, float]) -> None:
    """Bars of the simulated win rate with 95% intervals, exact odds as dots beside them."""
    horses = list(wins)
    rates = [100 * wins[h].rate for h in horses]
    lows = [max(0.0, 100 * (wins[h].rate - wins[h].wilson95()[0])) for h in horses]
    highs = [max(0.0, 100 * (wins[h].wilson95()[1] - wins[h].rate)) for h in horses]
    axes.bar(horses, rates, color="#7aa6c2", label="simulated (95% interval)")
    axes.errorbar(horses, rates, yerr=[lows, highs], fmt="none", ecolor="black", capsize=3)
    axes.plot(
        horses, [100 * exact.get(h, 0.0) for h in horses], "o", color="#c0392b", label="exact"
    )
    axes.set_xticks(horses)
    axes.set_xlabel("horse")
    axes.set_ylabel("wins (%)")
    axes.legend(fontsize="small")


def draw_means(axes: Axes, labels: Sequence[str], stats: Sequence[RunningStats], unit: str) -> None:
    """Mean per label with its 95% interval."""
    means = [s.mean for s in stats]
    halves = [(s.ci95() or (s.mean, s.mean))[1] - s.mean for s in stats]
    axes.bar(labels, means, yerr=halves, capsize=3, color="#9bc48f")
    axes.set_ylabel(unit)


def draw_counts(axes: Axes, counts: Sequence[int], label: str) -> None:
    """A histogram from counts per value 0, 1, 2, ... (trailing empty bins left out)."""
    last = max((i for i, c in enumerate(counts) if c), default=0)
    axes.bar(range(last + 1), counts[: last + 1], width=1.0, color="#b9a3d1")
    axes.set_xlabel(label)
    axes.set_ylabel("count")


def plot_simulation(report: SimulationReport, exact: Mapping[int, float], path: Path) -> None:
    """Win rate per horse with intervals and exact odds; final money per seat; race length."""
    figure, (wins, money, length) = new_figure(3)
    draw_wins(wins, report.horse_wins, exact)
    wins.set_title(f"{report.preset}: {report.races:,} races")
    draw_means(money, [f"P{s + 1}" for s in range(report.players)], report.seat_chips, "final")
    money.set_title(f"final money per seat ({report.games:,} games)")
    draw_counts(length, report.length_counts, "rolls in the race")
    length.set_title("race length")
    save(figure, path)
