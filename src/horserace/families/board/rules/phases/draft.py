"""Advanced Mode's draft: each seat keeps one card of the packet in front of it and passes the
rest left, until every card is kept. Picks are collected seat by seat and stay hidden."""

from __future__ import annotations

from horserace.components.cards import ALL_RANKS, NO_CARDS, total, with_count
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.actions import Keep
from horserace.families.board.rules.records import Drafting
from horserace.families.board.rules.seats import next_seat, seats_from
from horserace.families.board.rules.state import BoardState
from horserace.families.board.rules.tx import Tx


def start(tx: Tx) -> Drafting | None:
    """A pass of the draft, or None when no packet holds a card."""
    if not any(total(packet) for packet in tx.cards.packets):
        return None
    out = tx.seats.out
    return Drafting(tuple(seats_from(out, next_seat(out, tx.dealer))))


def legal(state: BoardState, seat: int) -> tuple[Keep, ...]:
    packet = state.cards.packets[seat]
    return tuple(Keep(rank) for rank in ALL_RANKS if packet[rank])


def keep(tx: Tx, record: Drafting, rank: int) -> Drafting | None:
    """Keep a card; at the end of a pass the packets move left. None when the draft is over."""
    seat = record.order[0]
    cards = tx.cards
    packets, hands = list(cards.packets), list(cards.hands)
    packets[seat] = with_count(packets[seat], rank, -1)
    hands[seat] = with_count(hands[seat], rank, 1)
    tx.emit(ev.CardKept(seat, rank, tx.config.open_hands))
    if len(record.order) > 1:
        tx.cards = cards._replace(packets=tuple(packets), hands=tuple(hands))
        return Drafting(record.order[1:])
    if not any(total(packet) for packet in packets):
        empty = (NO_CARDS,) * len(packets)
        tx.cards = cards._replace(packets=empty, hands=tuple(hands))
        return None
    n = tx.config.players
    passed = tuple(packets[(s - 1) % n] for s in range(n))
    tx.cards = cards._replace(packets=passed, hands=tuple(hands))
    tx.emit(ev.PacketsPassed())
    return start(tx)
