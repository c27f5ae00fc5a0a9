"""Husted's betting rounds: from the dealer's left each player checks or wagers (1 to 2A);
facing a wager they meet it, raise it (by 1 to 2A) or fold. A player's wagers over both rounds
total at most 5A. A round ends when everyone still in has answered the last wager; folded
players' cards collect nothing this round. A player whose chips cannot cover the wager to meet
may only fold: there is no "pay what you can" meet and there are no side pots."""

from __future__ import annotations

from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.actions import (
    CHECK,
    FOLD,
    MEET,
    Check,
    Fold,
    HustedAction,
    Wager,
)
from horserace.families.board.rules.records import Betting
from horserace.families.board.rules.seats import next_seat, seats_from
from horserace.families.board.rules.state import BoardState
from horserace.families.board.rules.tx import Tx

MAX_WAGER, MAX_TOTAL = 2, 5  # in antes


def in_hand(out: tuple[int | None, ...], folded: tuple[bool, ...], dealer: int) -> list[int]:
    """Seats still in this round's betting, from the dealer's left."""
    return [s for s in seats_from(out, next_seat(out, dealer)) if not folded[s]]


def start(tx: Tx, round_no: int) -> Betting | None:
    """A betting round, or None when fewer than two players are left to bet."""
    players = in_hand(tx.seats.out, tx.seats.folded, tx.dealer)
    if len(players) < 2:
        return None
    return Betting(round_no, 0, (0,) * tx.config.players, tuple(players))


def legal(state: BoardState, record: Betting, seat: int) -> tuple[HustedAction, ...]:
    ante = state.config.ante
    owe = record.level - record.round_bets[seat]
    room = MAX_TOTAL * ante - state.seats.wagered[seat] - owe  # what a new wager may still add
    chips = state.ledger.balances[seat]
    top = min(MAX_WAGER * ante, room, chips - owe)
    if owe == 0:
        return (CHECK, *(Wager(x, raising=False) for x in range(1, top + 1)))
    if owe > chips:
        return (FOLD,)
    return (MEET, *(Wager(x, raising=True) for x in range(1, top + 1)), FOLD)


def short_of(state: BoardState, record: Betting, seat: int) -> str | None:
    """Why `seat` may not meet the wager (its chips cannot cover it), or None when it may."""
    owe = record.level - record.round_bets[seat]
    chips = state.ledger.balances[seat]
    if owe > chips:
        return (
            f"seat {seat + 1} owes {owe} to meet and holds {chips}: a player who cannot cover"
            " the wager may only fold"
        )
    return None


def bet(tx: Tx, record: Betting, action: HustedAction) -> Betting | None:
    """Apply one answer; None when the betting round is over."""
    seat = record.to_act[0]
    rest = record.to_act[1:]
    level, round_bets = record.level, record.round_bets
    if isinstance(action, Fold):
        folded = list(tx.seats.folded)
        folded[seat] = True
        tx.seats = tx.seats._replace(folded=tuple(folded))
        tx.emit(hev.Folded(seat))
    elif isinstance(action, Check):
        tx.emit(hev.Checked(seat))
    else:
        owe = level - round_bets[seat]
        added = owe + (action.amount if isinstance(action, Wager) else 0)
        tx.pay_in_full(seat, added, action.text)  # legal() offers only what the seat can pay
        bets, wagered = list(round_bets), list(tx.seats.wagered)
        bets[seat] += added
        wagered[seat] += added
        round_bets = tuple(bets)
        tx.seats = tx.seats._replace(wagered=tuple(wagered))
        if isinstance(action, Wager):  # everyone else still in must answer the new level
            order = in_hand(tx.seats.out, tx.seats.folded, tx.dealer)
            start_at = order.index(seat)
            rest = tuple(order[start_at + 1 :] + order[:start_at])
            level = bets[seat]
    if rest and len(in_hand(tx.seats.out, tx.seats.folded, tx.dealer)) > 1:
        return Betting(record.round_no, level, round_bets, rest)
    return None


__all__ = ["FOLD", "MAX_TOTAL", "MAX_WAGER", "bet", "in_hand", "legal", "short_of", "start"]
