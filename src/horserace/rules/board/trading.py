"""Perry's trading window: at the chosen moment each seat in turn, from the dealer's left, may
offer one trade to another seat (1 to 3 cards of one rank for one card of another) or pass;
the target accepts or declines. Offers and trades happen in the open."""

from __future__ import annotations

from dataclasses import replace

from horserace.components.cards import ALL_RANKS, RANKS, count_of, with_count
from horserace.core.events import Event
from horserace.rules.board import events as ev
from horserace.rules.board.config import MAX_CARDS_OFFERED
from horserace.rules.board.model import ACCEPT, DECLINE, PASS, Answer, BoardState, Offer, Pass
from horserace.rules.board.seats import next_seat, seats_from


def open_window(state: BoardState, moment: str) -> BoardState:
    """Open the window if the table trades at `moment`; every seat still in gets one turn."""
    if state.config.trade_window != moment:
        return state
    return replace(state, traders=tuple(seats_from(state, next_seat(state, state.dealer))))


def offers(state: BoardState, seat: int) -> list[Offer]:
    """Every offer `seat` may make. With open hands only cards the target holds are asked for."""
    hand = state.hands[seat]
    wanted_ranks = ALL_RANKS if state.config.deck == "advanced" else RANKS
    result: list[Offer] = []
    for target in seats_from(state, next_seat(state, seat)):
        if target == seat:
            continue
        their = state.hands[target]
        for give in ALL_RANKS:
            for count in range(1, min(MAX_CARDS_OFFERED, count_of(hand, give)) + 1):
                for take in wanted_ranks:
                    if take == give:
                        continue
                    if state.config.open_hands and not count_of(their, take):
                        continue
                    result.append(Offer(seat, target, give, count, take))
    return result


def legal(state: BoardState, seat: int) -> tuple[Answer | Pass | Offer, ...]:
    if state.offer is not None:
        can_give = count_of(state.hands[seat], state.offer.take) > 0
        return (ACCEPT, DECLINE) if can_give else (DECLINE,)
    return (PASS, *offers(state, seat))


def trader(state: BoardState) -> int:
    """Whoever must speak in the window: the target of an offer, else the next seat."""
    return state.offer.target if state.offer is not None else state.traders[0]


def make_offer(state: BoardState, offer: Offer, events: list[Event]) -> BoardState:
    events.append(ev.TradeOffered(offer.seat, offer.target, offer.give, offer.count, offer.take))
    return replace(state, offer=offer)


def answer(state: BoardState, accept: bool, events: list[Event]) -> BoardState:
    offer = state.offer
    assert offer is not None
    if accept:
        hands = list(state.hands)
        hands[offer.seat] = with_count(hands[offer.seat], offer.give, -offer.count)
        hands[offer.target] = with_count(hands[offer.target], offer.give, offer.count)
        hands[offer.target] = with_count(hands[offer.target], offer.take, -1)
        hands[offer.seat] = with_count(hands[offer.seat], offer.take, 1)
        state = replace(state, hands=tuple(hands))
    events.append(ev.TradeAnswered(offer.target, offer.seat, accept))
    return replace(state, offer=None, traders=state.traders[1:])


def pass_turn(state: BoardState) -> BoardState:
    return replace(state, traders=state.traders[1:])
