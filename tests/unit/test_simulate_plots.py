"""`simulate --plot` for every family that simulates whole games (the dice board's own test is
in test_simulate.py): the picture is written, its figures are the report's, and a bad file
name is one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.core.stats import counts_by_value
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.runner import simulate_games

PNG = b"\x89PNG"


def test_counts_by_value_is_a_row_from_zero_to_the_largest() -> None:
    assert counts_by_value({3: 2, 5: 1}) == (0, 0, 0, 2, 0, 1)
    assert counts_by_value({0: 4}) == (4,)
    assert counts_by_value({}) == ()


def test_a_derby_run_counts_its_races_by_turns_whatever_the_workers() -> None:
    options = {"players": 8, "scratches": 1}
    one = simulate_games("derby", options, 24, 5, bots=("random",), paired=0)
    two = simulate_games("derby", options, 24, 5, bots=("random",), paired=0, workers=2)
    assert one.turn_counts == two.turn_counts and sum(one.turn_counts) == one.races == 72
    assert one.turn_counts[-1] > 0 and one.turns.count == one.races
    mean = sum(turns * races for turns, races in enumerate(one.turn_counts)) / one.races
    assert mean == pytest.approx(one.turns.mean)
    assert one.runners == 7  # 8 horses, one scratched each race


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_card_run_counts_its_races_by_cards_turned(engine: str) -> None:
    report = simulate_games("basic", {}, 30, 2, bots=("blind",), engine=engine)
    assert report.engine == engine
    assert sum(report.card_counts) == report.races == 30 * 4
    mean = sum(cards * races for cards, races in enumerate(report.card_counts)) / report.races
    assert mean == pytest.approx(report.race_cards.mean)


@pytest.mark.parametrize(
    "args",
    [
        ["derby", "--games", "12", "--paired", "0", "--seed", "1"],
        ["basic", "--games", "40", "--seed", "1"],
        ["calcutta", "--games", "4", "--seed", "1"],
    ],
)
def test_simulate_draws_every_family(tmp_path: Path, args: list[str]) -> None:
    picture = tmp_path / "run.png"
    result = CliRunner().invoke(app, ["simulate", *args, "--json", "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == int(args[2])
    assert picture.read_bytes()[:4] == PNG
    wrong = CliRunner().invoke(app, ["simulate", *args, "--plot", str(tmp_path / "run.txt")])
    assert wrong.exit_code == 2 and wrong.stderr.startswith("error: --plot")
    assert len(wrong.stderr.splitlines()) == 1
