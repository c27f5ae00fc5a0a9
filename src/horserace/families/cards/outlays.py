"""What the card race's money choices commit, for the random bot's budget (random_bot.py):
a Calcutta bid adds its amount to what the seat paid for horses this race; a book bet or a tote
ticket adds its cost to what the seat staked this race."""

from __future__ import annotations

from typing import Any

from horserace.core.actions import Action
from horserace.families.cards.rules.actions import Bid, BookBet, ToteBet
from horserace.families.cards.rules.state import CardsView
from horserace.families.cards.rules.tote_bets import cost
from horserace.families.random_bot import NOTHING, Outlay, Outlays


def cards_outlay(view: Any, action: Action) -> Outlay:
    assert isinstance(view, CardsView) and view.seat is not None
    seat = view.seat
    chips = view.chips[seat]
    if isinstance(action, Bid):
        auction = view.auction
        bought = sum(
            p for owner, p in zip(auction.owners, auction.prices, strict=True) if owner == seat
        )
        return Outlay(bought + action.amount, chips + bought)
    if isinstance(action, BookBet | ToteBet):
        staked = view.betting.staked_by(seat)
        added = action.stake if isinstance(action, BookBet) else cost(action.kind, action.stake)
        return Outlay(staked + added, chips + staked)
    return NOTHING


CARDS_OUTLAYS = Outlays((Bid, BookBet, ToteBet), cards_outlay)
