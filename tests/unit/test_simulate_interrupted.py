"""Ctrl-C during a simulation: the figures of the chunks already done are printed (a prefix of
the games, so the same figures whatever the workers), then one line says whose figures they
are, and the command ends with exit code 130; without asking for it, a run still just stops."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.drivers.cli.app import app
from horserace.drivers.simulate import runner
from horserace.families.board import tally as board_sim

HORSERACE = Path(sys.executable).parent / "horserace"


def _indices(span: runner.Span) -> list[int]:
    if span.start <= 20 < span.stop:  # Ctrl-C while the chunk holding index 20 plays
        raise KeyboardInterrupt
    return list(range(span.start, span.stop))


def _joined(earlier: list[int], later: list[int]) -> list[int]:
    return earlier + later


PLAN = runner.Plan(_indices, _joined)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_run_stopped_by_ctrl_c_keeps_the_chunks_done(workers: int) -> None:
    with runner.partial_on_interrupt():
        done = runner.run(PLAN, 50, 5, workers=workers)
    assert done == list(range(20))  # chunks 0-19; the one that was interrupted is not counted


def test_without_asking_ctrl_c_stops_a_run() -> None:
    with pytest.raises(KeyboardInterrupt):
        runner.run(PLAN, 50, 5)


def test_ctrl_c_before_the_first_chunk_is_done_still_stops_the_run() -> None:
    with runner.partial_on_interrupt(), pytest.raises(KeyboardInterrupt):
        runner.run(PLAN, 50, 25)


def test_simulate_prints_the_figures_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    played = board_sim._engine_span
    calls = 0

    def stopped_at_the_third_chunk(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return played(*args)

    monkeypatch.setattr(board_sim, "_engine_span", stopped_at_the_third_chunk)
    command = ["simulate", "advanced", "-n", "64", "--seed", "1", "--engine", "reference"]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 130
    assert result.stdout.startswith(f"advanced: {2 * board_sim.CHUNK_GAMES} games (")
    assert result.stderr.strip().splitlines()[-1] == (
        f"interrupted: the figures are those of the first {2 * board_sim.CHUNK_GAMES} of 64 games"
    )
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("preset", "games", "more"),
    [
        ("advanced", "100000", ["--engine", "reference"]),
        ("classic", "2000000000", ["--threads", "2"]),
    ],
    ids=["engine", "kernel-on-threads"],
)
def test_ctrl_c_to_a_running_simulation(preset: str, games: str, more: list[str]) -> None:
    command: list[str | Path] = [HORSERACE, "simulate", preset, "-n", games, "--seed", "3"]
    command += ["--json", *more]
    simulation = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(8)  # start-up, then chunks (16 games on the engine, 2,000 a thread on the kernel)
    simulation.send_signal(signal.SIGINT)
    out, err = simulation.communicate(timeout=120)
    assert simulation.returncode == 130, err
    assert b"Traceback" not in err
    last = err.decode().strip().splitlines()[-1]
    if last == "interrupted before any figures were in":  # a machine too busy to start in time
        assert out == b""
        return
    assert last.startswith("interrupted: the figures are those of the first ")
    assert last.endswith(f" of {games} games")
    assert json.loads(out)["preset"] == preset
