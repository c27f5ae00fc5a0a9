"""What a sweep writes: the engine asked for beside the engine used, every mean and rate with
the 95% interval the reports and the plot use, grid values typed in JSON, --out in the format
its name ends with (checked, like --plot, before anything runs), and a plot that keeps a
failed point's place, marked, and shows each horse's rate with its interval."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.components.board import HORSES
from horserace.drivers.cli import plots, sweep_cmd
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.sweep import Outcome, Sweep, expand, parse_grid, rows


def test_an_engine_axis_keeps_the_value_asked_for_beside_the_engine_used() -> None:
    points = expand("classic", parse_grid(["engine=auto,kernel,reference"]), 20, 1)
    table = list(rows(Sweep().run_local(points, 1)))
    assert [(row["engine"], row["engine_used"]) for row in table] == [
        ("auto", "kernel"),
        ("kernel", "kernel"),
        ("reference", "reference"),
    ]


def test_every_mean_and_rate_has_the_interval_the_report_gives() -> None:
    points = expand("classic", parse_grid(["players=3", "bots=ev+random"]), 30, 5)
    (outcome,) = Sweep().run_local(points, 1)
    report = outcome.report
    assert report is not None
    (row,) = rows([outcome])
    means = {
        "race_length": report.race_length,
        "paid_per_round": report.paid_per_round,
        "pot_left": report.pot_left,
        **{f"chips_P{seat + 1}": chips for seat, chips in enumerate(report.seat_chips)},
        **{f"result_{kind}": stats for kind, stats in report.bot_results.items()},
    }
    assert {"result_ev", "result_random", "chips_P3"} <= set(means)
    for name, stats in means.items():
        assert (row[f"{name}_low"], row[f"{name}_high"]) == stats.ci95()
        assert row[f"{name}_low"] < row[name] < row[f"{name}_high"]
    for horse in HORSES:
        wins = report.horse_wins[horse]
        assert (row[f"win_{horse}_low"], row[f"win_{horse}_high"]) == wins.wilson95()
    assert all(isinstance(value, float) for key, value in row.items() if key.endswith("_low"))


def _sweep(tmp_path: Path, *files: str) -> Any:
    args = ["sweep", "classic", "-g", "players=2,3", "-g", "chips=40", "-g", "bots=ev+random"]
    return CliRunner().invoke(app, [*args, "--games", "10", "--seed", "4", *files])


def test_out_writes_the_format_its_name_ends_with_and_json_keeps_values_typed(
    tmp_path: Path,
) -> None:
    as_json, as_csv = tmp_path / "t.json", tmp_path / "t.csv"
    result = _sweep(tmp_path, "--out", str(as_json))
    assert result.exit_code == 0, result.output
    assert list(tmp_path.iterdir()) == [as_json]  # no CSV beside it, nor instead of it
    data = json.loads(as_json.read_text(encoding="utf-8"))
    assert [(row["players"], row["chips"], row["bots"]) for row in data] == [
        (2, 40, "ev+random"),
        (3, 40, "ev+random"),
    ]
    assert data[0]["race_length_low"] < data[0]["race_length"] < data[0]["race_length_high"]
    result = _sweep(tmp_path, "--out", str(as_csv))
    assert result.exit_code == 0, result.output
    with as_csv.open(encoding="utf-8") as handle:
        written = list(csv.DictReader(handle))
    assert [(row["players"], row["engine_used"]) for row in written] == [
        ("2", "kernel"),
        ("3", "kernel"),
    ]
    assert {"win_7_low", "win_7_high", "pot_left_low", "chips_P2_high"} <= set(written[0])
    shown = json.loads(_sweep(tmp_path, "--json").stdout)
    assert shown["points"][1]["players"] == 3


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (["--out", "t.txt"], "error: --out {}/t.txt: name a .csv or a .json file"),
        (["--out", "t.csv", "--plot", "t.csv"], "error: --out and --plot both name {}/t.csv"),
        (["--out", "t.json", "--out", "t.json"], "error: --out and --out both name {}/t.json"),
        (["--plot", "t.txt"], "error: --plot {}/t.txt: name a .png, .svg or .pdf file"),
    ],
)
def test_files_that_cannot_be_written_are_refused_before_running(
    tmp_path: Path, files: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: object, **__: object) -> None:
        raise AssertionError("a point ran")

    monkeypatch.setattr(sweep_cmd, "_run", never)
    result = _sweep(tmp_path, *[str(tmp_path / f) if "." in f else f for f in files])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(message.format(tmp_path)), result.stderr
    assert result.stderr.count("\n") == 1 and list(tmp_path.iterdir()) == []


def test_the_plot_marks_a_failed_point_and_shows_each_horses_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[Any] = []
    monkeypatch.setattr(plots, "save", lambda figure, path: drawn.append(figure))
    points = expand("classic", parse_grid(["players=2,3,4"]), 40, 2)
    outcomes = Sweep().run_local(points, 1)
    outcomes[1] = Outcome(outcomes[1].point, None, "worker process died (exit code 3)", 3)
    plots.plot_sweep(outcomes, tmp_path / "sweep.png")
    (figure,) = drawn
    length, paid, wins = figure.axes[:3]
    for axes in (length, paid, wins):
        names = [label.get_text() for label in axes.get_xticklabels()]
        assert names == ["players=2", "players=3", "players=4"]  # the failed one in its place
        assert [text.get_text() for text in axes.texts] == ["failed"]
        assert axes.texts[0].xy[0] == 1
    bars = wins.containers  # one errorbar per horse: its rate and interval at each point
    assert [bar.get_label() for bar in bars] == [str(h) for h in HORSES]
    at = {int(bar.get_label()): bar.lines[0].get_xdata() for bar in bars}
    assert all(len(at[h]) == 2 for h in HORSES)  # the two points played
    assert at[2][0] < at[7][0] < at[12][0] < 1  # mirror-image horses side by side, apart
    assert all(bar.has_yerr and len(bar.lines[2][0].get_segments()) == 2 for bar in bars)
