"""The Husted kernel on its own stream (the path simulate takes; the equality tests replay the
engine's tape instead): money kept, the same games whatever the threads, and `simulate classic
--house husted` and its sweeps on it by default, named in their JSON."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from horserace.drivers.cli.app import app
from horserace.families.board.rules.house import house_options
from horserace.families.presets import get_preset
from horserace.kernels import deck_game
from horserace.kernels.classic_game import ClassicSpec, bot_kinds, run_games


def husted_spec(**options: object) -> ClassicSpec:
    preset = get_preset("classic")
    config = preset.config({**house_options("husted"), **options})
    spec = ClassicSpec.from_config(preset.rules.config_to_dict(config))
    assert spec is not None
    return spec


def test_every_chip_stays_at_the_table_and_every_race_is_won_by_a_horse() -> None:
    for players, chips, reset in ((2, 6, "pass-left"), (6, 100, "pass-left"), (9, 15, "gather")):
        spec = husted_spec(players=players, starting_chips=chips, reset=reset, rounds=5)
        mix = bot_kinds(["ev", "heuristic", "random"] * (players // 3) + ["random"] * (players % 3))
        assert mix is not None
        out = run_games(spec, 11, 0, 600, mix)
        assert (out.chips.sum(axis=1) + out.pot_left == players * chips).all()
        assert (out.chips >= 0).all() and (out.pot_left >= 0).all()
        assert ((out.winner >= 2) & (out.winner <= 12)).all() and (out.rolls >= 1).all()
        assert (out.paid >= 0).all()
        assert (out.paid[:, 0] >= players * (chips > 0)).all()  # the first round's antes at least


def test_a_run_is_the_same_on_one_thread_or_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 100 games instead of 500 (three blocks here, the last one short): the split is
    what is tested, not the length of a block."""
    monkeypatch.setattr(deck_game, "BLOCK_GAMES", 100)
    spec = husted_spec(players=6)
    mix = bot_kinds(["heuristic", "ev", "random"] * 2)
    assert mix is not None
    one, two = (run_games(spec, 3, 100, 350, mix, threads=n) for n in (1, 2))
    assert (one.chips == two.chips).all() and (one.winner == two.winner).all()
    assert (one.paid == two.paid).all() and (one.rolls == two.rolls).all()


def test_simulate_husted_takes_the_kernel_and_names_it() -> None:
    args = ["simulate", "classic", "--house", "husted", "--games", "400", "--seed", "3", "--json"]
    result = CliRunner().invoke(app, [*args, "--bots", "heuristic,random"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["engine"], report["kernel"], report["games"]) == ("kernel", "classic", 400)
    edge = report["bot_edge"]  # random bets and draws give chips away to the heuristic's meets
    assert edge["first"] == "heuristic" and edge["ci95"][0] > 40
    engine = CliRunner().invoke(app, [*args[:5], "4", *args[6:], "--engine", "reference"])
    assert json.loads(engine.stdout)["kernel"] is None
    both = [*args[:3], "perry,schellenberg", *args[4:], "--engine", "kernel"]
    traded = CliRunner().invoke(app, both)  # Perry's trading and the market, compiled too
    assert traded.exit_code == 0, traded.output
    assert json.loads(traded.stdout)["kernel"] == "classic"


def test_a_sweep_names_the_husted_kernel() -> None:
    args = ["sweep", "classic", "-g", "players=3,6", "-g", "house=husted,perry,schellenberg"]
    result = CliRunner().invoke(app, [*args, "--games", "20", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    points = json.loads(result.stdout)["points"]
    assert [(p["players"], p["engine_used"], p["kernel_used"]) for p in points] == [
        (3, "kernel", "classic"),
        (3, "kernel", "classic"),
        (3, "kernel", "classic"),
        (6, "kernel", "classic"),
        (6, "kernel", "classic"),
        (6, "kernel", "classic"),
    ]
