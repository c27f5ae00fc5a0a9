"""Husted's draw: each player still in discards up to two cards face up and draws as many from
the stub. When the deal leaves no stub there is no draw (the deal says so: `NoDraw`)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from horserace.components.cards import ALL_RANKS, total, with_count
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.actions import Discard
from horserace.families.board.rules.phases.betting import in_hand
from horserace.families.board.rules.records import Drawing
from horserace.families.board.rules.state import BoardState
from horserace.families.board.rules.tx import Tx

MAX_DISCARDS = 2


def start(tx: Tx) -> Drawing | None:
    drawers = tuple(in_hand(tx.seats.out, tx.seats.folded, tx.dealer))
    if not total(tx.cards.deck) or not drawers:
        return None
    return Drawing(drawers, 0)


def legal(state: BoardState, seat: int) -> tuple[Discard, ...]:
    hand = state.cards.hands[seat]
    most = min(MAX_DISCARDS, total(state.cards.deck), total(hand))
    ranks = [r for r in ALL_RANKS if hand[r]]
    options = [Discard(())]
    for size in range(1, most + 1):
        for combo in combinations_with_replacement(ranks, size):
            if all(combo.count(r) <= hand[r] for r in combo):
                options.append(Discard(tuple(combo)))
    return tuple(options)


def discard(tx: Tx, record: Drawing, action: Discard) -> Drawing | None:
    seat = record.drawers[0]
    hand, discards = tx.cards.hands[seat], tx.cards.discards
    for rank in action.ranks:
        hand = with_count(hand, rank, -1)
        discards = with_count(discards, rank, 1)
    tx.emit(hev.CardsDrawn(seat, action.ranks))
    tx.set_hand(seat, hand)
    tx.cards = tx.cards._replace(discards=discards)
    if action.ranks:
        return Drawing(record.drawers, len(action.ranks))
    return _next(record)


def draw_card(tx: Tx, record: Drawing, rank: int) -> Drawing | None:
    seat = record.drawers[0]
    tx.set_hand(seat, with_count(tx.cards.hands[seat], rank, 1))
    tx.cards = tx.cards._replace(deck=with_count(tx.cards.deck, rank, -1))
    tx.emit(ev.CardDealt(seat, rank, False))
    if record.draw_left > 1:
        return Drawing(record.drawers, record.draw_left - 1)
    return _next(record)


def _next(record: Drawing) -> Drawing | None:
    rest = record.drawers[1:]
    return Drawing(rest, 0) if rest else None
