"""The `odds` command on a bare Typer app: JSON that matches the library, one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.components.board import DEFAULT_BOARD, HORSES
from horserace.drivers.cli.app import app
from horserace.families.board.odds.race import exact_race_odds, race_odds

runner = CliRunner()


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", "--json", *args])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_json_from_the_gate_sums_to_one_and_matches_race_odds() -> None:
    data = run_json()
    win = data["win"]
    assert isinstance(win, dict)
    assert sorted(win, key=int) == [str(h) for h in HORSES]
    assert sum(win.values()) == pytest.approx(1.0, abs=1e-12)
    expected = race_odds({h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES})
    assert win == {str(h): p for h, p in expected.win.items()}
    assert data["expected_rolls"] == expected.expected_rolls


def test_exact_json_parses_to_the_exact_odds() -> None:
    data = run_json("--exact", "--scratched", "3,5,7,9", "--positions", "2=1,12=2,8=13")
    remaining = {h: DEFAULT_BOARD.advances_to_finish(h) for h in (4, 6, 10, 11)}
    remaining |= {2: 2, 12: 1, 8: 1}
    exact = exact_race_odds(remaining)
    win = data["win"]
    assert isinstance(win, dict)
    assert all(isinstance(v, str) and "/" in v for v in win.values())
    assert {int(h): Fraction(v) for h, v in win.items()} == exact.win
    assert Fraction(str(data["expected_rolls"])) == exact.expected_rolls


def test_table_shows_positions_odds_and_expected_rolls() -> None:
    result = runner.invoke(app, ["odds", "--scratched", "7", "--positions", "6=4"])
    assert result.exit_code == 0, result.output
    rows = {line.split()[1]: line for line in result.stdout.splitlines() if line.startswith("│")}
    assert "7" not in rows
    assert "4/13" in rows["6"]
    remaining = {h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES if h != 7}
    remaining[6] -= 4
    odds = race_odds(remaining)
    assert f"{100 * odds.win[12]:.2f}%" in rows["12"]
    assert f"1 in {1 / odds.win[12]:.1f}" in rows["12"]
    assert "expected rolls" in result.stdout
    assert f"{odds.expected_rolls:.2f}" in result.stdout


def test_a_board_file_changes_the_odds(tmp_path: Path) -> None:
    lanes = dict(zip(HORSES, [1, 3, 4, 5, 7, 7, 7, 5, 4, 3, 1], strict=True))
    board = tmp_path / "short.toml"
    board.write_text(
        'name = "short"\n[lanes]\n' + "".join(f"{h} = {n}\n" for h, n in lanes.items()),
        encoding="utf-8",
    )
    short = run_json("--board", str(board))
    standard = run_json()
    assert short != standard
    expected = race_odds({h: n + 1 for h, n in lanes.items()})
    assert short["win"] == {str(h): p for h, p in expected.win.items()}
    assert short["expected_rolls"] == expected.expected_rolls


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scratched", "2,3,4,5,6"], "at most 4"),
        (["--scratched", "5,5"], "twice"),
        (["--scratched", "13"], "horses are 2 to 12"),
        (["--scratched", "x"], "whole number"),
        (["--scratched", "3,,4"], "empty item"),
        (["--positions", "2=3"], "0 to 2 slots"),
        (["--positions", "7=-1"], "0 to 14 slots"),
        (["--positions", "7"], "HORSE=SLOTS"),
        (["--positions", "7=1,7=2"], "two positions"),
        (["--scratched", "7", "--positions", "7=1"], "scratched"),
        (["--board", "no/such/board.toml"], "cannot read board file"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert message in lines[0]
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_broken_board_file_is_a_one_line_error(tmp_path: Path) -> None:
    board = tmp_path / "bad.toml"
    board.write_text("[lanes]\n2 = 0\n", encoding="utf-8")
    result = runner.invoke(app, ["odds", "--board", str(board)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


def test_odds_draws_the_chances_and_refuses_a_bad_picture_name(tmp_path: Path) -> None:
    picture = tmp_path / "odds.png"
    args = ["odds", "--scratched", "3,5", "--positions", "2=1", "--plot", str(picture)]
    assert CliRunner().invoke(app, args).exit_code == 0
    assert picture.read_bytes()[:4] == b"\x89PNG"
    wrong = CliRunner().invoke(app, ["odds", "--plot", str(tmp_path / "odds.txt")])
    assert wrong.exit_code == 2 and wrong.stderr.startswith("error: ")
