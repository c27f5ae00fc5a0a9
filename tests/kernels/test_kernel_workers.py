"""The report of a simulation on the kernels is the same whatever the number of workers: the
games are split by index into fixed chunks, each game draws from its own stream, and the chunks
are merged in index order. Northwoods (on a board file, players going out) and the card race's
variants (Scarne, the book, the party, faltering and stumbling courses), one worker against two,
over more games than two chunks hold, so the second worker plays a chunk of its own."""

from __future__ import annotations

from typing import Any

import pytest

from horserace.drivers.simulate.runner import simulate_games
from horserace.families.board.tally import KERNEL_CHUNK_GAMES as BOARD_CHUNK
from horserace.families.cards.simulation import KERNEL_CHUNK_GAMES as CARD_CHUNK
from tests.kernels.test_board_game_equality import SHIPPED

TIMING = ("workers", "threads", "elapsed_seconds")


def _figures(report: Any) -> dict[str, Any]:
    """The report as its JSON says it, less the timing and the worker counts."""
    data: dict[str, Any] = report.to_json()
    assert all(key in data for key in TIMING)
    return {key: value for key, value in data.items() if key not in TIMING}


def _same_whatever_the_workers(preset: str, options: dict[str, Any], games: int, **kw: Any) -> Any:
    one = simulate_games(preset, options, games, 21, **kw)
    two = simulate_games(preset, options, games, 21, workers=2, **kw)
    assert one.engine == "kernel" and two.workers == 2 and one.games == games
    assert one == two
    assert _figures(one) == _figures(two)
    return one


def test_northwoods_reports_do_not_depend_on_the_workers() -> None:
    options = {"players": 7, "rounds": 15, "starting_chips": 80, "board": SHIPPED[0]}
    games = 2 * BOARD_CHUNK + 13
    one = _same_whatever_the_workers("northwoods", options, games)
    assert one.races < games * 15  # players went out and ended games early
    assert any(out.successes for out in one.seat_out)
    other = simulate_games("northwoods", options, games, 22)
    assert _figures(other) != _figures(one)  # the comparison can tell two runs apart


CARD_TABLES: dict[str, tuple[str, dict[str, Any]]] = {
    "scarne book": ("scarne", {"betting": "book", "players": 5}),
    "basic book": ("basic", {"betting": "book", "players": 9, "bet_limit": 5}),
    "party": ("basic", {"betting": "party", "players": 6, "prizes": [25, 20, 15]}),
    "faltering tote": (
        "basic",
        {"faltering": True, "redeal": False, "betting": "tote", "takeout": 15, "players": 4},
    ),
    "faltering party": ("scarne", {"faltering": True, "betting": "party", "players": 12}),
    # the report's exact table of a stumbling course is slow to work out on a full deck
    # (seconds to minutes of exact arithmetic), so those run on a short pack or face down
    "stumbling book": (
        "basic",
        {"stumbling": True, "ranks": 6, "course_length": 4, "need": 5, "players": 3},
    ),
    "stumbling faltering tote": (
        "scarne",
        {"stumbling": True, "faltering": True, "betting": "tote", "takeout": 50, "players": 8},
    ),
}


@pytest.mark.parametrize("table", list(CARD_TABLES))
def test_card_race_reports_do_not_depend_on_the_workers(table: str) -> None:
    preset, options = CARD_TABLES[table]
    games = 2 * CARD_CHUNK + 7
    one = _same_whatever_the_workers(preset, options, games, bots=("blind",))
    assert one.races == games * one.config["races"]
