"""The bots' grid of docs/analysis.md: its rows are `simulate` commands, what it still has to play
follows the results file, and the page's section shows only what the file holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tools.analysis_decisions import decisions_section
from tools.decisions_grid import GAMES, RESULTS, Row, grid, load, missing, save

from horserace.drivers.cli.app import app


def _held(row: Row, kernel: str, edge: float, games: int = GAMES) -> dict[str, Any]:
    first, second = row.bots.split(",")
    return {
        "key": row.key,
        "preset": row.preset,
        "rule": row.rule,
        "extra": dict(row.extra),
        "players": row.players,
        "bots": row.bots,
        "games": games,
        "seed": 2026,
        "kernel": kernel,
        "gains": {first: edge / 2 - 1, second: -edge / 2 - 1},
        "edge": edge,
        "low": edge - 0.25,
        "high": edge + 0.25,
        "cpu_seconds": 123.4,
        "commit": "abc",
    }


def test_every_row_is_a_simulate_command_the_command_line_takes() -> None:
    from typer.testing import CliRunner

    rows = grid()
    assert len({row.key for row in rows}) == len(rows) == 66
    # Robertson's and Perry's rows at 6 players come first: the page lacked them most
    assert all(row.rule in ("robertson", "perry") and row.players == 6 for row in rows[:12])
    row = next(row for row in rows if row.extra)
    played = CliRunner().invoke(
        app, ["simulate", *row.key.split(), "--games", "4", "--seed", "1", "--json"]
    )
    assert played.exit_code == 0, played.output
    report = json.loads(played.output)
    assert (report["players"], report["kernel"]) == (6, "advanced")


def test_a_row_held_on_another_kernel_or_with_fewer_games_is_played_again(
    tmp_path: Path,
) -> None:
    robertson, husted, perry = (
        Row("classic", "robertson", 6, "ev,random"),
        Row("classic", "husted", 6, "ev,random"),
        Row("advanced", "perry", 4, "ev,heuristic"),
    )
    path = tmp_path / "decisions.json"
    save(
        {
            robertson.key: _held(robertson, "classic", 50.0),
            husted.key: _held(husted, "husted", 124.0),  # a kernel since folded into Classic's
            perry.key: _held(perry, "advanced", 9.0, games=400),
        },
        path,
    )
    wanted = {row.key for row in missing(load(path))}
    assert robertson.key not in wanted
    assert {husted.key, perry.key} <= wanted
    assert len(wanted) == len(grid()) - 1


def test_the_section_shows_what_the_file_holds_and_marks_the_rest(tmp_path: Path) -> None:
    perry = Row("classic", "perry", 6, "ev,heuristic")
    nine = Row("advanced", "robertson", 9, "heuristic,random")
    path = tmp_path / "decisions.json"
    save({perry.key: _held(perry, "classic", 0.5), nine.key: _held(nine, "advanced", 7.25)}, path)
    text = decisions_section(tmp_path, path)
    assert "| `classic --house perry` | ev vs heuristic | -0.75 | -1.25 | +0.50 |" in text
    assert "+0.25 to +0.75 | 100,000 (classic kernel) | 123 |" in text
    assert "| `classic --house perry` | ev vs random | not yet played |" in text
    # the player-count table: 9 players played, 4 and 6 not
    assert "| heuristic vs random | not yet played | not yet played | +7.25 (+7.00 to +7.50) |" in (
        text
    )
    assert "over the heuristic bot, which never offers, +0.50 (+0.25 to +0.75)" in text
    assert "2 are played" in text
    assert (tmp_path / "decisions.png").exists() and (tmp_path / "decisions_players.png").exists()


def test_the_checked_in_results_are_grid_rows_of_a_hundred_thousand_games() -> None:
    held = load(RESULTS)
    keys = {row.key for row in grid()}
    assert held and set(held) <= keys
    for row in held.values():
        assert row["games"] >= GAMES
        assert row["high"] - row["low"] < 1.0 or row["preset"] == "northwoods"  # cents
