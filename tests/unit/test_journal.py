"""The record kept on disk as a game is played (`Journal`): after every step the file holds the
record so far, line for line what `Game.record()` writes, its result once the game ends; an
undo of a typed-in outcome is a line of its own; a resumed game's file goes on from what was
played; a file that cannot be written says so in `error` and the game plays on."""

from __future__ import annotations

from pathlib import Path

from horserace.core.chance import ScriptedChance, SeededChance
from horserace.core.record import Journal, read_record
from horserace.engine import Game, play
from horserace.families.presets import get_preset
from tests.helpers import bots_for


def on_disk(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_the_file_holds_every_step_as_it_is_played(tmp_path: Path) -> None:
    preset = get_preset("classic")
    game = Game("classic", preset.rules, preset.config({"players": 3, "rounds": 1}), 4, "seeded")
    path = tmp_path / "deep" / "game.jsonl"
    game.journal = Journal(path, game.record())
    checked = 0

    def check(_step: object) -> None:
        nonlocal checked
        if checked % 37 == 0 or game.over:  # a sample of the steps, and the last
            assert on_disk(path) == list(game.record().lines())
        checked += 1

    play(game, bots_for(3, 4), SeededChance(4), observe=check)
    assert game.over and read_record(path).result is not None
    assert on_disk(path) == list(game.record().lines())
    assert checked > 100


def test_an_undo_is_a_line_and_a_resumed_game_goes_on_in_the_same_file(tmp_path: Path) -> None:
    preset = get_preset("classic")
    config = preset.config({"players": 2, "rounds": 1})
    game = Game("classic", preset.rules, config, None, "typed")
    path = tmp_path / "books.jsonl"
    game.journal = Journal(path, game.record())
    deal = ScriptedChance(["deal 2", "deal 5", "deal 7"])
    for _ in range(3):
        game.apply(deal.choose(game.rules, game.state))
    assert game.undo() == ("deal 7",)
    assert on_disk(path)[-1].count('"undo"') == 1
    assert on_disk(path) == list(game.record().lines())  # nothing closed: as after kill -9
    kept = read_record(path)
    assert [step.action for step in kept.steps] == ["deal 2", "deal 5", "deal 7", "undo"]
    again = Game("classic", preset.rules, config, None, "typed", state=game.state)
    again.steps = list(kept.steps)
    again.journal = Journal(path, again.record())
    again.apply(ScriptedChance(["deal 9"]).choose(again.rules, again.state))
    assert [step.action for step in read_record(path).steps][-2:] == ["undo", "deal 9"]


def test_a_record_that_cannot_be_written_leaves_the_game_playing(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("in the way")
    preset = get_preset("classic")
    game = Game("classic", preset.rules, preset.config({"players": 2, "rounds": 1}), 4, "seeded")
    game.journal = Journal(blocked / "game.jsonl", game.record())
    assert game.journal.error is not None
    play(game, bots_for(2, 4), SeededChance(4), observe=lambda step: None)
    assert game.over
