"""Sweeps of the card races and the Derby: their own axes (those of their `simulate`), checked
before anything runs; the same table on one process, a local pool or a Dask cluster; rows
flattened from each family's report, blank where a point's family lacks a column; a terminal
table per family and a plot of what every family has."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.drivers.cli import plots, sweep_cmd
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.sweep import Outcome, Sweep, expand, parse_grid, rows

CARDS = ["preset=basic,scarne", "players=3,4"]
DERBY = ["players=4,8", "paired=0"]
CARDS_AXES = (
    "preset, players, bots, engine, races, chips, betting, limit, takeout, faltering,"
    " stumbling, course_joker, course_length, need, redeal, ranks, book, auctioneer_out,"
    " rebid_after_pass"
)
DERBY_AXES = "preset, players, races, money, scratches, all_horses, track, bots, engine, paired"


def _table(outcomes: list[Any]) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in row.items() if k not in ("seconds", "attempts")} for row in rows(outcomes)
    ]


def test_a_card_sweep_gives_the_same_table_on_one_process_and_a_pool() -> None:
    points = expand(None, parse_grid(CARDS), 30, 5)
    assert [(p.preset, p.options["players"], p.family) for p in points] == [
        ("basic", 3, "cards"),
        ("basic", 4, "cards"),
        ("scarne", 3, "cards"),
        ("scarne", 4, "cards"),
    ]
    one = _table(Sweep().run_local(points, 1))
    assert one == _table(Sweep().run_local(points, 2))
    for row in one:
        assert row["error"] == "" and row["engine_used"] == "kernel" and row["games"] == 30
        assert row["races"] == 30 * row["players"]  # one race per seat by default
        assert row["race_cards_low"] < row["race_cards"] < row["race_cards_high"]
        seats = [row[f"seats_P{seat}"] for seat in range(1, row["players"] + 1)]
        assert sum(seats) + row["unclaimed"] == pytest.approx(100 * row["players"])  # conserved
        assert "race_length" not in row and f"seats_P{row['players'] + 1}" not in row
    assert one[0]["race_cards"] != one[2]["race_cards"]  # basic and scarne really differ


def test_a_derby_sweep_gives_the_same_table_on_one_process_and_a_pool() -> None:
    points = expand("derby", parse_grid(DERBY), 6, 2)
    assert [(p.options["players"], p.settings["paired"]) for p in points] == [(4, 0), (8, 0)]
    one = _table(Sweep().run_local(points, 1))
    assert one == _table(Sweep().run_local(points, 2))
    for row in one:
        assert row["engine_used"] == "reference" and row["races"] == 6 * 3
        wins = sum(row[f"win_{h}"] * row[f"runs_{h}"] for h in range(1, 21) if f"runs_{h}" in row)
        assert wins == pytest.approx(row["races"])  # one winner a race
        assert row["turns_per_race_low"] < row["turns_per_race"] < row["turns_per_race_high"]
        assert f"seats_P{row['players']}_high" in row
        assert "paired_races" not in row  # paired=0: no paired races
    assert one[0]["wagered_per_race"] != one[1]["wagered_per_race"]


def test_a_dask_cluster_gives_a_card_sweep_the_same_table() -> None:
    from distributed import LocalCluster

    points = expand("calcutta", parse_grid(["players=3,4"]), 8, 3)
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_dask = Sweep().run_dask(points, cluster.scheduler_address)
    table = _table(on_dask)
    assert table == _table(Sweep().run_local(points, 1))
    assert [(row["players"], row["engine_used"]) for row in table] == [
        (3, "reference"),
        (4, "reference"),
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["basic", "-g", "rounds=2,3"], "grid axis rounds: the basic preset does not take it;"),
        (["derby", "-g", "house=perry"], "grid axis house: the derby preset does not take it;"),
        (
            ["-g", "preset=classic,derby", "-g", "paired=0"],
            "grid axis paired: the classic preset does not take it (derby does); classic takes:"
            " preset, players, rounds,",
        ),
        (["scarne", "-g", "players=x"], "grid axis players: 'x' is not a whole number"),
        (["basic", "-g", "faltering=maybe"], "grid axis faltering: 'maybe' is not true or false"),
        (
            ["calcutta", "-g", "betting=book"],
            "grid point betting=book: the calcutta preset always auctions the horses",
        ),
        (["derby", "-g", "engine=kernel"], "grid point engine=kernel: "),
        (["derby", "-g", "players=4,40"], "grid point players=40: "),
        (
            ["-g", "preset=classic,basic", "-g", "bots=random,value"],
            "grid point preset=classic bots=value: unknown bot kind 'value'",
        ),
        (["basic", "-g", "bots=value+alien"], "grid point bots=value+alien: unknown bot kind"),
    ],
)
def test_an_axis_or_value_a_family_does_not_take_is_one_line_before_running(
    args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: object, **__: object) -> None:
        raise AssertionError("a point ran")

    monkeypatch.setattr(sweep_cmd, "_run", never)
    result = CliRunner().invoke(app, ["sweep", *args, "--games", "5", "--seed", "1"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {message}"), result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_an_axis_a_preset_does_not_take_lists_the_axes_it_takes() -> None:
    result = CliRunner().invoke(app, ["sweep", "basic", "-g", "rounds=2", "--games", "5"])
    assert result.stderr == (
        f"error: grid axis rounds: the basic preset does not take it; basic takes: {CARDS_AXES}\n"
    )
    result = CliRunner().invoke(app, ["sweep", "derby", "-g", "house=perry", "--games", "5"])
    assert result.stderr.endswith(f"derby takes: {DERBY_AXES}\n")


def test_the_card_races_take_their_simulate_options_as_axes() -> None:
    points = expand(
        "basic", parse_grid(["betting=tote,party", "faltering=true", "bots=value+random"]), 5, 1
    )
    assert [p.options["betting"] for p in points] == ["tote", "party"]
    assert all(p.options["faltering"] and p.options["redeal"] is False for p in points)
    assert points[0].settings["bots"] == ("value", "random")
    (row,) = _table(Sweep().run_local(points[:1], 1))
    assert (row["betting"], row["faltering"], row["bots"]) == ("tote", True, "value+random")
    assert row["engine_used"] == "reference" and row["pool"] > 0


def test_a_mixed_sweep_leaves_blank_the_columns_a_family_lacks(tmp_path: Path) -> None:
    out, picture = tmp_path / "mixed.csv", tmp_path / "mixed.png"
    args = ["sweep", "-g", "preset=classic,basic", "-g", "players=4", "--games", "10"]
    result = CliRunner().invoke(
        app, [*args, "--seed", "1", "--out", str(out), "--plot", str(picture), "--json"]
    )
    assert result.exit_code == 0, result.output
    board, cards = json.loads(result.stdout)["points"]
    alone = CliRunner().invoke(app, ["sweep", "classic", *args[3:], "--seed", "1", "--json"])
    (board_alone,) = json.loads(alone.stdout)["points"]
    assert list(board)[1:] == list(board_alone)  # the board's columns as in a board sweep
    assert "race_cards" in cards and "race_length" not in cards
    with out.open(encoding="utf-8") as handle:
        written = list(csv.DictReader(handle))
    assert written[0]["race_cards"] == "" and written[1]["race_length"] == ""
    assert written[0]["race_length"] != "" and written[1]["race_cards"] != ""
    assert picture.read_bytes()[:4] == b"\x89PNG"


def test_the_terminal_shows_a_table_per_family_with_its_figures() -> None:
    grid = ["-g", "preset=classic,basic,derby", "-g", "players=4"]
    result = CliRunner().invoke(
        app, ["sweep", *grid, "--games", "4", "--seed", "1"], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    titles = ["Sweep, seed 1: the dice board", "Sweep, seed 1: the card races", "the Derby"]
    assert all(title in out for title in titles)
    assert out.index(titles[0]) < out.index(titles[1]) < out.index(titles[2])
    assert "paid/round" in out and "cards" in out and "turns" in out and "favourite" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_the_plot_of_a_card_sweep_keeps_a_failed_point_in_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[Any] = []
    monkeypatch.setattr(plots, "save", lambda figure, path: drawn.append(figure))
    outcomes = Sweep().run_local(expand("basic", parse_grid(["players=3,4,5"]), 10, 2), 1)
    outcomes[1] = Outcome(outcomes[1].point, None, "worker process died (exit code 3)", 3)
    plots.plot_sweep(outcomes, tmp_path / "sweep.png")
    (figure,) = drawn
    length, money = figure.axes[:2]
    assert [label.get_text() for label in money.get_xticklabels()] == [
        "players=3",
        "players=4",
        "players=5",
    ]
    assert len(length.patches) == 2  # a bar for each point played
    assert [text.get_text() for text in money.texts] == ["failed"]
    seats = [bar for bar in money.containers]
    assert len(seats) == 3 + 5  # a mark for each seat of the points played
