"""Ctrl-C during a simulation: the figures of the chunks already done are printed (a prefix of
the games, so the same figures whatever the workers), then one line says whose figures they
are, and the command ends with exit code 130; without asking for it, a run still just stops."""

from __future__ import annotations

import json
import os
import pty
import re
import select
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
    calls = 0
    result = CliRunner().invoke(app, [*command, "--json"])  # the figures so far as JSON
    assert result.exit_code == 130
    shown = json.loads(result.stdout)
    assert shown["preset"] == "advanced" and shown["games"] == 2 * board_sim.CHUNK_GAMES


@pytest.mark.parametrize(
    ("preset", "games", "more"),
    [
        ("advanced", "100000", ["--engine", "reference"]),
        ("classic", "2000000000", ["--threads", "2"]),
    ],
    ids=["engine", "kernel-on-threads"],
)
def test_ctrl_c_to_a_running_simulation(preset: str, games: str, more: list[str]) -> None:
    """A simulation on a terminal draws its progress: Ctrl-C is sent once the bar counts a
    chunk done (16 games on the engine, 2,000 a thread on the kernel), so figures are in; the
    report goes to stdout, its games those the last line names."""
    command: list[str | Path] = [HORSERACE, "simulate", preset, "-n", games, "--seed", "3", *more]
    terminal, child = pty.openpty()
    environment = {**os.environ, "COLUMNS": "200"}  # the last line on one line
    simulation = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=child, env=environment)
    os.close(child)
    counted = re.compile(rb"[1-9][0-9]*/" + games.encode())  # the bar's "done/total"
    shown = _read_terminal(terminal, until=counted)
    assert counted.search(shown), shown.decode(errors="replace")[-2000:]
    simulation.send_signal(signal.SIGINT)
    out, _ = simulation.communicate(timeout=120)
    shown += _read_terminal(terminal)
    os.close(terminal)
    err = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode(errors="replace"))
    assert simulation.returncode == 130, err[-2000:]
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1].strip()
    assert last.startswith("interrupted: the figures are those of the first "), last
    assert last.endswith(f" of {games} games")
    done = last.split()[-4]
    assert out.decode().startswith(f"{preset}: {done} games ("), out.decode()[:200]


def _read_terminal(fd: int, until: re.Pattern[bytes] | None = None, seconds: float = 120) -> bytes:
    """What a program shows on a terminal until `until` is in it, or it ends, or `seconds`."""
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (until and until.search(seen)):
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the program ended: its side of the terminal is closed
            break
        if not chunk:
            break
        seen += chunk
    return seen
