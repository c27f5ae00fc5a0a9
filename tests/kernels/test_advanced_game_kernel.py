"""The Advanced kernel on its own stream (the path simulate takes; the equality tests replay the
engine's tape instead): money kept, the deal's cards as likely as the deck makes them, the same
games whatever the threads, and `simulate advanced` on it by default, named in its JSON."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from horserace.drivers.cli.app import app
from horserace.families.presets import get_preset
from horserace.kernels.advanced_game import AdvancedSpec, bot_kinds, run_games
from horserace.kernels.advanced_numbers import DECK, RANKS
from horserace.kernels.advanced_rules import deal
from horserace.kernels.rng import game_state


def advanced_spec(**options: object) -> AdvancedSpec:
    preset = get_preset("advanced")
    spec = AdvancedSpec.from_config(preset.rules.config_to_dict(preset.config(options)))
    assert spec is not None
    return spec


def test_every_chip_stays_at_the_table_and_every_race_is_won_by_a_horse() -> None:
    for players, chips, repeat in ((4, 6, "chain"), (7, 100, "move"), (12, 15, "reroll")):
        spec = advanced_spec(players=players, starting_chips=chips, repeat_scratch=repeat, rounds=5)
        mix = bot_kinds(["random", "heuristic"] * (players // 2) + ["random"] * (players % 2))
        assert mix is not None
        out = run_games(spec, 11, 0, 3_000, mix)
        assert (out.chips.sum(axis=1) + out.pot_left == players * chips).all()
        assert (out.chips >= 0).all() and (out.pot_left == 0).all()  # the Jockey Pot empties
        assert ((out.winner >= 2) & (out.winner <= 12)).all() and (out.rolls >= 1).all()
        assert (out.paid >= 0).all() and out.paid[:, 0].min() >= 0


def test_the_deal_gives_each_seat_each_rank_as_often_as_the_deck_holds_it() -> None:
    spec = advanced_spec(players=6, draft=False)
    numbers = spec.numbers()
    deck = np.array(spec.deck)
    games = 20_000
    held = np.zeros((6, RANKS))
    cards = np.zeros(deck.sum(), dtype=np.int64)
    to = np.zeros((6, RANKS), dtype=np.int64)
    empty, at = np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64)
    for game in range(games):
        to[:] = 0
        z = np.uint64(game_state(np.uint64(5), np.uint64(game)))
        deal(numbers, DECK, z, empty, at, 2, cards, to)
        held += to
    expected = games * spec.hand * deck / deck.sum()
    chi_square = (((held - expected) ** 2) / expected).sum()
    assert held.sum() == games * 6 * spec.hand
    assert chi_square < 131.0  # 6 x 13 cells less 6 sums: p = 0.001 at 72 degrees of freedom


def test_a_run_is_the_same_on_one_thread_or_two() -> None:
    spec = advanced_spec(players=6)
    mix = bot_kinds(["heuristic", "random"] * 3)
    assert mix is not None
    one, two = (run_games(spec, 3, 100, 1_600, mix, threads=n) for n in (1, 2))
    assert (one.chips == two.chips).all() and (one.winner == two.winner).all()
    assert (one.paid == two.paid).all() and (one.rolls == two.rolls).all()


def test_simulate_advanced_takes_the_kernel_and_names_it() -> None:
    args = ["simulate", "advanced", "--games", "400", "--seed", "3", "--json"]
    result = CliRunner().invoke(app, [*args, "--bots", "heuristic,random"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["engine"], report["kernel"], report["games"]) == ("kernel", "advanced", 400)
    edge = report["bot_edge"]  # the heuristic keeps Aces and Kings: far ahead of random picks
    assert edge["first"] == "heuristic" and edge["ci95"][0] > 20
    classic = CliRunner().invoke(app, ["simulate", "classic", "-n", "50", "--json"])
    assert json.loads(classic.stdout)["kernel"] == "board-game"
    ev = CliRunner().invoke(app, [*args[:3], "40", *args[4:], "--bots", "ev,random"])
    assert (json.loads(ev.stdout)["engine"], json.loads(ev.stdout)["kernel"]) == (
        "kernel",
        "advanced",
    )
    engine = CliRunner().invoke(app, [*args[:3], "4", *args[4:], "--engine", "reference"])
    assert json.loads(engine.stdout)["engine"] == "reference"
    assert json.loads(engine.stdout)["kernel"] is None
    house = [*args, "--house", "perry", "--engine", "kernel"]  # Perry's trading, compiled too
    traded = CliRunner().invoke(app, house)
    assert traded.exit_code == 0, traded.output
    assert json.loads(traded.stdout)["kernel"] == "advanced"


def test_a_sweep_names_the_kernel_of_each_point() -> None:
    args = ["sweep", "advanced", "-g", "players=4,6", "-g", "house=robertson,perry"]
    result = CliRunner().invoke(app, [*args, "--games", "20", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    points = json.loads(result.stdout)["points"]
    assert [(p["players"], p["engine_used"], p["kernel_used"]) for p in points] == [
        (4, "kernel", "advanced"),  # Robertson's four dice
        (4, "kernel", "advanced"),  # Perry's trading
        (6, "kernel", "advanced"),
        (6, "kernel", "advanced"),
    ]
