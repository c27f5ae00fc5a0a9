"""A worker process that dies (killed, out of memory) does not lose a run: a new pool replays
the chunks not merged yet, so the figures are those of an undisturbed run. A chunk that kills
its worker again and again ends the run with one line, and the command still prints the
figures of the chunks before it."""

from __future__ import annotations

import os
import signal
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.core.chunks import Plan, Span, spans
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.runner import (
    REPLAYS,
    Stopped,
    WorkerLost,
    partial_on_interrupt,
    run,
    simulation_of,
)
from horserace.families.board import tally as board_tally

OPTIONS = {"players": 3, "rounds": 2}
GAMES = 40  # three chunks of the engine's games (16 a chunk)


def dies(marker: Path, killer: int, times: int, play: Any, span: Span) -> Any:
    """`play(span)`, except that the chunk starting at `killer` kills its worker the first
    `times` times it is played (the marker file counts them, across processes)."""
    if span.start == killer:
        deaths = int(marker.read_text()) if marker.exists() else 0
        if deaths < times:
            marker.write_text(str(deaths + 1))
            os.kill(os.getpid(), signal.SIGKILL)
    return play(span)


def squares(span: Span) -> list[int]:
    return [i * i for i in range(span.start, span.stop)]


def slow_squares(slow: int, span: Span) -> list[int]:
    """The chunk starting at `slow` takes a while: it is under way when its neighbour dies."""
    if span.start == slow:
        time.sleep(0.5)
    return squares(span)


def joined(earlier: list[int], later: list[int]) -> list[int]:
    return earlier + later


@pytest.mark.parametrize("killer", [0, 16, 32])
def test_a_worker_that_dies_once_changes_nothing(tmp_path: Path, killer: int) -> None:
    planned = simulation_of("classic").plan("classic", OPTIONS, GAMES, 5, 2, engine="reference")
    alone = run(planned.plan, GAMES, planned.chunk)
    marker = tmp_path / "deaths"
    dying = Plan(partial(dies, marker, killer, 1, planned.plan.play), planned.plan.merge)
    seen: list[int] = []
    survived = run(dying, GAMES, planned.chunk, workers=2, progress=seen.append)
    assert marker.read_text() == "1"  # it did die, once
    assert planned.report(survived, 2, 0.0) == planned.report(alone, 1, 0.0)
    assert seen == [part.stop for part in spans(GAMES, planned.chunk)]


def test_a_chunk_that_keeps_killing_its_worker_ends_the_run(tmp_path: Path) -> None:
    plan = Plan(partial(dies, tmp_path / "deaths", 30, 99, squares), joined)
    with pytest.raises(WorkerLost, match=r"died 3 times playing games 31-35, .* SIGKILL"):
        run(plan, 100, 5, workers=2, what="games")
    assert (tmp_path / "deaths").read_text() == str(REPLAYS)


def test_kept_partial_the_chunks_before_it_stay(tmp_path: Path) -> None:
    plan = Plan(partial(dies, tmp_path / "deaths", 30, 99, squares), joined)
    with partial_on_interrupt() as stops:
        done = run(plan, 100, 5, workers=2, what="games")
    assert done == squares(Span(0, 30))
    assert stops == [Stopped("games", 30, 100, stops[0].error)]
    assert stops[0].error is not None and "games 31-35" in stops[0].error


def test_the_chunk_beside_the_killer_is_not_blamed(tmp_path: Path) -> None:
    """Chunk 25-29 is under way when chunk 30-34 kills the pool; replayed alone, each shows
    whose the deaths are."""
    play = partial(slow_squares, 25)
    plan = Plan(partial(dies, tmp_path / "deaths", 30, 99, play), joined)
    with pytest.raises(WorkerLost, match="games 31-35"):
        run(plan, 100, 5, workers=2, what="games")
    survived = run(Plan(partial(dies, tmp_path / "once", 30, 1, play), joined), 60, 5, workers=2)
    assert survived == squares(Span(0, 60))


ENGINE_SPAN = board_tally._engine_span


def dies_at_16(*args: Any) -> Any:
    """The board's chunk of games 17-32 kills its worker every time."""
    if args[-1].start == 16:
        os.kill(os.getpid(), signal.SIGKILL)
    return ENGINE_SPAN(*args)


def test_simulate_prints_the_figures_before_the_chunk_that_kills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(board_tally, "_engine_span", dies_at_16)
    command = ["simulate", "advanced", "-n", "64", "--seed", "1", "--workers", "2"]
    command += ["--engine", "reference"]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 2, result.stderr
    assert result.stdout.startswith("advanced: 16 games (")
    assert result.stderr.strip().splitlines()[-1] == (
        "error: a worker died 3 times playing games 17-32, the last time killed by SIGKILL:"
        " the figures are those of the first 16 of 64 games"
    )
    assert "Traceback" not in result.stderr
