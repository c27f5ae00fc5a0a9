"""`horserace replay` on the full screen: the record played back with pause, step and go to a
race; piped, the game's log lines."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static
from typer.testing import CliRunner

from horserace.core.record import read_record
from horserace.drivers.cli.app import app as cli
from horserace.terminal.tui.app import FINISHED, TableApp
from horserace.terminal.tui.overlays import ResultScreen
from tests.terminal.pilot import asking, holding, press, run, said, until
from tests.terminal.tables import replayed


def wins(app: TableApp) -> int:
    return sum(" wins" in line for line in said(app))


def over(result: ResultScreen | None) -> bool:
    return result is not None and result.heading == "The game is over"


async def go_to(pilot: Pilot[str], race: str) -> None:
    await press(pilot, "g")
    await until(pilot, lambda: asking(pilot.app))  # type: ignore[arg-type]
    await press(pilot, *race, "enter")


def test_going_to_a_race_shows_the_races_before_in_the_log_and_waits_there() -> None:
    app = replayed("classic", {"rounds": 2})  # a race to go to, one before it
    races = app.playback.starts

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert len(races) == 2
            await go_to(pilot, "2")
            await until(pilot, lambda: app.pacer.paused and wins(app) == 1)  # race 1
            log = list(said(app))
            await go_to(pilot, "1")  # back to the start: the log starts again
            await until(pilot, lambda: app.pacer.paused and len(said(app)) < len(log))
            assert not any(" wins" in line for line in said(app))
            shown = len(said(app))
            await press(pilot, "period", "period", "period")
            await until(pilot, lambda: len(said(app)) > shown)  # a step at a time
            await go_to(pilot, "9")
            feedback = app.query_one("#feedback", Static)
            assert "not a race here: '9'; type a number from 1 to 2" in str(feedback.render())
            await press(pilot, "escape", "space", "n")  # on to the end without pauses
            await until(pilot, lambda: over(holding(app)))
            await press(pilot, "enter")
            await until(pilot, lambda: not app.is_running)
        assert app.return_value == FINISHED

    run(scenario)


def test_a_piped_replay_prints_the_log_lines_then_the_check(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    runner = CliRunner()
    played = runner.invoke(
        cli,
        [
            "play",
            "classic",
            "--rounds",
            "1",
            "--seed",
            "4",
            "--no-animation",
            "--record",
            str(record),
        ],
    )
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(cli, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    lines = replayed.output.splitlines()
    assert lines[0].startswith("Round 1: P1 deals")
    wins = [line for line in played.output.splitlines() if " wins" in line]
    assert wins and all(line in lines for line in wins)  # the same words as the game said
    assert any(line.startswith("verified: ") for line in lines)
    checked = runner.invoke(cli, ["replay", str(record), "--check"])
    assert checked.output.startswith("verified: ")
    first = tmp_path / "first.jsonl"
    replace(read_record(record), steps=read_record(record).steps[:1], result=None).write(first)
    checked = runner.invoke(cli, ["replay", str(first), "--check"])
    assert checked.output.startswith("verified: 1 step of classic, every event matches")
