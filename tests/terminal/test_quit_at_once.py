"""Quitting the full screen while the play loop's thread is held up (a kernel's first compile
takes seconds there): the table ends at once, the game stands as it was, and the command saves
its record and says how to resume it."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

import pexpect  # type: ignore[import-untyped]
import pytest

from horserace.core.record import read_record
from horserace.engine import replay
from horserace.families.derby import live_odds
from horserace.families.presets import get_preset
from horserace.terminal.tui.app import QUIT
from tests.terminal.pilot import press, run, until
from tests.terminal.tables import table

HORSERACE = str(Path(sys.executable).with_name("horserace"))


def test_ctrl_c_ends_the_table_while_its_odds_are_held_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's odds never come (as while their kernel compiles): Ctrl-C ends the table all
    the same, and the game played so far replays from its record."""
    entered, released = threading.Event(), threading.Event()
    quick = live_odds.LiveOdds.odds

    def held_up(self: live_odds.LiveOdds, view: Any, ready: Any = None) -> Any:
        if view.race is not None and view.race.turn > 1:
            entered.set()
            released.wait()
        return quick(self, view, ready)

    monkeypatch.setattr(live_odds.LiveOdds, "odds", held_up)
    app, game, _ = table("derby", options={"players": 4, "races": 1})

    async def scenario() -> None:
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, entered.is_set)
                await press(pilot, "ctrl+c")
                await until(pilot, lambda: not app.is_running)
            assert not released.is_set()  # the play loop's thread is still held up
        finally:
            released.set()

    run(scenario)
    assert app.return_value == QUIT and not game.over
    assert replay(game.record(), get_preset).ok


def test_ctrl_c_while_the_full_screen_compiles_the_derby_odds(tmp_path: Path) -> None:
    """A Derby of bots on the full screen with a fresh numba cache: the second turn's board
    needs the odds' kernel, compiled meanwhile; Ctrl-C then saves the record, says in one line
    how to resume, and exits with 130."""
    record = tmp_path / "derby.jsonl"
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "XDG_STATE_HOME": str(tmp_path),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
    }
    args = ["play", "derby", "--players", "4", "--races", "1", "--speed", "0"]
    args += ["--seed", "5", "--record", str(record)]
    child = pexpect.spawn(
        HORSERACE, args, env=env, encoding="utf-8", timeout=120, dimensions=(40, 120)
    )
    try:
        child.expect("moves: ")  # the first turn is run: the next board asks for the odds
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
        shown = child.before or ""
    finally:
        child.close(force=True)
    assert child.exitstatus == 130, shown[-3000:]
    assert "Traceback" not in shown
    last = shown.strip().splitlines()[-1]
    assert "interrupted after" in last and f"--resume {record}" in last, shown[-3000:]
    kept = read_record(record)
    assert kept.steps and kept.result is None
    assert replay(kept, get_preset).ok
