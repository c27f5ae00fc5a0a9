"""The golden records: one checked-in game per row of the board matrix, played again and
compared line by line, and replayed event by event. A change in the rules' behaviour fails
here with the first differing line; if the change is intended, rewrite the records with
`.venv/bin/python -m tests.conformance.board_matrix --write` and review the diff."""

from __future__ import annotations

import pytest

from horserace.core.record import parse_record
from horserace.engine import replay
from horserace.families.presets import get_preset
from tests.conformance.board_matrix import (
    ROWS,
    Row,
    assert_plays_as_recorded,
    golden_lines,
    golden_path,
)


@pytest.mark.parametrize("row", ROWS, ids=repr)
def test_the_game_plays_exactly_as_recorded(row: Row) -> None:
    write = "tests.conformance.board_matrix"
    assert_plays_as_recorded(golden_path(row), golden_lines(row), write)


@pytest.mark.parametrize("row", ROWS, ids=repr)
def test_the_golden_record_replays_event_by_event(row: Row) -> None:
    record = parse_record(golden_path(row).read_text(encoding="utf-8"), source=row.name)
    report = replay(record, get_preset)
    assert report.ok, report.problems
    assert report.steps_checked == len(record.steps) and record.result is not None
