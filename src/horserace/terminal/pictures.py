"""Pictures drawn headless (matplotlib's Agg backend) into PNG, SVG or PDF files, and the
panels every family's analysis draws: win rates beside the exact odds, means with their
intervals, histograms.

matplotlib is imported inside each function, so only a command asked for a picture pays for it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from horserace.core.errors import ConfigError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from horserace.core.stats import Proportion, RunningStats


def figure(panels: int, width: float = 5.0) -> tuple[Figure, list[Axes]]:
    """A figure of `panels` side by side."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(1, panels, figsize=(width * panels, 4.0), squeeze=False)
    return figure, list(axes[0])


def check_picture_path(path: Path) -> None:
    """A ConfigError for a `--plot` file that cannot be written as a picture (checked before a
    long run, as well as when saving)."""
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ConfigError(f"--plot {path}: name a .png, .svg or .pdf file")
    if not path.parent.is_dir():
        raise ConfigError(f"--plot {path}: no such directory {path.parent}")


def save(figure: Figure, path: Path) -> None:
    """Write the figure where `--plot` says (a ConfigError for a bad name or folder)."""
    from matplotlib import pyplot

    check_picture_path(path)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)


def draw_wins(
    axes: Axes,
    wins: Mapping[int, Proportion],
    exact: Mapping[int, float],
    out: Collection[int] = (),
) -> None:
    """Bars of the simulated win rate with 95% intervals, exact odds as dots beside them; the
    horses in `out` (scratched) are named as such instead of drawn as a bar of nothing. The
    legend sits in headroom above the bars, where it hides no interval."""
    every = list(wins)
    horses = [h for h in every if h not in out]
    rates = [100 * wins[h].rate for h in horses]
    lows = [max(0.0, 100 * (wins[h].rate - wins[h].wilson95()[0])) for h in horses]
    highs = [max(0.0, 100 * (wins[h].wilson95()[1] - wins[h].rate)) for h in horses]
    axes.bar(horses, rates, color="#7aa6c2", label="simulated (95% interval)")
    axes.errorbar(horses, rates, yerr=[lows, highs], fmt="none", ecolor="black", capsize=3)
    axes.plot(
        horses, [100 * exact.get(h, 0.0) for h in horses], "o", color="#c0392b", label="exact"
    )
    tops = [r + h for r, h in zip(rates, highs, strict=True)] + [
        100 * exact.get(h, 0.0) for h in horses
    ]
    axes.set_ylim(0, 1.25 * max(tops, default=1.0) or 1.0)
    mark_out(axes, [h for h in every if h in out])
    axes.set_xticks(every)
    axes.set_xlabel("horse")
    axes.set_ylabel("wins (%)")
    axes.legend(fontsize="small", loc="upper center", ncol=2)


def mark_out(axes: Axes, horses: Sequence[int], label: str = "scratched") -> None:
    """Name the horses that are not in the race at their places along the x axis."""
    for horse in horses:
        axes.text(
            horse,
            0.02,
            label,
            rotation=90,
            ha="center",
            va="bottom",
            color="#777777",
            fontsize="small",
            transform=axes.get_xaxis_transform(),
        )


def draw_means(axes: Axes, labels: Sequence[str], stats: Sequence[RunningStats], unit: str) -> None:
    """Mean per label with its 95% interval."""
    means = [s.mean for s in stats]
    halves = [(s.ci95() or (s.mean, s.mean))[1] - s.mean for s in stats]
    axes.bar(labels, means, yerr=halves, capsize=3, color="#9bc48f")
    axes.set_ylabel(unit)


def draw_counts(axes: Axes, counts: Sequence[int], label: str) -> None:
    """A histogram from counts per value 0, 1, 2, ... (the empty bins either side left out)."""
    first = min((i for i, c in enumerate(counts) if c), default=0)
    last = max((i for i, c in enumerate(counts) if c), default=0)
    axes.bar(range(first, last + 1), counts[first : last + 1], width=1.0, color="#b9a3d1")
    axes.set_xlabel(label)
    axes.set_ylabel("count")
