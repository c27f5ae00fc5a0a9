"""The fair-board designer: its figures are the odds module's, its result is locally optimal
(checked afresh, lane by lane), and the command writes a board the other commands read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.components.board import DEFAULT_BOARD, HORSES, Board, load_board
from horserace.drivers.cli.app import app
from horserace.families.board.design_command import board_toml
from horserace.families.board.odds.designer import Evaluator, design, is_local_optimum, neighbours
from horserace.families.board.odds.race import round_odds

FAIR = (3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3)  # what `equal` finds from the printed board


def test_the_figures_are_the_exact_odds() -> None:
    figures = Evaluator().figures(DEFAULT_BOARD.slots)
    exact = round_odds({h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES}, 4)
    assert figures.win == pytest.approx(exact.win, abs=1e-12)
    assert figures.expected_rolls == pytest.approx(exact.expected_rolls, rel=1e-12)
    assert figures.gap == pytest.approx(max(exact.win.values()) - min(exact.win.values()))


def test_equal_design_from_the_printed_board_is_locally_optimal() -> None:
    found = design(Evaluator("equal"), DEFAULT_BOARD.slots, high=30)
    assert found.slots == FAIR
    fresh = Evaluator("equal")  # nothing remembered from the search
    best = fresh.figures(found.slots).spread
    for other in neighbours(found.slots, 1, 30):
        assert fresh.figures(other).spread >= best, other
    assert found.gap < 0.03 < fresh.figures(DEFAULT_BOARD.slots).gap


def test_short_design_keeps_the_bound_and_is_locally_optimal() -> None:
    evaluator = Evaluator("short", max_rolls=40.0)
    found = design(evaluator, FAIR, high=30)
    assert found.expected_rolls <= 40.0
    assert is_local_optimum(evaluator, found.slots, 1, 30)
    per_scratch = Evaluator("equal-per-scratch")
    assert is_local_optimum(per_scratch, design(per_scratch, FAIR, high=30).slots, 1, 30)


def test_the_command_writes_a_board_the_odds_command_reads(tmp_path: Path) -> None:
    start, out, picture = tmp_path / "start.toml", tmp_path / "fair.toml", tmp_path / "fair.png"
    start.write_text(board_toml(Board("start", FAIR)))
    args = ["design", "board", "--start", str(start), "--out", str(out), "--name", "fair"]
    result = CliRunner().invoke(app, [*args, "--json", "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["board"]["lanes"] == {str(h): n for h, n in zip(HORSES, FAIR, strict=True)}
    assert data["designed"]["largest_gap"] < data["printed"]["largest_gap"]
    assert load_board(out).slots == FAIR and load_board(out).name == "fair"
    assert picture.read_bytes()[:4] == b"\x89PNG"
    odds = CliRunner().invoke(app, ["odds", "--board", str(out), "--json"])
    assert odds.exit_code == 0
    shown = CliRunner().invoke(app, args[:4])
    assert "largest gap" in shown.stdout and "designed slots" in shown.stdout


@pytest.mark.parametrize(
    "extra",
    [
        ["--objective", "nope"],
        ["--objective", "short"],
        ["--longest", "200"],
        ["--shortest", "0"],
        ["--repeat-scratch", "twice"],
        ["--out", "/no/such/dir/b.toml"],
        ["--start", "/no/such/board.toml"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(extra: list[str]) -> None:
    result = CliRunner().invoke(app, ["design", "board", *extra])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
