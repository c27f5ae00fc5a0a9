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
from horserace.families.cards.choices import CardsAsker
from horserace.families.cards.rules.actions import Bid, ToteBet
from horserace.families.cards.rules.state import CardsPhase, CardsView
from horserace.families.cards.worth import calcutta_guessed, calcutta_worth, tote_worth
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


class Auctions:
    """A seat's bot that keeps every view it is asked a bid in, with what it may do."""

    def __init__(self, bot: Agent, kept: list[tuple[CardsView, Sequence[Action]]]) -> None:
        self.bot, self.kept = bot, kept

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if isinstance(view, CardsView) and view.auction.horse is not None:
            self.kept.append((view, legal))
        return self.bot.choose(view, legal)


GUESS = "the bids to come guessed at 10% of the table's chips"


def test_a_calcutta_bid_is_worth_its_share_of_the_pool_and_says_what_it_guesses() -> None:
    """A bid for the last horse is worth its share of the pool as it will stand (exact); for
    an earlier horse the bids to come are guessed (the other bidders' choices, not chance), and
    the 'sure?' question says so."""
    t = Table("calcutta", options={"races": 1})
    kept: list[tuple[CardsView, Sequence[Action]]] = []
    play(
        t.new_game(),
        {seat: Auctions(bot, kept) for seat, bot in t.agents.items()},
        SeededChance(t.setup.seed),
    )
    last = next(v for v, _ in kept if v.auction.lot == len(v.auction.lots) - 1)
    suit = last.auction.horse
    assert suit is not None
    odds = view_odds(last, 2)
    share = odds.win[suit] * 2 / 3 + (odds.place[suit] - odds.win[suit]) / 3
    assert calcutta_worth(last, Bid(7)) == pytest.approx(share * (last.table + 7))
    assert calcutta_guessed(last) == ""
    first, legal = next((v, legal) for v, legal in kept if v.auction.lot == 0)
    assert calcutta_guessed(first) == GUESS
    seat = first.seat
    assert seat is not None
    doubt = CardsAsker(t.screen).choice(first, legal, seat).doubt
    assert doubt is not None
    bids = [a for a in legal if isinstance(a, Bid) and 4 * a.amount <= first.chips[seat]]
    dear = next(b for b in bids if b.amount > 1.5 * (calcutta_worth(first, b) or 0))
    said = doubt(dear)
    assert said is not None and said.endswith(f"on average by the odds, {GUESS}")
