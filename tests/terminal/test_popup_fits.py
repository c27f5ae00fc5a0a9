"""An 80x24 screen shows the card race whole: the tote's race result (a line per bettor and the
payouts) ran past the bottom, its 'Enter: go on' below the screen, and a lane's bettors were
cut at the 80th column."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widgets import Static

from horserace.terminal.tui.overlays import ResultScreen
from tests.terminal.pilot import holding, on_screen, press, run, until
from tests.terminal.tables import table


def laid_out(app: object) -> bool:
    """The result's popup is on the screen with its hint laid out (the regions are final)."""
    screen = getattr(app, "screen", None)
    if not isinstance(screen, ResultScreen):
        return False
    hints = screen.query(".hint")  # none yet while the popup is being put together
    return bool(hints) and bool(hints.first(Static).region.height)


def test_the_tote_result_fits_80x24() -> None:
    app, _, screen = table("basic", options={"races": 2, "betting": "tote", "players": 8})
    screen.auto_continue = None  # held until Enter, as `play` has it

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: holding(app) is not None and laid_out(app))
            result = app.screen
            assert isinstance(result, ResultScreen)
            box = result.query_one(Vertical).region
            hint = result.query_one(".hint", Static).region
            assert box.y >= 0 and box.bottom <= 24, box
            assert hint.height == 1 and hint.bottom < box.bottom, (hint, box)
            await press(pilot, "ctrl+c")

    run(scenario)


def test_a_tote_lanes_bettors_are_not_cut_at_80_columns() -> None:
    """Clubs' four bettors (P1 2, P3 5, P4 1, P7 1) wrap onto a second line of its lane; the
    column cut them after 'P4 1,'."""
    app, _, screen = table("basic", options={"races": 2, "betting": "tote", "players": 8})
    screen.auto_continue = None

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: holding(app) is not None and laid_out(app))
            lines = on_screen(app).splitlines()
            at = next(i for i, line in enumerate(lines) if line.startswith("♣ clubs"))
            assert lines[at].split()[-6:] == ["P1", "2,", "P3", "5,", "P4", "1,"]
            assert lines[at + 1].split() == ["P7", "1"], lines[at : at + 2]
            await press(pilot, "ctrl+c")

    run(scenario)
