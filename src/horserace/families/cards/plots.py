"""Pictures of the card races' simulations: how often a horse wins by the course cards of its
suit (the one thing that sets the horses apart before the race), beside the exact chance;
chips per seat; race lengths in cards turned.

matplotlib is imported inside the function, so only a command asked for a plot pays for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from horserace.terminal.pictures import draw_counts, draw_means, draw_wins, save
from horserace.terminal.pictures import figure as new_figure

if TYPE_CHECKING:
    from horserace.core.stats import Proportion, RunningStats


class CardFigures(Protocol):
    """What the picture reads of a card-race simulation's report (`simulation.CardsReport`,
    which imports this module: a protocol keeps the import one way)."""

    @property
    def preset(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def races(self) -> int: ...
    @property
    def wins_by_count(self) -> Mapping[int, Proportion]: ...
    @property
    def exact_by_count(self) -> Mapping[int, float]: ...
    @property
    def seat_chips(self) -> Sequence[RunningStats]: ...
    @property
    def card_counts(self) -> Sequence[int]: ...


def plot_simulation(report: CardFigures, path: Path) -> None:
    """Win rate by course cards showing, with 95% intervals and the exact chance; final chips
    per seat; cards turned per race."""
    figure, (wins, chips, length) = new_figure(3)
    draw_wins(wins, report.wins_by_count, report.exact_by_count)
    wins.set_xlabel("course cards of the horse's suit")
    wins.set_title(f"{report.preset}: {report.races:,} races")
    seats = [f"P{seat + 1}" for seat in range(len(report.seat_chips))]
    draw_means(chips, seats, report.seat_chips, "final chips")
    chips.set_title(f"final chips per seat ({report.games:,} games)")
    draw_counts(length, report.card_counts, "cards turned in the race")
    length.set_title("race length")
    save(figure, path)
