"""The help stops the table while it is open (the bots' race does not run on behind it) and the
table goes on when it closes, unless it was paused before; a pause is said until the game goes
on again, not for a second."""

from __future__ import annotations

from horserace.terminal.tui.app import PAUSE_NOTICE, QUIT
from horserace.terminal.tui.overlays import HelpScreen, LeaveScreen
from tests.terminal.pilot import press, run, until
from tests.terminal.tables import table


def test_the_help_pauses_the_table_and_a_pause_is_said_until_it_ends() -> None:
    app, game, screen = table("classic", options={"rounds": 1})
    screen.speed = 0.2

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: len(game.steps) > 5)
            await press(pilot, "question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert app.pacer.paused
            await press(pilot, "escape")
            await until(pilot, lambda: not app.pacer.paused)  # closed: the table goes on
            assert not isinstance(app.screen, HelpScreen)
            await press(pilot, "space")
            assert app.pacer.paused
            notices = [n for n in app._notifications if n.message == "paused: space goes on"]
            assert [n.timeout for n in notices] == [PAUSE_NOTICE]
            await press(pilot, "question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await press(pilot, "escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
            assert app.pacer.paused  # paused before the help: still paused
            await press(pilot, "space")
            assert not app.pacer.paused
            assert "paused: space goes on" not in [n.message for n in app._notifications]
            await press(pilot, "ctrl+c")

    run(scenario)


def test_q_asks_before_the_table_is_left() -> None:
    """A q typed a moment after an answer (meaning the Queen) used to end the table at once."""
    app, game, screen = table("classic", options={"rounds": 1})
    screen.speed = 0.2

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: len(game.steps) > 5)
            await press(pilot, "q")
            await until(pilot, lambda: isinstance(app.screen, LeaveScreen))
            await press(pilot, "n")
            await until(pilot, lambda: not isinstance(app.screen, LeaveScreen))
            assert app.is_running
            await press(pilot, "q")
            await until(pilot, lambda: isinstance(app.screen, LeaveScreen))
            await press(pilot, "y")
            await until(pilot, lambda: not app.is_running)

    run(scenario)
    assert app.return_value == QUIT and not game.over
