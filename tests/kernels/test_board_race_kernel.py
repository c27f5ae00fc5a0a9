"""Races alone: both kernels agree with the exact odds (chi-square on the winners, race length
and rolls per line within their intervals); the report does not depend on the workers; the
command's output, pictures and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from horserace.components.board import DEFAULT_BOARD, HORSES, Board
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.runner import run_simulation
from horserace.families.board.odds.race import race_odds
from horserace.families.board.race_simulation import RACES_ALONE
from horserace.families.board.race_tally import CHUNK_RACES, RaceReport, race_start
from horserace.kernels.board_race import race_table, run_races

CHI2_P001 = {6: 22.458, 8: 26.124, 10: 29.588}  # 0.999 quantiles by df
STARTS = [
    (DEFAULT_BOARD, [], {}),
    (DEFAULT_BOARD, [3, 5, 7, 9], {}),
    (DEFAULT_BOARD, [7, 6, 8, 2], {12: 2, 4: 5, 10: 1}),
    (Board("odd", (4, 1, 9, 3, 20, 6, 2, 11, 5, 8, 7)), [11, 4], {5: 3}),
]


@pytest.mark.parametrize("method", ["table", "rolls"])
@pytest.mark.parametrize("case", range(len(STARTS)))
def test_races_follow_the_exact_odds(method: str, case: int) -> None:
    board, scratched, positions = STARTS[case]
    start = race_start(board, scratched, positions)
    outcomes = run_races(start, 77 + case, 0, 400_000, method)
    remaining = {h: k for h, k in zip(HORSES, start.to_go, strict=True) if k}
    exact = race_odds(remaining)
    running = sorted(remaining)
    counts = np.bincount(outcomes.winner, minlength=13)[running]
    expected = outcomes.winner.size * np.array([exact.win[h] for h in running])
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < CHI2_P001[len(running) - 1], (chi2, counts.tolist(), expected.tolist())
    assert counts.sum() == outcomes.winner.size  # a scratched horse never wins

    def close(values: np.ndarray, mean: float) -> None:
        error = values.std(ddof=1) / np.sqrt(values.size)
        assert abs(values.mean() - mean) < 4.5 * error, (values.mean(), mean)

    close(outcomes.rolls.astype(float), exact.expected_rolls)
    for line, horse in enumerate(scratched):
        chance = (6 - abs(horse - 7)) / 36  # Wald: rolls naming it = its chance x the rolls
        close(outcomes.line_rolls[:, line].astype(float), chance * exact.expected_rolls)
    assert not outcomes.line_rolls[:, len(scratched) :].any()


def simulate_races(races: int, seed: int, workers: int = 1, **settings: Any) -> RaceReport:
    """`horserace simulate race` without the command line."""
    report: RaceReport = run_simulation(RACES_ALONE, "race", {}, races, seed, workers, **settings)
    return report


def test_the_report_does_not_depend_on_the_workers() -> None:
    races = 2 * CHUNK_RACES + 17
    one = simulate_races(races, 3, scratched=[2, 12])
    two = simulate_races(races, 3, scratched=[2, 12], workers=2)
    assert one == two
    assert simulate_races(races, 4, scratched=[2, 12]) != one


def test_very_long_lanes_fall_back_to_rolling() -> None:
    long_board = Board("long", (99,) * 11)
    assert race_table(race_start(long_board, [7], {})) is None
    report = simulate_races(2000, 1, board=long_board, scratched=[7])
    assert report.method == "rolls" and report.races == 2000


def test_the_command_prints_json_and_draws(tmp_path: Path) -> None:
    picture = tmp_path / "races.png"
    args = ["simulate", "race", "--races", "20000", "--scratched", "3,5", "--positions", "2=1"]
    result = CliRunner().invoke(app, [*args, "--seed", "9", "--json", "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["races"] == 20000 and data["engine"] == "kernel (table)"
    assert [line["horse"] for line in data["lines"]] == [3, 5]
    assert sum(h["successes"] for h in data["horses"]) == 20000
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = CliRunner().invoke(app, ["simulate", "race", "--races", "5000", "--seed", "1"])
    assert table.exit_code == 0 and "exact %" in table.stdout


@pytest.mark.parametrize(
    "extra",
    [
        ["--races", "0"],
        ["--scratched", "3,3"],
        ["--scratched", "1"],
        ["--positions", "2=9"],
        ["--method", "guess"],
        ["--workers", "0"],
        ["--plot", "/no/such/dir/x.png"],
        ["--plot", "races.txt"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(extra: list[str]) -> None:
    result = CliRunner().invoke(app, ["simulate", "race", "--races", "100", *extra])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("lane", [0, 200])
def test_a_board_file_with_a_bad_lane_is_refused(tmp_path: Path, lane: int) -> None:
    board = tmp_path / "bad.toml"
    lanes = "\n".join(f'"{h}" = {lane if h == 7 else 3}' for h in HORSES)
    board.write_text(f'name = "bad"\n[lanes]\n{lanes}\n')
    result = CliRunner().invoke(app, ["simulate", "race", "--board", str(board)])
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
