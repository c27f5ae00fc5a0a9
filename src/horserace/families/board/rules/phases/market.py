"""Schellenberg's market: an extra hand, dealt last, opened after the scratch phase. After a
player's race roll resolves they may buy one market card for the highest occupied scratch
line's value, in full, putting a card of their hand in its place. The buy is offered only to a
player who can pay that price after the roll's own penalty: nothing is bought on credit."""

from __future__ import annotations

from horserace.components.cards import ALL_RANKS, total, with_count
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.actions import PASS, Buy, Pass
from horserace.families.board.rules.config import BoardConfig
from horserace.families.board.rules.phases.scratch import scratch_value
from horserace.families.board.rules.state import BoardState, Race
from horserace.families.board.rules.tx import Tx


def open_market(tx: Tx) -> None:
    """The market gives up its scratched cards and is turned face up."""
    if not tx.config.market:
        return
    market, discards = tx.cards.market, tx.cards.discards
    for horse in tx.race.lines:
        if horse and market[horse]:
            discards = with_count(discards, horse, market[horse])
            market = with_count(market, horse, -market[horse])
    tx.cards = tx.cards._replace(market=market, discards=discards)
    tx.emit(hev.MarketOpened(tuple(market)))


def price(config: BoardConfig, race: Race) -> int:
    """The value of the highest occupied scratch line."""
    line = max((index + 1 for index, horse in enumerate(race.lines) if horse), default=0)
    return scratch_value(config, line) if line else 0


def may_buy(tx: Tx, seat: int) -> bool:
    """Public facts only: the market, the hand's size and the seat's money."""
    if not tx.config.market or not total(tx.cards.market) or not total(tx.cards.hands[seat]):
        return False
    return tx.balance(seat) >= price(tx.config, tx.race)


def legal(state: BoardState, seat: int) -> tuple[Pass | Buy, ...]:
    hand, market = state.cards.hands[seat], state.cards.market
    buys = [
        Buy(take, give)
        for take in ALL_RANKS
        if market[take]
        for give in ALL_RANKS
        if hand[give] and give != take
    ]
    return (PASS, *buys)


def buy(tx: Tx, seat: int, action: Buy) -> None:
    cost = price(tx.config, tx.race)
    tx.pay_in_full(seat, cost, "a market card")
    hand = with_count(with_count(tx.cards.hands[seat], action.take, 1), action.give, -1)
    tx.set_hand(seat, hand)
    market = with_count(with_count(tx.cards.market, action.take, -1), action.give, 1)
    tx.cards = tx.cards._replace(market=market)
    tx.emit(hev.CardBought(seat, action.take, action.give, cost))
