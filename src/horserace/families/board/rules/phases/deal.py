"""Dealing: the deck for the mode, one card at a time from the dealer's left, the market hand
last in each turn round."""

from __future__ import annotations

from horserace.components.cards import (
    ACE,
    JOKER,
    KING,
    NO_CARDS,
    add_counts,
    counts,
    full_deck,
    suits_deck,
    total,
    with_count,
)
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.config import ADVANCED_DECKS, BoardConfig
from horserace.families.board.rules.records import MARKET, Dealing, Drawing, Market
from horserace.families.board.rules.seats import active_count, next_seat
from horserace.families.board.rules.state import BoardState, Cards
from horserace.families.board.rules.tx import Tx

Hand = int | Market  # a seat's hand, or the market's


def deck_for(config: BoardConfig) -> tuple[int, ...]:
    if config.deck == "advanced":
        suits, jokers, _ = ADVANCED_DECKS[config.players]
        return suits_deck(suits, jokers)
    if config.husted:  # the whole pack: aces, kings and two jokers a deck stay in
        extra = {ACE: 4 * config.decks, KING: 4 * config.decks, JOKER: 2 * config.decks}
        return add_counts(full_deck(config.decks), counts(extra))
    return full_deck(config.decks)


def cards_to_deal(config: BoardConfig, deck_size: int, seats: int) -> int:
    """Advanced: the table's hand size each; otherwise whole turns round while cards last."""
    if config.deck == "advanced":
        return ADVANCED_DECKS[config.players][2] * seats
    return deck_size // seats * seats


def start(tx: Tx) -> Dealing | None:
    """Announce the round; None when there is nothing to deal."""
    seats = active_count(tx.seats.out) + (1 if tx.config.market else 0)  # the market is a hand
    deck_size = total(tx.cards.deck)
    to_deal = cards_to_deal(tx.config, deck_size, seats)
    tx.emit(ev.RoundStarted(tx.round, tx.dealer, to_deal, deck_size - to_deal))
    if tx.config.husted and to_deal == deck_size:  # nothing left to draw from
        tx.emit(hev.NoDraw(tx.round))
    return Dealing(to_deal, next_seat(tx.seats.out, tx.dealer)) if to_deal else None


def deal(tx: Tx, record: Dealing, rank: int) -> Dealing | None:
    """One card to `record.deal_to`; None once the deal is done."""
    config, cards, seat = tx.config, tx.cards, record.deal_to
    deck = with_count(cards.deck, rank, -1)
    hands, discards, packets, market = cards.hands, cards.discards, cards.packets, cards.market
    if seat is MARKET:
        tx.emit(hev.MarketDealt(rank))
        market = with_count(market, rank, 1)
    elif config.draft:
        tx.emit(ev.CardDealt(seat, rank, False))
        packets = (*packets[:seat], with_count(packets[seat], rank, 1), *packets[seat + 1 :])
    else:
        tx.emit(ev.CardDealt(seat, rank, config.open_hands))
        hands = (*hands[:seat], with_count(hands[seat], rank, 1), *hands[seat + 1 :])
    tx.cards = Cards(hands, deck, discards, packets, market, cards.given_up)
    if record.to_deal == 1:
        return None
    return Dealing(record.to_deal - 1, next_to_deal(config, tx.seats.out, tx.dealer, seat))


def finish(tx: Tx) -> None:
    """Northwoods: the cards left over go face up to the discards."""
    if tx.config.deck == "northwoods":
        leftover = add_counts(tx.cards.discards, tx.cards.deck)
        tx.cards = tx.cards._replace(discards=leftover, deck=NO_CARDS)


def next_to_deal(
    config: BoardConfig, out: tuple[int | None, ...], dealer: int, seat: int | Market
) -> int | Market:
    """Round the table from the dealer's left; the market, when there is one, comes last."""
    if config.market and seat == dealer:
        return MARKET
    return next_seat(out, dealer if seat is MARKET else seat)


def next_hand(state: BoardState) -> Hand | None:
    """The hand the next card goes to; None when no card is being dealt or drawn now."""
    record = state.phase_record
    if isinstance(record, Dealing):
        return record.deal_to
    if isinstance(record, Drawing) and record.draw_left:
        return record.drawers[0]
    return None


def still_to_deal(state: BoardState) -> dict[Hand, int]:
    """How many cards each hand still gets before the deal (or the draw) under way ends."""
    record = state.phase_record
    if isinstance(record, Drawing):
        return {record.drawers[0]: record.draw_left} if record.draw_left else {}
    if not isinstance(record, Dealing):
        return {}
    owed: dict[Hand, int] = {}
    hand: Hand = record.deal_to
    for _ in range(record.to_deal):
        owed[hand] = owed.get(hand, 0) + 1
        hand = next_to_deal(state.config, state.seats.out, state.dealer, hand)
    return owed
