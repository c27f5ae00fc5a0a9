"""Pictures of the analysis commands, drawn headless (matplotlib's Agg backend) into PNG files.

matplotlib is imported inside each function, so only a command asked for a plot pays for it.
Every plot of win chances shows the simulated rate with its 95% interval and the exact odds
beside it, so a reader sees at a glance whether the two agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from horserace.core.errors import ConfigError
from horserace.terminal.pictures import draw_means, save
from horserace.terminal.pictures import figure as new_figure

if TYPE_CHECKING:
    from horserace.drivers.simulate.sweep import Outcome


def plot_sweep(outcomes: Sequence[Outcome], path: Path) -> None:
    """Per grid point: race length and chips paid per round with intervals, and each horse's
    win rate across the points."""
    done = [o for o in outcomes if o.report is not None]
    if not done:
        raise ConfigError("no point of the sweep finished, so there is nothing to draw")
    import matplotlib

    reports = [o.report for o in done if o.report is not None]
    labels = [o.point.name for o in done]
    figure, (length, paid, wins) = new_figure(3, width=max(5.0, 0.6 * len(labels)))
    draw_means(length, labels, [r.race_length for r in reports], "rolls per race")
    length.set_title("race length")
    draw_means(paid, labels, [r.paid_per_round for r in reports], "chips per round")
    paid.set_title("paid into the pot per round")
    palette = matplotlib.colormaps["tab20"]  # 11 horses: the 10 default colours repeat
    for index, horse in enumerate(reports[0].horse_wins):
        rates = [100 * r.horse_wins[horse].rate for r in reports]
        colour, marker = palette(index % palette.N), "os^D"[index % 4]
        wins.plot(labels, rates, color=colour, marker=marker, label=str(horse))
    wins.set_ylabel("wins (%)")
    wins.set_title("win rate per horse")
    wins.legend(
        fontsize="x-small", ncol=2, title="horse", loc="center left", bbox_to_anchor=(1, 0.5)
    )
    for axes in (length, paid, wins):
        axes.tick_params(axis="x", labelrotation=60, labelsize="small")
    save(figure, path)
