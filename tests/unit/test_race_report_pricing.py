"""Races alone priced per scratch line (`--line-values`), what the report says of its start,
and the pictures' treatment of horses that do not run: scratched horses are named, not drawn
as empty bars with intervals, and the legend sits above every interval."""

from __future__ import annotations

import json

import matplotlib
import pytest
from typer.testing import CliRunner

from horserace.components.board import DEFAULT_BOARD
from horserace.core.stats import Proportion, RunningStats, wilson95
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.runner import run_planned
from horserace.families.board.race_tally import RaceReport, plan_races
from horserace.terminal.pictures import draw_wins

matplotlib.use("Agg")

NORTHWOODS = (20, 15, 10, 5)


def _races(values: tuple[int, ...], scratched: tuple[int, ...] = (3, 5, 7, 9)) -> RaceReport:
    planned = plan_races(
        "race", {}, 20_000, 11, 1, board=DEFAULT_BOARD, scratched=scratched, values=values
    )
    report: RaceReport = run_planned(planned, 20_000)
    return report


def test_a_line_costs_its_value_a_roll_of_its_horse() -> None:
    classic, northwoods = _races((1, 2, 3, 4)), _races(NORTHWOODS)
    # the same races (same seed): only the price of each line's rolls differs
    assert classic.lines == northwoods.lines
    rolls = [line.mean for line in northwoods.lines]
    priced = sum(v * r for v, r in zip(NORTHWOODS, rolls, strict=True))
    assert northwoods.chips.mean == pytest.approx(priced, rel=1e-12)
    exact_rolls = northwoods.exact_lines
    exact = sum(v * e for v, e in zip(NORTHWOODS, exact_rolls, strict=True))
    assert northwoods.exact_chips == pytest.approx(exact)
    assert classic.exact_chips < northwoods.exact_chips


def test_the_json_prices_each_line_beside_its_exact_figure() -> None:
    args = ["simulate", "race", "--races", "5000", "--seed", "3", "--scratched", "4,10"]
    result = CliRunner().invoke(app, [*args, "--line-values", "20,15,10,5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    lines = data["lines"]
    assert [line["value"] for line in lines] == [20, 15]
    for line in lines:
        assert line["chips"]["mean"] == pytest.approx(line["value"] * line["rolls"]["mean"])
        assert line["chips"]["exact"] == pytest.approx(line["value"] * line["rolls"]["exact"])
        low, high = line["chips"]["ci95"]
        error = (high - low) / 2 / 1.96  # within 4 standard errors of the exact figure
        assert abs(line["chips"]["mean"] - line["chips"]["exact"]) < 4 * error
    total = data["chips_per_race"]
    assert total["mean"] == pytest.approx(sum(line["chips"]["mean"] for line in lines))
    assert total["exact"] == pytest.approx(sum(line["chips"]["exact"] for line in lines))


@pytest.mark.parametrize("values", ["1,2,3", "1,2,3,4,5", "1,-2,3,4", "1,2,x,4", "1,,3,4"])
def test_bad_line_values_are_one_line_and_exit_2(values: str) -> None:
    result = CliRunner().invoke(app, ["simulate", "race", "--races", "10", "--line-values", values])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("error: ")


def test_the_header_says_where_the_races_start() -> None:
    args = ["simulate", "race", "--races", "1000", "--scratched", "3,5", "--positions", "8=2,6=4"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    header = " ".join(result.output.split("\n")[:2])
    assert "scratched: 3, 5; advanced: 6=4, 8=2" in header


def test_a_proportion_of_none_or_all_has_an_exact_bound() -> None:
    assert wilson95(0, 1_000_000)[0] == 0.0
    assert wilson95(7, 7)[1] == 1.0
    assert 0 < wilson95(1, 1_000_000)[0] < 1e-6


def test_scaled_stats_are_the_stats_of_the_scaled_values() -> None:
    values = [1.0, 4.0, 2.0, 7.0]
    scaled = RunningStats.of(values).scaled(3)
    direct = RunningStats.of([3 * v for v in values])
    assert scaled.mean == pytest.approx(direct.mean) and scaled.m2 == pytest.approx(direct.m2)


def test_scratched_horses_are_named_not_drawn() -> None:
    from matplotlib import pyplot
    from matplotlib.patches import Rectangle

    figure, axes = pyplot.subplots()
    wins = {h: Proportion(0 if h in (3, 7) else 100 + h, 1_200) for h in range(2, 13)}
    draw_wins(axes, wins, {h: 0.1 for h in range(2, 13)}, out=(3, 7))
    rectangles = [patch for patch in axes.patches if isinstance(patch, Rectangle)]
    bars = sorted(round(bar.get_x() + bar.get_width() / 2) for bar in rectangles)
    assert bars == [h for h in range(2, 13) if h not in (3, 7)]
    named = sorted(round(text.get_position()[0]) for text in axes.texts)
    assert named == [3, 7] and {text.get_text() for text in axes.texts} == {"scratched"}
    highest = max(100 * wins[h].wilson95()[1] for h in wins)
    assert axes.get_ylim()[1] >= 1.2 * highest  # headroom for the legend above the intervals
    pyplot.close(figure)
