"""Penalties into the Main Pot, paid as far as the debtor can, and answered with response cards:
an Ace cancels a penalty; a King passes it to a neighbour, doubled if it came by a King."""

from __future__ import annotations

from dataclasses import replace

from horserace.components.cards import ACE, KING, count_of, with_count
from horserace.core.events import Event
from horserace.rules.board import events as ev
from horserace.rules.board.model import BoardState, Penalty


def pay_into(
    state: BoardState, seat: int, account: int, owed: int, reason: str, events: list[Event]
) -> BoardState:
    """Pay what you can; a short payment marks the seat (Northwoods puts it out after the round)."""
    ledger, paid = state.ledger.pay_what_you_can(seat, account, owed)
    into = "jockey" if account == state.config.players + 1 else "pot"
    events.append(ev.ChipsPaid(seat, owed, paid, reason, into))
    state = replace(state, ledger=ledger)
    if paid < owed and not state.short[seat]:
        short = list(state.short)
        short[seat] = True
        state = replace(state, short=tuple(short))
    return state


def owe(state: BoardState, seat: int, amount: int, reason: str) -> BoardState:
    """Queue a penalty; settle_pending pays it at once unless the debtor can answer it."""
    return replace(state, pending=(*state.pending, Penalty(seat, amount, reason)))


def can_answer(state: BoardState, seat: int) -> bool:
    hand = state.hands[seat]
    return state.config.responses and (count_of(hand, ACE) > 0 or count_of(hand, KING) > 0)


def settle_pending(state: BoardState, events: list[Event]) -> BoardState:
    """Pay penalties in order until one waits for its debtor's answer (announced once)."""
    while state.pending:
        head = state.pending[0]
        if head.amount and can_answer(state, head.debtor):
            events.append(ev.PenaltyOwed(head.debtor, head.amount, head.reason))
            return state
        state = replace(state, pending=state.pending[1:])
        state = pay_into(state, head.debtor, state.config.players, head.amount, head.reason, events)
    return state


def pay_head(state: BoardState, events: list[Event]) -> BoardState:
    head = state.pending[0]
    state = replace(state, pending=state.pending[1:])
    state = pay_into(state, head.debtor, state.config.players, head.amount, head.reason, events)
    return state


def play_ace(state: BoardState, events: list[Event]) -> BoardState:
    head = state.pending[0]
    state = _discard(state, head.debtor, ACE)
    events.append(ev.AcePlayed(head.debtor, head.amount))
    return replace(state, pending=state.pending[1:])


def play_king(state: BoardState, left: bool, events: list[Event]) -> BoardState:
    """Pass the penalty on; a King answering a King doubles it first."""
    head = state.pending[0]
    n = state.config.players
    target = (head.debtor + (1 if left else -1)) % n
    while state.out[target]:
        target = (target + (1 if left else -1)) % n
    amount = head.amount * 2 if head.kings else head.amount
    state = _discard(state, head.debtor, KING)
    events.append(ev.KingPlayed(head.debtor, target, amount, doubled=bool(head.kings)))
    passed = Penalty(target, amount, head.reason, head.kings + 1)
    return replace(state, pending=(passed, *state.pending[1:]))


def _discard(state: BoardState, seat: int, rank: int) -> BoardState:
    hands = list(state.hands)
    hands[seat] = with_count(hands[seat], rank, -1)
    return replace(state, hands=tuple(hands), discards=with_count(state.discards, rank, 1))
