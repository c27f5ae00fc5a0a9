"""Perry's trading window, at the moment the table chose: seats in turn, from the dealer's
left, offer any cards of theirs for any cards of one partner (at least one card moving) or
pass. Each offer is accepted or declined, then the turn moves on and the offerer waits for
their next turn; a seat that passes is done for this window, and each seat may make at most
`trade_offers` offers. The window closes when every seat has passed."""

from __future__ import annotations

from itertools import combinations_with_replacement

from horserace.components.cards import ALL_RANKS, RANKS, with_count
from horserace.core.errors import IllegalAction
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.actions import ACCEPT, DECLINE, PASS, Answer, Offer, Pass
from horserace.families.board.rules.records import PhaseRecord, Trading
from horserace.families.board.rules.seats import next_seat, seats_from
from horserace.families.board.rules.state import BoardState
from horserace.families.board.rules.tx import Tx

MAX_CARDS_MOVED = 6  # per side of one offer


def open_window(tx: Tx, moment: str, then: PhaseRecord) -> PhaseRecord:
    """The window, when the table trades at `moment`; else `then` itself."""
    if tx.config.trade_window != moment:
        return then
    out = tx.seats.out
    traders = tuple(seats_from(out, next_seat(out, tx.dealer)))
    offers = (tx.config.trade_offers,) * tx.config.players
    return Trading(then, traders, offers)


def _wanted(state: BoardState, target: int) -> list[int]:
    """Ranks one may ask for: with open hands what the partner holds, else any in the deck."""
    if state.config.open_hands:
        return [r for r in ALL_RANKS if state.cards.hands[target][r]]
    return list(ALL_RANKS if state.config.deck == "advanced" else RANKS)


def offers(state: BoardState, seat: int) -> list[Offer]:
    """The offers listed as choices: one or two of your cards for nothing or one card.
    Any other exchange is allowed too (see `check_offer`); these are the everyday ones."""
    hand = state.cards.hands[seat]
    ranks = [r for r in ALL_RANKS if hand[r]]
    gives = [
        combo
        for size in (1, 2)
        for combo in combinations_with_replacement(ranks, size)
        if all(combo.count(r) <= hand[r] for r in combo)
    ]
    listed: list[Offer] = []
    for target in seats_from(state.seats.out, next_seat(state.seats.out, seat)):
        if target == seat:
            continue
        takes: list[tuple[int, ...]] = [(), *((r,) for r in _wanted(state, target))]
        for give in gives:
            for take in takes:
                if take and take[0] in give:
                    continue
                listed.append(Offer(seat, target, give, take))
    return listed


def legal(state: BoardState, record: Trading, seat: int) -> tuple[Answer | Pass | Offer, ...]:
    if record.offer is not None:
        hand = state.cards.hands[seat]
        take = record.offer.take
        can_give = all(take.count(r) <= hand[r] for r in set(take))
        return (ACCEPT, DECLINE) if can_give else (DECLINE,)
    if not record.offers_left[seat]:
        return (PASS,)
    return (PASS, *offers(state, seat))


def check_offer(state: BoardState, record: Trading, offer: Offer) -> None:
    """Any exchange both partners could make: raise IllegalAction with the reason if not."""
    seat, target = offer.seat, offer.target
    if record.offer is not None:
        raise IllegalAction("an offer is waiting for its answer")
    if not record.offers_left[seat]:
        raise IllegalAction("you have made all the offers this window allows; pass")
    n = state.config.players
    if not 0 <= target < n or target == seat or state.seats.out[target] is not None:
        raise IllegalAction(f"seat {target + 1} is not a partner you can trade with")
    if not offer.give and not offer.take:
        raise IllegalAction("an offer moves at least one card")
    if len(offer.give) > MAX_CARDS_MOVED or len(offer.take) > MAX_CARDS_MOVED:
        raise IllegalAction(f"an offer moves at most {MAX_CARDS_MOVED} cards each way")
    hand = state.cards.hands[seat]
    if any(offer.give.count(r) > hand[r] for r in set(offer.give)):
        raise IllegalAction("you can only offer cards you hold")
    theirs = state.cards.hands[target]
    if state.config.open_hands and any(offer.take.count(r) > theirs[r] for r in set(offer.take)):
        raise IllegalAction(f"seat {target + 1} does not hold those cards")


def make_offer(tx: Tx, record: Trading, offer: Offer) -> Trading:
    tx.emit(hev.TradeOffered(offer.seat, offer.target, offer.give, offer.take))
    left = list(record.offers_left)
    left[offer.seat] -= 1
    return Trading(record.then, record.traders, tuple(left), offer)


def answer(tx: Tx, record: Trading, accept: bool) -> PhaseRecord:
    offer = record.offer
    assert offer is not None
    if accept:
        mine, theirs = tx.cards.hands[offer.seat], tx.cards.hands[offer.target]
        for rank in offer.give:
            mine, theirs = with_count(mine, rank, -1), with_count(theirs, rank, 1)
        for rank in offer.take:
            theirs, mine = with_count(theirs, rank, -1), with_count(mine, rank, 1)
        tx.set_hand(offer.seat, mine)
        tx.set_hand(offer.target, theirs)
    tx.emit(hev.TradeAnswered(offer.target, offer.seat, accept))
    rest = record.traders[1:]
    if record.offers_left[offer.seat]:
        rest = (*rest, offer.seat)
    return _next(record, rest)


def pass_turn(tx: Tx, record: Trading) -> PhaseRecord:
    tx.emit(hev.TradePassed(record.traders[0]))
    return _next(record, record.traders[1:])


def _next(record: Trading, traders: tuple[int, ...]) -> PhaseRecord:
    return Trading(record.then, traders, record.offers_left) if traders else record.then
