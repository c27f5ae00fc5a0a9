"""Robertson's four dice on the kernels' own stream (the path simulate takes; the equality tests
replay the engine's tape): the pairings listed as the engine lists them for every roll, the four
dice as likely as the engine's chance makes them, money kept, and `simulate --house robertson`
on the Classic and Advanced kernels by default, named in its JSON."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from horserace.components.dice import ALL_FOUR_DICE, FourDice
from horserace.drivers.cli.app import app
from horserace.families.board.rules.house import house_options
from horserace.families.board.rules.phases.race import pair_legal
from horserace.families.board.rules.records import Pairing, Racing
from horserace.families.presets import get_preset
from horserace.kernels import advanced_game, classic_game
from horserace.kernels.advanced_numbers import AdvancedSpec, bot_kinds
from horserace.kernels.classic_numbers import ClassicSpec
from horserace.kernels.rng import game_state, tape_array
from horserace.kernels.robertson import (
    DIE,
    FIRST,
    FOUR_SPACE,
    SECOND,
    _pairings,
    _roll_four,
    four_dice_entry,
)


def test_the_pairings_of_every_roll_are_the_engines_in_its_order() -> None:
    four = np.zeros(FOUR_SPACE, dtype=np.int64)
    for dice in ALL_FOUR_DICE:
        tape, at = tape_array([four_dice_entry(dice.dice)]), np.zeros(1, dtype=np.int64)
        _roll_four(np.uint64(0), tape, at, four)
        assert tuple(four[DIE : DIE + 4]) == dice.dice
        count = _pairings(four)
        legal = pair_legal(Pairing(Racing(0), 0, dice.dice))
        pairs = list(zip(four[FIRST : FIRST + count], four[SECOND : SECOND + count], strict=True))
        assert pairs == [(pair.first, pair.second) for pair in legal]


def test_the_streams_four_dice_are_as_likely_as_the_engines() -> None:
    """20,000 rolls against each sorted roll's weight (its orderings of 1,296): chi-square
    over the 126 rolls below its 1-in-a-million bound (125 degrees of freedom: 213)."""
    four = np.zeros(FOUR_SPACE, dtype=np.int64)
    at, no_tape = np.zeros(1, dtype=np.int64), tape_array([])
    counts = {dice.dice: 0 for dice in ALL_FOUR_DICE}
    z = game_state(np.uint64(5), np.uint64(0))
    rolls = 20_000
    for _ in range(rolls):  # (the state passed as a uint64: numba reads a large int as int64)
        z = np.uint64(_roll_four(np.uint64(z), no_tape, at, four))
        counts[tuple(int(d) for d in four[DIE : DIE + 4])] += 1  # type: ignore[index]
    chi = 0.0
    for dice, seen in counts.items():
        expected = rolls * FourDice(dice).weight / 1296
        chi += (seen - expected) ** 2 / expected
    assert chi < 213


def _spec(preset_name: str, kind: type[AdvancedSpec | ClassicSpec], **options: object) -> object:
    preset = get_preset(preset_name)
    config = preset.config({**house_options("robertson"), **options})
    spec = kind.from_config(preset.rules.config_to_dict(config))
    assert spec is not None and spec.robertson
    return spec


def test_every_chip_stays_at_the_table_with_four_dice() -> None:
    cases = (
        (classic_game, _spec("classic", ClassicSpec, players=5, starting_chips=20), 5, 20),
        (
            classic_game,
            _spec("classic", ClassicSpec, players=3, starting_chips=9, **house_options("husted")),
            3,
            9,
        ),
        (advanced_game, _spec("advanced", AdvancedSpec, players=6, starting_chips=12), 6, 12),
    )
    for kernel, spec, players, chips in cases:
        mix = bot_kinds(["ev", "heuristic", "random"] * 4)
        assert mix is not None
        out = kernel.run_games(spec, 2, 0, 200, mix[:players])
        assert (out.chips.sum(axis=1) + out.pot_left == players * chips).all()
        assert (out.chips >= 0).all() and (out.rolls >= 1).all()
        assert ((out.winner >= 2) & (out.winner <= 12)).all()


def test_simulate_robertson_takes_the_kernels_and_names_them() -> None:
    args = ["--house", "robertson", "--games", "200", "--seed", "4", "--json"]
    for preset, kernel in (("classic", "classic"), ("advanced", "advanced")):
        result = CliRunner().invoke(app, ["simulate", preset, *args, "--bots", "heuristic,random"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert (report["engine"], report["kernel"], report["games"]) == ("kernel", kernel, 200)
    both = ["simulate", "classic", "--house", "husted,robertson", *args[2:]]
    report = json.loads(CliRunner().invoke(app, both).stdout)
    assert (report["engine"], report["kernel"]) == ("kernel", "classic")
