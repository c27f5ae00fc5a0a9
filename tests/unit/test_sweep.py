"""Sweeps: the grid, the same table on one process, a local pool or a Dask cluster (a
LocalCluster the test starts), retries of a failing point, and one-line errors for bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.components.board import HORSES
from horserace.core.chunks import RunReport
from horserace.core.errors import ConfigError
from horserace.drivers.cli.app import app
from horserace.drivers.simulate import sweep_dask
from horserace.drivers.simulate.sweep import (
    Point,
    Sweep,
    expand,
    longest_first,
    parse_grid,
    play_point,
    rows,
)

GRID = ["players=2,5", "rounds=2,3", "repeat_scratch=move,reroll"]


def _table(outcomes: list[Any]) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in row.items() if k not in ("seconds", "attempts")} for row in rows(outcomes)
    ]


def test_the_grid_is_every_combination_checked_before_running() -> None:
    points = expand("classic", parse_grid(GRID), 10, 1)
    assert len(points) == 8
    assert points[0].name == "players=2 rounds=2 repeat_scratch=move"
    assert points[-1].options == {"players": 5, "rounds": 3, "repeat_scratch": "reroll"}
    with pytest.raises(ConfigError, match="grid point players=13"):
        expand("classic", parse_grid(["players=4,13"]), 10, 1)
    with pytest.raises(ConfigError, match="unknown grid axis 'speed'; the axes: preset,"):
        expand("classic", parse_grid(["speed=1"]), 10, 1)
    with pytest.raises(ConfigError, match="the derby preset does not take it"):
        expand("derby", parse_grid(["rounds=2"]), 10, 1)
    for bad in (["players"], ["players=2,,3"], ["players=2", "players=3"]):
        with pytest.raises(ConfigError):
            parse_grid(bad)


def test_presets_are_one_more_axis_of_the_grid() -> None:
    points = expand(None, parse_grid(["preset=classic,northwoods", "players=3,4"]), 10, 1)
    assert [(p.preset, p.options) for p in points] == [
        ("classic", {"players": 3}),
        ("classic", {"players": 4}),
        ("northwoods", {"players": 3}),
        ("northwoods", {"players": 4}),
    ]
    assert points[2].name == "preset=northwoods players=3"
    with pytest.raises(ConfigError, match="name a preset"):
        expand(None, parse_grid(["players=3"]), 10, 1)
    with pytest.raises(ConfigError, match="not both"):
        expand("classic", parse_grid(["preset=classic"]), 10, 1)
    with pytest.raises(ConfigError, match="grid point preset=advanced players=3: the advanced"):
        expand(None, parse_grid(["preset=advanced", "players=3"]), 10, 1)
    with pytest.raises(ConfigError, match=r"the basic preset does not take it \(classic does\)"):
        expand(None, parse_grid(["preset=classic,basic", "rounds=2"]), 10, 1)
    one, two = (
        Sweep().run_local(expand(None, parse_grid([f"preset={name}"]), 30, 4), 1)
        for name in ("classic", "northwoods")
    )
    assert one[0].report is not None and two[0].report is not None
    assert one[0].report.preset == "classic" and two[0].report.preset == "northwoods"


def test_a_local_pool_gives_the_same_table_as_one_process() -> None:
    points = expand("classic", parse_grid(GRID), 200, 7)
    one = Sweep().run_local(points, 1)
    two = Sweep().run_local(points, 2)
    assert _table(one) == _table(two)
    assert all(row["error"] == "" and row["engine_used"] == "kernel" for row in _table(one))


def test_the_costliest_points_start_first_and_the_table_keeps_the_grid_order() -> None:
    points = expand("classic", parse_grid(["players=2,6", "rounds=1,3"]), 10, 1)
    assert [p.work for p in points] == [20, 60, 60, 180]  # games x players x rounds
    order = [p.index for p in longest_first(points)]
    assert order[0] == 3 and order[-1] == 0
    outcomes = Sweep().run_local(points, 2)
    assert [outcome.point.index for outcome in outcomes] == [0, 1, 2, 3]


def flaky(point: Point) -> RunReport:
    """Fails the first try of each point (a marker file remembers it across processes)."""
    marker = Path(os.environ["HORSERACE_SWEEP_MARKERS"]) / f"point-{point.index}"
    if not marker.exists():
        marker.touch()
        raise RuntimeError(f"worker lost while playing point {point.index}")
    return play_point(point)


def broken(point: Point) -> RunReport:
    raise RuntimeError(f"point {point.index} cannot be played")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failed_point_is_retried_and_one_that_keeps_failing_is_reported(
    workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HORSERACE_SWEEP_MARKERS", str(tmp_path))
    points = expand("classic", parse_grid(["players=2,3"]), 20, 1)
    healed = Sweep(task=flaky, retries=1).run_local(points, workers)
    assert [o.attempts for o in healed] == [2, 2] and all(o.report for o in healed)
    assert _table(healed) == _table(Sweep().run_local(points, 1))
    failed = Sweep(task=broken, retries=2).run_local(points, workers)
    assert [o.attempts for o in failed] == [3, 3]
    assert all(o.report is None and "cannot be played" in (o.error or "") for o in failed)


def test_a_dask_cluster_gives_the_same_table_and_retries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from distributed import LocalCluster

    monkeypatch.setenv("HORSERACE_SWEEP_MARKERS", str(tmp_path))
    points = expand("classic", parse_grid(GRID[:2]), 100, 3)
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        seen: list[int] = []
        on_dask = Sweep(progress=lambda done, _: seen.append(done)).run_dask(
            points, cluster.scheduler_address
        )
        assert _table(on_dask) == _table(Sweep().run_local(points, 1))
        assert seen == [1, 2, 3, 4]
        healed = Sweep(task=flaky, retries=1).run_dask(points, cluster.scheduler_address)
        assert all(o.report is not None for o in healed)
        failed = Sweep(task=broken, retries=1).run_dask(points[:1], cluster.scheduler_address)
        assert failed[0].report is None and "cannot be played" in (failed[0].error or "")


def test_an_unreachable_scheduler_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody listens on the port: the connection is tried until its timeout (10 s in the
    command), here 0.2 s, which ends in the same one line."""
    reach = sweep_dask.reach
    monkeypatch.setattr(sweep_dask, "reach", lambda address, _: reach(address, 0.2))
    args = ["sweep", "classic", "--grid", "players=2", "--games", "5"]
    result = CliRunner().invoke(app, [*args, "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: cannot reach the Dask scheduler")
    assert result.stderr.count("\n") == 1


def test_the_command_writes_csv_json_and_a_picture(tmp_path: Path) -> None:
    out, picture = tmp_path / "sweep.csv", tmp_path / "sweep.png"
    args = ["sweep", "classic", "-g", "players=3,4", "-g", "engine=auto,reference"]
    files = ["--out", str(out), "--out", str(tmp_path / "sweep.json"), "--plot", str(picture)]
    result = CliRunner().invoke(app, [*args, "--games", "20", "--seed", "2", *files])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert lines[0].startswith("players,engine,attempts,error,engine_used,games")
    assert len(lines) == 5
    data = json.loads((tmp_path / "sweep.json").read_text())
    assert [row["engine_used"] for row in data] == ["kernel", "reference", "kernel", "reference"]
    assert all(abs(sum(row[f"win_{h}"] for h in HORSES) - 1) < 1e-9 for row in data)
    assert picture.read_bytes()[:4] == b"\x89PNG"
    shown = CliRunner().invoke(app, [*args[:4], "--games", "5", "--seed", "1", "--json"])
    assert json.loads(shown.stdout)["seed"] == 1
    axis = ["sweep", "-g", "preset=classic,northwoods", "--games", "5", "--seed", "1", "--json"]
    shown = CliRunner().invoke(app, axis)
    assert shown.exit_code == 0, shown.output
    found = json.loads(shown.stdout)
    assert found["preset"] is None
    assert [row["preset"] for row in found["points"]] == ["classic", "northwoods"]


@pytest.mark.parametrize(
    "extra",
    [
        ["--grid", "nope=1"],
        ["--grid", "players=1"],
        ["--grid", "house=wild"],
        ["--grid", "board=/no/such/board.toml"],
        ["--grid", "players"],
        ["--games", "0"],
        ["--out", "/no/such/dir/sweep.csv"],
        ["--grid", "preset=classic"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(extra: list[str]) -> None:
    result = CliRunner().invoke(app, ["sweep", "classic", "--games", "5", *extra])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("slots", [0, 200])
@pytest.mark.parametrize(
    "command",
    [
        ["sweep", "classic", "--games", "5", "--grid", "board={}"],
        ["simulate", "classic", "--games", "2", "--board", "{}"],
        ["simulate", "race", "--races", "10", "--board", "{}"],
        ["design", "board", "--start", "{}"],
    ],
)
def test_a_board_file_with_a_lane_of_0_or_200_slots_is_one_line_and_exit_2(
    tmp_path: Path, slots: int, command: list[str]
) -> None:
    board = tmp_path / "bad.toml"
    lanes = "\n".join(f'"{h}" = {slots if h == 7 else 5}' for h in HORSES)
    board.write_text(f'name = "bad"\n[lanes]\n{lanes}\n', encoding="utf-8")
    result = CliRunner().invoke(app, [arg.format(board) for arg in command])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {board}: lane 7: a lane has 1 to 99 slots, not {slots}\n"


def test_the_terminal_table_fits_80_columns_and_folds_a_long_point(tmp_path: Path) -> None:
    """A point's axes a line each, folded rather than cut: a board file with a long name is
    still whole (read down its column), the figures are whole, no line passes 80 columns."""
    board = tmp_path / "a-board-with-a-name-longer-than-any-column-of-the-table.toml"
    lanes = "\n".join(f'"{h}" = {3 + abs(7 - h)}' for h in HORSES)
    board.write_text(f'name = "long"\n[lanes]\n{lanes}\n', encoding="utf-8")
    grid = ["-g", "players=3,4", "-g", f"board={board}", "-g", "engine=auto,reference"]
    result = CliRunner().invoke(
        app, ["sweep", "classic", *grid, "--games", "10", "--seed", "3"], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    cells = [line.split("│") for line in lines if line.startswith("│")]
    first_column = "".join(cell[1].strip() for cell in cells)
    assert first_column.count(f"board={board.name}") == 4  # folded, not cut; no folder
    assert first_column.count("engine=reference") == 2
    assert sum("reference" in cell[2] for cell in cells) == 2  # the figures on one line each
    assert all(cell[-2].strip().endswith("%)") for cell in cells if cell[2].strip())
