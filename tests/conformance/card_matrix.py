"""The conformance matrix of the card race: each preset with each betting style and course
option, including tote tables whose pools split into odd chips and a takeout that leaves minus
pools, and how one row's game is played (seeded, with a bot mix).

Run as a script to rewrite the golden records
(`python -m tests.conformance.card_matrix --write`): one record per row in tests/golden/,
which tests/conformance/test_card_matrix.py replays event by event, so any change in the
rules' behaviour shows up as a diff that a reviewer must accept.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from horserace.engine import Game
from tests.conformance.board_matrix import GOLDEN, play_seeded, write_records

GOLDEN_SEED = 2026
GOLDEN_BOTS = ("value", "random", "favourite", "random")
# a short pack, a face-down 3-card course: horses fall back to the gate and end the race there
SHORT_FALTERING = {"ranks": 4, "course_length": 3, "need": 3, "faltering": True, "redeal": False}


class CardRow:
    """One line of the matrix: a preset and its table options."""

    def __init__(self, name: str, preset: str, options: dict[str, Any]) -> None:
        self.name, self.preset, self.options = name, preset, options

    def __repr__(self) -> str:
        return self.name


CARD_ROWS: tuple[CardRow, ...] = (
    CardRow("basic+book", "basic", {"players": 4, "races": 2}),
    CardRow("basic+tote", "basic", {"players": 6, "races": 3, "betting": "tote"}),
    # every pool rounds down to odd chips; half the pool to the house makes minus pools
    CardRow(
        "basic+tote-takeout",
        "basic",
        {"players": 6, "races": 3, "betting": "tote", "takeout": 50, "bet_limit": 6},
    ),
    CardRow(
        "basic+party",
        "basic",
        {"players": 4, "races": 2, "betting": "party"},
    ),
    CardRow(
        "basic+tote+faltering-gate",
        "basic",
        {"players": 4, "races": 4, "betting": "tote", **SHORT_FALTERING},
    ),
    CardRow(
        "basic+party+faltering",
        "basic",
        {"players": 4, "races": 3, "betting": "party", **SHORT_FALTERING},
    ),
    CardRow("scarne+tote", "scarne", {"players": 4, "races": 2, "betting": "tote", "takeout": 17}),
    CardRow("calcutta", "calcutta", {"players": 4, "races": 1}),
)


def play_card_row(row: CardRow, seed: int, bots: tuple[str, ...], observe: Any = None) -> Game:
    """One seeded game of the row, the bot kinds round the table in order."""
    return play_seeded(row.preset, row.options, seed, bots, observe)


def card_golden_lines(row: CardRow) -> list[str]:
    return list(play_card_row(row, GOLDEN_SEED, GOLDEN_BOTS).record().lines())


def card_golden_path(row: CardRow) -> Path:
    return GOLDEN / f"cards-{row.name}.jsonl"


def write_card_golden() -> None:
    write_records((card_golden_path(row), card_golden_lines(row)) for row in CARD_ROWS)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.conformance.card_matrix --write")
    write_card_golden()
