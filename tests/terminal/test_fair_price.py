"""A bid or bet well over its fair price by the odds is asked again, as one over a quarter of
one's money is: paying more than 1.5 times what it returns on average (the chance the board
shows times what it pays), in `--plain` and on the full screen."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from typing import Any

from rich.console import Console

from horserace.components.french_deck import is_joker, suit_of
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.types import actor_text
from horserace.engine import Agent
from horserace.families.cards.choices import CardsAsker
from horserace.families.cards.render import board_odds
from horserace.families.cards.rules.actions import Bid, BookBet
from horserace.families.cards.rules.state import CardsPhase, CardsView
from horserace.families.cards.worth import calcutta_worth
from horserace.terminal.keyboard import KeyboardAgent
from horserace.terminal.plain import PlainPresenter
from horserace.terminal.session import in_lines
from horserace.terminal.tui.choice_panel import ChoicePanel
from tests.terminal.pilot import asking, press, question, run, until
from tests.terminal.tables import Table, table


def _longshot(view: CardsView) -> tuple[BookBet, float]:
    """The bet of a quarter of the seat's chips (within the limit) on the horse whose price
    pays least for its chance on the board, and what it returns on average by that chance."""
    odds, _ = board_odds(view)
    assert odds is not None  # the board shows the win odds while the book takes bets
    stake = min(view.config.bet_limit, view.chips[view.seat or 0] // 4)
    returns = {}
    for suit, chance in odds.items():
        cards = [c for c in view.course if c is not None and not is_joker(c)]
        price = view.config.book_odds.price(sum(1 for c in cards if suit_of(c) == suit))
        if price is not None:
            win, per = price
            returns[suit] = chance * (stake + stake * win // per)
    suit = min(returns, key=lambda s: returns[s])
    return BookBet(stake, suit), returns[suit]


class ScriptedSeat:
    """Seat 1 at the book in `--plain` (seat 0 deals: the book is the dealer's): at its first
    bet it types `answers(view)` line by line, the prompts kept; before and after, its bot
    plays."""

    def __init__(self, bot: Agent, screen: Any, answers: Any) -> None:
        self.bot, self.screen, self.answers = bot, screen, answers
        self.prompts: list[str] = []
        self.typed: Iterator[str] | None = None
        self.done = False

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert self.typed is not None
        return next(self.typed)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        betting = isinstance(view, CardsView) and view.phase is CardsPhase.BETTING
        if self.done or not betting or not any(isinstance(a, BookBet) for a in legal):
            return self.bot.choose(view, legal)
        self.done = True
        self.typed = iter(self.answers(view))
        presenter = PlainPresenter(self.screen.console, read=self.read)
        return KeyboardAgent(1, self.screen, CardsAsker(self.screen), presenter).choose(view, legal)


def test_plain_asks_before_a_book_bet_well_over_its_worth() -> None:
    """A quarter of one's chips on the longshot whose price pays least for its chance: asked
    'sure?' with the cost and what it returns on average; n asks the bet again, y places it."""
    t = Table("basic", options={"races": 1})
    console = Console(file=io.StringIO(), width=100, color_system=None)
    screen = t.terminal.screen(t.setup, console, True, False)
    expected: list[tuple[BookBet, float]] = []

    def answers(view: CardsView) -> list[str]:
        bet, returns = _longshot(view)
        assert bet.stake > 1.5 * returns and 4 * bet.stake <= view.chips[1]
        expected.append((bet, returns))
        return [bet.text, "n", bet.text, "y"]

    seat = ScriptedSeat(t.agents[1], screen, answers)
    game = t.new_game()
    assert in_lines(game, {**t.agents, 1: seat}, SeededChance(t.setup.seed), screen)
    ((bet, returns),) = expected
    sure = (
        f"{bet.text} costs {bet.stake} chips and returns {returns:.1f} on average by the odds:"
        " sure? >"
    )
    assert seat.prompts[1] == sure and seat.prompts[3] == sure
    assert seat.prompts[0] == seat.prompts[2]  # n: the bet asked again
    placed = [s for s in game.steps if (s.actor, s.action) == (actor_text(1), bet.text)]
    assert len(placed) == 1  # y: placed once


def test_the_full_screen_asks_before_a_calcutta_bid_well_over_its_worth() -> None:
    """A bid under a quarter of one's chips that pays over 1.5 times the horse's share of the
    pool it makes is asked again; n asks the bid again."""
    app, game, _ = table("calcutta", humans=[0])

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: asking(app) and "is for sale" in question(app))
            asked = question(app)
            view = game.rules.view(game.state, 0)
            field = app.query_one(ChoicePanel).choice.field  # type: ignore[union-attr]
            assert field is not None
            amount = next(
                a
                for a in range(field.minimum, view.chips[0] // 4 + 1)
                if a > 1.5 * (calcutta_worth(view, Bid(a)) or 0)
            )
            returns = calcutta_worth(view, Bid(amount))
            steps = len(game.steps)
            await press(pilot, *str(amount), "enter")
            await until(pilot, lambda: question(app).startswith(f"bid {amount} "))
            assert question(app) == (
                f"bid {amount} costs {amount} chips and returns {returns:.1f} on average by the"
                " odds, the bids to come guessed at 10% of the table's chips: sure?"
            )
            await press(pilot, "n", "enter")
            await until(pilot, lambda: question(app) == asked)
            assert len(game.steps) == steps
            await press(pilot, "ctrl+c")

    run(scenario)
