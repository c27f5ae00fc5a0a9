"""Pictures of the Derby's simulations: each horse's wins beside its exact chance, money per
seat, race lengths in turns.

From the start line every runner has the same chance, 1 in the field (the track is the same for
all and ties run on), so the exact odds need no computation; the bots choose which horses run.
matplotlib is imported inside the function, so only a command asked for a plot pays for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from horserace.families.derby.rules.race import DERBY_HORSES
from horserace.terminal.pictures import draw_counts, draw_means, draw_wins, save
from horserace.terminal.pictures import figure as new_figure

if TYPE_CHECKING:
    from horserace.families.derby.tally import DerbyReport


def plot_simulation(report: DerbyReport, path: Path) -> None:
    """Win rate of each horse that ran (of the races it ran) with 95% intervals and the exact
    chance; final money per seat; turns per race."""
    figure, (wins, money, length) = new_figure(3, width=6.0)
    runs = zip(DERBY_HORSES, report.horse_runs, report.horse_places, strict=True)
    ran = {horse: places[0] for horse, count, places in runs if count}
    draw_wins(wins, ran, dict.fromkeys(ran, 1 / report.runners))
    wins.set_title(f"{report.preset}: {report.races:,} races of {report.runners}")
    seats = [f"P{seat + 1}" for seat in range(report.players)]
    draw_means(money, seats, report.seat_money, "final dollars")
    money.set_title(f"final money per seat ({report.games:,} games)")
    draw_counts(length, report.turn_counts, "turns in the race")
    length.set_title("race length")
    save(figure, path)
