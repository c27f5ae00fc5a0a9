"""A game stopped by a signal keeps every step played: its record is on disk as the game goes,
so a closed terminal (SIGHUP), a plain `kill` (SIGTERM) or `kill -9` leaves a record that
replays and that `--resume` plays to the end. On SIGHUP and SIGTERM the full screen gives the
terminal back as it was (the main screen, no mouse reports, the cursor shown) and the last
line says how to resume."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.core.record import read_record
from horserace.drivers.cli.app import app as cli
from horserace.engine import replay
from horserace.families.presets import get_preset
from tests.terminal.pty import Terminal

TABLE = ["classic", "--players", "4", "--rounds", "1", "--seed", "3"]
ROLLS = 6  # race rolls seen before the signal
RACE_ROLL = re.compile(r"race, roll (\d+)")
RESTORED = ("\x1b[?1049l", "\x1b[?25h", "\x1b[?1000l", "\x1b[?1003l", "\x1b[?1006l")


def stopped_game(record: Path, state: Path, stop: signal.Signals, plain: bool) -> Terminal:
    """The table played (bots only, a little slowed) until a few rolls show, then `stop`."""
    mode = ["--plain"] if plain else ["--theme", "dark"]
    args = ["play", *TABLE, "--speed", "0.02", "--record", str(record), *mode]
    terminal = Terminal(args, state, rows=30, columns=80)
    try:
        for screen in terminal.frames():
            race = RACE_ROLL.search(screen)  # the full screen's status line
            if (race and int(race.group(1)) >= ROLLS) or terminal.written.count(" rolls ") > ROLLS:
                break
        terminal.child.kill(stop)
        for _ in terminal.frames():
            pass
    finally:
        terminal.close()
    return terminal


@pytest.mark.parametrize(
    ("stop", "plain"),
    [
        (signal.SIGHUP, False),
        (signal.SIGTERM, False),
        (signal.SIGKILL, False),
    ],
    ids=["hup", "term", "kill-9"],
)
def test_a_stopped_game_keeps_its_record_and_resumes(
    tmp_path: Path, stop: signal.Signals, plain: bool
) -> None:
    record = tmp_path / "game.jsonl"
    terminal = stopped_game(record, tmp_path, stop, plain)
    written = terminal.written
    if stop is not signal.SIGKILL:
        assert terminal.child.exitstatus == 130, written[-2000:]
        screen_left = written[written.rindex("\x1b[?1049h") :]
        assert all(code in screen_left for code in RESTORED), repr(screen_left[-400:])
        last = written.strip().splitlines()[-1]
        assert "interrupted after" in last and f"--resume {record}" in last, last
    kept = read_record(record)
    assert len(kept.steps) >= ROLLS and kept.result is None
    assert replay(kept, get_preset).ok
    resumed = CliRunner().invoke(  # in this process: the record is what carries the game on
        cli,
        ["play", "classic", "--resume", str(record), "--plain", "--speed", "0"],
        env={"XDG_STATE_HOME": str(tmp_path)},
    )
    assert resumed.exit_code == 0, resumed.output
    assert f"after {len(kept.steps)} steps" in resumed.output
    finished = read_record(record)
    assert finished.result is not None and finished.steps[: len(kept.steps)] == kept.steps
    assert replay(finished, get_preset).ok
