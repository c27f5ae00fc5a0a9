"""tools/kernel_equality.py: a random table of a matrix row keeps the row's house rules, plays
alike on the engine and the kernel, and a kernel that ends otherwise or picks otherwise is
reported, not passed."""

from __future__ import annotations

from typing import Any
from unittest import mock

from tools.kernel_equality import FIRST_SEED, check_table, decided_rows, random_table

import horserace.kernels.classic_game as classic_game
from tests.conformance.board_matrix import ROWS


def test_the_rows_are_the_matrix_rows_with_decisions_and_keep_their_rules() -> None:
    names = [row.name for row in decided_rows()]
    assert len(names) == len(ROWS) - 2 and "classic" not in names and "northwoods" not in names
    row = next(row for row in ROWS if row.name == "classic+husted-7p")
    options, kinds = random_table(row, FIRST_SEED)
    assert (options["players"], options["husted"], len(kinds)) == (7, True, 7)
    row = next(row for row in ROWS if row.name == "advanced+classic-scratch+perry")
    options, _ = random_table(row, FIRST_SEED + 1)
    assert options["repeat_scratch"] == "move"
    assert options["trade_window"] == "before-scratch" and 1 <= options["trade_offers"] <= 4
    assert random_table(row, FIRST_SEED + 1) == random_table(row, FIRST_SEED + 1)


def test_an_equal_table_passes_and_a_kernel_that_differs_is_caught() -> None:
    found = check_table("classic+husted+robertson", FIRST_SEED)
    assert found["differs"] == "" and found["decisions"] > 0
    replay = classic_game.replay_tape

    def one_chip_more(*args: Any) -> Any:
        outcomes, used = replay(*args)
        outcomes.chips[0, 0] += 1
        return outcomes, used

    with mock.patch.object(classic_game, "replay_tape", one_chip_more):
        assert "chips" in check_table("classic+husted+robertson", FIRST_SEED)["differs"]

    def other_pick(*args: Any) -> Any:
        raise ValueError("the tape's pick is another action")

    with mock.patch.object(classic_game, "replay_tape", other_pick):
        assert check_table("classic+husted+robertson", FIRST_SEED)["differs"].startswith("decision")
