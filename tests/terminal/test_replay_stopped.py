"""`replay` of a stopped game's record, on the full screen: the game is shown to where it
stopped, which a last screen says ("the game stopped at step N") until Enter; the command
then says the record checks out and ends with exit 0 (it used to end on an error, exit 2)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from horserace.core.chance import SeededChance
from horserace.engine import Game, play
from horserace.families.presets import get_preset
from tests.helpers import bots_for
from tests.terminal.pty import Terminal

STEPS = 40


class Enough(Exception):
    pass


def stopped_record(path: Path) -> None:
    preset = get_preset("classic")
    game = Game("classic", preset.rules, preset.config({"players": 3, "rounds": 1}), 6, "seeded")

    def stop(_step: object) -> None:
        if len(game.steps) == STEPS:
            raise Enough

    with contextlib.suppress(Enough):
        play(game, bots_for(3, 6), SeededChance(6), observe=stop)
    game.record().write(path)


def test_replay_of_a_stopped_game_ends_where_it_stopped(tmp_path: Path) -> None:
    record = tmp_path / "stopped.jsonl"
    stopped_record(record)
    terminal = Terminal(["replay", str(record), "--speed", "0", "--theme", "dark"], tmp_path)
    try:
        for screen in terminal.frames():
            if f"the game stopped at step {STEPS}" in screen and "Enter: go on" in screen:
                terminal.send("\r")
                break
        for _ in terminal.frames():
            pass
    finally:
        status = terminal.close()
    assert status == 0, terminal.written[-2000:]
    tail = terminal.written.strip().splitlines()[-1]
    assert tail.strip() == f"the game stopped at step {STEPS}", tail
