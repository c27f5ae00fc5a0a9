"""Pictures of the board's simulations: win rates beside the exact odds, money per seat, race
lengths; and of races alone, the rolls each scratch line cost.

matplotlib is imported inside each function, so only a command asked for a plot pays for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from horserace.terminal.pictures import draw_counts, draw_means, draw_wins, save
from horserace.terminal.pictures import figure as new_figure

if TYPE_CHECKING:
    from horserace.families.board.race_tally import RaceReport
    from horserace.families.board.tally import SimulationReport


def plot_simulation(
    report: SimulationReport, exact: Mapping[int, float], money_unit: str, path: Path
) -> None:
    """Win rate per horse with intervals and exact odds; final money per seat (in the table's
    money: chips, or Northwoods' cents); race length."""
    figure, (wins, money, length) = new_figure(3)
    draw_wins(wins, report.horse_wins, exact)
    wins.set_title(f"{report.preset}: {report.races:,} races")
    seats = [f"P{s + 1}" for s in range(report.players)]
    draw_means(money, seats, report.seat_chips, f"{money_unit} at the end (95% interval)")
    money.set_title(f"final money per seat ({report.games:,} games)")
    draw_counts(length, report.length_counts, "rolls in the race")
    length.set_title("race length")
    save(figure, path)


def plot_races(report: RaceReport, path: Path) -> None:
    """Win chances beside the exact odds, the rolls each scratch line cost, race lengths."""
    figure, (left, right, lengths) = new_figure(3)
    draw_wins(left, report.wins, report.exact_win, out=report.scratched)
    left.set_title(f"{report.races:,} races, {report.board.name} board\n{report.start_words()}")
    labels = ["all rolls"] + [f"line {k + 1}: {h}" for k, h in enumerate(report.scratched)]
    draw_means(right, labels, [report.length, *report.lines], "rolls per race")
    right.plot(
        labels, [report.exact_length, *report.exact_lines], "o", color="#c0392b", label="exact"
    )
    right.legend(fontsize="small")
    right.set_title("race length and rolls per scratch line")
    draw_counts(lengths, report.length_counts, "rolls in the race")
    lengths.set_title("race length")
    save(figure, path)


def plot_edges(
    labels: Sequence[str], edges: Sequence[float], intervals: Sequence[tuple[float, float]],
    path: Path,
) -> None:  # fmt: skip
    """One bar per bots' row: the first kind's edge over the second in chips a game, with its
    95% interval, the rows top to bottom in the order given."""
    figure, (axes,) = new_figure(1, width=9.0)
    figure.set_figheight(0.45 * len(labels) + 1.2)
    places = list(range(len(labels)))[::-1]
    lows = [edge - low for edge, (low, _) in zip(edges, intervals, strict=True)]
    highs = [high - edge for edge, (_, high) in zip(edges, intervals, strict=True)]
    axes.barh(places, edges, xerr=[lows, highs], capsize=3, color="#9bc48f")
    axes.set_yticks(places, labels, fontsize="small")
    axes.axvline(0, color="#555555", linewidth=0.8)
    axes.set_xlabel("edge of the first bot over the second, chips a game (95% interval)")
    axes.set_title("What a decision is worth")
    save(figure, path)


def plot_edges_by_players(
    panels: Mapping[str, Mapping[str, Mapping[int, tuple[float, float, float]]]],
    counts: Sequence[int],
    path: Path,
) -> None:
    """One panel per bot pairing (`panels`: its title, then per rule its edge, low and high by
    player count): each rule's edge over the player `counts` with its 95% interval, a rule one
    colour in every panel. A count a rule has no figure for is left out of its line, not drawn
    as zero."""
    figure, axes = new_figure(len(panels), width=5.2)
    for place, (title, rules) in zip(axes, panels.items(), strict=True):
        for offset, (rule, by_players) in enumerate(rules.items()):
            played = sorted(by_players)
            if not played:
                continue
            edges = [by_players[n][0] for n in played]
            lows = [edge - by_players[n][1] for edge, n in zip(edges, played, strict=True)]
            highs = [by_players[n][2] - edge for edge, n in zip(edges, played, strict=True)]
            shifted = [n + 0.1 * (offset - (len(rules) - 1) / 2) for n in played]  # apart
            place.errorbar(
                shifted, edges, yerr=[lows, highs], marker="o", capsize=3, color=f"C{offset}",
                label=rule,
            )  # fmt: skip
        place.set_xticks(list(counts))
        place.set_xlim(min(counts) - 1, max(counts) + 1)
        place.axhline(0, color="#555555", linewidth=0.8)
        place.set_xlabel("players")
        place.set_ylabel("edge, chips a game (95% interval)")
        place.set_title(title)
        if any(rules.values()):
            place.legend(fontsize="x-small")
    save(figure, path)
