"""Decks by mode and player count, the deal one card at a time, the draft, antes, and reset."""

from __future__ import annotations

from dataclasses import replace

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
from horserace.core.events import Event
from horserace.rules.board import events as ev
from horserace.rules.board.config import ADVANCED_DECKS, BoardConfig
from horserace.rules.board.model import AT_GATE, EMPTY_LINES, BoardState, Phase
from horserace.rules.board.penalties import pay_into
from horserace.rules.board.seats import active_count, next_seat, seats_from
from horserace.rules.board.trading import open_window


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


def begin_round(state: BoardState, events: list[Event]) -> tuple[BoardState, list[Event]]:
    """Announce the round and start the deal (or skip it when there is nothing to deal)."""
    seats = active_count(state) + (1 if state.config.market else 0)  # the market is a hand too
    to_deal = cards_to_deal(state.config, total(state.deck), seats)
    state = replace(
        state, phase=Phase.DEAL, to_deal=to_deal, deal_to=next_seat(state, state.dealer)
    )
    stub = total(state.deck) - to_deal
    events.append(ev.RoundStarted(state.round, state.dealer, to_deal, stub))
    if to_deal:
        return state, events
    return end_deal(state, events)


def _next_to_deal(state: BoardState, seat: int) -> int:
    """Round the table from the dealer's left; the market, when there is one, comes last."""
    market = state.config.players
    if state.config.market and seat == state.dealer:
        return market
    return next_seat(state, state.dealer if seat == market else seat)


def deal(state: BoardState, rank: int) -> tuple[BoardState, list[Event]]:
    seat = state.deal_to
    dealt: Event = ev.CardDealt(seat, rank, state.config.open_hands and not state.config.draft)
    if seat == state.config.players:
        dealt = ev.MarketDealt(rank)
        state = replace(state, market=with_count(state.market, rank, 1))
    elif state.config.draft:
        packets = list(state.packets)
        packets[seat] = with_count(packets[seat], rank, 1)
        state = replace(state, packets=tuple(packets))
    else:
        hands = list(state.hands)
        hands[seat] = with_count(hands[seat], rank, 1)
        state = replace(state, hands=tuple(hands))
    state = replace(
        state,
        deck=with_count(state.deck, rank, -1),
        to_deal=state.to_deal - 1,
        deal_to=_next_to_deal(state, seat),
    )
    if state.to_deal:
        return state, [dealt]
    return end_deal(state, [dealt])


def end_deal(state: BoardState, events: list[Event]) -> tuple[BoardState, list[Event]]:
    if state.config.deck == "northwoods":  # the cards left over go face up to the discards
        state = replace(state, discards=add_counts(state.discards, state.deck), deck=NO_CARDS)
    if state.config.draft and any(total(packet) for packet in state.packets):
        return replace(state, phase=Phase.DRAFT, picked=(False,) * state.config.players), events
    if state.config.husted:
        from horserace.rules.board.husted import start_betting

        return start_betting(state, 1), events
    return start_scratch(state, events)


def draft_picker(state: BoardState) -> int:
    """Picks are collected seat by seat from the dealer's left; each stays hidden."""
    for seat in seats_from(state, next_seat(state, state.dealer)):
        if not state.picked[seat]:
            return seat
    raise AssertionError("a draft pass with every pick made is already over")


def keep(state: BoardState, seat: int, rank: int) -> tuple[BoardState, list[Event]]:
    packets, hands, picked = list(state.packets), list(state.hands), list(state.picked)
    packets[seat] = with_count(packets[seat], rank, -1)
    hands[seat] = with_count(hands[seat], rank, 1)
    picked[seat] = True
    state = replace(state, packets=tuple(packets), hands=tuple(hands), picked=tuple(picked))
    events: list[Event] = [ev.CardKept(seat, rank, state.config.open_hands)]
    if not all(picked[s] for s in seats_from(state, 0)):
        return state, events
    if not any(total(packet) for packet in packets):
        return start_scratch(replace(state, packets=(NO_CARDS,) * len(packets)), events)
    n = state.config.players
    passed = tuple(packets[(seat - 1) % n] for seat in range(n))
    events.append(ev.PacketsPassed())
    return replace(state, packets=passed, picked=(False,) * n), events


def start_scratch(state: BoardState, events: list[Event]) -> tuple[BoardState, list[Event]]:
    """Antes (A to the Main Pot, 2A to the Jockey Pot) and then the dealer's left rolls."""
    config = state.config
    if config.ante:
        pot, jockey = config.players, config.players + 1
        for seat in seats_from(state, next_seat(state, state.dealer)):
            state = pay_into(state, seat, pot, config.ante, "ante", events)
            if config.jockey_pot:
                state = pay_into(state, seat, jockey, 2 * config.ante, "jockey ante", events)
    roller = next_seat(state, state.dealer)
    state = replace(state, phase=Phase.SCRATCH, roller=roller, rolling=False)
    return open_window(state, "before-scratch"), events


def reset(state: BoardState, events: list[Event]) -> tuple[BoardState, list[Event]]:
    """Classic: hands pass left, discards + stub are re-dealt. Otherwise all cards are gathered."""
    config = state.config
    n = config.players
    if config.reset == "pass-left":
        hands = tuple(state.hands[(seat - 1) % n] for seat in range(n))
        deck = add_counts(add_counts(state.deck, state.discards), state.market)
        events.append(ev.HandsPassed())
    else:
        hands = (NO_CARDS,) * n
        deck = deck_for(config)
    dealer = next_seat(state, state.dealer) if config.rotate_dealer else state.dealer
    if state.out[dealer]:
        dealer = next_seat(state, dealer)
    state = replace(
        state,
        round=state.round + 1,
        dealer=dealer,
        hands=hands,
        packets=(NO_CARDS,) * n,
        market=NO_CARDS,
        deck=deck,
        discards=NO_CARDS,
        lines=EMPTY_LINES,
        scratch_discards=(NO_CARDS,) * n,
        scratch_rolls=0,
        positions=AT_GATE,
        race_rolls=0,
        winner=0,
        mover=-1,
        joker_seat=-1,
        short=(False,) * n,
        folded=(False,) * n,
        wagered=(0,) * n,
        round_bets=(0,) * n,
        blocks=(0,) * 11,
    )
    return begin_round(state, events)
