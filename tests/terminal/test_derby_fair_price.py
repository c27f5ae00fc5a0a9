"""A Derby wager well over its worth is asked again: a wager under a quarter of one's money on
a horse whose every dollar returns less than two thirds of a dollar on average (the stake back
and the winnings by the exact start odds; with every horse running, a horse at odds 1 returns
0.45) costs more than 1.5 times what it returns, so it asks 'sure?' with the cost and the
return; n asks the wager again, y places it once."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console

from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.types import actor_text
from horserace.engine import Agent
from horserace.families.derby.bots import wager_value
from horserace.families.derby.choices import DerbyAsker
from horserace.families.derby.rules.model import DerbyView, Wager
from horserace.terminal.keyboard import KeyboardAgent
from horserace.terminal.plain import PlainPresenter
from horserace.terminal.screen import TableScreen
from horserace.terminal.session import in_lines
from tests.terminal.tables import Table

WELL_UNDER = Fraction(-1, 3)  # a dollar worth less than this: 1.5 times its return is under it


class Wagers:
    """Every seat's bot, but the first seat asked to wager on a horse whose dollar is worth
    under WELL_UNDER types its answers in `--plain`: a wager within a quarter of its money,
    then n, the wager again, y."""

    def __init__(self, bots: dict[int, Agent], screen: TableScreen) -> None:
        self.bots, self.screen = bots, screen
        self.prompts: list[str] = []
        self.asked: tuple[int, Wager, Fraction] | None = None
        self._typed: Iterator[str] = iter(())

    def seat(self, seat: int) -> Agent:
        wagers = self

        class Seat:
            def choose(self, view: Any, legal: Sequence[Action]) -> Action:
                return wagers.choose(seat, view, legal)

        return Seat()

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return next(self._typed)

    def choose(self, seat: int, view: Any, legal: Sequence[Action]) -> Action:
        bot = self.bots[seat]
        if self.asked is not None or not isinstance(legal[0], Wager):
            return bot.choose(view, legal)
        assert isinstance(view, DerbyView)
        value = wager_value(view, seat)
        stakes = [a for a in legal if isinstance(a, Wager) and 0 < 4 * a.amount <= view.money[seat]]
        if value >= WELL_UNDER or not stakes:
            return bot.choose(view, legal)
        wager = stakes[-1]
        self.asked = (seat, wager, value)
        self._typed = iter([str(wager.amount), "n", str(wager.amount), "y"])
        presenter = PlainPresenter(self.screen.console, read=self.read)
        return KeyboardAgent(seat, self.screen, DerbyAsker(self.screen), presenter).choose(
            view, legal
        )


def test_plain_asks_before_a_derby_wager_well_over_its_worth() -> None:
    t = Table("derby", seed=2, options={"races": 1, "players": 4, "all_horses": True})
    console = Console(file=io.StringIO(), width=100, color_system=None)
    screen = t.terminal.screen(t.setup, console, True, False)
    wagers = Wagers(t.agents, screen)
    game = t.new_game()
    agents = {seat: wagers.seat(seat) for seat in t.agents}
    assert in_lines(game, agents, SeededChance(t.setup.seed), screen)
    assert wagers.asked is not None, "no seat had a wager well over its worth"
    seat, wager, value = wagers.asked
    returns = float((1 + value) * wager.amount)
    assert wager.amount > 1.5 * returns
    sure = (
        f"{wager.text} costs {wager.amount} dollars and returns {returns:.1f} on average by the"
        " odds: sure? >"
    )
    assert wagers.prompts[1] == sure and wagers.prompts[3] == sure
    assert wagers.prompts[0] == wagers.prompts[2]  # n: the wager asked again
    placed = [s for s in game.steps if (s.actor, s.action) == (actor_text(seat), wager.text)]
    assert len(placed) == 1  # y: placed once
