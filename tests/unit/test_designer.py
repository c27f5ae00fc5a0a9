"""The fair-board designer: its figures are the odds module's, its result is locally optimal
(checked afresh, lane by lane) and better than a plain descent finds, and the command writes a
board the other commands read, saying what it optimised."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.components.board import DEFAULT_BOARD, HORSES, Board, load_board
from horserace.core.errors import ConfigError
from horserace.drivers.cli.app import app
from horserace.families.board.design_command import board_toml
from horserace.families.board.odds.descent import descend, mirrored_moves, single_moves
from horserace.families.board.odds.designer import Evaluator, design, is_local_optimum
from horserace.families.board.odds.race import race_odds, round_odds, scratch_set_chances

FAIR = (3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3)  # what a descent of single lanes finds for `equal`
SHORT = (2, 3, 5, 6, 7, 8, 7, 6, 5, 3, 2)  # ... and for `short` at 40 rolls: 33.8, gap 5.13


@pytest.mark.parametrize(
    "slots",
    [DEFAULT_BOARD.slots, (2, 4, 5, 7, 8, 9, 8, 7, 5, 4, 3), (3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5)],
)
def test_the_figures_are_the_exact_odds(slots: tuple[int, ...]) -> None:
    """Scratched sets leaving the same field share one race: every horse still gets its own."""
    figures = Evaluator().figures(slots)
    exact = round_odds({h: n + 1 for h, n in zip(HORSES, slots, strict=True)}, 4)
    assert figures.win == pytest.approx(exact.win, abs=1e-12)
    assert figures.expected_rolls == pytest.approx(exact.expected_rolls, rel=1e-12)
    assert figures.gap == pytest.approx(max(exact.win.values()) - min(exact.win.values()))
    per_scratch = 0.0
    for scratched, chance in scratch_set_chances(4, reroll_repeats=False).items():
        running = {h: n + 1 for h, n in zip(HORSES, slots, strict=True) if h not in scratched}
        wins = race_odds(running).win.values()
        per_scratch += chance * sum((p - 1 / len(wins)) ** 2 for p in wins) / len(wins)
    assert figures.spread_per_scratch == pytest.approx(per_scratch, rel=1e-12)
    spread = sum((p - 1 / 11) ** 2 for p in exact.win.values()) / 11
    assert Evaluator().measure(figures) == pytest.approx(math.sqrt(spread), rel=1e-9)


def test_descent_ends_where_no_move_pays_and_mirrored_moves_keep_the_shape() -> None:
    target = (4, 1, 7, 3, 9)

    def score(lanes: tuple[int, ...]) -> tuple[float, float]:
        return (0.0, float(sum((a - b) ** 2 for a, b in zip(lanes, target, strict=True))))

    assert descend(score, (1, 1, 1, 1, 1), single_moves(5), 1, 9) == target
    for move in mirrored_moves(11):
        assert move == move[::-1] and any(move)
    assert len(set(mirrored_moves(11))) == 22  # 6 pairs and 5 blocks from a pair inwards, both ways


def test_equal_design_is_locally_optimal_and_beats_the_single_lane_descent() -> None:
    evaluator = Evaluator("equal")
    found = design(evaluator, DEFAULT_BOARD.slots, high=20)
    fresh = Evaluator("equal")  # nothing remembered from the search
    assert is_local_optimum(fresh, found.slots, 1, 20)
    # the plain descent on the search's figures (a board's figures depend on its slots alone)
    assert descend(evaluator.score, DEFAULT_BOARD.slots, single_moves(11), 1, 20) == FAIR
    assert fresh.score(found.slots) < fresh.score(FAIR)  # 0.71 points against 0.91
    assert found.gap < 0.021 < fresh.figures(FAIR).gap  # 2.05 points against 2.41
    assert max(found.slots) <= 20


def test_short_design_meets_the_bound_with_a_smaller_gap_than_the_single_lane_descent() -> None:
    """Designed from where the single-lane descent stopped: no single lane moves it (a plain
    descent from it stays), yet the search's other starts and moves find a better board."""
    evaluator = Evaluator("short", max_rolls=40.0)
    found = design(evaluator, SHORT, high=30)
    fresh = Evaluator("short", max_rolls=40.0)
    assert is_local_optimum(fresh, found.slots, 1, 30)
    assert is_local_optimum(fresh, SHORT, 1, 30)  # where the single-lane descent stopped
    assert found.expected_rolls <= 40.0
    assert found.gap < 0.036 < fresh.figures(SHORT).gap  # 3.54 points (38.7 rolls) against 5.13


def test_an_impossible_bound_is_an_error_naming_the_shortest_race() -> None:
    with pytest.raises(ConfigError, match=r"every lane 1 slot, lasts 6\.23 rolls"):
        design(Evaluator("short", max_rolls=5.0), DEFAULT_BOARD.slots)
    result = CliRunner().invoke(
        app, ["design", "board", "--objective", "short", "--max-rolls", "8", "--shortest", "2"]
    )
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "every lane 2 slots, lasts" in result.stderr


def test_the_command_writes_a_board_the_odds_command_reads(tmp_path: Path) -> None:
    start, out, picture = tmp_path / "start.toml", tmp_path / "fair.toml", tmp_path / "fair.png"
    start.write_text(board_toml(Board("start", FAIR)))  # lanes over --longest come inside it
    args = ["design", "board", "--start", str(start), "--out", str(out), "--name", "fair"]
    args += ["--objective", "equal-per-scratch", "--longest", "4"]  # a small search
    result = CliRunner().invoke(app, [*args, "--json", "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    slots = load_board(out).slots
    assert data["board"]["lanes"] == {str(h): n for h, n in zip(HORSES, slots, strict=True)}
    assert load_board(out).name == "fair" and max(slots) <= 4
    assert data["objective"] == "equal-per-scratch" and data["locally_optimal"] is True
    fresh = Evaluator("equal-per-scratch")
    assert is_local_optimum(fresh, slots, 1, 4)
    assert data["designed"]["score"] == pytest.approx(
        math.sqrt(fresh.figures(slots).spread_per_scratch)
    )
    assert data["designed"]["score"] < data["printed"]["score"]
    assert picture.read_bytes()[:4] == b"\x89PNG"
    odds = CliRunner().invoke(app, ["odds", "--board", str(out), "--json"])
    assert odds.exit_code == 0
    again = ["design", "board", "--start", str(out), *args[6:]]  # from the designed board
    shown = CliRunner().invoke(app, again)
    assert "largest gap" in shown.stdout and "designed slots" in shown.stdout
    assert "objective: equal-per-scratch" in shown.stdout
    assert f"designed {data['designed']['score'] * 100:.3f} points" in shown.stdout
    assert "locally optimal: no single lane" in shown.stdout


def test_the_help_says_what_each_objective_means() -> None:
    shown = " ".join(CliRunner().invoke(app, ["design", "board", "--help"]).stdout.split())
    for words in (
        "equal-per-scratch: every running horse",
        "short: equal, among boards",
        "--max-rolls",
        "locally optimal",
    ):
        assert words in shown.replace("│ ", "").replace(" │", ""), words


@pytest.mark.parametrize(
    "extra",
    [
        ["--objective", "nope"],
        ["--objective", "short"],
        ["--objective", "short", "--max-rolls", "5"],
        ["--objective", "short", "--max-rolls", "nan"],
        ["--objective", "short", "--max-rolls", "0"],
        ["--objective", "short", "--max-rolls", "many"],
        ["--max-rolls", "40"],
        ["--longest", "200"],
        ["--shortest", "0"],
        ["--shortest", "9", "--longest", "4"],
        ["--repeat-scratch", "twice"],
        ["--out", "/no/such/dir/b.toml"],
        ["--out", "."],
        ["--plot", "boards.txt"],
        ["--start", "/no/such/board.toml"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(extra: list[str]) -> None:
    result = CliRunner().invoke(app, ["design", "board", *extra])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
