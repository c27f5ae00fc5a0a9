"""The log keeps the whole game and PageUp reaches its first line: a table two rounds into
Advanced (hundreds of lines, many screens of them) scrolled back with PageUp to the first
deal, then forward again with PageDown to the last line."""

from __future__ import annotations

from horserace.terminal.tui.panels import GameLog
from tests.terminal.pilot import on_screen, press, run, said, until
from tests.terminal.tables import still_table

STEPS = 700  # into the second round of a four-seat Advanced table


def test_page_up_reaches_the_first_line_of_a_long_game() -> None:
    app, there = still_table("advanced", STEPS, options={"players": 4, "rounds": 2})

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, there.is_set)
            await pilot.pause()
            log = app.query_one(GameLog)
            lines = said(app)
            assert any(line.startswith("Round 2:") for line in lines)
            assert len(lines) > 10 * log.size.height  # many screens of it
            first, last = lines[0], lines[-1]
            assert first not in on_screen(app) and log.scroll_y > 0
            for _ in range(2 * len(lines)):
                if log.scroll_y == 0:
                    break
                await press(pilot, "pageup")
            await pilot.pause()
            assert log.scroll_y == 0 and first in on_screen(app)
            for _ in range(2 * len(lines)):
                if log.scroll_y >= log.max_scroll_y:
                    break
                await press(pilot, "pagedown")
            await pilot.pause()
            assert last[:60] in on_screen(app)
            await press(pilot, "ctrl+c")

    run(scenario)
