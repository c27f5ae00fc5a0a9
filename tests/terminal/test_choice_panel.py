"""The choice panel presents a `Choice` so it cannot be misread: keys and words listed, a key
typed is that key (never a position in the list), a long list narrows as one types, the number
field takes +1/+5/+10, a step leads on and `<` goes back, a refusal says why."""

from __future__ import annotations

from dataclasses import dataclass

from textual.widgets import Button, Input, OptionList, Static

from horserace.core.actions import Action
from horserace.families.board.rules.actions import Keep
from horserace.terminal.choices import Choice, NumberField, Option
from horserace.terminal.screen import Display
from horserace.terminal.tui.app import FINISHED, TableApp, TableHelp
from horserace.terminal.tui.choice_panel import ChoicePanel
from tests.terminal.pilot import asking, press, run, until
from tests.terminal.tables import table


@dataclass(frozen=True)
class Pick(Action):
    what: str

    @property
    def text(self) -> str:
        return self.what


def _app(choice: Choice, chosen: list[Action]) -> TableApp:
    def work(display: Display) -> str:
        chosen.append(display.choose(choice))
        return FINISHED

    return TableApp("test", work, TableHelp(), "dark")


def _draw() -> Choice:
    """A draw from a hand where the card names are the keys: 3 is the card 3, not option 3."""
    cards = ("2", "3", "10", "j")
    options = tuple(Option(card, f"keep the {card}", Pick(f"keep {card}")) for card in cards)
    return Choice(0, "P1, which card do you keep", options)


def _shown(app: TableApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def test_a_card_name_typed_is_that_card_not_the_third_option() -> None:
    chosen: list[Action] = []
    app = _app(_draw(), chosen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            listed = app.query_one("#options", OptionList)
            assert listed.option_count == 4
            await press(pilot, "3", "enter")
            await until(pilot, lambda: not app.is_running)

    run(scenario)
    assert chosen == [Pick("keep 3")]


def test_a_refused_answer_says_the_rule_and_what_is_allowed_and_asks_again() -> None:
    chosen: list[Action] = []
    app = _app(_draw(), chosen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            await press(pilot, "q", "enter")  # q is no card: refused, not a quit while typing
            await until(pilot, lambda: "'q' is not a choice here" in _shown(app, "#feedback"))
            feedback = _shown(app, "#feedback")
            assert "allowed: 2: keep the 2; 3: keep the 3; 10: keep the 10" in feedback
            await press(pilot, "enter")  # no default: Enter alone chooses nothing
            await until(pilot, lambda: "Enter alone chooses nothing" in _shown(app, "#feedback"))
            assert asking(app) and not chosen
            await press(pilot, "j", "enter")
            await until(pilot, lambda: not app.is_running)

    run(scenario)
    assert chosen == [Pick("keep j")]


def test_typing_words_narrows_a_long_list_and_the_arrows_pick_from_it() -> None:
    suits = ("clubs", "diamonds", "hearts", "spades")
    options = tuple(
        Option(f"{rank}{suit[0]}", f"give the {rank} of {suit}", Pick(f"{rank}{suit[0]}"), suit)
        for suit in suits
        for rank in range(2, 11)
    )
    chosen: list[Action] = []
    app = _app(Choice(0, "P1, which card do you give", options), chosen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            listed = app.query_one("#options", OptionList)
            assert listed.option_count == 36 + 4  # the options and their four headings
            await press(pilot, *"7 of hearts")
            await until(pilot, lambda: listed.option_count == 2)  # the heading and the one card
            await press(pilot, "down", "enter")
            await until(pilot, lambda: not app.is_running)

    run(scenario)
    assert chosen == [Pick("7h")]


def test_the_bid_field_takes_its_step_keys_and_refuses_what_is_over_the_limit() -> None:
    field = NumberField("bid", 11, 40, lambda amount: Pick(f"bid {amount}"), 10, (1, 5, 10))
    passing = Option("p", "pass: leave the bidding on this horse", Pick("pass"))
    chosen: list[Action] = []
    app = _app(Choice(0, "P1, hearts is for sale", (passing,), field=field), chosen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            buttons = {str(b.label): b for b in app.query("#steps Button").results(Button)}
            assert list(buttons) == ["+1", "+5", "+10"]
            assert "bid 11 to 40 chips (+1 = 11, +5 = 15, +10 = 20)" in _shown(app, "#field")
            await press(pilot, *"99", "enter")
            over = "99 is over the limit: a bid is at most 40 chips"
            await until(pilot, lambda: over in _shown(app, "#feedback"))
            await pilot.click(buttons["+5"])
            await until(pilot, lambda: not app.is_running)

    run(scenario)
    assert chosen == [Pick("bid 15")]


def test_a_step_leads_to_the_next_choice_and_back_goes_to_the_one_before() -> None:
    partners = (
        Option("a", "offer it to P2", Pick("offer P2")),
        Option("b", "offer it to P3", Pick("offer P3")),
    )

    def second() -> Choice:
        return Choice(0, "P1, to whom", partners)

    first = Choice(0, "P1, which trade", (Option("t", "trade a 7", then=second),))
    chosen: list[Action] = []
    app = _app(first, chosen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app))
            await press(pilot, "t", "enter")
            await until(pilot, lambda: "to whom" in _shown(app, "#question"))
            await press(pilot, "<", "enter")
            await until(pilot, lambda: "which trade" in _shown(app, "#question"))
            await press(pilot, "t", "enter", "b", "enter")
            await until(pilot, lambda: not app.is_running)

    run(scenario)
    assert chosen == [Pick("offer P3")]


def test_typing_3_at_the_advanced_draft_keeps_the_card_3_on_the_full_screen() -> None:
    """The misread the choice panel exists for: at the draft, `3` is the card 3."""
    app, game, _ = table("advanced", humans=[0], options={"players": 4, "rounds": 1})

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(40):
                await until(pilot, lambda: asking(app))
                choice = app.query_one(ChoicePanel).choice
                assert choice is not None
                keeps = [o for o in choice.options if o.action == Keep(3)]
                if keeps:
                    assert keeps[0].key == "3"
                    steps = len(game.steps)
                    await press(pilot, "3", "enter")
                    await until(pilot, lambda n=steps: len(game.steps) > n)  # type: ignore[misc]
                    assert game.steps[steps].action == Keep(3).text == "keep 3"
                    await press(pilot, "ctrl+c")
                    return
                steps = len(game.steps)
                app.query_one("#answer", Input).value = choice.options[0].key
                await press(pilot, "enter")
                await until(pilot, lambda n=steps: len(game.steps) > n)  # type: ignore[misc]
            raise AssertionError("no draft with a 3 to keep in 40 questions")

    run(scenario)
