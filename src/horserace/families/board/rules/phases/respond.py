"""Penalties that may be answered (the advanced deck): the debtor pays, plays an Ace to cancel
the penalty, or a King to pass it to a neighbour (doubled first if it came by a King). The
debtor is always asked, whatever they hold, so the turn order tells nobody about their hand."""

from __future__ import annotations

from horserace.components.cards import ACE, KING, with_count
from horserace.core.actions import Action
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.actions import ACE_PLAY, PAY, PlayKing
from horserace.families.board.rules.records import Penalty, Responding
from horserace.families.board.rules.state import BoardState
from horserace.families.board.rules.tx import Tx


def legal(state: BoardState, record: Responding) -> tuple[Action, ...]:
    hand = state.cards.hands[record.pending[0].debtor]
    actions: list[Action] = [PAY]
    if hand[ACE]:
        actions.append(ACE_PLAY)
    if hand[KING]:
        actions += [PlayKing(left=True), PlayKing(left=False)]
    return tuple(actions)


def pay(tx: Tx, record: Responding) -> tuple[Penalty, ...]:
    head = record.pending[0]
    tx.pay(head.debtor, head.amount, head.reason)
    return record.pending[1:]


def ace(tx: Tx, record: Responding) -> tuple[Penalty, ...]:
    head = record.pending[0]
    discard_played(tx, head.debtor, ACE)
    tx.emit(ev.AcePlayed(head.debtor, head.amount))
    return record.pending[1:]


def king(tx: Tx, record: Responding, left: bool) -> tuple[Penalty, ...]:
    """Pass the penalty on; a King answering a King doubles it first."""
    head = record.pending[0]
    n, out = tx.config.players, tx.seats.out
    step = 1 if left else -1
    target = (head.debtor + step) % n
    while out[target] is not None:  # skip the seats out of the game
        target = (target + step) % n
    amount = head.amount * 2 if head.kings else head.amount
    discard_played(tx, head.debtor, KING)
    tx.emit(ev.KingPlayed(head.debtor, target, amount, doubled=bool(head.kings)))
    return (Penalty(target, amount, head.reason, head.kings + 1), *record.pending[1:])


def discard_played(tx: Tx, seat: int, rank: int) -> None:
    """A played power card (Ace, King, Joker, a Husted face card) goes to the discards."""
    tx.set_hand(seat, with_count(tx.cards.hands[seat], rank, -1))
    tx.cards = tx.cards._replace(discards=with_count(tx.cards.discards, rank, 1))
