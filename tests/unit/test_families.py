"""One test over every registered family, through nothing but its FAMILY object and the generic
drivers: its presets reach the registry, each of its bots plays a legal move, and `horserace
play PRESET` plays a seeded table to the end whose record replays."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError
from horserace.core.types import CHANCE, TERMINAL
from horserace.drivers.bots import make_bot
from horserace.engine import Game
from horserace.families import FAMILY_PACKAGES, check_bot_kind, families, family
from horserace.families.presets import PRESETS
from tests.helpers import new_game

PRESET_NAMES = [spec.name for fam in families() for spec in fam.presets]


def test_every_family_registers_its_presets_and_nothing_else_does() -> None:
    assert list(PRESETS) == PRESET_NAMES
    for fam in families():
        assert fam is family(fam.name)
        assert fam.rules().family == fam.name
        assert fam.standin_bot in fam.bot_kinds
        for spec in fam.presets:
            assert PRESETS[spec.name].rules.family == fam.name
            assert PRESETS[spec.name].summary == spec.summary
    assert set(FAMILY_PACKAGES) == {fam.name for fam in families()}
    with pytest.raises(ConfigError, match="unknown game family"):
        family("snakes")


def _first_decision(game: Game, seed: int) -> int:
    """Play chance until a seat is asked; that seat."""
    chance = SeededChance(seed)
    while True:
        actor = game.actor
        assert actor is not TERMINAL, "the game ended before any seat was asked anything"
        if actor is not CHANCE:
            assert isinstance(actor, int)
            return actor
        game.apply(chance.choose(game.rules, game.state))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_each_bot_of_the_family_chooses_a_legal_action(preset: str) -> None:
    game = new_game({}, preset=preset, seed=5)
    seat = _first_decision(game, 5)
    fam = family(game.rules.family)
    legal = game.rules.legal_actions(game.state, seat)
    for kind in fam.bot_kinds:
        bot = make_bot(kind, 11, fam.name)
        choice = bot.choose(game.rules.view(game.state, seat), legal)
        assert choice in legal, (kind, choice)
    with pytest.raises(ConfigError, match="unknown bot kind"):
        check_bot_kind(fam, "genius")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_play_plays_every_preset_to_the_end_and_its_record_replays(
    preset: str, tmp_path: Path
) -> None:
    from horserace.drivers.cli.app import app

    runner = CliRunner()
    record = tmp_path / f"{preset}.jsonl"
    played = runner.invoke(
        app, ["play", preset, "--seed", "3", "--no-animation", "--record", str(record)]
    )
    assert played.exit_code == 0, played.output
    assert "seed 3" in played.output and f"written to {record}" in played.output
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert "verified" in replayed.output
