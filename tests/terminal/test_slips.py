"""No slip decides a move on the full screen: keys typed before a question is drawn answer
nothing, the table's own keys (h, n, space, + and -) do nothing while a question is open
(each may be part of an answer: n declines a trade), Enter alone picks no silk and places no
bet, and a bid over a quarter of one's chips is asked again."""

from __future__ import annotations

from textual.events import Key
from textual.widgets import OptionList, Static

from horserace.core.actions import Action
from horserace.terminal.choices import Choice, Option
from horserace.terminal.screen import Display
from horserace.terminal.tui.app import FINISHED, TableApp, TableHelp
from horserace.terminal.tui.choice_panel import AnswerField, ChoicePanel
from horserace.terminal.tui.overlays import HelpScreen
from tests.terminal.pilot import asking, press, question, run, until
from tests.terminal.tables import table
from tests.terminal.test_choice_panel import Pick


def _app(choice: Choice, chosen: list[Action]) -> TableApp:
    def work(display: Display) -> str:
        chosen.append(display.choose(choice))
        return FINISHED

    return TableApp("test", work, TableHelp(), "dark")


def _trade() -> Choice:
    yes, no = Pick("accept"), Pick("decline")
    return Choice(
        0, "P1, answer the trade", (Option("y", "accept", yes), Option("n", "decline", no))
    )


def _feedback(app: TableApp) -> str:
    return str(app.query_one("#feedback", Static).render())


def test_keys_typed_before_the_question_is_drawn_answer_nothing() -> None:
    """A y and an Enter that reach the answer field stamped before the question was drawn
    (typed while the last result closed) are dropped; the same keys typed after it count."""
    chosen: list[Action] = []
    app = _app(_trade(), chosen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            field = app.query_one(AnswerField)
            for key, character in (("y", "y"), ("enter", None)):
                early = Key(key, character)
                early.time = field.shown_at - 0.05  # in the queue before the question showed
                app.post_message(early)
            await pilot.pause()
            assert field.value == "" and not chosen and asking(app)
            await press(pilot, "n", "enter")
            await until(pilot, lambda: not app.is_running)

    run(scenario)
    assert chosen == [Pick("decline")]


def test_the_table_keys_do_nothing_while_a_question_is_open_wherever_the_focus_is() -> None:
    """In the list of options (the down arrow) n used to skip ahead, space to pause and h to
    open the help over the question."""
    chosen: list[Action] = []
    app = _app(_trade(), chosen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            await press(pilot, "down")
            assert isinstance(app.focused, OptionList)
            await press(pilot, "n", "space", "h", "plus", "minus")
            assert not app.pacer.skipping and not app.pacer.paused and app.pacer.factor == 1
            assert not isinstance(app.screen, HelpScreen) and not chosen
            await press(pilot, "question_mark")  # the help has keys of its own
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await press(pilot, "escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
            app.query_one(AnswerField).focus()
            await press(pilot, "y", "enter")
            await until(pilot, lambda: not app.is_running)

    run(scenario)
    assert chosen == [Pick("accept")]


def test_enter_alone_picks_no_derby_silk() -> None:
    """The silk question said [Enter = 1] and Enter took silk 1."""
    app, game, _ = table("derby", humans=[0])

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: asking(app) and "your silk" in question(app))
            assert "Enter" not in question(app)
            steps = len(game.steps)
            await press(pilot, "enter")
            await until(pilot, lambda: "Enter alone chooses nothing" in _feedback(app))
            assert len(game.steps) == steps and asking(app)
            await press(pilot, "ctrl+c")

    run(scenario)


def test_a_calcutta_bid_over_a_quarter_of_ones_chips_is_asked_again() -> None:
    """`100` typed for 10 bought a horse for most of one's chips with no question."""
    app, game, _ = table("calcutta", humans=[0])

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: asking(app) and "is for sale" in question(app))
            asked = question(app)
            steps = len(game.steps)
            chips = game.rules.view(game.state, 0).chips[0]
            field = app.query_one(ChoicePanel).choice.field  # type: ignore[union-attr]
            assert field is not None
            amount = max(field.minimum, chips // 4 + 1)
            assert amount <= field.maximum
            await press(pilot, *str(amount), "enter")
            bid = f"bid {amount}"
            await until(pilot, lambda: question(app).startswith(bid))
            assert f"stakes {amount} of your {chips} chips, over a quarter: sure?" in question(app)
            await press(pilot, "n", "enter")
            await until(pilot, lambda: question(app) == asked)
            assert len(game.steps) == steps
            await press(pilot, *str(amount), "enter")
            await until(pilot, lambda: question(app).startswith(bid))
            await press(pilot, "y", "enter")
            await until(pilot, lambda: len(game.steps) > steps)
            assert game.steps[steps].action == bid
            await press(pilot, "ctrl+c")

    run(scenario)
