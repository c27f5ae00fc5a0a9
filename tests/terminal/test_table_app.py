"""The full-screen table driven by Textual's pilot: a table of bots plays to its end, results
wait for Enter, keys typed before a question answer nothing, help, pace keys, quitting, and the
layout at 80x24 and 120x40."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Input, Static

from horserace.terminal.tui.app import FINISHED, QUIT, TableApp
from horserace.terminal.tui.choice_panel import ChoicePanel
from horserace.terminal.tui.overlays import HelpScreen
from horserace.terminal.tui.panels import GameLog
from tests.terminal.pilot import (
    asking,
    enter,
    holding,
    on_screen,
    pick_all,
    press,
    run,
    said,
    until,
)
from tests.terminal.tables import table


def test_a_table_of_bots_plays_to_the_end_and_the_standings_wait_for_enter() -> None:
    app, game, _ = table("classic", options={"rounds": 2})

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            # the last race's result is held at its payout, the step that ends the game
            await until(pilot, lambda: getattr(holding(app), "heading", "") == "The game is over")
            result = holding(app)
            assert result is not None and game.over
            await pilot.pause(0.3)
            assert holding(app) is result and app.is_running  # still there: nobody pressed Enter
            log = said(app)
            assert sum("wins" in line for line in log) >= 2  # both races' results stay in the log
            assert any("Final standings" in line for line in log)
            await press(pilot, "enter")
            await until(pilot, lambda: not app.is_running)
        assert app.return_value == FINISHED

    run(scenario)


@pytest.mark.parametrize(
    ("preset", "options", "heading"),
    [("classic", {"rounds": 3}, "The race is run"), ("basic", {"races": 3}, "The race is over")],
)
def test_a_race_result_waits_for_enter_when_a_person_plays(
    preset: str, options: dict[str, object], heading: str
) -> None:
    app, game, _ = table(preset, humans=[0], options=options)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pick_all(pilot, app, game)
            held = holding(app)
            assert held is not None and held.heading == heading
            steps = len(game.steps)
            await pilot.pause(0.4)
            assert holding(app) is held and len(game.steps) == steps  # nobody pressed Enter
            await press(pilot, "enter")
            await until(pilot, lambda: len(game.steps) > steps)
            await press(pilot, "ctrl+c")
            await until(pilot, lambda: not app.is_running)
        assert app.return_value == QUIT and not game.over

    run(scenario)


def test_a_race_result_stays_until_enter_where_only_bots_play() -> None:
    """Watching bots, the result used to close after a few seconds (at once at speed 0), over
    the payouts; `n` (no pauses until the next decision) does not close it either."""
    app, game, screen = table("classic", options={"rounds": 2})
    screen.auto_continue = None  # as `play` has it without --auto-continue

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: holding(app) is not None)
            held = holding(app)
            assert held is not None and held.heading == "The race is run"
            steps = len(game.steps)
            await press(pilot, "n")
            await pilot.pause(0.4)
            assert holding(app) is held and len(game.steps) == steps
            await press(pilot, "enter")
            await until(pilot, lambda: len(game.steps) > steps)
            await press(pilot, "ctrl+c")

    run(scenario)


def test_keys_typed_before_a_question_answer_nothing() -> None:
    app, game, screen = table("basic", humans=[2], options={"races": 2})

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            screen.speed = 5.0  # the bots wait long after each card, until `n` skips them
            await enter(pilot, app, game, "done")  # played: what follows is the bots'
            await until(pilot, lambda: not asking(app))
            steps = len(game.steps)
            await press(pilot, "x", "y", "enter", "z")  # the bots' turn: nothing is asked
            assert all(step.actor != "2" for step in game.steps[steps:])  # (the bots play on)
            await press(pilot, "n")
            await until(pilot, lambda: holding(app) is not None or asking(app))
            if holding(app) is not None:  # the race's result waits for Enter
                await press(pilot, "enter")
            await until(pilot, lambda: asking(app))
            field = app.query_one(ChoicePanel).query_one("#answer", Input)
            assert field.value == ""
            await press(pilot, "ctrl+c")

    run(scenario)


def test_a_refused_answer_is_said_and_asked_again() -> None:
    app, game, _ = table("advanced", humans=[0], options={"players": 4, "rounds": 1})

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            steps = len(game.steps)
            await press(pilot, "j", "u", "m", "p", "enter")
            feedback = app.query_one("#feedback", Static)
            await until(pilot, lambda: "'jump' is not a choice here" in str(feedback.render()))
            assert "allowed: " in str(feedback.render())
            assert asking(app) and len(game.steps) == steps
            await press(pilot, "ctrl+c")

    run(scenario)


def test_help_shows_the_keys_odds_and_rules_and_closes() -> None:
    app, _, _ = table("advanced", humans=[0], options={"players": 4, "rounds": 1})

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            await press(pilot, "?")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            help = app.screen
            assert isinstance(help, HelpScreen) and help.odds is not None
            odds = help.odds.win
            assert len(odds) >= 2 and abs(sum(odds.values()) - 1) < 1e-6
            shown = help.plain()
            assert "skip to the next decision" in shown and "leave the table" in shown
            favourite = max(odds, key=lambda horse: odds[horse])
            row = rf"^{favourite} +{odds[favourite] * 100:.1f}$"  # exact: to a tenth
            assert re.search(row, shown, re.MULTILINE), shown
            assert "being refined" not in shown
            await press(pilot, "escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
            assert asking(app)
            await press(pilot, "ctrl+c")

    run(scenario)


def test_h_opens_the_help_while_the_bots_play() -> None:
    app, _, screen = table("classic", options={"rounds": 1})
    screen.speed = 5.0

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await press(pilot, "h")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await press(pilot, "escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
            await press(pilot, "ctrl+c")

    run(scenario)


def test_pace_keys_and_pause() -> None:
    app, _, screen = table("classic", options={"rounds": 1})
    screen.speed = 5.0

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await press(pilot, "plus", "plus")
            assert app.pacer.factor == 0.25
            await press(pilot, "minus")
            assert app.pacer.factor == 0.5
            await press(pilot, "space")
            assert app.pacer.paused
            await press(pilot, "n")
            assert app.pacer.skipping
            await press(pilot, "ctrl+c")

    run(scenario)


def test_the_board_fits_80x24_and_sits_beside_the_log_from_120_columns() -> None:
    app, _, _ = table("advanced", humans=[0], options={"players": 4, "rounds": 1})

    def beside() -> bool:
        return app.query_one("#main").has_class("-wide")

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: asking(app))
            await until(pilot, beside)  # tall or short: the log beside
            board, log = app.query_one("#board"), app.query_one(GameLog)
            assert board.region.width >= 80 and log.region.x == board.region.right
            await pilot.resize_terminal(119, 40)
            await until(pilot, lambda: not beside())
            await pilot.resize_terminal(160, 48)
            await until(pilot, lambda: beside() and log.region.width == 60)
            assert board.region.width == 100  # the room past the log's most goes to the board
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: not beside())
            panel = app.query_one(ChoicePanel)
            assert board.region.bottom <= panel.region.y <= 24 - 1 - 2
            assert not app.query_one(GameLog).display  # it gives way to the board and question
            await pilot.resize_terminal(100, 40)
            await until(pilot, lambda: log.display and log.region.height >= 2)
            assert log.virtual_size.width <= log.scrollable_content_region.width  # wrapped anew
            await press(pilot, "ctrl+c")

    run(scenario)


def footer(app: TableApp) -> str:
    return on_screen(app).splitlines()[-1]


def test_the_footer_offers_the_pace_keys_only_while_no_answer_is_typed() -> None:
    app, _, screen = table("basic", humans=[2], options={"races": 1})

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: asking(app) and "help" not in footer(app))
            shown = footer(app)  # the field takes h, n, space, q, + and -: none is offered
            assert "faster" not in shown and "slower" not in shown
            assert "undo" not in shown  # nothing is typed in from a real table here
            screen.speed = 5.0
            await press(pilot, "d", "o", "n", "e", "enter")
            await until(pilot, lambda: not asking(app) and "+ faster  - slower" in footer(app))
            await press(pilot, "ctrl+c")

    run(scenario)


def test_a_derby_race_result_stays_until_enter_and_in_the_log() -> None:
    """A person at a Derby table: the race's result (its places and payouts) is held over the
    board until Enter, and stays in the log after."""
    app, game, _ = table("derby", humans=[0], options={"players": 3, "races": 2})

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pick_all(pilot, app, game)
            held = holding(app)
            assert held is not None and held.heading == "The race is over"
            steps = len(game.steps)
            await until(pilot, lambda: "Race 1 over after" in on_screen(app))  # over the board
            await pilot.pause(0.4)
            assert holding(app) is held and len(game.steps) == steps  # nobody pressed Enter
            await press(pilot, "enter")
            await until(pilot, lambda: holding(app) is None)
            assert any("Race 1 over after" in line for line in said(app))  # and in the log
            await press(pilot, "ctrl+c")
            await until(pilot, lambda: not app.is_running)
        assert app.return_value == QUIT and not game.over

    run(scenario)
