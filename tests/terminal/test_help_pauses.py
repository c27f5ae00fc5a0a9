"""The help stops the table while it is open (the bots' race does not run on behind it) and the
table goes on when it closes, unless it was paused before; a pause is said until the game goes
on again, not for a second."""

from __future__ import annotations

from horserace.terminal.tui.app import PAUSE_NOTICE
from horserace.terminal.tui.overlays import HelpScreen
from tests.terminal.pilot import run, until
from tests.terminal.tables import table


def test_the_help_pauses_the_table_and_a_pause_is_said_until_it_ends() -> None:
    app, game, screen = table("classic", options={"rounds": 1})
    screen.speed = 0.2

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: len(game.steps) > 5)
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert app.pacer.paused
            await pilot.press("escape")
            await until(pilot, lambda: not app.pacer.paused)  # closed: the table goes on
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("space")
            assert app.pacer.paused
            notices = list(app._notifications)
            assert [n.message for n in notices] == ["paused: space goes on"]
            assert notices[0].timeout == PAUSE_NOTICE
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
            assert app.pacer.paused  # paused before the help: still paused
            await pilot.press("space")
            assert not app.pacer.paused
            assert [n.message for n in app._notifications] == ["going on"]
            await pilot.press("ctrl+c")

    run(scenario)
