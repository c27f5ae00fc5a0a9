"""A dice board's lanes drawn to the columns they have: at 60 columns a scratched lane said
'scratch' (its words cut at the screen's edge, what it costs gone); now it says 'pays 3', and
each running lane's chance shows whole; from 80 columns the lanes are drawn as before."""

from __future__ import annotations

import contextlib
import re

import pytest

from horserace.core.chance import SeededChance
from horserace.engine import Step, play
from horserace.families.board.render import (
    BoardInfo,
    lane_odds,
    line_of,
    render_board,
    render_compact,
    to_plain,
)
from horserace.families.board.rules.view import BoardView
from tests.terminal.tables import Table

LANE = re.compile(r"│\s*(\d+) │")


class _There(Exception):
    pass


def mid_race(preset: str, steps: int) -> BoardView:
    """The board of a table of bots after `steps` steps (every scratch made, mid-race)."""
    t = Table(preset)
    game = t.new_game()

    def stop(_step: Step) -> None:
        if len(game.steps) >= steps:
            raise _There

    with contextlib.suppress(_There):
        play(game, t.agents, SeededChance(t.setup.seed), observe=stop)
    view: BoardView = game.rules.view(game.state, None)
    return view


def lanes_said(text: str) -> dict[int, str]:
    """Each lane's words after its track, by horse."""
    said = {}
    for line in text.splitlines():
        found = LANE.search(line)
        if found is not None:
            said[int(found[1])] = line.rsplit("┃", 1)[1][2:].strip()
    return said


@pytest.mark.parametrize(("preset", "steps"), [("classic", 150), ("northwoods", 120)])
@pytest.mark.parametrize("form", ["full", "compact"])
def test_a_scratched_lane_says_what_it_pays_at_every_width(
    preset: str, steps: int, form: str
) -> None:
    view = mid_race(preset, steps)
    info = BoardInfo(names=["P1", "P2", "P3", "P4", "P5", "P6"], odds=lane_odds(view))
    board = render_board(view, info) if form == "full" else render_compact(view, info)
    odds = info.odds
    assert odds is not None
    scratched = [horse for horse in range(2, 13) if line_of(view, horse)]
    assert len(scratched) == 4
    for width in (59, 79, 99):
        said = lanes_said(to_plain(board, width))
        assert sorted(said) == list(range(2, 13))
        for horse, words in said.items():
            line = line_of(view, horse)
            if line:
                owed = view.config.scratch_values[line - 1] * view.config.penalty_unit
                amount = f"${owed / 100:.2f}" if view.config.money == "cents" else str(owed)
                assert words in (f"pays {amount}", f"scratched (pays {amount})"), (width, words)
                if width >= 79 and preset == "classic":
                    assert words == f"scratched (pays {amount})"
            else:
                assert words.startswith(f"{odds[horse] * 100:.1f}%"), (width, words)
