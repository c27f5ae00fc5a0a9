"""`simulate derby` runs its paired races (the race kernel, after the games) on the one runner:
in chunks by index, on the run's workers, with progress of their own, merged in index order, so
the report is the same for any number of workers and the same as the races run at once; Ctrl-C
during them keeps the games and the paired races already in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.core.chunks import Span
from horserace.core.rng import derive_seed
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.runner import REPORT_STAGE, partial_on_interrupt, simulate_games
from horserace.families.derby import tally as derby_tally
from horserace.families.derby.rules.track import DEFAULT_TRACK
from horserace.families.derby.tally import PAIRED_CHUNK, PAIRED_STREAM, paired_races

OPTIONS = {"players": 4, "races": 1}
PAIRED = 2 * PAIRED_CHUNK + 1000  # three chunks, the last a short one
RUN = ["simulate", "derby", "-n", "8", "--players", "4", "--races", "1", "--seed", "5"]
TIMING = ("elapsed_seconds", "workers")


def _json(*more: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*RUN, "--paired", str(PAIRED), "--json", *more])
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_one_and_two_workers_give_the_same_report() -> None:
    one, two = _json(), _json("--workers", "2")
    assert (one["workers"], two["workers"]) == (1, 2)
    for data in (one, two):
        for key in TIMING:
            data.pop(key)
    assert one == two
    assert one["paired"]["races"] == PAIRED and one["games"] == 8


def test_paired_races_in_chunks_are_the_races_run_at_once() -> None:
    report = simulate_games("derby", OPTIONS, 8, 5, bots=("random",), paired=PAIRED, workers=2)
    at_once = paired_races(DEFAULT_TRACK, 4, PAIRED, derive_seed(5, PAIRED_STREAM))
    assert report.paired == at_once


def test_paired_races_show_their_own_progress() -> None:
    games: list[int] = []
    stages: list[tuple[str, int]] = []
    races: list[int] = []

    def stage(what: str, total: int) -> Any:
        stages.append((what, total))
        return races.append

    simulate_games(
        "derby", OPTIONS, 8, 5, paired=PAIRED, progress=games.append, stage_progress=stage
    )
    assert games == [8]
    assert stages == [("paired races", PAIRED), (REPORT_STAGE, 0)]
    assert races == [PAIRED_CHUNK, 2 * PAIRED_CHUNK, PAIRED]
    stages.clear()
    simulate_games("derby", OPTIONS, 8, 5, paired=0, stage_progress=stage)
    assert stages == [(REPORT_STAGE, 0)]  # no paired races, no bar for them


@pytest.mark.parametrize(("stop_at", "kept"), [(PAIRED_CHUNK, PAIRED_CHUNK), (0, 0)])
def test_ctrl_c_during_the_paired_races_keeps_the_games_and_the_races_in(
    monkeypatch: pytest.MonkeyPatch, stop_at: int, kept: int
) -> None:
    played = derby_tally.paired_span

    def stopped(*args: Any) -> Any:
        span: Span = args[-1]
        if span.start == stop_at:
            raise KeyboardInterrupt
        return played(*args)

    monkeypatch.setattr(derby_tally, "paired_span", stopped)
    with partial_on_interrupt() as stops:
        report = simulate_games("derby", OPTIONS, 8, 5, paired=PAIRED)
    assert report.games == 8
    assert (report.paired.races if report.paired else 0) == kept
    assert len(stops) == 1 and stops[0].done == kept
    result = CliRunner().invoke(app, [*RUN, "--paired", str(PAIRED), "--json"])
    assert result.exit_code == 130
    first = f"the first {kept} of" if kept else "none of"
    assert result.stderr.strip().splitlines()[-1] == (
        f"interrupted: the figures are those of all 8 games and {first} {PAIRED} paired races"
    )
    data = json.loads(result.stdout)
    assert data["games"] == 8 and (data["paired"] or {"races": 0})["races"] == kept
