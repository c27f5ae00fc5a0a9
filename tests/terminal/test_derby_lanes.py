"""A Derby on a track longer than the screen is wide: the lanes are scaled to the columns the
rest leave (a cell for a few spaces, each horse's space written beside its lane), so at 80
columns every horse's number, rider, money, lane to the finish and Win/Place/Show odds show."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from rich.console import RenderableType

from horserace.core.chance import SeededChance
from horserace.engine import Step, play
from horserace.families.derby.compact import compact_table
from horserace.families.derby.lanes import track_header
from horserace.families.derby.render import DerbyInfo, render_table, to_plain
from horserace.families.derby.rules.model import DerbyPhase, DerbyView
from horserace.families.derby.sampled_odds import table_odds
from tests.terminal.pilot import asking, pick_first, press, run, until
from tests.terminal.tables import Table, table
from tests.terminal.test_layout import fits

BOARD = 79  # the board's columns at 80x24, less its scrollbar
SEATS = 12  # the most horses drawn one to a line
PERCENT = r"(?:\d+\.\d|\d+|<0\.1|-)"  # a chance as the board prints it (whole: not sure of a tenth)


def long_track(finish: int) -> dict[str, Any]:
    """A track of `finish` spaces in three zones, with mud and accelerators along it."""
    third = finish // 3
    zones = [
        {"name": f"zone {z + 1}", "first": z * third, "last": (z + 1) * third - 1, "moves": 3 - z}
        for z in range(3)
    ]
    zones[-1]["last"] = finish - 1
    return {
        "name": f"long {finish}",
        "finish": finish,
        "zones": zones,
        "mud": [5, finish // 2],
        "accelerators": [2, finish - 7],
    }


class _There(Exception):
    """The race is where the test looks."""


def mid_race(finish: int | None) -> tuple[DerbyView, DerbyInfo]:
    """Twelve seats' horses on a track of `finish` spaces (None: the packaged one), at the
    start of the race's fourth turn."""
    options: dict[str, object] = {"players": SEATS}
    if finish is not None:
        options["track"] = long_track(finish)
    t = Table("derby", options=options)

    def observe(step: Step) -> None:
        race = step.after.race
        if step.after.phase is DerbyPhase.RACE and race.turn == 4 and not race.dice:
            raise _There

    with contextlib.suppress(_There):
        play(t.game, t.agents, SeededChance(7), observe=observe)
    view: DerbyView = t.game.rules.view(t.game.state, None)
    odds = table_odds(view, samples=2000, seed=0)
    return view, DerbyInfo(names=[f"P{seat + 1}" for seat in range(SEATS)], odds=odds)


def rows(view: DerbyView, board: RenderableType, scaled: bool) -> list[str]:
    """The board's lines at 80x24, after checking that each runner's line shows its number,
    rider, money, lane to the finish, the space it is on (`scaled`) and its three chances."""
    race = view.race
    assert race is not None and any(race.position(horse) for horse in race.runners)
    lines = to_plain(board, width=BOARD).splitlines()
    header = next(line for line in lines if "W%" in line)
    assert header.rstrip().endswith("W%    P%    S%"), header
    assert (" at " in header) is scaled
    if not scaled:  # a cell a space
        assert track_header(view.track).plain in header
    for horse in race.runners:
        owner = view.owner(horse)
        rider = "house" if owner is None else f"P{owner + 1}"
        money = "" if owner is None else rf".*\s{view.money[owner]}\s"
        at = rf"\s+{race.position(horse)}" if scaled else ""
        row = rf"^\s*{horse}\s+{rider}\s{money}.*┃{at}\s+{PERCENT}\s+{PERCENT}\s+{PERCENT}$"
        assert any(re.search(row, line.rstrip()) for line in lines), "\n".join(lines)
    return lines


@pytest.mark.parametrize("compact", [False, True], ids=["full", "compact"])
@pytest.mark.parametrize("finish", [60, 120])
def test_a_long_track_keeps_every_column_at_80(finish: int, compact: bool) -> None:
    view, info = mid_race(finish)
    board = compact_table(view, info) if compact else render_table(view, info)
    rows(view, board, scaled=True)


def test_the_packaged_track_keeps_a_cell_a_space_at_80() -> None:
    """Twelve horses on the packaged track: a cell a space, the columns closer together."""
    view, info = mid_race(None)
    rows(view, render_table(view, info), scaled=False)


def test_a_long_track_fits_80x24_with_a_question_open() -> None:
    """A person wagering at a table of twelve on 120 spaces: every lane, seat and its money in
    view with the question, the lanes scaled."""
    options = {"players": SEATS, "track": long_track(120)}
    app, game, _ = table("derby", humans=[0], options=options)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(2):  # the silk and the horse
                await until(pilot, lambda: asking(app))
                await pick_first(pilot, app, game)
            await until(pilot, lambda: asking(app))
            await fits(pilot, app, game)
            await press(pilot, "ctrl+c")

    run(scenario)
