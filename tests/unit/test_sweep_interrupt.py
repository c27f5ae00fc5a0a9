"""Ctrl-C ends a sweep with the points finished so far: the table (and --out) holds them, one
line says how many of the grid's points they are, and the exit code is 130. The points under
way are dropped, also on a local pool, whose workers are stopped rather than waited for."""

from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest

from horserace.core.chunks import RunReport
from horserace.drivers.simulate.sweep import Point, Sweep, expand, parse_grid, play_point

HORSERACE = str(Path(sys.executable).with_name("horserace"))


def test_ctrl_c_keeps_the_points_finished_before_it() -> None:
    points = expand("classic", parse_grid(["players=2,3,4,5"]), 20, 1)

    def task(point: Point) -> RunReport:
        if point.index == 2:
            raise KeyboardInterrupt
        return play_point(point)

    sweep = Sweep(task=task)
    outcomes = sweep.run_local(points, 1)
    assert sweep.interrupted
    assert [o.point.name for o in outcomes] == ["players=2", "players=3"]
    assert all(o.report is not None and o.report.games == 20 for o in outcomes)
    assert not Sweep().interrupted


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_interrupted_sweep_prints_and_writes_the_finished_points(
    tmp_path: Path, workers: str
) -> None:
    """The second point (10000 rounds on the rules engine) runs for minutes: Ctrl-C comes once
    the progress bar shows the first point done."""
    out = tmp_path / "sweep.csv"
    args = ["sweep", "classic", "-g", "rounds=1,10000", "-g", "engine=reference"]
    args += ["--games", "50", "--seed", "3", "--workers", workers, "--out", str(out)]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "TERM": "xterm"}
    child = pexpect.spawn(HORSERACE, args, env=env, encoding="utf-8", timeout=120)
    child.expect("1/2")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    shown = child.before or ""
    assert child.exitstatus == 130, shown
    assert "│ rounds=1 " in shown and "│ engine=reference " in shown  # a line each
    assert "rounds=10000" not in shown
    assert "interrupted: the table holds the 1 of 2 points finished before Ctrl-C" in shown
    assert "Traceback" not in shown
    with out.open(encoding="utf-8") as handle:
        written = list(csv.DictReader(handle))
    assert [(row["rounds"], row["games"]) for row in written] == [("1", "50")]
