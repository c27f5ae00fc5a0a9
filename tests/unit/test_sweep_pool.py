"""A local pool survives a worker that dies (os._exit, kill -9): the sweep starts a new pool
and sends the points not finished to it again. The point whose worker died counts an attempt,
and ends failed with "worker process died" once its retries are spent; the points the broken
pool ended with it count none, and every finished outcome is kept."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from horserace.core.chunks import RunReport
from horserace.drivers.simulate.sweep import Point, Sweep, expand, parse_grid, play_point, rows

MARKERS = "HORSERACE_SWEEP_MARKERS"


def _figures(outcomes: list[Any]) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in row.items() if k not in ("seconds", "attempts")} for row in rows(outcomes)
    ]


def dies_once(point: Point) -> RunReport:
    """Point 1's first try ends its worker process; its second plays (a marker file remembers
    the first across processes)."""
    marker = Path(os.environ[MARKERS]) / f"died-{point.index}"
    if point.index == 1 and not marker.exists():
        marker.touch()
        os._exit(3)
    return play_point(point)


def always_exits(point: Point) -> RunReport:
    if point.index == 1:
        os._exit(3)
    return play_point(point)


def always_killed(point: Point) -> RunReport:
    if point.index == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return play_point(point)


def test_a_point_whose_worker_dies_once_is_played_again_on_a_new_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MARKERS, str(tmp_path))
    points = expand("classic", parse_grid(["players=2,3,4,5"]), 20, 1)
    healed = Sweep(task=dies_once, retries=1).run_local(points, 2)
    assert (tmp_path / "died-1").exists()  # it did die once
    assert [o.attempts for o in healed] == [1, 2, 1, 1]
    assert all(o.report is not None and o.error is None for o in healed)
    assert _figures(healed) == _figures(Sweep().run_local(points, 1))


@pytest.mark.parametrize(
    ("task", "how"), [(always_exits, "exit code 3"), (always_killed, "killed by SIGKILL")]
)
def test_a_point_that_keeps_killing_its_worker_ends_failed_and_the_others_are_kept(
    task: Any, how: str
) -> None:
    points = expand("classic", parse_grid(["players=2,3,4,5"]), 20, 1)
    outcomes = Sweep(task=task, retries=2).run_local(points, 2)
    assert [o.point.index for o in outcomes] == [0, 1, 2, 3]
    dead = outcomes[1]
    assert dead.report is None and dead.attempts == 3
    assert dead.error == f"worker process died ({how})"
    others = [o for o in outcomes if o is not dead]
    assert all(o.report is not None and o.attempts == 1 for o in others)  # never blamed
    expected = _figures(Sweep().run_local(points, 1))
    assert [row for i, row in enumerate(_figures(outcomes)) if i != 1] == expected[:1] + expected[
        2:
    ]
