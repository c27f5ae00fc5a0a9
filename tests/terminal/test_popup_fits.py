"""Every popup fits an 80x24 screen: the tote's race result (a line per bettor and the
payouts) ran past the bottom, its 'Enter: go on' below the screen."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widgets import Static

from horserace.terminal.tui.overlays import ResultScreen
from tests.terminal.pilot import holding, run, until
from tests.terminal.tables import table


def test_the_tote_result_fits_80x24() -> None:
    app, _, screen = table("basic", options={"races": 2, "betting": "tote", "players": 8})
    screen.auto_continue = None  # held until Enter, as `play` has it

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: holding(app) is not None)
            await pilot.pause(0.2)
            result = app.screen
            assert isinstance(result, ResultScreen)
            box = result.query_one(Vertical).region
            hint = result.query_one(".hint", Static).region
            assert box.y >= 0 and box.bottom <= 24, box
            assert hint.height == 1 and hint.bottom < box.bottom, (hint, box)
            await pilot.press("ctrl+c")

    run(scenario)
