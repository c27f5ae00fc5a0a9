"""What a card-race bet returns on average by the odds (the price a 'sure?' question weighs a
bet against), checked where it has a closed form: a tote's first ticket in each pool it
enters. If its horse comes in, the pool (less the takeout) is its own and the house makes up
its stake; if not, nobody won the pool and its net comes back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.engine import Agent, play
from horserace.families.cards.bots import view_odds
from horserace.families.cards.rules.actions import ToteBet
from horserace.families.cards.rules.state import CardsPhase, CardsView
from horserace.families.cards.worth import tote_worth
from tests.terminal.tables import Table


class FirstBet:
    """A seat's bot that keeps the first betting view with no ticket yet on the table."""

    def __init__(self, bot: Agent, kept: list[CardsView]) -> None:
        self.bot, self.kept = bot, kept

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        betting = isinstance(view, CardsView) and view.phase is CardsPhase.BETTING
        if betting and not view.betting.bets and not self.kept:
            self.kept.append(view)
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("takeout", [0, 17])
def test_a_first_tote_ticket_returns_its_stake_when_it_wins_and_the_net_when_nobody_does(
    takeout: int,
) -> None:
    t = Table("basic", options={"betting": "tote", "races": 1, "takeout": takeout})
    kept: list[CardsView] = []
    agents = {seat: FirstBet(bot, kept) for seat, bot in t.agents.items()}
    play(t.new_game(), agents, SeededChance(t.setup.seed))
    view = kept[0]
    odds = view_odds(view, 4)
    stake = 5
    net = stake - stake * takeout // 100

    def returns(chance: float) -> float:
        return chance * stake + (1 - chance) * net

    for suit in range(4):
        win = tote_worth(view, ToteBet("win", stake, (suit,)))
        assert win == pytest.approx(returns(odds.win[suit]))
        board = tote_worth(view, ToteBet("board", stake, (suit,)))
        chances = (odds.win[suit], odds.place[suit], odds.show[suit])
        assert board == pytest.approx(sum(returns(chance) for chance in chances))
    assert len({round(odds.win[s], 6) for s in range(4)}) > 1  # odds that tell horses apart
